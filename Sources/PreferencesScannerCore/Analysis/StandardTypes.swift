/// What the scanner knows of the standard library's, Foundation's (and this library's) names, in one table: each
/// name with the traits the analyses ask about. A name is here only where generated code needs
/// an answer before the compiler sees it (whether a default needs an actor, which raw types the
/// registry stores, which standard types a `Sendable` stored property may hold); everything else
/// is left to the compiler.
enum StandardTypes {
  struct Traits: OptionSet, Sendable {
    let rawValue: UInt16

    /// The standard library's: every file sees it without an import.
    static let standardLibrary = Traits(rawValue: 1 << 0)
    /// Its members, initializers or calls need no actor (a value type, or a function of values).
    static let nonisolated = Traits(rawValue: 1 << 1)
    /// `Sendable` in every supported SDK: a stored property proven `Sendable` may hold it.
    static let sendable = Traits(rawValue: 1 << 2)
    /// An enum with this raw type is stored as its raw value by a conformance the registry writes.
    static let rawValueType = Traits(rawValue: 1 << 3)
    /// Some initializer of it may fail (`Int("42")`, `URL(string:)`).
    static let failableInitializer = Traits(rawValue: 1 << 4)
    /// A dictionary keyed by it cannot be stored: the library does not make it a
    /// `PreferenceDictionaryKey` (its text form does not read back as the same key).
    static let untextualKey = Traits(rawValue: 1 << 5)
    /// A call of it is not of the type it names: a generic type whose arguments the call infers
    /// (`Set([1, 2])`), or a function (`max(1, 2)`); ``callResults`` gives the few that are known.
    static let callIsNotOfItsName = Traits(rawValue: 1 << 6)
    /// A protocol whose conformance gives a type no isolation (`Codable`, `Hashable`).
    static let conformanceWithoutIsolation = Traits(rawValue: 1 << 7)
    /// A protocol (or `AnyObject`) that classes often list first in their inheritance clause,
    /// where a superclass would be: listed first, it is still no superclass that might conform
    /// (Yams' `final class Anchor: RawRepresentable, …, Codable` was left to the compiler, whose
    /// error names no fix).
    static let protocolNotSuperclass = Traits(rawValue: 1 << 8)
    /// A protocol a property's type may name bare (`var codingPath: [CodingKey]`, `var lastError:
    /// Error?`), each then a protocol type that cannot conform to `PreferenceValue` (found porting
    /// swift-argument-parser). Those with `Self` or associated-type requirements are not: naming
    /// them bare is the compiler's error already.
    static let existential = Traits(rawValue: 1 << 9)
    /// A type-erased value: whatever it holds is known only at run time, so no store can read one
    /// back (`Set<AnyHashable>`, found porting WasmKit, was left to the compiler, whose error
    /// names no fix).
    static let typeErased = Traits(rawValue: 1 << 10)
    /// A fixed-width integer: a property list stores it as an integer, and a literal of it is
    /// encoded as one.
    static let storedAsInteger = Traits(rawValue: 1 << 11)
    /// A binary floating-point type of 32 or 64 bits (or `CGFloat`, `TimeInterval`): a property
    /// list stores it as a real.
    static let storedAsReal = Traits(rawValue: 1 << 12)
  }

  /// Whether `name` (one component: `Int`, not `Swift.Int`) has every trait of `traits`.
  static func name(_ name: some StringProtocol, has traits: Traits) -> Bool {
    table[String(name)]?.isSuperset(of: traits) == true
  }

  /// What a call of a ``Traits/callIsNotOfItsName`` name returns, where that is known.
  static let callResults: [String: String] = ["NSHomeDirectory": "String", "NSTemporaryDirectory": "String"]

  private static let number: Traits = [
    .standardLibrary, .nonisolated, .sendable, .rawValueType, .failableInitializer,
  ]
  private static let integer = number.union(.storedAsInteger)
  private static let real = number.union(.storedAsReal)

  static let table: [String: Traits] = [
    "Int": integer, "Int8": integer, "Int16": integer, "Int32": integer, "Int64": integer, "UInt": integer,
    "UInt8": integer, "UInt16": integer, "UInt32": integer, "UInt64": integer, "Double": real,
    "Float": real, "Float32": real, "Float64": real,
    "Float16": [.standardLibrary, .nonisolated, .sendable, .untextualKey],
    "CGFloat": [.nonisolated, .sendable, .rawValueType, .untextualKey, .storedAsReal],
    "Bool": [.standardLibrary, .nonisolated, .sendable, .failableInitializer],
    "String": [.standardLibrary, .nonisolated, .sendable, .rawValueType],
    "Character": [.standardLibrary, .nonisolated, .sendable, .rawValueType, .failableInitializer],
    "UnicodeScalar": [.standardLibrary, .nonisolated, .sendable],
    "Unicode": [.standardLibrary, .nonisolated],
    "Substring": [.standardLibrary, .nonisolated, .sendable, .untextualKey],
    "Array": [.standardLibrary, .nonisolated, .callIsNotOfItsName],
    "Dictionary": [.standardLibrary, .nonisolated, .callIsNotOfItsName],
    "Set": [.standardLibrary, .nonisolated, .callIsNotOfItsName],
    "Optional": [.standardLibrary, .nonisolated, .callIsNotOfItsName],
    "Swift": [.standardLibrary],
    "Range": [.nonisolated, .callIsNotOfItsName],
    "ClosedRange": [.nonisolated, .callIsNotOfItsName],
    "Date": [.nonisolated, .sendable, .untextualKey],
    "URL": [.nonisolated, .sendable, .failableInitializer, .untextualKey],
    "UUID": [.nonisolated, .sendable, .failableInitializer],
    "Data": [.nonisolated, .sendable, .untextualKey],
    "TimeInterval": [.nonisolated, .sendable, .storedAsReal],
    "Decimal": [.nonisolated, .sendable, .failableInitializer, .untextualKey],
    "Locale": [.nonisolated, .sendable],
    "TimeZone": [.nonisolated, .sendable],
    "Calendar": [.nonisolated, .sendable],
    "DateComponents": [.nonisolated, .sendable],
    "CharacterSet": [.nonisolated, .sendable],
    "URLComponents": [.nonisolated, .sendable],
    "Duration": [.nonisolated, .sendable],
    "CGPoint": [.nonisolated, .sendable],
    "CGSize": [.nonisolated, .sendable],
    "CGRect": [.nonisolated, .sendable],
    "CGVector": [.sendable],
    "PropertyListValue": [.nonisolated, .sendable],
    "PreferenceStore": [.nonisolated],
    "PreferenceFormat": [.nonisolated],
    "FileManager": [.nonisolated],
    "ProcessInfo": [.nonisolated],
    "Bundle": [.nonisolated],
    "AnyHashable": [.untextualKey, .typeErased],
    "NSHomeDirectory": [.nonisolated, .callIsNotOfItsName],
    "NSTemporaryDirectory": [.nonisolated, .callIsNotOfItsName],
    "min": [.nonisolated, .callIsNotOfItsName],
    "max": [.nonisolated, .callIsNotOfItsName],
    "abs": [.nonisolated, .callIsNotOfItsName],
    // Protocols, and `Any`.
    "Codable": [.conformanceWithoutIsolation, .protocolNotSuperclass, .existential],
    "Encodable": [.conformanceWithoutIsolation, .protocolNotSuperclass, .existential],
    "Decodable": [.conformanceWithoutIsolation, .protocolNotSuperclass, .existential],
    "Equatable": [.conformanceWithoutIsolation, .protocolNotSuperclass],
    "Hashable": [.conformanceWithoutIsolation, .protocolNotSuperclass],
    "Comparable": [.conformanceWithoutIsolation, .protocolNotSuperclass],
    "Sendable": [.conformanceWithoutIsolation, .protocolNotSuperclass, .existential],
    "SendableMetatype": [.conformanceWithoutIsolation],
    "CaseIterable": [.conformanceWithoutIsolation, .protocolNotSuperclass],
    "Identifiable": [.conformanceWithoutIsolation, .protocolNotSuperclass],
    "RawRepresentable": [.conformanceWithoutIsolation, .protocolNotSuperclass],
    "CustomStringConvertible": [.conformanceWithoutIsolation, .protocolNotSuperclass, .existential],
    "CustomDebugStringConvertible": [.conformanceWithoutIsolation, .protocolNotSuperclass, .existential],
    "Error": [.conformanceWithoutIsolation, .protocolNotSuperclass, .existential],
    "LocalizedError": [.conformanceWithoutIsolation, .protocolNotSuperclass, .existential],
    "PreferenceValue": [.conformanceWithoutIsolation, .existential],
    "PreferenceKeys": [.conformanceWithoutIsolation],
    "ExpressibleByStringLiteral": [.conformanceWithoutIsolation, .protocolNotSuperclass],
    "ExpressibleByIntegerLiteral": [.conformanceWithoutIsolation, .protocolNotSuperclass],
    "OptionSet": [.conformanceWithoutIsolation, .protocolNotSuperclass],
    "Strideable": [.conformanceWithoutIsolation],
    "CustomReflectable": [.protocolNotSuperclass],
    "LosslessStringConvertible": [.protocolNotSuperclass],
    "ExpressibleByFloatLiteral": [.protocolNotSuperclass],
    "ExpressibleByBooleanLiteral": [.protocolNotSuperclass],
    "ExpressibleByArrayLiteral": [.protocolNotSuperclass],
    "ExpressibleByDictionaryLiteral": [.protocolNotSuperclass],
    "ExpressibleByNilLiteral": [.protocolNotSuperclass],
    "ExpressibleByStringInterpolation": [.protocolNotSuperclass],
    "ExpressibleByUnicodeScalarLiteral": [.protocolNotSuperclass],
    "ExpressibleByExtendedGraphemeClusterLiteral": [.protocolNotSuperclass],
    "Sequence": [.protocolNotSuperclass],
    "Collection": [.protocolNotSuperclass],
    "BidirectionalCollection": [.protocolNotSuperclass],
    "RandomAccessCollection": [.protocolNotSuperclass],
    "MutableCollection": [.protocolNotSuperclass],
    "RangeReplaceableCollection": [.protocolNotSuperclass],
    "IteratorProtocol": [.protocolNotSuperclass],
    "SetAlgebra": [.protocolNotSuperclass],
    "AnyObject": [.protocolNotSuperclass, .typeErased],
    "ObservableObject": [.protocolNotSuperclass],
    "Observable": [.protocolNotSuperclass],
    "NSCopying": [.protocolNotSuperclass],
    "NSCoding": [.protocolNotSuperclass],
    "NSSecureCoding": [.protocolNotSuperclass],
    "CodingKey": [.existential],
    "Encoder": [.existential],
    "Decoder": [.existential],
    "Any": [.typeErased],
  ]
}
