import Foundation

/// The table that the build plugin generates for a module: one entry per `@Preference`
/// declaration.
///
/// You do not conform to this protocol yourself. `PreferenceRegistryPlugin` writes an
/// `enum PreferenceRegistry: GeneratedPreferenceRegistry` into each target it is applied to,
/// together with `typealias Preference<Value> = DerivedPreference<Value, PreferenceRegistry>`, so
/// that `@Preference` in that module finds its key through the table. Use the generated type to
/// list preferences and to register defaults early:
///
/// ```swift
/// PreferenceRegistry.registerDefaults()          // before code that reads UserDefaults directly
/// for preference in PreferenceRegistry.preferences {
///   print(preference.key, preference.defaultValue)
/// }
/// ```
public protocol GeneratedPreferenceRegistry: Sendable {
  /// Every preference declared in the module.
  static var preferences: [PreferenceDescriptor] { get }

  /// The entry declared at the given location (`#fileID`'s bytes, and
  /// `_preferenceLocation(line:column:)`), or `-1`.
  static func index(fileID: UnsafeRawPointer, location: UInt64) -> Int

  /// The first of the cache slots this registry reserved, one per entry (generated as
  /// `static let slotBase = _reservePreferenceSlots(count)`). Entry `index` reads its store's
  /// cache through slot `slotBase + index`, without hashing its key.
  static var slotBase: Int { get }

  /// The key of entry `index`.
  static func key(at index: Int) -> String

  /// The store of entry `index`: its explicit store, or ``PreferenceStore/default``.
  static func store(at index: Int) -> PreferenceStore

  /// The default values of the entries that live in `store`, keyed by key.
  static func defaults(for store: PreferenceStore) -> [String: any PreferenceValue]

  /// For entries that live in `store`: the keys each was stored under before, newest first
  /// (`renamedFrom:`, configured migrations, and the chains `Preferences.lock` remembers).
  static func renames(for store: PreferenceStore) -> [String: [String]]

  /// Keys `Preferences.lock` marks retired.
  static var retiredKeys: [String] { get }
}

extension GeneratedPreferenceRegistry {
  /// Registers the defaults of every preference of this module with its store, once per store.
  ///
  /// Reading any `@Preference` does this automatically; call it at launch only if code reads the
  /// store (or UserDefaults) directly before the first `@Preference` is read.
  public static func registerDefaults() {
    var stores: [ObjectIdentifier: PreferenceStore] = [:]
    for index in preferences.map(\.index) {
      let store = store(at: index)
      stores[ObjectIdentifier(store)] = store
    }
    let defaultStore = PreferenceStore.default
    stores[ObjectIdentifier(defaultStore)] = defaultStore
    for store in stores.values { ensureRegistered(in: store) }
  }

  /// Registers this module's defaults with `store`, after moving values stored under old keys
  /// to their new keys, unless that already happened.
  public static func ensureRegistered(in store: PreferenceStore) {
    store.registerOnce(ObjectIdentifier(Self.self)) {
      for (key, oldKeys) in renames(for: store).sorted(by: { $0.key < $1.key }) {
        store.migrate(from: oldKeys, to: key)
      }
      return defaults(for: store)
    }
  }

  /// Removes the values of keys `Preferences.lock` marks retired from `store`.
  ///
  /// - Returns: The retired keys that had a value.
  @discardableResult
  public static func removeRetiredValues(from store: PreferenceStore = .default) -> [String] {
    retiredKeys.filter { key in
      guard store.hasStoredValue(forKey: key) else { return false }
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

/// Whether the NUL-terminated `#fileID` bytes at `fileID` equal `literal`, without allocating.
/// Used by generated registries.
@inlinable
public func _fileIDEquals(_ fileID: UnsafeRawPointer, _ literal: StaticString) -> Bool {
  let count = literal.utf8CodeUnitCount
  if fileID == UnsafeRawPointer(literal.utf8Start) { return true }
  return memcmp(fileID, literal.utf8Start, count) == 0
    && fileID.load(fromByteOffset: count, as: UInt8.self) == 0
}

/// A description of one `@Preference` declaration, for tools, exports and debug screens.
public struct PreferenceDescriptor: Sendable, Hashable, Codable {
  /// The entry's position in the generated table.
  public var index: Int
  /// The key the value is stored under.
  public var key: String
  /// The property name (without backticks).
  public var property: String
  /// The enclosing type, fully qualified within the module (`Outer.Inner`).
  public var declaringType: String
  /// The declared type, or the type inferred from a literal default; `nil` when neither is known.
  public var valueType: String?
  /// The source text of the default value expression.
  public var defaultValue: String
  /// The `///` documentation comment of the declaration, without the slashes.
  public var documentation: String?
  /// `#fileID` of the declaring file (`Module/File.swift`).
  public var fileID: String
  /// Line of the attribute.
  public var line: Int
  /// Column of the attribute name.
  public var column: Int
  /// The `#if` condition the declaration is compiled under, if any.
  public var condition: String?
  /// Whether the preference is mirrored to the user's other devices (`sync: true`).
  public var syncs: Bool

  /// Creates a descriptor. Generated registries call this.
  public init(
    index: Int, key: String, property: String, declaringType: String, valueType: String?,
    defaultValue: String, documentation: String?, fileID: String, line: Int, column: Int,
    condition: String? = nil, syncs: Bool = false
  ) {
    self.index = index
    self.key = key
    self.property = property
    self.declaringType = declaringType
    self.valueType = valueType
    self.defaultValue = defaultValue
    self.documentation = documentation
    self.fileID = fileID
    self.line = line
    self.column = column
    self.condition = condition
    self.syncs = syncs
  }
}
