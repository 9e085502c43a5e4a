import Foundation

/// `nil` removes the stored value; reading a missing value yields the default (usually `nil`).
extension Optional: PreferenceValue where Wrapped: PreferenceValue {
  public func propertyListValue() throws -> PropertyListValue? {
    switch self {
    case .none: nil
    case .some(let wrapped): try wrapped.propertyListValue()
    }
  }

  public init(propertyListValue value: PropertyListValue) throws {
    self = .some(try Wrapped(propertyListValue: value))
  }

  public init?(launchArgument text: String) {
    guard let wrapped = Wrapped(launchArgument: text) else { return nil }
    self = .some(wrapped)
  }
}

/// Stored as a property-list array; `nil` elements of optional arrays are dropped.
extension Array: PreferenceValue where Element: PreferenceValue {
  public func propertyListValue() throws -> PropertyListValue? {
    .array(try compactMap { try $0.propertyListValue() })
  }

  public init(propertyListValue value: PropertyListValue) throws {
    guard case .array(let elements) = value else { throw Self.mismatch(value) }
    self = try elements.map { try Element(propertyListValue: $0) }
  }
}

/// Stored as a property-list array in a canonical order, so that equal sets are stored (and
/// compared) as equal arrays however they were built.
extension Set: PreferenceValue where Element: PreferenceValue {
  public func propertyListValue() throws -> PropertyListValue? {
    .array(try compactMap { try $0.propertyListValue() }.sorted(by: PropertyListValue.canonicalOrder))
  }

  public init(propertyListValue value: PropertyListValue) throws {
    guard case .array(let elements) = value else { throw Self.mismatch(value) }
    self = Set(try elements.map { try Element(propertyListValue: $0) })
  }
}

/// Stored as a property-list dictionary; `nil` values of optional dictionaries are dropped.
extension Dictionary: PreferenceValue where Key == String, Value: PreferenceValue {
  public func propertyListValue() throws -> PropertyListValue? {
    var result: [String: PropertyListValue] = [:]
    result.reserveCapacity(count)
    for (key, value) in self {
      if let stored = try value.propertyListValue() { result[key] = stored }
    }
    return .dictionary(result)
  }

  public init(propertyListValue value: PropertyListValue) throws {
    guard case .dictionary(let elements) = value else { throw Self.mismatch(value) }
    self = try elements.mapValues { try Value(propertyListValue: $0) }
  }
}
