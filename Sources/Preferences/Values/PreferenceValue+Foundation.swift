import Foundation

// Standard library, Foundation and Core Graphics value types that settings hold. Each is
// `Sendable` and declared on every platform the library supports (Core Graphics' geometry
// through Foundation on Linux).

/// Stored as its exact decimal text (`"10.25"`), so that no digit is lost to binary floating
/// point; reads that text, and integers and reals too.
extension Decimal: PreferenceValue {
  /// The value in stored form.
  ///
  /// - Throws: `EncodingError.invalidValue` for NaN, which has no decimal text to read back;
  ///   the store then reports it and stores nothing.
  public func propertyListValue() throws -> PropertyListValue? {
    guard !isNaN else {
      throw EncodingError.invalidValue(
        self, EncodingError.Context(codingPath: [], debugDescription: "NaN has no decimal text"))
    }
    return .string(description)
  }

  /// Creates a value from its stored form.
  public init(propertyListValue value: PropertyListValue) throws {
    switch value {
    case .string(let text):
      guard let decimal = Decimal(exactText: text) else { throw Self.mismatch(value) }
      self = decimal
    case .integer(let number): self = Decimal(number)
    case .unsignedInteger(let number): self = Decimal(number)
    case .double(let number):
      // Through the real's shortest text, so that a stored 0.15 reads as 0.15, not as the
      // binary expansion `Decimal(Double)` gives on some platforms (0.1499999999999999488).
      guard number.isFinite, let decimal = Decimal(exactText: "\(number)") else { throw Self.mismatch(value) }
      self = decimal
    default: throw Self.mismatch(value)
    }
  }

  /// Accepts decimal text (`10.25`, `-3`, `1e-2`).
  public init?(launchArgument text: String) {
    guard let decimal = Decimal(exactText: text.trimmingCharacters(in: .whitespaces)) else { return nil }
    self = decimal
  }

  /// The value of `text` if all of it is one decimal number: `Decimal(string:)` alone reads
  /// `"12abc"` as 12.
  init?(exactText text: String) {
    var bytes = Substring(text).utf8[...]
    func digits() -> Int {
      let count = bytes.prefix { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }.count
      bytes = bytes.dropFirst(count)
      return count
    }
    if bytes.first == UInt8(ascii: "-") || bytes.first == UInt8(ascii: "+") { bytes = bytes.dropFirst() }
    var mantissa = digits()
    if bytes.first == UInt8(ascii: ".") {
      bytes = bytes.dropFirst()
      mantissa += digits()
    }
    guard mantissa > 0 else { return nil }
    if bytes.first == UInt8(ascii: "e") || bytes.first == UInt8(ascii: "E") {
      bytes = bytes.dropFirst()
      if bytes.first == UInt8(ascii: "-") || bytes.first == UInt8(ascii: "+") { bytes = bytes.dropFirst() }
      guard digits() > 0 else { return nil }
    }
    guard bytes.isEmpty, let value = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")),
      !value.isNaN
    else { return nil }
    self = value
  }
}

/// Stored as a one-character string; a stored string of any other length is a mismatch.
extension Character: PreferenceValue {
  /// The value in stored form.
  public func propertyListValue() -> PropertyListValue? { .string(String(self)) }

  /// Creates a value from its stored form.
  public init(propertyListValue value: PropertyListValue) throws {
    guard case .string(let text) = value, text.count == 1, let character = text.first else {
      throw Self.mismatch(value)
    }
    self = character
  }

  /// Accepts text of one character.
  public init?(launchArgument text: String) {
    guard text.count == 1, let character = text.first else { return nil }
    self = character
  }
}

extension Character: LosslessPreferenceValue {}

/// Stored as a string of the one scalar, as `Character` is; a stored string of any other length
/// is a mismatch. Found porting postgres-nio, whose `COPY` options keep `var delimiter:
/// UnicodeScalar?`, the kind of setting a data tool's preferences hold.
extension Unicode.Scalar: PreferenceValue {
  /// The value in stored form.
  public func propertyListValue() -> PropertyListValue? { .string(String(self)) }

  /// Creates a value from its stored form.
  public init(propertyListValue value: PropertyListValue) throws {
    guard case .string(let text) = value, let scalar = Self.only(in: text) else { throw Self.mismatch(value) }
    self = scalar
  }

  /// Accepts text of one Unicode scalar.
  public init?(launchArgument text: String) {
    guard let scalar = Self.only(in: text) else { return nil }
    self = scalar
  }

  private static func only(in text: String) -> Unicode.Scalar? {
    var scalars = text.unicodeScalars.makeIterator()
    guard let first = scalars.next(), scalars.next() == nil else { return nil }
    return first
  }
}

extension Unicode.Scalar: LosslessPreferenceValue {}
// Its text reads back as an equal value (NaN, which has none, is never stored).
extension Decimal: LosslessPreferenceValue {}

/// Stored as its raw value (`4` for `.utf8`), the number `String.Encoding(rawValue:)` takes and
/// that apps keeping a text-encoding setting in `UserDefaults` store. Found porting SWXMLHash,
/// whose options hold `var encoding = String.Encoding.utf8`.
extension String.Encoding: PreferenceValue {}

/// Stored as its identifier (`"en_US"`). A stored locale is fixed: `Locale.autoupdatingCurrent`
/// is stored as the identifier it has when written.
extension Locale: PreferenceValue {
  /// The value in stored form.
  public func propertyListValue() -> PropertyListValue? { .string(identifier) }

  /// Creates a value from its stored form; also reads the JSON text of its `Codable`
  /// conformance, which an app's own conformance stored before the library had one.
  public init(propertyListValue value: PropertyListValue) throws {
    guard case .string(let identifier) = value else { throw Self.mismatch(value) }
    if identifier.hasPrefix("{") {
      guard let locale = try? PreferenceJSON.decode(Locale.self, from: identifier) else {
        throw Self.mismatch(value)
      }
      self = locale
      return
    }
    self = Locale(identifier: identifier)
  }

  /// Accepts a locale identifier.
  public init?(launchArgument text: String) { self = Locale(identifier: text) }
}

/// Stored as its identifier (`"Europe/Paris"`). A stored time zone is fixed:
/// `TimeZone.autoupdatingCurrent` is stored as the identifier it has when written.
extension TimeZone: PreferenceValue {
  /// The value in stored form.
  public func propertyListValue() -> PropertyListValue? { .string(identifier) }

  /// Creates a value from its stored form; an identifier this system does not know is a
  /// mismatch. Also reads the JSON text of its `Codable` conformance, which an app's own
  /// conformance stored before the library had one.
  public init(propertyListValue value: PropertyListValue) throws {
    guard case .string(let identifier) = value,
      let zone = identifier.hasPrefix("{")
        ? try? PreferenceJSON.decode(TimeZone.self, from: identifier) : TimeZone(identifier: identifier)
    else { throw Self.mismatch(value) }
    self = zone
  }

  /// Accepts a time zone identifier (`Europe/Paris`, `GMT`).
  public init?(launchArgument text: String) {
    guard let zone = TimeZone(identifier: text) else { return nil }
    self = zone
  }
}

/// Stored as a real number of seconds, as a `TimeInterval` is, so that `defaults write` and a
/// Settings text field can set it; read back to the nearest nanosecond, so that the durations
/// settings hold (`.seconds(30)`, `.milliseconds(250)`) read back equal. Also reads integers
/// and the text of a number.
extension Duration: PreferenceValue {
  /// The value in stored form.
  public func propertyListValue() -> PropertyListValue? {
    .double(Double(components.seconds) + Double(components.attoseconds) / 1e18)
  }

  /// Creates a value from its stored form; a number of seconds beyond what a `Duration` of
  /// nanoseconds holds (about 292 years) is a mismatch. Also reads the JSON text of its
  /// `Codable` conformance, which an app's own conformance stored before the library had one.
  public init(propertyListValue value: PropertyListValue) throws {
    if case .string(let text) = value, text.hasPrefix("["),
      let duration = try? PreferenceJSON.decode(Duration.self, from: text)
    {
      self = duration
      return
    }
    guard let seconds = try? Double(propertyListValue: value), let duration = Duration(storedSeconds: seconds)
    else { throw Self.mismatch(value) }
    self = duration
  }

  /// Accepts a number of seconds (`45`, `0.25`).
  public init?(launchArgument text: String) {
    guard let seconds = Double(text.trimmingCharacters(in: .whitespaces)) else { return nil }
    self.init(storedSeconds: seconds)
  }

  /// `seconds`, to the nearest nanosecond, if it is finite and in range.
  init?(storedSeconds seconds: Double) {
    let nanoseconds = (seconds * 1e9).rounded()
    guard nanoseconds.isFinite, abs(nanoseconds) < 9.2e18 else { return nil }
    self = .nanoseconds(Int64(nanoseconds))
  }
}

/// Stored as JSON text, `"[x,y]"`, as its `Codable` conformance writes it on every platform.
extension CGPoint: PreferenceValue {}
/// Stored as JSON text, `"[width,height]"`, as its `Codable` conformance writes it on every
/// platform.
extension CGSize: PreferenceValue {}
/// Stored as JSON text, `"[[x,y],[width,height]]"`, as its `Codable` conformance writes it on
/// every platform.
extension CGRect: PreferenceValue {}

/// Stored as a property-list array of its two bounds, `[lower, upper]`. A stored range whose
/// lower bound is above its upper bound is a mismatch, never a crash.
extension Range: PreferenceValue where Bound: PreferenceValue {
  /// The value in stored form.
  public func propertyListValue() throws -> PropertyListValue? {
    try storedBounds(lowerBound, upperBound)
  }

  /// Creates a value from its stored form.
  public init(propertyListValue value: PropertyListValue) throws {
    let (lower, upper) = try bounds(Bound.self, from: value, expected: Self.self)
    self = lower..<upper
  }
}

/// Stored as a property-list array of its two bounds, `[lower, upper]`. A stored range whose
/// lower bound is above its upper bound is a mismatch, never a crash.
extension ClosedRange: PreferenceValue where Bound: PreferenceValue {
  /// The value in stored form.
  public func propertyListValue() throws -> PropertyListValue? {
    try storedBounds(lowerBound, upperBound)
  }

  /// Creates a value from its stored form.
  public init(propertyListValue value: PropertyListValue) throws {
    let (lower, upper) = try bounds(Bound.self, from: value, expected: Self.self)
    self = lower...upper
  }
}

extension Range: LosslessPreferenceValue where Bound: LosslessPreferenceValue {}
extension ClosedRange: LosslessPreferenceValue where Bound: LosslessPreferenceValue {}

private func storedBounds<Bound: PreferenceValue>(_ lower: Bound, _ upper: Bound) throws -> PropertyListValue
{
  guard let lower = try lower.propertyListValue(), let upper = try upper.propertyListValue() else {
    throw EncodingError.invalidValue(
      lower,
      EncodingError.Context(codingPath: [], debugDescription: "a bound of the range has no stored form"))
  }
  return .array([lower, upper])
}

private func bounds<Bound: PreferenceValue & Comparable>(
  _: Bound.Type, from value: PropertyListValue, expected: Any.Type
) throws -> (Bound, Bound) {
  // The JSON text of `Range`'s `Codable` conformance (`"[2,10]"`), which an app's own
  // conformance stored before the library had one: the same two bounds.
  if case .string(let text) = value, text.hasPrefix("["),
    let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)),
    let array = PropertyListValue(foundationObject: object), case .array = array
  {
    return try bounds(Bound.self, from: array, expected: expected)
  }
  guard case .array(let elements) = value, elements.count == 2 else {
    throw PreferenceError.typeMismatch(key: "", expected: String(describing: expected), found: value.kindName)
  }
  let lower = try Bound(propertyListValue: elements[0])
  let upper = try Bound(propertyListValue: elements[1])
  guard lower <= upper else {
    throw PreferenceError.typeMismatch(
      key: "", expected: String(describing: expected),
      found: "a range whose lower bound is above its upper bound")
  }
  return (lower, upper)
}
