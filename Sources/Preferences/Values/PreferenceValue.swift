import Foundation

/// A type that can be stored as a preference.
///
/// A conforming type converts itself to a ``PropertyListValue`` for storage and back. The
/// library conforms `Bool`, every fixed-width integer, `Double`, `Float`, `CGFloat`, `String`,
/// `Character`, `Data`, `Date`, `URL`, `UUID`, `Decimal`, `Duration`, `Locale`, `TimeZone`,
/// `CGPoint`, `CGSize`, `CGRect`, SwiftUI's `Color.Resolved`, and ranges, arrays, sets,
/// dictionaries and optionals of supported values. A dictionary's keys are stored as text: see
/// ``PreferenceDictionaryKey``.
///
/// Your module's own raw-value enums, `RawRepresentable` structs and `Codable` types need
/// nothing: the build plugin writes their conformance when a preference stores them. Written by
/// hand, it is one line:
///
/// ```swift
/// enum Theme: String, PreferenceValue { case light, dark }        // stored as its raw value
/// struct Layout: Codable, PreferenceValue { var columns = 2 }      // stored as JSON text
/// ```
///
/// A `RawRepresentable` type whose raw value is a `PreferenceValue` is stored as its raw value,
/// even when it is also `Codable`. Any other `Codable` type is stored as a JSON string (UTF-8,
/// sorted keys), which stays readable in the property list and in `defaults read`. Decoded
/// values are cached by the store, so a read does not decode every time.
///
/// To store a type differently, implement both requirements yourself.
public protocol PreferenceValue: Sendable {
  /// The property-list value to store, or `nil` to remove the stored value (used by
  /// `Optional.none`).
  ///
  /// - Throws: An error when the value cannot be represented, for example a Codable value whose
  ///   encoding fails. The store reports the error and stores nothing.
  func propertyListValue() throws -> PropertyListValue?

  /// Creates a value from a stored property-list value.
  ///
  /// - Throws: ``PreferenceError/typeMismatch(key:expected:found:)`` (the key may be empty; the
  ///   store fills it in) or a decoding error when the stored value is not of this type.
  init(propertyListValue: PropertyListValue) throws

  /// Creates a value from the text of a launch argument such as `-Volume 0.5`, or returns `nil`
  /// when the text does not describe a value of this type.
  ///
  /// The default implementation tries the text as a string, then as a JSON literal, then as a
  /// property-list literal.
  init?(launchArgument: String)
}

extension PreferenceValue {
  /// Creates a value from the text of a launch argument, or `nil` if it describes none.
  public init?(launchArgument text: String) {
    if let value = try? Self(propertyListValue: .string(text)) {
      self = value
      return
    }
    let data = Data(text.utf8)
    if let object = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]),
      let plist = PropertyListValue(foundationObject: object),
      let value = try? Self(propertyListValue: plist)
    {
      self = value
      return
    }
    if let object = try? PropertyListSerialization.propertyList(from: data, options: [], format: nil),
      let plist = PropertyListValue(foundationObject: object),
      let value = try? Self(propertyListValue: plist)
    {
      self = value
      return
    }
    return nil
  }

  static func mismatch(_ found: PropertyListValue) -> PreferenceError {
    .typeMismatch(key: "", expected: String(describing: Self.self), found: found.kindName)
  }
}

/// Types whose stored form reads back as an equal value, so that a store may cache a written
/// value instead of decoding it again. (`Codable` values, whose encoding is the type's own, are
/// decoded from what was stored, exactly as the next launch will.)
protocol LosslessPreferenceValue {}

extension Bool: LosslessPreferenceValue {}
extension Int: LosslessPreferenceValue {}
extension Int8: LosslessPreferenceValue {}
extension Int16: LosslessPreferenceValue {}
extension Int32: LosslessPreferenceValue {}
extension Int64: LosslessPreferenceValue {}
extension UInt: LosslessPreferenceValue {}
extension UInt8: LosslessPreferenceValue {}
extension UInt16: LosslessPreferenceValue {}
extension UInt32: LosslessPreferenceValue {}
extension UInt64: LosslessPreferenceValue {}
extension Double: LosslessPreferenceValue {}
extension Float: LosslessPreferenceValue {}
extension CGFloat: LosslessPreferenceValue {}
extension String: LosslessPreferenceValue {}
extension Data: LosslessPreferenceValue {}
extension Date: LosslessPreferenceValue {}
extension UUID: LosslessPreferenceValue {}
extension PropertyListValue: LosslessPreferenceValue {}
extension Optional: LosslessPreferenceValue where Wrapped: LosslessPreferenceValue {}
extension Array: LosslessPreferenceValue where Element: LosslessPreferenceValue {}
extension Set: LosslessPreferenceValue where Element: LosslessPreferenceValue {}
extension Dictionary: LosslessPreferenceValue where Key == String, Value: LosslessPreferenceValue {}

// MARK: - Scalars

extension Bool: PreferenceValue {
  /// The value in stored form.
  public func propertyListValue() -> PropertyListValue? { .bool(self) }

  /// Creates a value from its stored form.
  public init(propertyListValue value: PropertyListValue) throws {
    switch value {
    case .bool(let bool): self = bool
    case .integer(0): self = false
    case .integer(1): self = true
    case .string(let text):
      guard let bool = Bool(launchArgument: text) else { throw Self.mismatch(value) }
      self = bool
    default: throw Self.mismatch(value)
    }
  }

  /// Accepts `YES`/`NO`, `true`/`false` and `1`/`0` (case-insensitive), as UserDefaults does.
  public init?(launchArgument text: String) {
    switch text.lowercased() {
    case "yes", "true", "1": self = true
    case "no", "false", "0": self = false
    default: return nil
    }
  }
}

/// Integers are `Codable` too; this more specific extension keeps them stored as numbers.
extension PreferenceValue where Self: FixedWidthInteger & Codable {
  /// The value in stored form.
  public func propertyListValue() -> PropertyListValue? {
    if let signed = Int64(exactly: self) { return .integer(signed) }
    return .unsignedInteger(UInt64(self))
  }

  /// Creates a value from its stored form: an integer, a real with no fraction, or the text of
  /// an integer (what a Settings app text field stores; `UserDefaults.integer(forKey:)` reads
  /// it too).
  public init(propertyListValue value: PropertyListValue) throws {
    let result: Self?
    switch value {
    case .integer(let number): result = Self(exactly: number)
    case .unsignedInteger(let number): result = Self(exactly: number)
    case .double(let number): result = Self(exactly: number)
    case .string(let text): result = Self(text.trimmingCharacters(in: .whitespaces))
    default: result = nil
    }
    guard let result else { throw Self.mismatch(value) }
    self = result
  }

  /// Creates a value from the text of a launch argument, or `nil` if it describes none.
  public init?(launchArgument text: String) {
    guard let value = Self(text.trimmingCharacters(in: .whitespaces)) else { return nil }
    self = value
  }
}

extension Int: PreferenceValue {}
extension Int8: PreferenceValue {}
extension Int16: PreferenceValue {}
extension Int32: PreferenceValue {}
extension Int64: PreferenceValue {}
extension UInt: PreferenceValue {}
extension UInt8: PreferenceValue {}
extension UInt16: PreferenceValue {}
extension UInt32: PreferenceValue {}
extension UInt64: PreferenceValue {}

extension Double: PreferenceValue {
  /// The value in stored form.
  public func propertyListValue() -> PropertyListValue? { .double(self) }

  /// Creates a value from its stored form: a real, an integer, or the text of a number (what a
  /// Settings app text field stores; `UserDefaults.double(forKey:)` reads it too).
  public init(propertyListValue value: PropertyListValue) throws {
    switch value {
    case .double(let number): self = number
    case .integer(let number): self = Double(number)
    case .unsignedInteger(let number): self = Double(number)
    case .string(let text):
      guard let number = Double(text.trimmingCharacters(in: .whitespaces)) else { throw Self.mismatch(value) }
      self = number
    default: throw Self.mismatch(value)
    }
  }

  /// Creates a value from the text of a launch argument, or `nil` if it describes none.
  public init?(launchArgument text: String) {
    guard let value = Double(text.trimmingCharacters(in: .whitespaces)) else { return nil }
    self = value
  }
}

extension Float: PreferenceValue {
  /// The value in stored form.
  public func propertyListValue() -> PropertyListValue? { .double(Double(self)) }

  /// Creates a value from its stored form.
  public init(propertyListValue value: PropertyListValue) throws {
    self = Float(try Double(propertyListValue: value))
  }

  /// Creates a value from the text of a launch argument, or `nil` if it describes none.
  public init?(launchArgument text: String) {
    guard let value = Float(text.trimmingCharacters(in: .whitespaces)) else { return nil }
    self = value
  }
}

/// Stored as a real number, as `UserDefaults.set(_:forKey:)` stores a `CGFloat`, on every
/// platform (Foundation declares `CGFloat` on Linux too). Reads what a `Double` reads, which
/// includes the JSON text a `Codable` conformance (`extension CGFloat: @retroactive
/// PreferenceValue {}`) wrote before the library supported it.
extension CGFloat: PreferenceValue {
  /// The value in stored form.
  public func propertyListValue() -> PropertyListValue? { .double(Double(self)) }

  /// Creates a value from its stored form.
  public init(propertyListValue value: PropertyListValue) throws {
    guard let number = try? Double(propertyListValue: value) else { throw Self.mismatch(value) }
    self = CGFloat(number)
  }

  /// Creates a value from the text of a launch argument, or `nil` if it describes none.
  public init?(launchArgument text: String) {
    guard let value = Double(text.trimmingCharacters(in: .whitespaces)) else { return nil }
    self = CGFloat(value)
  }
}

extension String: PreferenceValue {
  /// The value in stored form.
  public func propertyListValue() -> PropertyListValue? { .string(self) }

  /// Creates a value from its stored form.
  public init(propertyListValue value: PropertyListValue) throws {
    guard case .string(let string) = value else { throw Self.mismatch(value) }
    self = string
  }

  /// Creates a value from the text of a launch argument, or `nil` if it describes none.
  public init?(launchArgument text: String) { self = text }
}

extension Data: PreferenceValue {
  /// The value in stored form.
  public func propertyListValue() -> PropertyListValue? { .data(self) }

  /// Creates a value from its stored form.
  public init(propertyListValue value: PropertyListValue) throws {
    guard case .data(let data) = value else { throw Self.mismatch(value) }
    self = data
  }

  /// Accepts Base64 text.
  public init?(launchArgument text: String) {
    guard let data = Data(base64Encoded: text) else { return nil }
    self = data
  }
}

extension Date: PreferenceValue {
  /// The value in stored form.
  public func propertyListValue() -> PropertyListValue? { .date(self) }

  /// Creates a value from its stored form.
  public init(propertyListValue value: PropertyListValue) throws {
    guard case .date(let date) = value else { throw Self.mismatch(value) }
    self = date
  }

  /// Accepts ISO 8601 text (`2026-01-31T12:00:00Z`) or seconds since 1970.
  public init?(launchArgument text: String) {
    if let date = try? Date(text, strategy: .iso8601) {
      self = date
    } else if let seconds = Double(text) {
      self = Date(timeIntervalSince1970: seconds)
    } else {
      return nil
    }
  }
}

/// Stored as its absolute string, so that it reads the same on every platform and store.
extension URL: PreferenceValue {
  /// The value in stored form.
  public func propertyListValue() -> PropertyListValue? { .string(absoluteString) }

  /// Creates a value from its stored form.
  public init(propertyListValue value: PropertyListValue) throws {
    guard case .string(let string) = value, let url = URL(string: string) else {
      throw Self.mismatch(value)
    }
    self = url
  }

  /// Creates a value from the text of a launch argument, or `nil` if it describes none.
  public init?(launchArgument text: String) {
    guard let url = URL(string: text) else { return nil }
    self = url
  }
}

/// Stored as its `uuidString`.
extension UUID: PreferenceValue {
  /// The value in stored form.
  public func propertyListValue() -> PropertyListValue? { .string(uuidString) }

  /// Creates a value from its stored form.
  public init(propertyListValue value: PropertyListValue) throws {
    guard case .string(let string) = value, let uuid = UUID(uuidString: string) else {
      throw Self.mismatch(value)
    }
    self = uuid
  }

  /// Creates a value from the text of a launch argument, or `nil` if it describes none.
  public init?(launchArgument text: String) {
    guard let uuid = UUID(uuidString: text) else { return nil }
    self = uuid
  }
}

/// Stored as-is: lets you keep a value whose shape you handle yourself.
extension PropertyListValue: PreferenceValue {
  /// The value in stored form.
  public func propertyListValue() -> PropertyListValue? { self }
  /// Creates a value from its stored form.
  public init(propertyListValue value: PropertyListValue) { self = value }
}
