import Foundation

// MARK: - RawRepresentable

extension PreferenceValue where Self: RawRepresentable, RawValue: PreferenceValue {
  /// Stores the raw value.
  public func propertyListValue() throws -> PropertyListValue? { try rawValue.propertyListValue() }

  public init(propertyListValue value: PropertyListValue) throws {
    let raw = try RawValue(propertyListValue: value)
    guard let result = Self(rawValue: raw) else {
      throw PreferenceError.typeMismatch(
        key: "", expected: String(describing: Self.self), found: "unknown raw value \(raw)")
    }
    self = result
  }

  public init?(launchArgument text: String) {
    guard let raw = RawValue(launchArgument: text), let value = Self(rawValue: raw) else { return nil }
    self = value
  }
}

// MARK: - Codable

/// The JSON encoding the library uses for `Codable` preference values.
enum PreferenceJSON {
  static func encode<Value: Encodable>(_ value: Value) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    encoder.dateEncodingStrategy = .iso8601
    return String(decoding: try encoder.encode(value), as: UTF8.self)
  }

  static func decode<Value: Decodable>(_ type: Value.Type, from text: String) throws -> Value {
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .iso8601
    return try decoder.decode(type, from: Data(text.utf8))
  }
}

extension PreferenceValue where Self: Codable {
  /// Stores the value as a JSON string (UTF-8, sorted keys, ISO 8601 dates).
  public func propertyListValue() throws -> PropertyListValue? {
    .string(try PreferenceJSON.encode(self))
  }

  /// Reads a JSON string; also accepts JSON stored as `Data`.
  public init(propertyListValue value: PropertyListValue) throws {
    switch value {
    case .string(let text):
      self = try PreferenceJSON.decode(Self.self, from: text)
    case .data(let data):
      self = try PreferenceJSON.decode(Self.self, from: String(decoding: data, as: UTF8.self))
    default:
      throw Self.mismatch(value)
    }
  }

  /// Accepts the JSON text of the value: `-Layout '{"columns": 3}'`.
  public init?(launchArgument text: String) {
    guard let value = try? PreferenceJSON.decode(Self.self, from: text) else { return nil }
    self = value
  }
}

/// A `RawRepresentable` type that is also `Codable` (every `String` or `Int` enum) is stored as
/// its raw value, like any other `RawRepresentable`.
extension PreferenceValue where Self: RawRepresentable & Codable, RawValue: PreferenceValue {
  public func propertyListValue() throws -> PropertyListValue? { try rawValue.propertyListValue() }

  public init(propertyListValue value: PropertyListValue) throws {
    let raw = try RawValue(propertyListValue: value)
    guard let result = Self(rawValue: raw) else {
      throw PreferenceError.typeMismatch(
        key: "", expected: String(describing: Self.self), found: "unknown raw value \(raw)")
    }
    self = result
  }

  public init?(launchArgument text: String) {
    guard let raw = RawValue(launchArgument: text), let value = Self(rawValue: raw) else { return nil }
    self = value
  }
}

// MARK: - NSSecureCoding

extension PreferenceValue where Self: NSObject & NSSecureCoding {
  /// Stores the object archived with `NSKeyedArchiver` (secure coding required).
  public func propertyListValue() throws -> PropertyListValue? {
    .data(try NSKeyedArchiver.archivedData(withRootObject: self, requiringSecureCoding: true))
  }

  public init(propertyListValue value: PropertyListValue) throws {
    guard case .data(let data) = value else { throw Self.mismatch(value) }
    guard let object = try NSKeyedUnarchiver.unarchivedObject(ofClass: Self.self, from: data) else {
      throw Self.mismatch(value)
    }
    self = object
  }

  public init?(launchArgument text: String) { nil }
}
