import Foundation

/// A running observation; observing stops when it is cancelled or released.
public final class PreferenceObservation: Sendable {
  private let onCancel: Locked<(@Sendable () -> Void)?>

  init(onCancel: @escaping @Sendable () -> Void) { self.onCancel = Locked(onCancel) }

  /// Stops observing. Safe to call more than once.
  public func cancel() {
    let cancel = onCancel.withLock { handler in
      defer { handler = nil }
      return handler
    }
    cancel?()
  }

  deinit { cancel() }
}

extension PreferenceStore {
  /// Calls `handler` with the new value each time the value of `key` changes: through this
  /// store (any API, a reset, a migration, a registration that changes the effective value), or
  /// outside it (another process writing the same file or suite, other code writing the same
  /// `UserDefaults`).
  ///
  /// The handler is called once per actual change: a write of an equal value, or a registered
  /// default equal to `defaultValue` while nothing is stored, notifies nobody. It runs on the
  /// writing thread for changes made through this store, and on a background queue for outside
  /// changes; values arrive in order, and the last one is the store's final value.
  ///
  /// ```swift
  /// let observation = store.observe("Volume", default: 0.5) { volume in player.volume = volume }
  /// ```
  ///
  /// - Returns: An observation that stops when cancelled or released.
  public func observe<Value: PreferenceValue>(
    _ key: String, default defaultValue: @autoclosure @escaping @Sendable () -> Value,
    _ handler: @escaping @Sendable (Value) -> Void
  ) -> PreferenceObservation {
    let gate = ChangeGate(fallback: try? defaultValue().propertyListValue())
    return addListener(for: [key], starting: gate.start) { [weak self] _ in
      guard let self else { return }
      gate.deliverIfChanged({ self.snapshot(key, default: defaultValue) }, to: handler)
    }
  }

  /// The value of `key` now and after every change, as an async sequence. A value is yielded only
  /// when it differs from the one yielded before it.
  ///
  /// ```swift
  /// for await name in store.values(forKey: "ContentView.username", default: "Anonymous") { … }
  /// ```
  public func values<Value: PreferenceValue>(
    forKey key: String, default defaultValue: @autoclosure @escaping @Sendable () -> Value
  ) -> AsyncStream<Value> {
    AsyncStream { continuation in
      let gate = ChangeGate(fallback: try? defaultValue().propertyListValue())
      let read: @Sendable () -> (Value, PropertyListValue?, UInt64) = { [weak self] in
        guard let self else { return (defaultValue(), nil, 0) }
        return self.snapshot(key, default: defaultValue)
      }
      // Listen first, then yield the current value through the same gate: a change racing with
      // the start is yielded once, after it, never twice.
      let observation = addListener(for: [key]) { _ in
        gate.deliverIfChanged(read) { continuation.yield($0) }
      }
      gate.deliverFirst(read) { continuation.yield($0) }
      continuation.onTermination = { _ in observation.cancel() }
    }
  }

  /// The keys among `keys` whose values change, as an async sequence, one element per change.
  public func changes(forKeys keys: [String]) -> AsyncStream<String> {
    AsyncStream { continuation in
      let gates = Dictionary(uniqueKeysWithValues: Set(keys).map { ($0, ChangeGate(fallback: nil)) })
      let observation = addListener(
        for: Set(keys), starting: { key, value in gates[key]?.start(with: value) }
      ) {
        [weak self] key in
        guard let self, let gate = gates[key] else { return }
        gate.deliverIfChanged({
          let (effective, version) = self.versionedEffectiveValue(forKey: key)
          return (key, effective, version)
        }) { continuation.yield($0) }
      }
      continuation.onTermination = { _ in observation.cancel() }
    }
  }

  /// The value a reader sees for `key` with no default of its own: a launch-argument override
  /// never changes, so it is not considered.
  func effectiveValue(forKey key: String) -> PropertyListValue? {
    state.withLock { state in backend.value(forKey: key) ?? state.registered[key] }
  }

  /// The stored-or-registered value of `key` and the change count, read together.
  func versionedEffectiveValue(forKey key: String) -> (PropertyListValue?, UInt64) {
    state.withLock { state in (backend.value(forKey: key) ?? state.registered[key], state.version) }
  }

  /// Registers `listener` for `keys`; it is called with a key each time that key may have
  /// changed, outside any lock. Listeners decide themselves whether anything changed.
  ///
  /// - Parameter starting: Called for each key with its stored-or-registered value, under the
  ///   same lock that registers the listener, so that no change falls between the two.
  func addListener(
    for keys: Set<String>, starting: ((String, PropertyListValue?) -> Void)? = nil,
    _ listener: @escaping @Sendable (String) -> Void
  ) -> PreferenceObservation {
    let id = state.withLock { state -> Int in
      let id = state.nextListener
      state.nextListener += 1
      for key in keys {
        state.listeners[key, default: [:]][id] = listener
        starting?(key, backend.value(forKey: key) ?? state.registered[key])
      }
      return id
    }
    return PreferenceObservation { [weak self] in
      self?.state.withLock { state in
        for key in keys {
          state.listeners[key]?[id] = nil
          if state.listeners[key]?.isEmpty == true { state.listeners[key] = nil }
        }
      }
    }
  }

  /// Values changed outside the store (another process, other code, a merge): drop them from the
  /// cache, then notify.
  func externalChange(_ keys: Set<String>) {
    state.withLock { state in
      for key in keys { state.cache[key] = nil }
      state.version &+= 1
    }
    notify(keys)
  }

  /// Invalidates the Observation cells of `keys` whose value actually changed, then calls their
  /// listeners in registration order, outside the lock.
  func notify(_ keys: Set<String>) {
    let (cells, due) = state.withLock { state -> ([PreferenceCell], [(String, @Sendable (String) -> Void)]) in
      var cells: [PreferenceCell] = []
      var due: [(String, @Sendable (String) -> Void)] = []
      for key in keys.sorted() where overrides[key] == nil {
        let number = state.cache.number(of: key)
        if let cell = state.cache.cellToInvalidate(
          number, effective: backend.value(forKey: key) ?? state.registered[key])
        {
          cells.append(cell)
        }
        guard let listeners = state.listeners[key] else { continue }
        due += listeners.sorted { $0.key < $1.key }.map { (key, $0.value) }
      }
      return (cells, due)
    }
    for cell in cells { cell.changed() }
    for (key, listener) in due { listener(key) }
  }
}

/// Delivers one observer's values one at a time, in store order, and only when the value
/// actually changed from the last one delivered, so that under concurrent writes the observer
/// hears each change once and its last value is the store's final value.
///
/// Recursive, so that a handler may write the preference it observes. `@unchecked Sendable` is
/// safe: `last` and `lastVersion` are only touched while `lock` is held.
final class ChangeGate: @unchecked Sendable {
  private let lock = NSRecursiveLock()
  private var last: PropertyListValue??
  private var lastVersion: UInt64 = 0
  /// The observer's own default, encoded: what it sees while nothing is stored or registered.
  private let fallback: PropertyListValue?

  init(fallback: PropertyListValue?) { self.fallback = fallback }

  /// Sets the value the observer already knows.
  func start(_ key: String, with effective: PropertyListValue?) { start(with: effective) }

  func start(with effective: PropertyListValue?) {
    lock.lock()
    defer { lock.unlock() }
    last = .some(effective ?? fallback)
  }

  /// Delivers the current value unconditionally, as the first one.
  func deliverFirst<Value>(_ read: () -> (Value, PropertyListValue?, UInt64), _ deliver: (Value) -> Void) {
    lock.lock()
    defer { lock.unlock() }
    let (value, effective, version) = read()
    if version < lastVersion { return }
    last = .some(effective ?? fallback)
    lastVersion = version
    deliver(value)
  }

  /// Reads the current value and delivers it if it is newer than, and different from, the last
  /// one delivered.
  func deliverIfChanged<Value>(_ read: () -> (Value, PropertyListValue?, UInt64), to deliver: (Value) -> Void)
  {
    lock.lock()
    defer { lock.unlock() }
    let (value, effective, version) = read()
    guard version >= lastVersion else { return }
    lastVersion = version
    let current = effective ?? fallback
    if let last, last == current { return }
    last = .some(current)
    deliver(value)
  }
}

extension PreferenceProjection {
  /// Calls `handler` with the new value each time this preference changes.
  public func observe(_ handler: @escaping @Sendable (Value) -> Void) -> PreferenceObservation {
    store.observe(key, default: defaultValue, handler)
  }

  /// The value now and after every change.
  public var values: AsyncStream<Value> { store.values(forKey: key, default: defaultValue) }
}

extension KeyedPreferences {
  /// Calls `handler` with the new value each time `key` changes.
  public func observe<Value: PreferenceValue>(
    _ key: Keys, as type: Value.Type = Value.self, _ handler: @escaping @Sendable (Value) -> Void
  ) -> PreferenceObservation {
    guard let defaultValue = Self.declaredDefault(of: key, as: Value.self) else {
      preconditionFailure(Self.mismatchMessage(key, Value.self))
    }
    return store.observe(key.rawValue, default: defaultValue, handler)
  }

  /// The value of `key` now and after every change.
  public func values<Value: PreferenceValue>(for key: Keys, as type: Value.Type = Value.self) -> AsyncStream<
    Value
  > {
    guard let defaultValue = Self.declaredDefault(of: key, as: Value.self) else {
      preconditionFailure(Self.mismatchMessage(key, Value.self))
    }
    return store.values(forKey: key.rawValue, default: defaultValue)
  }

  /// The keys that change, one element per change.
  public func changes(of keys: [Keys]) -> AsyncStream<Keys> {
    let stream = store.changes(forKeys: keys.map(\.rawValue))
    return AsyncStream { continuation in
      let task = Task {
        for await key in stream { if let key = Keys(rawValue: key) { continuation.yield(key) } }
        continuation.finish()
      }
      continuation.onTermination = { _ in task.cancel() }
    }
  }
}
