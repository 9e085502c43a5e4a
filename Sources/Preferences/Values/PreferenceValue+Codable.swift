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

/// ISO 8601 dates in UTC, to the microsecond, without a formatter (which is slow to create and
/// keeps whole seconds only unless told otherwise).
enum ISO8601 {
  static func format(_ date: Date) -> String {
    let interval = date.timeIntervalSince1970
    var seconds = interval.rounded(.down)
    var micros = ((interval - seconds) * 1_000_000).rounded()
    if micros >= 1_000_000 {
      seconds += 1
      micros = 0
    }
    var time = time_t(seconds)
    var parts = tm()
    gmtime_r(&time, &parts)
    func pad(_ value: Int32, _ width: Int) -> String {
      let text = String(value)
      return String(repeating: "0", count: max(0, width - text.count)) + text
    }
    var text =
      "\(pad(parts.tm_year + 1900, 4))-\(pad(parts.tm_mon + 1, 2))-\(pad(parts.tm_mday, 2))T"
      + "\(pad(parts.tm_hour, 2)):\(pad(parts.tm_min, 2)):\(pad(parts.tm_sec, 2))"
    if micros > 0 {
      var fraction = pad(Int32(micros), 6)
      while fraction.hasSuffix("0") { fraction.removeLast() }
      text += "." + fraction
    }
    return text + "Z"
  }

  static func parse(_ text: String) -> Date? {
    let bytes = Array(text.utf8)
    var index = 0
    func number(_ digits: Int) -> Int? {
      guard index + digits <= bytes.count else { return nil }
      var value = 0
      for byte in bytes[index..<index + digits] {
        guard byte >= 48 && byte <= 57 else { return nil }
        value = value * 10 + Int(byte - 48)
      }
      index += digits
      return value
    }
    func expect(_ byte: UInt8) -> Bool {
      guard index < bytes.count, bytes[index] == byte else { return false }
      index += 1
      return true
    }
    guard let year = number(4), expect(45), let month = number(2), expect(45), let day = number(2),
      expect(84) || expect(116) || expect(32), let hour = number(2), expect(58), let minute = number(2),
      expect(58), let second = number(2)
    else { return nil }
    var fraction = 0.0
    if expect(46) || expect(44) {
      var scale = 0.1
      let start = index
      while index < bytes.count, bytes[index] >= 48, bytes[index] <= 57 {
        fraction += Double(bytes[index] - 48) * scale
        scale /= 10
        index += 1
      }
      if index == start { return nil }
    }
    var offset = 0
    if expect(90) || expect(122) {
      offset = 0
    } else if index < bytes.count, bytes[index] == 43 || bytes[index] == 45 {
      let sign = bytes[index] == 45 ? -1 : 1
      index += 1
      guard let hours = number(2) else { return nil }
      _ = expect(58)
      guard let minutes = number(2) else { return nil }
      offset = sign * (hours * 3600 + minutes * 60)
    } else {
      return nil
    }
    guard index == bytes.count, (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60,
      second <= 60
    else { return nil }
    var parts = tm()
    parts.tm_year = Int32(year - 1900)
    parts.tm_mon = Int32(month - 1)
    parts.tm_mday = Int32(day)
    parts.tm_hour = Int32(hour)
    parts.tm_min = Int32(minute)
    parts.tm_sec = Int32(second)
    let seconds = timegm(&parts)
    return Date(timeIntervalSince1970: Double(seconds - offset) + fraction)
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
