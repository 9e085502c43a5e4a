import Foundation
import Testing

@testable import Preferences

enum Theme: String, Codable, PreferenceValue { case light, dark }
enum Level: Int, PreferenceValue { case low = 1, high = 9 }

struct Layout: Codable, Equatable, PreferenceValue {
  var columns: Int
  var title: String
  var tags: [String]
}

/// seed 000's DefaultStorable: a whole settings object under one key.
struct VisualSettings: Codable, Equatable, PreferenceValue {
  let themeName: String
  let backgroundImageURL: URL?
}

final class Token: NSObject, NSSecureCoding, PreferenceValue {
  static var supportsSecureCoding: Bool { true }
  let text: String
  init(text: String) { self.text = text }
  func encode(with coder: NSCoder) { coder.encode(text as NSString, forKey: "text") }
  init?(coder: NSCoder) {
    guard let text = coder.decodeObject(of: NSString.self, forKey: "text") else { return nil }
    self.text = text as String
  }
}

/// A dictionary key stored as its raw value.
enum KeyedFeature: String, PreferenceValue, PreferenceDictionaryKey {
  case sync = "sync-v2", search
}

/// A key that is both `RawRepresentable` and `LosslessStringConvertible`, with a description
/// unlike its raw value.
struct KeyedLevel: RawRepresentable, LosslessStringConvertible, PreferenceDictionaryKey {
  var rawValue: Int
  init(rawValue: Int) { self.rawValue = rawValue }
  init?(_ description: String) {
    guard description.hasPrefix("level "), let value = Int(description.dropFirst(6)) else { return nil }
    rawValue = value
  }
  var description: String { "level \(rawValue)" }
}

@Suite struct PreferenceValueTests {
  /// Writes `value`, reads it back through the same store (cache) and through a freshly opened
  /// store (disk), and compares both with `value`.
  func roundTrip<V: PreferenceValue & Equatable>(
    _ value: V, default defaultValue: V, kind: StoreKind, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let directory = TemporaryDirectory()
    let (store, reopen) = kind.make(in: directory)
    store.set(value, forKey: "value")
    #expect(store.value(forKey: "value", default: defaultValue) == value, sourceLocation: sourceLocation)
    let fresh = reopen()
    #expect(fresh.value(forKey: "value", default: defaultValue) == value, sourceLocation: sourceLocation)
    #expect(
      fresh.hasStoredValue(forKey: "value") == (try! value.propertyListValue() != nil),
      sourceLocation: sourceLocation)
  }

  @Test(arguments: StoreKind.allCases)
  func scalarsRoundTrip(kind: StoreKind) {
    roundTrip(true, default: false, kind: kind)
    roundTrip(false, default: true, kind: kind)
    roundTrip(Int.min, default: 0, kind: kind)
    roundTrip(Int.max, default: 0, kind: kind)
    roundTrip(Int8.min, default: 0, kind: kind)
    roundTrip(Int16.max, default: 0, kind: kind)
    roundTrip(Int32.min, default: 0, kind: kind)
    roundTrip(Int64.max, default: 0, kind: kind)
    roundTrip(UInt.max, default: 0, kind: kind)
    roundTrip(UInt8.max, default: 0, kind: kind)
    roundTrip(UInt16.max, default: 0, kind: kind)
    roundTrip(UInt32.max, default: 0, kind: kind)
    roundTrip(UInt64.max, default: 0, kind: kind)
    roundTrip(3.141592653589793, default: 0.0, kind: kind)
    roundTrip(Float(0.1), default: 0, kind: kind)
    roundTrip(CGFloat(17.5), default: 0, kind: kind)
    roundTrip([CGFloat(1), 2.25], default: [], kind: kind)
    roundTrip("Paul ✓ \"quoted\" <xml> &", default: "", kind: kind)
    roundTrip("", default: "x", kind: kind)
    roundTrip(Data([0, 1, 2, 255]), default: Data(), kind: kind)
    // XML property lists keep whole seconds; binary ones and memory keep everything.
    roundTrip(Date(timeIntervalSince1970: 1_700_000_000), default: Date(timeIntervalSince1970: 0), kind: kind)
    roundTrip(URL(string: "https://example.com/a?b=c#d")!, default: URL(string: "about:blank")!, kind: kind)
    roundTrip(URL(fileURLWithPath: "/tmp/some file"), default: URL(string: "about:blank")!, kind: kind)
    roundTrip(UUID(), default: UUID(), kind: kind)
  }

  /// A font size or layout metric: stored as a real, as `UserDefaults` stores a `CGFloat`, so the
  /// reals an app already stored read as they are, and so does the JSON text of the `Codable`
  /// conformance users wrote before.
  @Test func cgFloatIsStoredAsARealAndReadsWhatAppsStored() throws {
    #expect(CGFloat(14).propertyListValue() == .double(14))
    let store = PreferenceStore.inMemory(["real": 12.5, "integer": 13, "jsonText": "14.5", "text": "large"])
    #expect(store.value(forKey: "real", default: CGFloat(0)) == 12.5)
    #expect(store.value(forKey: "integer", default: CGFloat(0)) == 13)
    #expect(store.value(forKey: "jsonText", default: CGFloat(0)) == 14.5)
    #expect(store.value(forKey: "text", default: CGFloat(1)) == 1)
    #expect(CGFloat(launchArgument: " 2.5") == 2.5)
    store.set(CGFloat(20), forKey: "written")
    #expect(store.backend.value(forKey: "written") == .double(20))
  }

  @Test(arguments: StoreKind.allCases)
  func foundationValuesRoundTrip(kind: StoreKind) {
    roundTrip(Decimal(string: "10.25")!, default: 0, kind: kind)
    // More digits than a Double holds: kept exactly.
    roundTrip(Decimal(string: "-12345678901234567890.123456789")!, default: 0, kind: kind)
    roundTrip(Optional(Decimal(string: "0.1")!), default: nil, kind: kind)
    roundTrip(Character("é"), default: ",", kind: kind)
    roundTrip(Character("👩‍👩‍👧"), default: ",", kind: kind)
    roundTrip(Unicode.Scalar("\t"), default: ",", kind: kind)
    roundTrip(Optional(Unicode.Scalar("é")), default: nil, kind: kind)
    roundTrip(Duration.seconds(30), default: .zero, kind: kind)
    roundTrip(Duration.milliseconds(250), default: .zero, kind: kind)
    roundTrip(Duration.milliseconds(100), default: .zero, kind: kind)
    roundTrip(Duration.nanoseconds(-1), default: .zero, kind: kind)
    roundTrip(Duration.seconds(86_400 * 365), default: .zero, kind: kind)
    roundTrip(Locale(identifier: "fr_CA"), default: Locale(identifier: "en_US"), kind: kind)
    roundTrip(String.Encoding.utf16, default: .utf8, kind: kind)
    roundTrip(TimeZone(identifier: "Asia/Kolkata")!, default: TimeZone(identifier: "GMT")!, kind: kind)
    roundTrip(CGPoint(x: 1.5, y: -2), default: .zero, kind: kind)
    roundTrip(CGSize(width: 800, height: 600.5), default: .zero, kind: kind)
    roundTrip(CGRect(x: 10, y: 20, width: 300, height: 200), default: .zero, kind: kind)
    roundTrip([CGPoint(x: 1, y: 2), CGPoint(x: 3, y: 4)], default: [], kind: kind)
    roundTrip(2..<10, default: 0..<1, kind: kind)
    roundTrip(0.5...2.0, default: 0...1, kind: kind)
    roundTrip(Decimal(1)...Decimal(string: "1.5")!, default: 0...1, kind: kind)
    roundTrip(Optional(3...3), default: nil, kind: kind)
  }

  /// What `defaults read` and a property-list editor show: text and numbers, not archives.
  @Test func foundationValuesAreStoredReadably() throws {
    #expect(try Decimal(string: "10.25")!.propertyListValue() == .string("10.25"))
    #expect(Locale(identifier: "fr_CA").propertyListValue() == .string("fr_CA"))
    #expect(try String.Encoding.utf8.propertyListValue() == UInt(4).propertyListValue())
    #expect(String.Encoding(launchArgument: "10") == .unicode)
    #expect(TimeZone(identifier: "Europe/Paris")!.propertyListValue() == .string("Europe/Paris"))
    #expect(try CGPoint(x: 1.5, y: 2).propertyListValue() == .string("[1.5,2]"))
    #expect(try CGRect(x: 1, y: 2, width: 3, height: 4).propertyListValue() == .string("[[1,2],[3,4]]"))
    #expect(try (2..<10).propertyListValue() == .array([.integer(2), .integer(10)]))
    #expect(try (0.5...2.0).propertyListValue() == .array([.double(0.5), .double(2)]))
    #expect(Duration.milliseconds(1500).propertyListValue() == .double(1.5))
    // Values other code stored read too: numbers as decimals.
    let store = PreferenceStore.inMemory([
      "integer": 12, "real": 2.5, "text": "1e-2", "huge": 1e300, "tip": 0.15, "tiny": 1e-7,
    ])
    #expect(store.value(forKey: "tip", default: Decimal(0)).description == "0.15")
    #expect(store.value(forKey: "tiny", default: Decimal(0)) == Decimal(string: "0.0000001")!)
    #expect(store.value(forKey: "integer", default: Duration.zero) == .seconds(12))
    #expect(store.value(forKey: "real", default: Duration.zero) == .milliseconds(2500))
    #expect(store.value(forKey: "text", default: Duration.zero) == .milliseconds(10))
    #expect(store.value(forKey: "huge", default: Duration.seconds(1)) == .seconds(1), "beyond a Duration")
    #expect(store.value(forKey: "integer", default: Decimal(0)) == 12)
    #expect(store.value(forKey: "real", default: Decimal(0)) == Decimal(string: "2.5")!)
    #expect(store.value(forKey: "text", default: Decimal(0)) == Decimal(string: "0.01")!)
    // What an app's own `@retroactive` Codable conformance stored before these conformances.
    let earlier = PreferenceStore.inMemory([
      "locale": try PreferenceJSON.encode(Locale(identifier: "fr_CA")),
      "zone": try PreferenceJSON.encode(TimeZone(identifier: "Asia/Kolkata")!),
      "decimal": try PreferenceJSON.encode(Decimal(string: "10.25")!),
      "size": try PreferenceJSON.encode(CGSize(width: 3, height: 4)),
      "duration": try PreferenceJSON.encode(Duration.milliseconds(1500)),
      "range": try PreferenceJSON.encode(2..<10), "closed": try PreferenceJSON.encode(0.5...2.0),
    ])
    #expect(earlier.value(forKey: "locale", default: Locale(identifier: "en_US")).identifier == "fr_CA")
    #expect(earlier.value(forKey: "zone", default: TimeZone(identifier: "GMT")!).identifier == "Asia/Kolkata")
    #expect(earlier.value(forKey: "decimal", default: Decimal(0)) == Decimal(string: "10.25")!)
    #expect(earlier.value(forKey: "size", default: CGSize.zero) == CGSize(width: 3, height: 4))
    #expect(earlier.value(forKey: "duration", default: Duration.zero) == .milliseconds(1500))
    #expect(earlier.value(forKey: "range", default: 0..<1) == 2..<10)
    #expect(earlier.value(forKey: "closed", default: 0.0...1.0) == 0.5...2.0)
  }

  @Test func foundationValuesFromLaunchArguments() {
    #expect(Decimal(launchArgument: " 1e-2") == Decimal(string: "0.01")!)
    #expect(Decimal(launchArgument: "12abc") == nil)
    #expect(Decimal(launchArgument: ".") == nil)
    #expect(TimeZone(launchArgument: "GMT") == TimeZone(identifier: "GMT"))
    #expect(TimeZone(launchArgument: "Nowhere/Atlantis") == nil)
    #expect(Locale(launchArgument: "de_DE") == Locale(identifier: "de_DE"))
    #expect(Duration(launchArgument: "0.25") == .milliseconds(250))
    #expect(Duration(launchArgument: "soon") == nil)
    #expect(Character(launchArgument: ";") == ";")
    #expect(Character(launchArgument: ";;") == nil)
    #expect(Unicode.Scalar(",").propertyListValue() == .string(","))
    #expect(Unicode.Scalar(launchArgument: ";") == ";")
    #expect(Unicode.Scalar(launchArgument: "👩‍👩‍👧") == nil, "one character of several scalars")
    #expect(Range<Int>(launchArgument: "[2, 5]") == 2..<5)
    #expect(Range<Int>(launchArgument: "[5, 2]") == nil)
    #expect(ClosedRange<Double>(launchArgument: "[0.5, 1]") == 0.5...1)
    #expect(CGSize(launchArgument: "[640, 480]") == CGSize(width: 640, height: 480))
  }

  /// Stored values these types cannot read yield the default and one diagnostic each, and stay
  /// stored: text that only starts as a number, an unknown zone, a range upside down (which
  /// Swift's range initializers would trap on), a range of the wrong length.
  @Test(arguments: StoreKind.allCases)
  func badFoundationValuesYieldTheDefault(kind: StoreKind) {
    Diagnostics.start()
    let directory = TemporaryDirectory()
    let (store, reopen) = kind.make(in: directory)
    let id = UUID().uuidString
    let stored: [(String, PropertyListValue)] = [
      ("decimal-\(id)", .string("12abc")), ("zone-\(id)", .string("Nowhere/Atlantis")),
      ("range-\(id)", .array([.integer(10), .integer(2)])),
      ("closed-\(id)", .array([.double(3), .double(1)])),
      ("short-\(id)", .array([.integer(1)])), ("point-\(id)", .string("{1, 2}")),
      ("character-\(id)", .string("ab")), ("scalar-\(id)", .string("e\u{301}")),
    ]
    for (key, value) in stored { store.set(value, forKey: key) }
    let fresh = reopen()
    #expect(fresh.value(forKey: "decimal-\(id)", default: Decimal(7)) == 7)
    #expect(
      fresh.value(forKey: "zone-\(id)", default: TimeZone(identifier: "GMT")!) == TimeZone(identifier: "GMT"))
    #expect(fresh.value(forKey: "range-\(id)", default: 0..<1) == 0..<1)
    #expect(fresh.value(forKey: "closed-\(id)", default: 0.0...1.0) == 0...1)
    #expect(fresh.value(forKey: "short-\(id)", default: 0..<1) == 0..<1)
    #expect(fresh.value(forKey: "point-\(id)", default: CGPoint.zero) == .zero)
    #expect(fresh.value(forKey: "character-\(id)", default: Character(",")) == ",")
    #expect(fresh.value(forKey: "scalar-\(id)", default: Unicode.Scalar(",")) == ",")
    for (key, value) in stored {
      #expect(Diagnostics.reported(mentioning: key).count == 1, "\(key)")
      #expect(fresh.backend.value(forKey: key) == value, "\(key)")
    }

    let nan = "nan-\(id)"
    fresh.set(Decimal.nan, forKey: nan)
    #expect(!fresh.hasStoredValue(forKey: nan))
    #expect(Diagnostics.reported(mentioning: nan).count == 1)
  }

  /// A Settings app text field stores text, whatever its keyboard; `UserDefaults.integer(forKey:)`
  /// and `double(forKey:)` read a number's text, and so do numeric preferences (exactly: a
  /// fraction is not an integer, and text that only starts as a number is no number).
  @Test func numbersReadTheTextASettingsTextFieldStores() {
    Diagnostics.start()
    // Keys no other test reports on: the diagnostics collector is the process's.
    let (fraction, big) = ("fraction-\(UUID())", "big-\(UUID())")
    let store = PreferenceStore.inMemory([
      "count": "42", "padded": " 7 ", "ratio": "2.5", "negative": "-3", fraction: "2.5",
      "words": "12 apples",
      big: "300",
    ])
    #expect(store.value(forKey: "count", default: 0) == 42)
    #expect(store.value(forKey: "padded", default: 0) == 7)
    #expect(store.value(forKey: "negative", default: Int64(0)) == -3)
    #expect(store.value(forKey: "ratio", default: 0.0) == 2.5)
    #expect(store.value(forKey: "ratio", default: Float(0)) == 2.5)
    #expect(store.value(forKey: "ratio", default: CGFloat(0)) == 2.5)
    #expect(store.value(forKey: fraction, default: 1) == 1)
    #expect(store.value(forKey: "words", default: 1) == 1)
    #expect(store.value(forKey: "words", default: 1.5) == 1.5)
    #expect(store.value(forKey: big, default: UInt8(1)) == 1, "out of range")
    #expect(Diagnostics.reported(mentioning: fraction).count == 1)
    #expect(Diagnostics.reported(mentioning: big).count == 1)
  }

  @Test(arguments: StoreKind.allCases)
  func collectionsAndOptionalsRoundTrip(kind: StoreKind) {
    roundTrip([1, 2, 3], default: [], kind: kind)
    roundTrip(["a", "b"], default: [], kind: kind)
    roundTrip([[1.5], [2.5, 3.5]], default: [], kind: kind)
    roundTrip(["x": 1, "y": 2], default: [:], kind: kind)
    roundTrip(["nested": ["a": [true, false]]], default: [:], kind: kind)
    roundTrip(Set(["a", "b", "c"]), default: [], kind: kind)
    roundTrip(Optional("set"), default: nil, kind: kind)
    roundTrip(Optional(7), default: Optional(1), kind: kind)
    roundTrip(String?.none, default: nil, kind: kind)
  }

  /// A dictionary keyed by a `LosslessStringConvertible` type is stored keyed by each key's text,
  /// and read back through it: what `defaults read` shows, and what another reader of the
  /// property list sees. A stored key that is no key of the type is a mismatch, reported once,
  /// and the stored value stays.
  @Test(arguments: StoreKind.allCases)
  func dictionariesKeyedByTextualKeysRoundTrip(kind: StoreKind) throws {
    roundTrip([1: "one", -20: "minus twenty", Int.max: "max"], default: [:], kind: kind)
    roundTrip([true: 1.5, false: -2], default: [:], kind: kind)
    roundTrip([UInt64.max: [1, 2]], default: [:], kind: kind)
    roundTrip([Character("é"): 1, "a": 2], default: [:], kind: kind)
    roundTrip([0.1: "tenth", -0.0: "zero"], default: [:], kind: kind)
    roundTrip(["outer": [7: Optional(true)]], default: [:], kind: kind)
    roundTrip([Int8(-1): Set(["x"])] as [Int8: Set<String>]?, default: nil, kind: kind)
    let account = UUID()
    roundTrip([account: "work"], default: [:], kind: kind)
    roundTrip([KeyedFeature.sync: true, .search: false], default: [:], kind: kind)
    roundTrip([KeyedLevel(rawValue: 3): "three"], default: [:], kind: kind)
    #expect(
      try [3: "c", 10: "j"].propertyListValue() == .dictionary(["3": .string("c"), "10": .string("j")]))
    #expect(try [false: 1].propertyListValue() == .dictionary(["false": .integer(1)]))
    #expect(try [account: 1].propertyListValue() == .dictionary([account.uuidString: .integer(1)]))
    #expect(try [KeyedFeature.sync: 1].propertyListValue() == .dictionary(["sync-v2": .integer(1)]))
    // A raw value is what other code stored: it wins over a description.
    #expect(try [KeyedLevel(rawValue: 3): 1].propertyListValue() == .dictionary(["3": .integer(1)]))

    Diagnostics.start()
    let directory = TemporaryDirectory()
    let (store, reopen) = kind.make(in: directory)
    let key = "badkeys-\(UUID().uuidString)"
    let stored = PropertyListValue.dictionary(["1": .string("one"), "two": .string("2")])
    store.set(stored, forKey: key)
    let fresh = reopen()
    #expect(fresh.value(forKey: key, default: [0: "default"]) == [0: "default"])
    #expect(
      fresh.value(forKey: key, default: ["1": "one"]) == ["1": "one", "two": "2"], "as [String: String]")
    #expect(Diagnostics.reported(mentioning: key).count == 1)
    #expect(fresh.backend.value(forKey: key) == stored)
  }

  @Test(arguments: StoreKind.allCases)
  func customTypesRoundTrip(kind: StoreKind) throws {
    roundTrip(Theme.dark, default: .light, kind: kind)
    roundTrip(Level.high, default: .low, kind: kind)
    roundTrip([Theme.dark, .light], default: [], kind: kind)
    roundTrip(
      Layout(columns: 3, title: "Grid", tags: ["a"]), default: Layout(columns: 1, title: "", tags: []),
      kind: kind)
    roundTrip(
      VisualSettings(themeName: "bright", backgroundImageURL: URL(string: "https://example.com/i.png")),
      default: VisualSettings(themeName: "", backgroundImageURL: nil), kind: kind)
    roundTrip(Optional(Theme.dark), default: nil, kind: kind)

    let directory = TemporaryDirectory()
    let (store, reopen) = kind.make(in: directory)
    store.set(Token(text: "secret"), forKey: "token")
    #expect(reopen().value(forKey: "token", default: Token(text: "none")).text == "secret")
  }

  @Test func rawRepresentableAndCodableAreStoredAsRawValueOrJSON() throws {
    #expect(try Theme.dark.propertyListValue() == .string("dark"))
    #expect(try Level.high.propertyListValue() == .integer(9))
    #expect(
      try Layout(columns: 2, title: "T", tags: []).propertyListValue()
        == .string(#"{"columns":2,"tags":[],"title":"T"}"#))
    #expect(5.propertyListValue() == .integer(5))
    #expect(UInt64.max.propertyListValue() == .unsignedInteger(.max))
  }

  @Test func settingNilRemovesTheStoredValue() {
    let store = PreferenceStore.inMemory()
    store.set(Optional("x"), forKey: "k")
    #expect(store.hasStoredValue(forKey: "k"))
    store.set(String?.none, forKey: "k")
    #expect(!store.hasStoredValue(forKey: "k"))
    #expect(store.value(forKey: "k", default: String?("fallback")) == "fallback")
  }

  @Test func codableReadsAreCachedNotDecodedEachTime() {
    let backend = InMemoryBackend()
    let store = PreferenceStore(backend: backend, arguments: [])
    store.set(Layout(columns: 4, title: "x", tags: []), forKey: "layout")
    _ = store.value(forKey: "layout", default: Layout(columns: 0, title: "", tags: []))
    // Change the backend behind the store's back: a cached read does not decode again.
    backend.setValue(.string("not json"), forKey: "layout")
    #expect(store.value(forKey: "layout", default: Layout(columns: 0, title: "", tags: [])).columns == 4)
  }

  @Test func userBridgingIsUsed() throws {
    struct Celsius: PreferenceValue, Equatable {
      var degrees: Double
      func propertyListValue() -> PropertyListValue? { .string("\(degrees)C") }
      init(degrees: Double) { self.degrees = degrees }
      init(propertyListValue value: PropertyListValue) throws {
        guard case .string(let text) = value, text.hasSuffix("C"), let degrees = Double(text.dropLast())
        else {
          throw PreferenceError.typeMismatch(key: "", expected: "Celsius", found: value.kindName)
        }
        self.degrees = degrees
      }
    }
    let store = PreferenceStore.inMemory()
    store.set(Celsius(degrees: 21.5), forKey: "t")
    #expect(store.backend.value(forKey: "t") == .string("21.5C"))
    #expect(
      PreferenceStore(backend: store.backend, arguments: []).value(forKey: "t", default: Celsius(degrees: 0))
        == Celsius(degrees: 21.5))
  }

  @Test(arguments: StoreKind.allCases)
  func wrongTypeYieldsDefaultReportsAndKeepsStoredValue(kind: StoreKind) {
    Diagnostics.start()
    let directory = TemporaryDirectory()
    let (store, reopen) = kind.make(in: directory)
    let key = "mismatch-\(UUID().uuidString)"
    store.set("not a number", forKey: key)
    let fresh = reopen()
    #expect(fresh.value(forKey: key, default: 42) == 42)
    #expect(fresh.value(forKey: key, default: 42) == 42)
    let reports = Diagnostics.reported(mentioning: key)
    #expect(reports.count == 1)
    #expect(reports.first == .typeMismatch(key: key, expected: "Int", found: "string"))
    #expect(fresh.backend.value(forKey: key) == .string("not a number"))

    let codableKey = "badjson-\(UUID().uuidString)"
    fresh.set("{broken", forKey: codableKey)
    #expect(fresh.value(forKey: codableKey, default: Layout(columns: 9, title: "d", tags: [])).columns == 9)
    #expect(Diagnostics.reported(mentioning: codableKey).count == 1)
    #expect(fresh.backend.value(forKey: codableKey) == .string("{broken"))
  }

  /// The cache keeps one decoded value per key; a read as another type must not take it for its
  /// own (the cache tells the types apart by a field of the box, not by a cast).
  @Test func aValueCachedAsOneTypeIsNeverReadAsAnother() {
    Diagnostics.start()
    let store = PreferenceStore.inMemory()
    let key = "cached-\(UUID().uuidString)"
    store.set("seven", forKey: key)
    #expect(store.value(forKey: key, default: "none") == "seven")
    #expect(store.value(forKey: key, default: 42) == 42)
    #expect(store.value(forKey: key, default: Optional<String>.none) == "seven")
    #expect(store.value(forKey: key, default: ["a"]) == ["a"])
    #expect(store.value(forKey: key, default: "none") == "seven")
    store.set(7, forKey: key)
    #expect(store.value(forKey: key, default: 0) == 7)
    #expect(store.value(forKey: key, default: "none") == "none")
    #expect(store.value(forKey: key, default: 0) == 7)
  }

  @Test func encodingFailureStoresNothingAndReports() {
    Diagnostics.start()
    let store = PreferenceStore.inMemory()
    let key = "nan-\(UUID().uuidString)"
    struct Point: Codable, PreferenceValue { var x: Double }
    store.set(Point(x: .nan), forKey: key)  // JSON cannot encode NaN
    #expect(!store.hasStoredValue(forKey: key))
    #expect(Diagnostics.reported(mentioning: key).count == 1)
  }
}

/// What `Color.Resolved`'s conformance (in the Apple-only `PreferenceValue+SwiftUI.swift`) relies
/// on, driven on Linux: a `Codable` type with no conformance code of its own whose encoding is a
/// top-level unkeyed array of `Float`s (Apple's `Color.Resolved` encodes as
/// `[1,0.23137254,0.18823528,1]`) is stored as that JSON text, and reads back, in every store.
@Suite struct UnkeyedCodableTests {
  struct RGBA: Codable, Equatable, PreferenceValue {
    var components: [Float]
    init(_ components: Float...) { self.components = components }
    init(from decoder: any Decoder) throws {
      var container = try decoder.unkeyedContainer()
      var components: [Float] = []
      while !container.isAtEnd { components.append(try container.decode(Float.self)) }
      self.components = components
    }
    func encode(to encoder: any Encoder) throws {
      var container = encoder.unkeyedContainer()
      for component in components { try container.encode(component) }
    }
  }

  @Test(arguments: StoreKind.allCases)
  func aTopLevelUnkeyedEncodingRoundTrips(kind: StoreKind) throws {
    let directory = TemporaryDirectory()
    let (store, reopen) = kind.make(in: directory)
    let picked = RGBA(0.25, 0.5, 1, 0.75)
    store.set(picked, forKey: "accent")
    #expect(reopen().value(forKey: "accent", default: RGBA(0, 0, 0, 1)) == picked)
    #expect(try picked.propertyListValue() == .string("[0.25,0.5,1,0.75]"))
  }
}

#if canImport(SwiftUI)
  import SwiftUI

  /// Run by the macOS job of `.github/workflows/ci.yml`; Linux has no SwiftUI.
  @Suite struct ResolvedColorTests {
    @Test(arguments: StoreKind.allCases)
    func aResolvedColorRoundTrips(kind: StoreKind) throws {
      let directory = TemporaryDirectory()
      let (store, reopen) = kind.make(in: directory)
      let picked = Color.Resolved(red: 0.25, green: 0.5, blue: 1, opacity: 0.75)
      store.set(picked, forKey: "accent")
      let read = reopen().value(forKey: "accent", default: Color.Resolved(red: 0, green: 0, blue: 0))
      // Its Codable form may convert between color spaces: compare within a rounding error.
      let pairs = [(read.red, picked.red), (read.green, picked.green), (read.blue, picked.blue)]
      #expect(pairs.allSatisfy { abs($0 - $1) < 1e-4 }, "read \(read), stored \(picked)")
      #expect(abs(read.opacity - picked.opacity) < 1e-4)
      guard case .string = try picked.propertyListValue() else {
        Issue.record("a resolved color is stored as JSON text")
        return
      }
    }
  }

  /// A view preference declared in a file that imports SwiftUI and Preferences, as a view that
  /// uses `@Preference` may: the library declares no type SwiftUI's `PreferenceKey` protocol
  /// would be ambiguous with (the library's typed key was `PreferenceKey` until it became
  /// `TypedPreferenceKey`). This file does not compile if one comes back.
  private struct HeightKey: PreferenceKey {
    static let defaultValue: CGFloat = 0
    static func reduce(value: inout CGFloat, nextValue: () -> CGFloat) { value = max(value, nextValue()) }
  }

  @Suite struct SwiftUINameTests {
    @Test func swiftUIsPreferenceKeyNeedsNoModuleName() {
      var height = HeightKey.defaultValue
      HeightKey.reduce(value: &height) { 44 }
      #expect(height == 44)
    }
  }
#endif
