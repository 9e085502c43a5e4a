import Foundation

/// Preference keys declared as an enum, with each key's default value (and so its type) in one
/// place.
///
/// ```swift
/// enum AppKeys: String, PreferenceKeys {
///   case name, emailAddress, launchCount
///
///   var defaultValue: any PreferenceValue {
///     switch self {
///     case .name: "Anonymous"
///     case .emailAddress: String?.none
///     case .launchCount: 0
///     }
///   }
/// }
///
/// let store = PreferenceStore.standard.keyed(by: AppKeys.self)
/// store.set("Paul", for: .name)
/// store.string(for: .name)          // "Paul"
/// store.set(42, for: .name)         // reported, nothing stored: .name holds a String
/// ```
///
/// The raw value of each case is its key. The `defaultValue` switch is registered with the store
/// (``PreferenceStore/register(defaults:)``) the first time the keys are used with it, and its
/// type is the key's declared type: a write or read with another type is refused.
public protocol PreferenceKeys: RawRepresentable, CaseIterable, Sendable where RawValue == String {
  /// The default value of this key; its type is the key's declared type. Return `T?.none` for
  /// an optional key without a default.
  var defaultValue: any PreferenceValue { get }
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
  /// Reading with a type other than the key's declared type never stops the app: the read
  /// returns the key's default converted to `Value` where it converts (`0` declared, read as
  /// `Double`: `0.0`), else the stored value if it reads as `Value`, else an empty value, and
  /// ``PreferenceError/wrongValueType(key:declared:given:)`` is reported once per key and type.
  @inlinable
  public func value<Value: PreferenceValue>(for key: Keys, as type: Value.Type = Value.self) -> Value {
    // A cached value of this type exists only after a checked read or write of this key.
    if let cached = store.cachedValue(forKey: key.rawValue, as: Value.self) { return cached }
    return uncachedValue(for: key)
  }

  @usableFromInline
  func uncachedValue<Value: PreferenceValue>(for key: Keys) -> Value {
    store.value(forKey: key.rawValue, default: defaultValue(of: key, as: Value.self))
  }

  /// The default of `key` read as `Value`: the declared default, or (for a read with another
  /// type) a substitute, reported once. Never stops the app.
  func defaultValue<Value: PreferenceValue>(of key: Keys, as type: Value.Type) -> Value {
    if let declared = Self.declaredDefault(of: key, as: Value.self) { return declared }
    let given = String(describing: Value.self)
    if KeyedMismatches.firstReport(of: "\(Keys.self).\(key.rawValue) as \(given)") {
      PreferenceDiagnostics.report(
        .wrongValueType(key: key.rawValue, declared: Self.declaredTypeName(key), given: given))
    }
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
    if let none = (Value.self as? any ExpressibleByNilLiteral.Type)?.init(nilLiteral: ()) as? Value {
      return none
    }
    let empties: [PropertyListValue] = [
      .string(""), .integer(0), .double(0), .bool(false), .array([]), .dictionary([:]), .data(Data()),
      .string("{}"), .data(Data("{}".utf8)), .string("[]"), .data(Data("[]".utf8)),
    ]
    for empty in empties { if let value = try? Value(propertyListValue: empty) { return value } }
    preconditionFailure(Self.mismatchMessage(key, Value.self) + ", and no \(given) value can be made")
  }

  /// Stores `value` for `key`; `nil` (for optional keys) removes the stored value.
  ///
  /// A value whose type differs from the key's declared type is not stored: the error is
  /// reported through ``PreferenceDiagnostics`` and the method returns `false`.
  @discardableResult
  public func set<Value: PreferenceValue>(_ value: Value, for key: Keys) -> Bool {
    guard Self.accepts(key, Value.self) else {
      PreferenceDiagnostics.report(
        .wrongValueType(
          key: key.rawValue, declared: Self.declaredTypeName(key), given: String(describing: Value.self)))
      return false
    }
    store.set(value, forKey: key.rawValue)
    return true
  }

  /// Reads or writes `key` as `Value`.
  public subscript<Value: PreferenceValue>(key: Keys, as type: Value.Type = Value.self) -> Value {
    get { value(for: key) }
    nonmutating set { set(newValue, for: key) }
  }

  /// The string value of `key`, declared as `String`.
  @inlinable public func string(for key: Keys) -> String { value(for: key) }
  /// The integer value of `key`, declared as `Int`.
  @inlinable public func integer(for key: Keys) -> Int { value(for: key) }
  /// The Boolean value of `key`, declared as `Bool`.
  @inlinable public func bool(for key: Keys) -> Bool { value(for: key) }
  /// The floating-point value of `key`, declared as `Double`.
  @inlinable public func double(for key: Keys) -> Double { value(for: key) }

  /// Removes the stored value of `key`, so that it reads its default again.
  public func reset(_ key: Keys) { store.removeValue(forKey: key.rawValue) }

  /// Removes the stored value of every key.
  public func resetAll() { for key in Keys.allCases { reset(key) } }

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
