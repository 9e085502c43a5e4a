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
  /// outside the process (another process writing the same file or suite).
  ///
  /// A write of an equal value notifies nobody. The handler runs on the writing thread for
  /// changes made in this process, and on a background queue for outside changes.
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
    let gate = ObserverGate()
    return addListener(for: [key]) { [weak self] _ in
      guard let self else { return }
      gate.deliver { lastVersion in
        let (value, version) = self.versionedValue(forKey: key, default: defaultValue)
        guard version > lastVersion else { return lastVersion }
        handler(value)
        return version
      }
    }
  }

  /// The value of `key` now and after every change, as an async sequence.
  ///
  /// ```swift
  /// for await name in store.values(forKey: "ContentView.username", default: "Anonymous") { … }
  /// ```
  public func values<Value: PreferenceValue>(
    forKey key: String, default defaultValue: @autoclosure @escaping @Sendable () -> Value
  ) -> AsyncStream<Value> {
    AsyncStream { continuation in
      let observation = observe(key, default: defaultValue()) { continuation.yield($0) }
      continuation.yield(value(forKey: key, default: defaultValue()))
      continuation.onTermination = { _ in observation.cancel() }
    }
  }

  /// The keys among `keys` that change, as an async sequence, one element per change.
  public func changes(forKeys keys: [String]) -> AsyncStream<String> {
    AsyncStream { continuation in
      let observation = addListener(for: Set(keys)) { continuation.yield($0) }
      continuation.onTermination = { _ in observation.cancel() }
    }
  }

  /// Registers `listener` for `keys`; it receives the changed key.
  func addListener(for keys: Set<String>, _ listener: @escaping @Sendable (String) -> Void)
    -> PreferenceObservation
  {
    let (id, startWatching) = state.withLock { state -> (Int, Bool) in
      let id = state.nextListener
      state.nextListener += 1
      let wasEmpty = state.listeners.isEmpty
      for key in keys {
        state.listeners[key, default: [:]][id] = { listener(key) }
        if state.lastNotified[key] == nil {
          state.lastNotified[key] = .some(backend.value(forKey: key) ?? state.registered[key])
        }
      }
      return (id, wasEmpty)
    }
    if startWatching {
      backend.startWatching { [weak self] keys in self?.externalChange(keys) }
    }
    return PreferenceObservation { [weak self] in
      guard let self else { return }
      let stopWatching = self.state.withLock { state -> Bool in
        for key in keys {
          state.listeners[key]?[id] = nil
          if state.listeners[key]?.isEmpty == true {
            state.listeners[key] = nil
            state.lastNotified[key] = nil
          }
        }
        return state.listeners.isEmpty
      }
      if stopWatching { self.backend.stopWatching() }
    }
  }

  /// Values changed outside the process: drop them from the cache, then notify.
  func externalChange(_ keys: Set<String>) {
    state.withLock { state in
      for key in keys { state.cache[key] = nil }
      state.version &+= 1
    }
    notifyIfChanged(keys)
  }

  /// Notifies the observers of each key in `keys` whose effective value differs from the one
  /// they last heard about. Listeners run outside the lock.
  func notifyIfChanged(_ keys: Set<String>) {
    let listeners = state.withLock { state -> [@Sendable () -> Void] in
      guard !state.listeners.isEmpty else { return [] }
      var due: [@Sendable () -> Void] = []
      for key in keys {
        guard let listeners = state.listeners[key], overrides[key] == nil else { continue }
        let current = backend.value(forKey: key) ?? state.registered[key]
        if let last = state.lastNotified[key], last == current { continue }
        state.lastNotified[key] = .some(current)
        due += listeners.sorted { $0.key < $1.key }.map(\.value)
      }
      return due
    }
    for listener in listeners { listener() }
  }
}

/// Delivers one observer's values one at a time and in store order, so that under concurrent
/// writes the last value an observer receives is the store's final value.
///
/// Recursive, so that a handler may write the preference it observes. `@unchecked Sendable` is
/// safe: `lastVersion` is only touched while `lock` is held.
final class ObserverGate: @unchecked Sendable {
  private let lock = NSRecursiveLock()
  private var lastVersion: UInt64 = 0

  func deliver(_ body: (UInt64) -> UInt64) {
    lock.lock()
    defer { lock.unlock() }
    lastVersion = body(lastVersion)
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
    AsyncStream { continuation in
      let observation = observe(key, as: Value.self) { continuation.yield($0) }
      continuation.yield(value(for: key))
      continuation.onTermination = { _ in observation.cancel() }
    }
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
