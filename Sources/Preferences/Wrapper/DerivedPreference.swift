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
/// Creating the wrapper does no work: it records where it was declared and keeps the default as
/// a closure. The first read registers every default of the module with the store; later reads
/// come from the store's cache.
@propertyWrapper
public struct DerivedPreference<Value: PreferenceValue, Registry: GeneratedPreferenceRegistry>: Sendable {
  @usableFromInline let index: Int
  @usableFromInline let defaultValue: @Sendable () -> Value
  @usableFromInline let fileID: StaticString
  @usableFromInline let line: UInt32
  @usableFromInline let column: UInt32

  /// Declares a preference whose key is derived from the enclosing type and property name.
  ///
  /// - Parameters:
  ///   - wrappedValue: The default value, used until a value is stored.
  ///   - key: An explicit key, for data stored under a name that does not follow the
  ///     `Type.property` scheme. Must be a string literal; the build plugin reads it.
  ///   - store: The store for this preference; ``PreferenceStore/default`` if omitted. The build
  ///     plugin evaluates this expression in the generated registry.
  ///   - renamedFrom: Keys this preference was stored under before a rename, newest first. Must
  ///     be string literals; the build plugin reads them.
  @inlinable
  public init(
    wrappedValue: @autoclosure @escaping @Sendable () -> Value,
    key: StaticString? = nil,
    store: @autoclosure () -> PreferenceStore = .default,
    renamedFrom: StaticString...,
    fileID: StaticString = #fileID, line: UInt = #line, column: UInt = #column
  ) {
    self.index = Registry.index(fileID: fileID, line: line, column: column)
    self.defaultValue = wrappedValue
    self.fileID = fileID
    self.line = UInt32(truncatingIfNeeded: line)
    self.column = UInt32(truncatingIfNeeded: column)
  }

  /// The key this preference is stored under.
  public var key: String {
    index >= 0 ? Registry.key(at: index) : "\(fileID):\(line):\(column)"
  }

  /// The store this preference lives in.
  public var store: PreferenceStore {
    index >= 0 ? Registry.store(at: index) : Self.unresolved()
  }

  /// The stored value, or the default.
  public var wrappedValue: Value {
    get {
      let store = self.store
      let key = self.key
      if let cached = store.cachedValue(forKey: key, as: Value.self) { return cached }
      Registry.ensureRegistered(in: store)
      return store.value(forKey: key, default: defaultValue())
    }
    nonmutating set {
      store.set(newValue, forKey: key)
    }
  }

  /// Access to the key, the stored state and reset: `$username.key`, `$username.reset()`.
  public var projectedValue: PreferenceProjection<Value> {
    PreferenceProjection(key: key, store: store, defaultValue: defaultValue)
  }

  private static func unresolved() -> PreferenceStore {
    // The scanner did not see this declaration: keep its values in memory rather than persist
    // them under a made-up key, and say so.
    PreferenceDiagnostics.report(
      .typeMismatch(
        key: "(unresolved)", expected: "a generated key",
        found: "a @Preference the build plugin did not record; rebuild, or report the declaration"))
    return unresolvedStore
  }

  private static var unresolvedStore: PreferenceStore { UnresolvedStore.shared }
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
  private let makeDefault: @Sendable () -> Value

  init(key: String, store: PreferenceStore, defaultValue: @escaping @Sendable () -> Value) {
    self.key = key
    self.store = store
    self.makeDefault = defaultValue
  }

  /// The declared default value.
  public var defaultValue: Value { makeDefault() }

  /// The current value.
  public var value: Value {
    get { store.value(forKey: key, default: makeDefault()) }
    nonmutating set { store.set(newValue, forKey: key) }
  }

  /// Whether a value is explicitly stored (as opposed to the default being used).
  public var isStored: Bool { store.hasStoredValue(forKey: key) }

  /// Removes the stored value, so that the preference reads its default again.
  public func reset() { store.removeValue(forKey: key) }
}
