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

/// Stored as a property-list dictionary, whose keys are text: each key's
/// ``PreferenceDictionaryKey/storedKeyText`` (a `String` as it is, an `Int` as `"42"`, an enum as
/// its raw value), read back with ``PreferenceDictionaryKey/init(storedKeyText:)``. A stored key
/// that does not read back as a key is a mismatch, like a value of the wrong type. `nil` values
/// of optional dictionaries are dropped.
extension Dictionary: PreferenceValue where Key: PreferenceDictionaryKey, Value: PreferenceValue {
  /// The value in stored form.
  public func propertyListValue() throws -> PropertyListValue? {
    var result: [String: PropertyListValue] = [:]
    result.reserveCapacity(count)
    for (key, value) in self {
      if let stored = try value.propertyListValue() { result[key.storedKeyText] = stored }
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
      guard let key = Key(storedKeyText: text) else { throw Self.mismatch(value) }
      self[key] = try Value(propertyListValue: element)
    }
  }
}

// MARK: - Dictionary keys

/// A type a stored dictionary can be keyed by: property lists key dictionaries by text, so each
/// key is stored as text and read back from it.
///
/// `String`, `Character`, `Bool`, every fixed-width integer, `Double`, `Float` and `UUID`
/// conform. Your module's enums with a `String` or number raw value, `RawRepresentable` structs
/// of the same kind, and types that are `LosslessStringConvertible` need nothing: the build
/// plugin writes their conformance when a preference's dictionary is keyed by them (a raw-value
/// type is stored as its raw value, any other as its `description`). Written by hand, it is one
/// line, with the same default implementations:
///
/// ```swift
/// enum Feature: String, PreferenceDictionaryKey { case sync, search }
/// @Preference var enabled: [Feature: Bool] = [.sync: true]   // stored as ["sync": true]
/// ```
public protocol PreferenceDictionaryKey: Hashable, Sendable {
  /// The key as text, as the stored dictionary holds it.
  var storedKeyText: String { get }

  /// Creates a key from its stored text, or `nil` if the text describes none.
  ///
  /// - Parameter storedKeyText: A key of a stored dictionary.
  init?(storedKeyText: String)
}

extension PreferenceDictionaryKey where Self: LosslessStringConvertible {
  /// The key's `description`.
  public var storedKeyText: String { description }

  /// Creates a key with `init?(_:)`.
  ///
  /// - Parameter storedKeyText: A key of a stored dictionary.
  public init?(storedKeyText: String) { self.init(storedKeyText) }
}

extension PreferenceDictionaryKey where Self: RawRepresentable, RawValue: PreferenceDictionaryKey {
  /// The raw value's text.
  public var storedKeyText: String { rawValue.storedKeyText }

  /// Creates a key from its raw value's text.
  ///
  /// - Parameter storedKeyText: A key of a stored dictionary.
  public init?(storedKeyText: String) {
    guard let rawValue = RawValue(storedKeyText: storedKeyText) else { return nil }
    self.init(rawValue: rawValue)
  }
}

extension PreferenceDictionaryKey
where Self: RawRepresentable & LosslessStringConvertible, RawValue: PreferenceDictionaryKey {
  /// The raw value's text: a raw value is what other code stored.
  public var storedKeyText: String { rawValue.storedKeyText }

  /// Creates a key from its raw value's text.
  ///
  /// - Parameter storedKeyText: A key of a stored dictionary.
  public init?(storedKeyText: String) {
    guard let rawValue = RawValue(storedKeyText: storedKeyText) else { return nil }
    self.init(rawValue: rawValue)
  }
}

extension String: PreferenceDictionaryKey {}
extension Character: PreferenceDictionaryKey {}
extension Bool: PreferenceDictionaryKey {}
extension Int: PreferenceDictionaryKey {}
extension Int8: PreferenceDictionaryKey {}
extension Int16: PreferenceDictionaryKey {}
extension Int32: PreferenceDictionaryKey {}
extension Int64: PreferenceDictionaryKey {}
extension UInt: PreferenceDictionaryKey {}
extension UInt8: PreferenceDictionaryKey {}
extension UInt16: PreferenceDictionaryKey {}
extension UInt32: PreferenceDictionaryKey {}
extension UInt64: PreferenceDictionaryKey {}
extension Double: PreferenceDictionaryKey {}
extension Float: PreferenceDictionaryKey {}

extension UUID: PreferenceDictionaryKey {
  /// The key's `uuidString`.
  public var storedKeyText: String { uuidString }

  /// Creates a key with `init?(uuidString:)`.
  ///
  /// - Parameter storedKeyText: A key of a stored dictionary.
  public init?(storedKeyText: String) { self.init(uuidString: storedKeyText) }
}
