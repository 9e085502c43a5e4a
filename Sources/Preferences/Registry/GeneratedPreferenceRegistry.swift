import Foundation

/// The table that the build plugin generates for a module: every `@Preference` declaration, its
/// key, store and default.
///
/// You do not conform to this protocol yourself. `PreferenceRegistryPlugin` generates an
/// `enum PreferenceRegistry: GeneratedPreferenceRegistry` in each target it is applied to,
/// together with `typealias Preference<Value> = DerivedPreference<Value, PreferenceRegistry>`, so
/// that `@Preference` in that module finds its key through the table. Use the generated type to
/// list preferences and to register defaults early:
///
/// ```swift
/// PreferenceRegistry.registerDefaults()          // before code that reads the store directly
/// for preference in PreferenceRegistry.preferences {
///   print(preference.key, preference.defaultValueSource)
/// }
/// ```
public protocol GeneratedPreferenceRegistry: Sendable {
  /// The per-file tables of the module (generated-code `PreferenceFileTable` values, or
  /// `(fileID, records)` pairs of static strings for files whose declarations need no code;
  /// typed `Any` because a module with `public` preferences declares this member `public`, where
  /// an SPI type cannot appear).
  @_spi(Generated) static func _preferenceFiles() -> [Any]
  /// Keys `Preferences.lock` marks retired.
  @_spi(Generated) static func _retiredKeys() -> [String]
  /// Whether the module's default isolation is the main actor (Xcode 26's default for new app
  /// targets), found at run time by generated code.
  @_spi(Generated) static func _mainActorIsDefaultIsolation() -> Bool
  /// Whether a `@Preference` declared on `line` (as the compiler reports it) keeps its default
  /// when it is created: those on the lines of declarations whose default the registry cannot
  /// evaluate (``PreferenceDescriptor/Registration/firstRead``). Every other declaration's
  /// default comes from the registry, and its wrapper keeps nothing but its location.
  ///
  /// The generated answer is a `switch` over constant lines, which the optimizer folds into each
  /// declaration's initializer (`#line` is a constant there). Public, not SPI, because the
  /// wrapper's inlinable initializer calls it.
  @_documentation(visibility: internal)
  static func _keepsDefault(line: UInt) -> Bool
  /// Whether a `@Preference` declared on `line` evaluates its `store:` expression when it is
  /// created: those whose store names a `private` or `fileprivate` member, which generated code
  /// cannot see (``PreferenceDescriptor/storeIsKeptByDeclaration``). A `switch` over constant
  /// lines, folded into each declaration's initializer as ``_keepsDefault(line:)`` is.
  @_documentation(visibility: internal)
  static func _keepsStore(line: UInt) -> Bool
}

extension GeneratedPreferenceRegistry {
  /// For registries generated before the question was asked: assume the main actor.
  @_spi(Generated) public static func _mainActorIsDefaultIsolation() -> Bool { true }

  /// For registries that do not say: every declaration keeps its default.
  @_documentation(visibility: internal)
  public static func _keepsDefault(line: UInt) -> Bool { true }

  /// For registries that do not say: no declaration keeps its store.
  @_documentation(visibility: internal)
  public static func _keepsStore(line: UInt) -> Bool { false }

  /// Every preference declared in the module, in file and source order.
  public static var preferences: [PreferenceDescriptor] {
    RegistryCatalog.of(Self.self).allEntries().map(\.descriptor)
  }

  /// Keys `Preferences.lock` marks retired that no declaration uses.
  public static var retiredKeys: [String] { _retiredKeys() }

  /// Registers the defaults of every preference of this module with its store, once per store,
  /// after moving values stored under old keys to their new keys.
  ///
  /// The first read of any `@Preference` of the module does this for every store the module's
  /// preferences name; call it at launch only if code reads a store (or `UserDefaults`) directly
  /// before any `@Preference` is read.
  public static func registerDefaults() {
    RegistryCatalog.of(Self.self).ensureRegistered(in: .default)
  }

  /// Registers this module's defaults with `store`, after moving values stored under old keys to
  /// their new keys, unless that already happened.
  public static func registerDefaults(in store: PreferenceStore) {
    RegistryCatalog.of(Self.self).ensureRegistered(in: store)
  }

  /// Removes the values of keys `Preferences.lock` marks retired from `store`. A key that a
  /// declaration uses again is never removed.
  ///
  /// - Returns: The retired keys that had a value.
  @discardableResult
  public static func removeRetiredValues(from store: PreferenceStore = .default) -> [String] {
    let declared = Set(preferences.map(\.key))
    return retiredKeys.filter { key in
      guard !declared.contains(key), store.hasStoredValue(forKey: key) else { return false }
      store.removeValue(forKey: key)
      return true
    }
  }

  /// The keys of the preferences declared with `sync: true`, for ``PreferenceSync``.
  public static var syncedKeys: Set<String> { Set(preferences.filter(\.syncs).map(\.key)) }

  /// The descriptor of the preference stored under `key`, if this module declares it.
  public static func preference(forKey key: String) -> PreferenceDescriptor? {
    preferences.first { $0.key == key }
  }
}
