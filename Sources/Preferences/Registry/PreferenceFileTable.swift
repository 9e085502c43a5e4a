import Foundation

/// The part of a generated registry that belongs to one source file: its declarations as JSON
/// records, and the code that evaluates their defaults and stores where the declarations are.
///
/// The generator returns it from one function per source file. A function's body is not part of
/// its module's interface, so a table costs the module-wide `emit-module` job of every build
/// nothing beyond its signature (a type conforming to a protocol per file did, in every build).
///
/// Generated code only; not part of the public API.
@_spi(Generated)
public struct PreferenceFileTable: Sendable {
  /// `#fileID` of the source file.
  public let fileID: StaticString
  /// The file's declarations, as JSON arrays of ``PreferenceDescriptor`` records (with the
  /// generator's `index` and `registeredValue` fields); one array per `#if` branch compiled.
  let records: @Sendable () -> [String]
  /// How the registry evaluates the default of record `index`.
  let registration: @Sendable (_ index: Int) -> PreferenceRegistration
  /// The store of record `index`, if its declaration names one (`@Preference(store: …)`).
  let store: @Sendable (_ index: Int) -> PreferenceStore?
  /// The store record `index`'s value moves from, if its declaration names one
  /// (`@Preference(store: …, movedFrom: …)`).
  let movedFrom: @Sendable (_ index: Int) -> PreferenceStore?
  /// The store of record `index` when its expression may need the main actor.
  let isolatedStore: @Sendable (_ index: Int) -> PreferenceIsolatedStore?

  /// A table; the closures run only when the runtime first needs the file's declarations.
  public init(
    fileID: StaticString,
    records: @escaping @Sendable () -> [String],
    registration: @escaping @Sendable (_ index: Int) -> PreferenceRegistration = { _ in .none },
    store: @escaping @Sendable (_ index: Int) -> PreferenceStore? = { _ in nil },
    movedFrom: @escaping @Sendable (_ index: Int) -> PreferenceStore? = { _ in nil },
    isolatedStore: @escaping @Sendable (_ index: Int) -> PreferenceIsolatedStore? = { _ in nil }
  ) {
    self.fileID = fileID
    self.records = records
    self.registration = registration
    self.store = store
    self.movedFrom = movedFrom
    self.isolatedStore = isolatedStore
  }
}

extension PreferenceFileTable {
  /// The table of one element of a generated `_preferenceFiles()`: a table, or, for a file whose
  /// declarations need no code (literal defaults outside `#if`, no `store:` or `movedFrom:`), its
  /// `#fileID` and its records as two static strings, which compile much faster than a table
  /// value with closures. `nil` for anything else (generated code of another version of the library).
  init?(generated: Any) {
    if let table = generated as? PreferenceFileTable {
      self = table
    } else if let (fileID, records) = generated as? (StaticString, StaticString) {
      self.init(fileID: fileID, records: { [RegistryCatalog.text(records)] })
    } else {
      return nil
    }
  }
}

/// A declaration's store whose expression reads names that may be isolated to the main actor
/// (`store: Settings.shared`, a `static let` of a type that Xcode 26's default isolation makes
/// main-actor isolated).
///
/// Generated code only; not part of the public API.
@_spi(Generated)
public struct PreferenceIsolatedStore: Sendable {
  /// Whether the expression's names are isolated only as the module's default isolation makes
  /// them: then it is evaluated anywhere in a module whose default is nonisolated.
  let followsDefaultIsolation: Bool
  let evaluate: @MainActor @Sendable () -> PreferenceStore

  /// A store expression, and whether its isolation is only the module's default.
  public init(followsDefaultIsolation: Bool, evaluate: @escaping @MainActor @Sendable () -> PreferenceStore) {
    self.followsDefaultIsolation = followsDefaultIsolation
    self.evaluate = evaluate
  }
}

/// How a generated registry evaluates a default, in the declaration's own context.
///
/// Generated code only; not part of the public API.
@_spi(Generated)
public enum PreferenceRegistration: Sendable {
  /// Nothing to evaluate: the record carries the encoded default, or the declaration registers
  /// it at its first read.
  case none
  /// Evaluated wherever registration runs.
  case registry(@Sendable () -> PropertyListValue?)
  /// Evaluated on the main actor: when registration runs on the main thread; otherwise the
  /// declaration registers its default at its first read.
  case mainActor(@MainActor @Sendable () -> PropertyListValue?)
  /// Evaluated in the module's default isolation: wherever registration runs in a module whose
  /// default isolation is nonisolated; as ``mainActor(_:)`` where the main actor is the default.
  case defaultIsolation(@MainActor @Sendable () -> PropertyListValue?)
}

@_spi(Generated)
extension _Preferences {
  /// A declaration's default in stored form, for registration: JSON text for a
  /// `format: .json` declaration. The compiler picks this overload wherever the value's type
  /// conforms, so launch makes no conformance lookup per default.
  public static func encodedDefault<Value: PreferenceValue>(
    _ value: Value, format: PreferenceFormat = .propertyList
  ) -> PropertyListValue? {
    try? PreferenceStore.encode(value, json: format == .json)
  }

  /// A default whose type the compiler does not know to conform: generic without constraints,
  /// so that generated code never fails to compile because of the value's type (the compiler
  /// reports a missing `PreferenceValue` conformance once, at the declaration).
  @_disfavoredOverload
  public static func encodedDefault<Value>(_ value: Value, format: PreferenceFormat = .propertyList)
    -> PropertyListValue?
  {
    guard let value = value as? any PreferenceValue else { return nil }
    func encode<V: PreferenceValue>(_ value: V) -> PropertyListValue? {
      try? PreferenceStore.encode(value, json: format == .json)
    }
    return encode(value)
  }

  /// Marker protocols for generated compile-time checks of a declaration's type against
  /// `Preferences.lock`: values stored as integers, and as floating-point numbers, read each
  /// other.
  public protocol StoredAsInteger {}
  /// Floating-point types, whose stored values read as one another.
  public protocol StoredAsReal {}
}

@_spi(Generated) extension Int: _Preferences.StoredAsInteger {}
@_spi(Generated) extension Int8: _Preferences.StoredAsInteger {}
@_spi(Generated) extension Int16: _Preferences.StoredAsInteger {}
@_spi(Generated) extension Int32: _Preferences.StoredAsInteger {}
@_spi(Generated) extension Int64: _Preferences.StoredAsInteger {}
@_spi(Generated) extension UInt: _Preferences.StoredAsInteger {}
@_spi(Generated) extension UInt8: _Preferences.StoredAsInteger {}
@_spi(Generated) extension UInt16: _Preferences.StoredAsInteger {}
@_spi(Generated) extension UInt32: _Preferences.StoredAsInteger {}
@_spi(Generated) extension UInt64: _Preferences.StoredAsInteger {}
@_spi(Generated) extension Double: _Preferences.StoredAsReal {}
@_spi(Generated) extension Float: _Preferences.StoredAsReal {}

/// Calls `function`, declared `@MainActor` by generated code, on the calling thread.
///
/// Only for functions whose names are all isolated as the module's default isolation makes them
/// (the scanner's `defaultIsolation`), in a module whose default isolation the registry found to
/// be nonisolated (``GeneratedPreferenceRegistry/_mainActorIsDefaultIsolation()``): every name
/// the function reads is then nonisolated, so calling it off the main actor races with nothing.
/// The `@MainActor` on the function type is there only so that the same generated code compiles
/// where the main actor is the default; a global-actor function type has the same
/// representation as a plain one, so the cast changes no value.
func callInDefaultIsolation<Result>(_ function: @escaping @MainActor @Sendable () -> Result) -> Result {
  unsafeBitCast(function, to: (@Sendable () -> Result).self)()
}
