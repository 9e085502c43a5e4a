import Foundation

// MARK: - RawRepresentable

extension PreferenceValue where Self: RawRepresentable, RawValue: PreferenceValue {
  /// Stores the raw value.
  public func propertyListValue() throws -> PropertyListValue? { try rawValue.propertyListValue() }

  /// Creates a value from its stored form.
  public init(propertyListValue value: PropertyListValue) throws {
    self = try Self.fromRawValue(in: value)
  }

  /// Creates a value from the text of a launch argument, or `nil` if it describes none.
  public init?(launchArgument text: String) {
    guard let value = Self.fromRawValue(launchArgument: text) else { return nil }
    self = value
  }
}

extension RawRepresentable where RawValue: PreferenceValue {
  /// The value whose raw value is stored in `value`; what both `RawRepresentable` conformances
  /// (with and without `Codable`) read.
  static func fromRawValue(in value: PropertyListValue) throws -> Self {
    let raw = try RawValue(propertyListValue: value)
    guard let result = Self(rawValue: raw) else {
      throw PreferenceError.typeMismatch(
        key: "", expected: String(describing: Self.self),
        found: "a \(RawValue.self) raw value that none of its cases has")
    }
    return result
  }

  /// The value whose raw value a launch argument's text describes, or `nil`.
  static func fromRawValue(launchArgument text: String) -> Self? {
    RawValue(launchArgument: text).flatMap(Self.init(rawValue:))
  }
}

// MARK: - Codable

/// The JSON encoding the library uses for `Codable` preference values.
///
/// Dates are ISO 8601 text in UTC, with the fraction of a second when there is one
/// (`2023-11-14T22:13:20.25Z`, to the microsecond). Reading also accepts whole-second ISO 8601,
/// other UTC offsets, and numbers of seconds since 2001 (`JSONEncoder`'s default), so values that
/// other code stored read too.
enum PreferenceJSON {
  static func encode<Value: Encodable>(_ value: Value) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    encoder.dateEncodingStrategy = .custom { date, encoder in
      var container = encoder.singleValueContainer()
      try container.encode(ISO8601.format(date))
    }
    return String(decoding: try encoder.encode(value), as: UTF8.self)
  }

  static func decode<Value: Decodable>(_ type: Value.Type, from text: String) throws -> Value {
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .custom { decoder in
      let container = try decoder.singleValueContainer()
      if let seconds = try? container.decode(Double.self) {
        return Date(timeIntervalSinceReferenceDate: seconds)
      }
      let text = try container.decode(String.self)
      guard let date = ISO8601.parse(text) else {
        throw DecodingError.dataCorruptedError(
          in: container, debugDescription: "'\(text)' is not an ISO 8601 date")
      }
      return date
    }
    return try decoder.decode(type, from: Data(text.utf8))
  }
}

/// ISO 8601 dates in UTC, to the microsecond (``ISO8601Text``, which the scanner shares).
enum ISO8601 {
  static func format(_ date: Date) -> String {
    ISO8601Text.format(secondsSince1970: date.timeIntervalSince1970)
  }

  static func parse(_ text: String) -> Date? {
    ISO8601Text.secondsSince1970(text).map(Date.init(timeIntervalSince1970:))
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
  /// The value in stored form.
  public func propertyListValue() throws -> PropertyListValue? { try rawValue.propertyListValue() }

  /// Creates a value from its stored form.
  public init(propertyListValue value: PropertyListValue) throws {
    self = try Self.fromRawValue(in: value)
  }

  /// Creates a value from the text of a launch argument, or `nil` if it describes none.
  public init?(launchArgument text: String) {
    guard let value = Self.fromRawValue(launchArgument: text) else { return nil }
    self = value
  }
}

// MARK: - NSSecureCoding

extension PreferenceValue where Self: NSObject & NSSecureCoding {
  /// Stores the object archived with `NSKeyedArchiver` (secure coding required).
  public func propertyListValue() throws -> PropertyListValue? {
    .data(try NSKeyedArchiver.archivedData(withRootObject: self, requiringSecureCoding: true))
  }

  /// Creates a value from its stored form.
  public init(propertyListValue value: PropertyListValue) throws {
    guard case .data(let data) = value else { throw Self.mismatch(value) }
    guard let object = try NSKeyedUnarchiver.unarchivedObject(ofClass: Self.self, from: data) else {
      throw Self.mismatch(value)
    }
    self = object
  }

  /// Creates a value from the text of a launch argument, or `nil` if it describes none.
  public init?(launchArgument text: String) { nil }
}
