import Foundation

/// The property wrapper behind `@Preference`: a value stored under a key that the build plugin
/// derived from the enclosing type and property names.
///
/// You write `@Preference`; the registry file that `PreferenceRegistryPlugin` generates declares
/// `typealias Preference<Value> = DerivedPreference<Value, PreferenceRegistry>` in your module.
///
/// ```swift
/// struct ContentView {
///   @Preference var username = "Anonymous"               // key "ContentView.username"
///   @Preference(key: "HighScore") var highScore = 0       // an explicit key for legacy data
///   @Preference(store: .suite("group.com.example")) var shared = false
/// }
/// ```
///
/// Creating the wrapper does no work beyond evaluating the default, exactly as a plain stored
/// property would: it records where it was declared and keeps the default value. The first read
/// registers every default of the module with the store; later reads come from the store's
/// cache without hashing the key.
@propertyWrapper
public struct DerivedPreference<Value: PreferenceValue, Registry: GeneratedPreferenceRegistry>: Sendable {
  // Only the declaration's location and default: creating a wrapper (which happens every time
  // its enclosing value is created) stores two words beside the default, and does nothing else.
  // The default is kept as a value, not a closure: a closure costs two more words and a release
  // per wrapper, and a plain stored property evaluates its initial value on every init too.
  // The address of the `#fileID` literal: immortal, immutable text, so sharing it is safe.
  @usableFromInline let fileIDAddress: UInt
  @usableFromInline let location: UInt64
  @usableFromInline let defaultValue: Value

  /// Declares a preference whose key is derived from the enclosing type and property name.
  ///
  /// - Parameters:
  ///   - wrappedValue: The default value, used until a value is stored. Like a stored property's
  ///     initial value, it is evaluated each time the enclosing value is created; the generated
  ///     registry evaluates it once more to register it with the store.
  ///   - key: An explicit key, for data stored under a name that does not follow the
  ///     `Type.property` scheme. Must be a string literal; the build plugin reads it.
  ///   - store: The store for this preference; ``PreferenceStore/default`` if omitted. The build
  ///     plugin evaluates this expression in the generated registry.
  ///   - sync: Whether ``PreferenceSync`` mirrors this preference to the user's other devices
  ///     (listed in `PreferenceRegistry.syncedKeys`). Must be a literal; the build plugin reads it.
  ///   - settings: Whether `swift package preferences export --format settings-plist` lists this
  ///     preference in the iOS Settings app's `Root.plist`. Must be a literal.
  ///   - renamedFrom: Keys this preference was stored under before a rename, newest first. Must
  ///     be string literals; the build plugin reads them.
  @inlinable
  public init(
    wrappedValue: Value,
    key: StaticString? = nil,
    store: @autoclosure () -> PreferenceStore = .default,
    sync: Bool = false,
    settings: Bool = false,
    renamedFrom: StaticString...,
    fileID: StaticString = #fileID, line: UInt = #line, column: UInt = #column
  ) {
    self.init(default: wrappedValue, fileID: fileID, line: line, column: column)
  }

  /// Declares an optional preference without a default: `@Preference var lastSearch: String?`
  /// reads `nil` until a value is stored, like a plain optional property.
  ///
  /// The parameters are those of ``init(wrappedValue:key:store:sync:settings:renamedFrom:fileID:line:column:)``.
  /// (Without `renamedFrom:`, so that a type holding such a property keeps its `init()`.)
  @inlinable
  public init(
    key: StaticString? = nil,
    store: @autoclosure () -> PreferenceStore = .default,
    sync: Bool = false,
    settings: Bool = false,
    fileID: StaticString = #fileID, line: UInt = #line, column: UInt = #column
  ) where Value: ExpressibleByNilLiteral {
    self.init(default: nil, fileID: fileID, line: line, column: column)
  }

  /// Declares a renamed optional preference without a default:
  /// `@Preference(renamedFrom: "query") var lastSearch: String?`.
  @inlinable
  public init(
    key: StaticString? = nil,
    store: @autoclosure () -> PreferenceStore = .default,
    sync: Bool = false,
    settings: Bool = false,
    renamedFrom: StaticString...,
    fileID: StaticString = #fileID, line: UInt = #line, column: UInt = #column
  ) where Value: ExpressibleByNilLiteral {
    self.init(default: nil, fileID: fileID, line: line, column: column)
  }

  /// What every declaration form stores: the default and where the declaration is. The other
  /// arguments are read by the build plugin from source.
  @inlinable
  init(default defaultValue: Value, fileID: StaticString, line: UInt, column: UInt) {
    self.fileIDAddress = UInt(bitPattern: fileID.utf8Start)
    self.location = _preferenceLocation(line: line, column: column)
    self.defaultValue = defaultValue
  }

  @inlinable @inline(__always) var fileID: UnsafeRawPointer { UnsafeRawPointer(bitPattern: fileIDAddress)! }
  @inlinable @inline(__always) var index: Int { Registry.index(fileID: fileID, location: location) }

  /// The key this preference is stored under.
  public var key: String { resolved.key }

  /// The store this preference lives in.
  public var store: PreferenceStore { resolved.store }

  /// The key and store, from one registry lookup.
  var resolved: (key: String, store: PreferenceStore) {
    let index = self.index
    guard index >= 0 else {
      return (Self.unresolvedKey(fileID, location), Self.unresolvedStore(fileID, location))
    }
    return (Registry.key(at: index), Registry.store(at: index))
  }

  /// The stored value, or the default.
  public var wrappedValue: Value {
    @inlinable get {
      let index = self.index
      guard index >= 0 else {
        return Self.unresolvedStore(fileID, location).value(
          forKey: Self.unresolvedKey(fileID, location), default: defaultValue)
      }
      let store = Registry.store(at: index)
      let slot = Registry.slotBase &+ index
      if let cached = store.cachedValue(inSlot: slot, as: Value.self) { return cached }
      Registry.ensureRegistered(in: store)
      return store.value(forKey: Registry.key(at: index), slot: slot, default: defaultValue)
    }
    nonmutating set {
      let (key, store) = resolved
      store.set(newValue, forKey: key)
    }
  }

  /// Access to the key, the stored state and reset: `$username.key`, `$username.reset()`.
  public var projectedValue: PreferenceProjection<Value> {
    let (key, store) = resolved
    return PreferenceProjection(key: key, store: store, defaultValue: defaultValue)
  }

  @usableFromInline static func unresolvedKey(_ fileID: UnsafeRawPointer, _ location: UInt64) -> String {
    "\(String(cString: fileID.assumingMemoryBound(to: CChar.self))):\(location >> 32):\(location & 0xFFFF_FFFF)"
  }

  @usableFromInline static func unresolvedStore(_ fileID: UnsafeRawPointer, _ location: UInt64)
    -> PreferenceStore
  {
    // The scanner did not see this declaration: keep its values in memory rather than persist
    // them under a made-up key, and say so.
    PreferenceDiagnostics.report(
      .unresolvedDeclaration(location: unresolvedKey(fileID, location)))
    return UnresolvedStore.shared
  }
}

/// Packs a declaration's line and column into one integer, as generated registries switch on.
@inlinable
public func _preferenceLocation(line: UInt, column: UInt) -> UInt64 {
  UInt64(truncatingIfNeeded: line) << 32 | UInt64(truncatingIfNeeded: column) & 0xFFFF_FFFF
}

private enum UnresolvedStore {
  static let shared = PreferenceStore.inMemory()
}

/// The projected value of `@Preference`: `$name.key`, `$name.isStored`, `$name.reset()`.
public struct PreferenceProjection<Value: PreferenceValue>: Sendable {
  /// The key the value is stored under.
  public let key: String
  /// The store the value lives in.
  public let store: PreferenceStore
  /// The declared default value.
  public let defaultValue: Value

  init(key: String, store: PreferenceStore, defaultValue: Value) {
    self.key = key
    self.store = store
    self.defaultValue = defaultValue
  }

  /// The current value.
  public var value: Value {
    get { store.value(forKey: key, default: defaultValue) }
    nonmutating set { store.set(newValue, forKey: key) }
  }

  /// Whether a value is explicitly stored (as opposed to the default being used).
  public var isStored: Bool { store.hasStoredValue(forKey: key) }

  /// Removes the stored value, so that the preference reads its default again.
  public func reset() { store.removeValue(forKey: key) }
}
