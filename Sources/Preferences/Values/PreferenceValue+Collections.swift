import Foundation

/// `nil` removes the stored value; reading a missing value yields the default (usually `nil`).
extension Optional: PreferenceValue where Wrapped: PreferenceValue {
  /// The value in stored form.
  public func propertyListValue() throws -> PropertyListValue? {
    switch self {
    case .none: nil
    case .some(let wrapped): try wrapped.propertyListValue()
    }
  }

  /// Creates a value from its stored form.
  public init(propertyListValue value: PropertyListValue) throws {
    self = .some(try Wrapped(propertyListValue: value))
  }

  /// Creates a value from the text of a launch argument, or `nil` if it describes none.
  public init?(launchArgument text: String) {
    guard let wrapped = Wrapped(launchArgument: text) else { return nil }
    self = .some(wrapped)
  }
}

/// Stored as a property-list array; `nil` elements of optional arrays are dropped.
extension Array: PreferenceValue where Element: PreferenceValue {
  /// The value in stored form.
  public func propertyListValue() throws -> PropertyListValue? {
    .array(try compactMap { try $0.propertyListValue() })
  }

  /// Creates a value from its stored form.
  public init(propertyListValue value: PropertyListValue) throws {
    guard case .array(let elements) = value else { throw Self.mismatch(value) }
    self = try elements.map { try Element(propertyListValue: $0) }
  }
}

/// Stored as a property-list array in a canonical order, so that equal sets are stored (and
/// compared) as equal arrays however they were built.
extension Set: PreferenceValue where Element: PreferenceValue {
  /// The value in stored form.
  public func propertyListValue() throws -> PropertyListValue? {
    .array(try compactMap { try $0.propertyListValue() }.sorted(by: PropertyListValue.canonicalOrder))
  }

  /// Creates a value from its stored form.
  public init(propertyListValue value: PropertyListValue) throws {
    guard case .array(let elements) = value else { throw Self.mismatch(value) }
    self = Set(try elements.map { try Element(propertyListValue: $0) })
  }
}

/// Stored as a property-list dictionary, whose keys are text: a `String` key as it is, any other
/// (`Int`, `UInt64`, `Bool`, `Double`, `Character`, or your own `LosslessStringConvertible` type)
/// as its `description`, read back with `init?(_:)`. A stored key that does not read back as a
/// key is a mismatch, like a value of the wrong type. `nil` values of optional dictionaries are
/// dropped.
extension Dictionary: PreferenceValue where Key: LosslessStringConvertible, Value: PreferenceValue {
  /// The value in stored form.
  public func propertyListValue() throws -> PropertyListValue? {
    var result: [String: PropertyListValue] = [:]
    result.reserveCapacity(count)
    for (key, value) in self {
      if let stored = try value.propertyListValue() { result[key.description] = stored }
    }
    return .dictionary(result)
  }

  /// Creates a value from its stored form.
  public init(propertyListValue value: PropertyListValue) throws {
    guard case .dictionary(let elements) = value else { throw Self.mismatch(value) }
    if Key.self == String.self {
      // `Self` is `[String: Value]`: the stored keys are the keys.
      self = try elements.mapValues { try Value(propertyListValue: $0) } as! Self
      return
    }
    self = [:]
    reserveCapacity(elements.count)
    for (text, element) in elements {
      guard let key = Key(text) else { throw Self.mismatch(value) }
      self[key] = try Value(propertyListValue: element)
    }
  }
}
