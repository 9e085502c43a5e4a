import Foundation

/// Where preferences live: a backend plus registered defaults, launch-argument overrides and a
/// cache of decoded values.
///
/// A read looks, in order, at a launch-argument override (`-Key value`), the stored value, the
/// registered default, and finally the default passed to the read. Decoded values are cached, so
/// a repeated read costs a dictionary lookup, not a decode.
///
/// ```swift
/// let store = PreferenceStore.standard
/// store.register(defaults: ["HighScore": 0, "ReadingMode": "standard"])
/// store.set(42, forKey: "HighScore")
/// let score = store.value(forKey: "HighScore", default: 0)   // 42
/// ```
///
/// Stores are thread-safe. Factory methods such as ``suite(_:)`` and
/// ``propertyList(at:format:)`` return the same store for the same suite or file, so every part
/// of the app shares one cache.
public final class PreferenceStore: Sendable {
  /// Where values are persisted.
  public let backend: any PreferenceBackend
  /// Launch-argument overrides: `-Key value` pairs from the process arguments.
  public let overrides: [String: String]

  @usableFromInline
  struct State {
    var registered: [String: PropertyListValue] = [:]
    @usableFromInline var cache = ValueCache()
    var registries: Set<ObjectIdentifier> = []
    /// Observers by key, and the effective value each key's observers last heard about.
    var listeners: [String: [Int: @Sendable () -> Void]] = [:]
    var lastNotified: [String: PropertyListValue?] = [:]
    var nextListener = 0
    /// Incremented by every change; observers use it to deliver values in order.
    var version: UInt64 = 0
    @usableFromInline init() {}
  }

  @usableFromInline let state = Locked(State())

  /// Creates a store over `backend`.
  ///
  /// - Parameters:
  ///   - backend: Where values are persisted.
  ///   - arguments: The process arguments to read `-Key value` overrides from; pass `[]` to
  ///     ignore launch arguments.
  public init(
    backend: any PreferenceBackend,
    arguments: [String] = ProcessInfo.processInfo.arguments
  ) {
    self.backend = backend
    self.overrides = LaunchArguments.overrides(in: arguments)
  }

  // MARK: Typed reads

  /// The value for `key`: a launch-argument override, else the stored value, else the
  /// registered default, else `defaultValue`.
  ///
  /// A stored value of the wrong type, or one that fails to decode, yields the default, is
  /// reported once through ``PreferenceDiagnostics``, and is left untouched in the store.
  ///
  /// - Complexity: O(1) after the first read of `key`: one lock and one dictionary lookup.
  public func value<Value: PreferenceValue>(
    forKey key: String, default defaultValue: @autoclosure () -> Value
  ) -> Value {
    state.withLock { state in value(forKey: key, in: &state, default: defaultValue) }
  }

  /// The value of `key` and the store's change count, read together.
  func versionedValue<Value: PreferenceValue>(forKey key: String, default defaultValue: () -> Value) -> (
    Value, UInt64
  ) {
    state.withLock { state in (value(forKey: key, in: &state, default: defaultValue), state.version) }
  }

  /// The value for `key`, binding cache slot `slot` (from a generated registry) to it.
  ///
  /// A declaration whose default the registry could not evaluate (see the scanner's
  /// registration blockers) registers it here, on its first read: `defaultValue` is registered
  /// unless a default for `key` already is.
  @usableFromInline
  func value<Value: PreferenceValue>(forKey key: String, slot: Int, default defaultValue: Value) -> Value {
    state.withLock { state in
      if state.registered[key] == nil, let encoded = try? defaultValue.propertyListValue() {
        state.registered[key] = encoded
      }
      return value(forKey: key, slot: slot, in: &state, default: { defaultValue })
    }
  }

  private func value<Value: PreferenceValue>(
    forKey key: String, slot: Int = -1, in state: inout State, default defaultValue: () -> Value
  )
    -> Value
  {
    if let cached = ValueBox<Value>.unbox(state.cache[key]) {
      state.cache.bind(slot: slot, toKey: key)
      return cached
    }
    let value = resolve(key, registered: state.registered[key], default: defaultValue)
    state.cache[key] = ValueBox(value)
    state.cache.bind(slot: slot, toKey: key)
    return value
  }

  /// The cached value for `key` if there is one of type `Value`; never touches the backend.
  @inlinable @inline(__always)
  func cachedValue<Value>(forKey key: String, as type: Value.Type) -> Value? {
    state.withLock { state in ValueBox<Value>.unbox(state.cache[key]) }
  }

  /// The cached value of the key bound to `slot` if there is one of type `Value`: no hashing.
  @inlinable @inline(__always)
  func cachedValue<Value>(inSlot slot: Int, as type: Value.Type) -> Value? {
    state.withLock { state in ValueBox<Value>.unbox(state.cache.box(inSlot: slot)) }
  }

  private func resolve<Value: PreferenceValue>(
    _ key: String, registered: PropertyListValue?, default defaultValue: () -> Value
  ) -> Value {
    if let text = overrides[key] {
      if let value = Value(launchArgument: text) { return value }
      PreferenceDiagnostics.report(
        .typeMismatch(key: key, expected: String(describing: Value.self), found: "launch argument '\(text)'"))
    }
    if let stored = backend.value(forKey: key) {
      do {
        return try Value(propertyListValue: stored)
      } catch {
        PreferenceDiagnostics.report(Self.decodingError(error, key: key, type: Value.self))
      }
    }
    if let registered, let value = try? Value(propertyListValue: registered) { return value }
    return defaultValue()
  }

  static func decodingError(_ error: any Error, key: String, type: Any.Type) -> PreferenceError {
    if let error = error as? PreferenceError { return error.withKey(key) }
    return .decodingFailed(key: key, type: String(describing: type), reason: "\(error)")
  }

  // MARK: Writes

  /// Stores `value` under `key`; `nil` (for optional values) removes the stored value.
  ///
  /// If the value cannot be encoded, nothing is stored and the error is reported through
  /// ``PreferenceDiagnostics``.
  public func set<Value: PreferenceValue>(_ value: Value, forKey key: String) {
    let encoded: PropertyListValue?
    do {
      encoded = try value.propertyListValue()
    } catch {
      PreferenceDiagnostics.report(
        .encodingFailed(key: key, type: String(describing: Value.self), reason: "\(error)"))
      return
    }
    state.withLock { state in
      backend.setValue(encoded, forKey: key)
      state.cache[key] = (encoded == nil || overrides[key] != nil) ? nil : ValueBox(value)
      state.version &+= 1
    }
    notifyIfChanged([key])
  }

  /// Removes the stored value for `key`, so that reads return the registered default again.
  public func removeValue(forKey key: String) {
    state.withLock { state in
      backend.setValue(nil, forKey: key)
      state.cache[key] = nil
      state.version &+= 1
    }
    notifyIfChanged([key])
  }

  /// Removes every value this store's backend holds. Registered defaults stay registered.
  public func removeAllValues() {
    let keys = state.withLock { state in
      let keys = Set(backend.allValues().keys)
      backend.removeAll()
      state.cache.removeAll()
      state.version &+= 1
      return keys
    }
    notifyIfChanged(keys)
  }

  /// Whether a value is explicitly stored for `key` (as opposed to a default being used).
  public func hasStoredValue(forKey key: String) -> Bool {
    backend.value(forKey: key) != nil
  }

  /// The stored property-list value for `key`, or the registered default, or `nil`.
  public func propertyListValue(forKey key: String) -> PropertyListValue? {
    state.withLock { state in backend.value(forKey: key) ?? state.registered[key] }
  }

  /// Every stored value, with registered defaults for keys that have no stored value.
  public func dictionaryRepresentation() -> [String: PropertyListValue] {
    state.withLock { state in state.registered.merging(backend.allValues()) { _, stored in stored } }
  }

  /// Writes pending changes to disk now.
  ///
  /// You rarely need this: writes reach disk shortly after they are made and at normal exit.
  public func flush() throws { try backend.flush() }

  // MARK: Registration

  /// Registers default values, with `UserDefaults.register(defaults:)` semantics.
  ///
  /// Registered defaults live in memory only: they are never written to the backend and never
  /// override a stored value. Registering again adds to (and for the same key, replaces) what was
  /// registered before. Register on every launch, before the first read.
  ///
  /// ```swift
  /// store.register(defaults: ["ReadingMode": "standard", "HighScore": 0])
  /// ```
  public func register(defaults: [String: any PreferenceValue]) {
    var encoded: [String: PropertyListValue] = [:]
    for (key, value) in defaults {
      do {
        if let plist = try value.propertyListValue() { encoded[key] = plist }
      } catch {
        PreferenceDiagnostics.report(
          .encodingFailed(key: key, type: String(describing: type(of: value)), reason: "\(error)"))
      }
    }
    state.withLock { state in
      for (key, value) in encoded {
        state.registered[key] = value
        state.cache[key] = nil
      }
      state.version &+= 1
    }
    notifyIfChanged(Set(encoded.keys))
  }

  /// The registered default for `key`, if any.
  public func registeredDefault(forKey key: String) -> PropertyListValue? {
    state.withLock { $0.registered[key] }
  }

  /// Every registered default.
  public var registeredDefaults: [String: PropertyListValue] { state.withLock { $0.registered } }

  /// Runs `register` once per registry type and store: used by generated registries.
  func registerOnce(_ id: ObjectIdentifier, _ makeDefaults: () -> [String: any PreferenceValue]) {
    guard state.withLock({ !$0.registries.contains(id) }) else { return }
    // Evaluate defaults outside the lock: a default may itself read preferences.
    let defaults = makeDefaults()
    register(defaults: defaults)
    state.withLock { _ = $0.registries.insert(id) }
  }

  // MARK: Migration

  /// Moves the value of the newest of `oldKeys` that holds one to `newKey`, atomically, unless
  /// `newKey` already holds a value (the newer one, written by code that knows the new name).
  ///
  /// Used for renames (`@Preference(renamedFrom: "B", "A")`): `oldKeys` are newest first. Only
  /// the key the value moved from is removed; idempotent.
  @discardableResult
  public func migrate(from oldKeys: [String], to newKey: String) -> MigrationResult {
    let (result, changed): (MigrationResult, Set<String>) = state.withLock { state in
      if backend.value(forKey: newKey) != nil {
        return (
          oldKeys.contains { backend.value(forKey: $0) != nil } ? .keptExistingValue : .nothingToMigrate, []
        )
      }
      for oldKey in oldKeys where oldKey != newKey {
        guard let old = backend.value(forKey: oldKey) else { continue }
        backend.setValue(old, forKey: newKey)
        backend.setValue(nil, forKey: oldKey)
        state.cache[oldKey] = nil
        state.cache[newKey] = nil
        state.version &+= 1
        return (.moved, [oldKey, newKey])
      }
      return (.nothingToMigrate, [])
    }
    notifyIfChanged(changed)
    return result
  }

  /// The outcome of ``migrate(from:to:)``.
  public enum MigrationResult: Equatable, Sendable {
    /// The value was moved from the old key to the new key.
    case moved
    /// Nothing is stored under the old key (never was, or already migrated).
    case nothingToMigrate
    /// Both keys hold a value: the new key's value was kept and the old one left in place.
    case keptExistingValue
  }

  /// Moves the value stored under `oldKey` to `newKey`, once.
  ///
  /// Idempotent: running it again finds nothing under `oldKey`. A value already stored under
  /// `newKey` is never overwritten. The move happens under the store's lock, so concurrent
  /// readers see either the old or the new state.
  ///
  /// ```swift
  /// store.migrate(from: "username", to: "ContentView.username")
  /// ```
  ///
  /// - Parameter transform: Converts the old stored value to the new representation, or returns
  ///   `nil` to leave the old value in place.
  @discardableResult
  public func migrate(
    from oldKey: String, to newKey: String,
    transform: (PropertyListValue) -> PropertyListValue? = { $0 }
  ) -> MigrationResult {
    let result: MigrationResult = state.withLock { state in
      guard oldKey != newKey, let old = backend.value(forKey: oldKey) else { return .nothingToMigrate }
      if backend.value(forKey: newKey) != nil { return .keptExistingValue }
      guard let new = transform(old) else { return .nothingToMigrate }
      backend.setValue(new, forKey: newKey)
      backend.setValue(nil, forKey: oldKey)
      state.cache[oldKey] = nil
      state.cache[newKey] = nil
      state.version &+= 1
      return .moved
    }
    if result == .moved { notifyIfChanged([oldKey, newKey]) }
    return result
  }
}

/// Holds a decoded value in the cache; a class so that a cache hit is a pointer check.
@usableFromInline
final class ValueBox<Value>: @unchecked Sendable {
  // @unchecked: `value` is a `let` of a `PreferenceValue` (which is `Sendable`); the generic
  // parameter is unconstrained only so that the cache can test `as? ValueBox<Value>` cheaply.
  @usableFromInline let value: Value
  @usableFromInline init(_ value: Value) { self.value = value }

  /// The value in `object` if it is a box of exactly this type: a pointer comparison, cheaper
  /// than a dynamic cast on the read path.
  @inlinable @inline(__always)
  static func unbox(_ object: AnyObject?) -> Value? {
    guard let object, ObjectIdentifier(type(of: object)) == ObjectIdentifier(ValueBox<Value>.self) else {
      return nil
    }
    return unsafeDowncast(object, to: ValueBox<Value>.self).value
  }
}
