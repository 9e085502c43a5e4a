import Foundation

/// Preference keys declared as an enum, with each key's default value (and so its type) in one
/// place.
///
/// ```swift
/// enum AppKeys: String, PreferenceKeys {
///   case name, emailAddress, launchCount, overscrollRate
///
///   var defaultValue: any PreferenceValue {
///     switch self {
///     case .name: "Anonymous"
///     case .emailAddress: String?.none
///     case .launchCount: 0
///     case .overscrollRate: 0 as Double   // `as` names the type where a literal does not
///     }
///   }
/// }
///
/// let store = PreferenceStore.standard.keyed(by: AppKeys.self)
/// store.set("Paul", for: .name)
/// store.string(for: .name)          // "Paul"
/// let rate = store[.overscrollRate] // a Double, no annotation needed
/// store.set(42, for: .name)         // does not compile: .name holds a String
/// ```
///
/// The raw value of each case is its key. The `defaultValue` switch is registered with the store
/// (``PreferenceStore/register(defaults:)``) the first time the keys are used with it.
///
/// Each case's type is known at compile time: the build plugin reads the `defaultValue` switch and
/// generates a ``TypedPreferenceKey`` for each case (`TypedPreferenceKey<AppKeys, String>.name`), which
/// every read and write of ``KeyedPreferences`` takes. A case's type is its default's, as the
/// compiler types it: a literal's (`"Anonymous"` is a `String`, `0` an `Int`, `0.5` a `Double`),
/// `T?.none` for an optional, or any other expression's (`Date.now`, `max(2, 3)`); write
/// `0 as Double` where a literal would say the wrong type. A default that reads the case itself
/// (`rawValue.count`) or a name private to its file is a build warning that asks for `as`; until
/// then that case has no typed key. The switch must be
/// `switch self` with one expression per case (a `default:` clause covers the cases it does not
/// name), or one expression for every case.
///
/// Without the plugin, declare the typed keys yourself:
///
/// ```swift
/// extension TypedPreferenceKey where Keys == AppKeys, Value == String {
///   static var name: Self { Self(.name) }
/// }
/// ```
public protocol PreferenceKeys: RawRepresentable, CaseIterable, Sendable where RawValue == String {
  /// The default value of this key; its type is the key's declared type. Return `T?.none` for
  /// an optional key without a default.
  var defaultValue: any PreferenceValue { get }
}

/// A case of a ``PreferenceKeys`` enum with the type of its value: what ``KeyedPreferences``
/// reads and writes, so that a read needs no type annotation and a value of another type does
/// not compile.
///
/// The build plugin generates one static member per case, named after the case, so a key is
/// written `.name` wherever a `TypedPreferenceKey` is expected. (It is not named `PreferenceKey`:
/// that is SwiftUI's protocol for view preferences, and a file that imports both modules could
/// not name either.)
public struct TypedPreferenceKey<Keys: PreferenceKeys, Value: PreferenceValue>: Sendable, Hashable {
  /// The enum case; its raw value is the stored key.
  public let key: Keys

  /// The key `key`, holding values of type `Value`.
  public init(_ key: Keys) { self.key = key }

  /// Whether the two are equal.
  public static func == (a: Self, b: Self) -> Bool { a.key.rawValue == b.key.rawValue }
  /// Hashes the essential components of the value.
  public func hash(into hasher: inout Hasher) { hasher.combine(key.rawValue) }
}

extension PreferenceStore {
  /// A view of this store addressed by the cases of `keys`.
  public func keyed<Keys: PreferenceKeys>(by keys: Keys.Type) -> KeyedPreferences<Keys> {
    KeyedPreferences(store: self)
  }
}

/// A store addressed by an enum of ``PreferenceKeys``: no string key appears in app code.
///
/// Create one with ``PreferenceStore/keyed(by:)``.
public struct KeyedPreferences<Keys: PreferenceKeys>: Sendable {
  /// The underlying store.
  public let store: PreferenceStore

  /// Creates a keyed view of `store` and registers the keys' defaults with it (once).
  public init(store: PreferenceStore = .default) {
    self.store = store
    registerDefaults()
  }

  /// Registers every key's default with the store. Runs once per store and key type; called by
  /// ``init(store:)``.
  public func registerDefaults() {
    store.registerOnce(keys: ObjectIdentifier(Keys.self)) {
      Dictionary(Keys.allCases.map { ($0.rawValue, $0.defaultValue) }, uniquingKeysWith: { _, last in last })
    }
  }

  /// The value of `key`: stored, else its default.
  ///
  /// If a hand-written ``TypedPreferenceKey`` names a type other than the one its case's default has,
  /// the read never stops the app: it returns the default converted to `Value` where it converts
  /// (`0` declared, read as `Double`: `0.0`), else the stored value if it reads as `Value`, else an
  /// empty value, and ``PreferenceError/wrongValueType(key:declared:given:)`` is reported once per
  /// key and type. (Generated keys always agree with their defaults.)
  @inlinable
  public func value<Value: PreferenceValue>(for key: TypedPreferenceKey<Keys, Value>) -> Value {
    // A cached value of this type exists only after a checked read or write of this key.
    if let cached = store.cachedValue(forKey: key.key.rawValue, as: Value.self) { return cached }
    return uncachedValue(for: key.key)
  }

  /// A read that found no value of this type cached: a key whose type differs from its case's
  /// default is reported here (once per key and type), whether or not a stored value reads as it.
  @usableFromInline
  func uncachedValue<Value: PreferenceValue>(for key: Keys) -> Value {
    if !Self.accepts(key, Value.self) { reportMismatch(key, Value.self) }
    return store.value(forKey: key.rawValue, default: defaultValue(of: key, as: Value.self))
  }

  private func reportMismatch<Value>(_ key: Keys, _ type: Value.Type) {
    let given = String(describing: Value.self)
    if KeyedMismatches.firstReport(of: "\(Keys.self).\(key.rawValue) as \(given)") {
      PreferenceDiagnostics.report(
        .wrongValueType(key: key.rawValue, declared: Self.declaredTypeName(key), given: given))
    }
  }

  /// The default of `key` read as `Value`: the declared default, or (for a read with another
  /// type) a substitute, reported once. Never stops the app.
  func defaultValue<Value: PreferenceValue>(of key: Keys, as type: Value.Type) -> Value {
    if let declared = Self.declaredDefault(of: key, as: Value.self) { return declared }
    reportMismatch(key, Value.self)
    // The declared default converted (an integer read as a floating-point number, an unsigned
    // integer as a signed one), else what is stored, else the emptiest value the type reads.
    func converted<Declared: PreferenceValue>(_ declared: Declared) -> Value? {
      (try? declared.propertyListValue()).flatMap { $0 }.flatMap { try? Value(propertyListValue: $0) }
    }
    if let value = converted(key.defaultValue) { return value }
    if let stored = store.backend.value(forKey: key.rawValue),
      let value = try? Value(propertyListValue: stored)
    {
      return value
    }
    return DeclarationDefaults.substitute(as: Value.self, why: Self.mismatchMessage(key, Value.self))
  }

  /// Stores `value` for `key`; `nil` (for optional keys) removes the stored value.
  ///
  /// A hand-written ``TypedPreferenceKey`` whose type differs from its case's default stores nothing:
  /// the error is reported through ``PreferenceDiagnostics`` and the method returns `false`.
  @discardableResult
  public func set<Value: PreferenceValue>(_ value: Value, for key: TypedPreferenceKey<Keys, Value>) -> Bool {
    guard Self.accepts(key.key, Value.self) else {
      PreferenceDiagnostics.report(
        .wrongValueType(
          key: key.key.rawValue, declared: Self.declaredTypeName(key.key),
          given: String(describing: Value.self)))
      return false
    }
    store.set(value, forKey: key.key.rawValue)
    return true
  }

  /// Reads or writes `key`.
  public subscript<Value: PreferenceValue>(key: TypedPreferenceKey<Keys, Value>) -> Value {
    get { value(for: key) }
    nonmutating set { set(newValue, for: key) }
  }

  /// The string value of `key`.
  @inlinable public func string(for key: TypedPreferenceKey<Keys, String>) -> String { value(for: key) }
  /// The integer value of `key`.
  @inlinable public func integer(for key: TypedPreferenceKey<Keys, Int>) -> Int { value(for: key) }
  /// The Boolean value of `key`.
  @inlinable public func bool(for key: TypedPreferenceKey<Keys, Bool>) -> Bool { value(for: key) }
  /// The floating-point value of `key`.
  @inlinable public func double(for key: TypedPreferenceKey<Keys, Double>) -> Double { value(for: key) }

  /// Removes the stored value of `key`, so that it reads its default again.
  public func removeValue(for key: Keys) { store.removeValue(forKey: key.rawValue) }

  /// Removes the stored value of every key.
  public func removeAllValues() { for key in Keys.allCases { removeValue(for: key) } }

  /// Whether a value is stored for `key`.
  public func hasStoredValue(for key: Keys) -> Bool { store.hasStoredValue(forKey: key.rawValue) }

  // MARK: Type checks

  /// Whether a `Value` may be written to `key`: the declared type, its optional, or (for an
  /// optional key) the wrapped type.
  static func accepts<Value>(_ key: Keys, _ type: Value.Type) -> Bool {
    func check<Declared: PreferenceValue>(_: Declared) -> Bool {
      Declared.self == Value.self || Value.self == Declared?.self || Declared.self == Value?.self
    }
    return check(key.defaultValue)
  }

  /// The key's default as a `Value`, or `nil` if `Value` cannot be read from this key.
  static func declaredDefault<Value>(of key: Keys, as type: Value.Type) -> Value? {
    func convert<Declared: PreferenceValue>(_ declared: Declared) -> Value? {
      if Declared.self == Value.self || Value.self == Declared?.self { return declared as? Value }
      if Declared.self == Value?.self, let wrapped = declared as? Value? { return wrapped }
      return nil
    }
    return convert(key.defaultValue)
  }

  static func declaredTypeName(_ key: Keys) -> String {
    func name<Declared: PreferenceValue>(_: Declared) -> String { String(describing: Declared.self) }
    return name(key.defaultValue)
  }

  static func mismatchMessage<Value>(_ key: Keys, _ type: Value.Type) -> String {
    "\(Keys.self).\(key) is declared as \(declaredTypeName(key)) by its defaultValue; it cannot be read as \(Value.self)"
  }
}

/// The keyed reads with a wrong type already reported, so that each is reported once.
enum KeyedMismatches {
  private static let reported = Locked<Set<String>>([])

  static func firstReport(of mismatch: String) -> Bool {
    reported.withLock { $0.insert(mismatch).inserted }
  }
}
