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
  /// default equal to `defaultValue` while nothing is stored, notifies nobody. Values arrive one
  /// at a time and in order, and the last one is the store's final value. A change made through
  /// this store is delivered on the writing thread before the write returns, unless a previous
  /// value is still being delivered on another thread, which then delivers this one too; outside
  /// changes arrive on a background queue. The handler may read and write the store, including
  /// the key it observes.
  ///
  /// ```swift
  /// let observation = store.observe("Volume", default: 0.5, initial: true) { volume in
  ///   player.volume = volume  // now, then after every change
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - key: The key to observe.
  ///   - defaultValue: The value while nothing is stored or registered.
  ///   - initial: Whether `handler` is also called with the current value as the observation
  ///     starts (as `Defaults.observe` does): before this method returns, unless another thread
  ///     is delivering a change to it at that moment, which then delivers it. A value is
  ///     delivered once, whether the start or a racing change reads it first.
  ///   - handler: Called with each new value.
  /// - Returns: An observation that stops when cancelled or released.
  public func observe<Value: PreferenceValue>(
    _ key: String, default defaultValue: @autoclosure @escaping @Sendable () -> Value,
    initial: Bool = false, _ handler: @escaping @Sendable (Value) -> Void
  ) -> PreferenceObservation {
    observe(key, initial: initial, defaultValue, handler)
  }

  /// The value of `key` now and after every change, as an async sequence. A value is yielded only
  /// when it differs from the one yielded before it.
  ///
  /// ```swift
  /// for await name in store.values(forKey: "ContentView.username", default: "Anonymous") { … }
  /// ```
  ///
  /// - Parameters:
  ///   - key: The key to observe.
  ///   - defaultValue: The value while nothing is stored or registered.
  ///   - initial: Whether the sequence starts with the current value (the default); `false`
  ///     yields changes only.
  /// - Returns: A sequence that stops observing when its iteration ends.
  public func values<Value: PreferenceValue>(
    forKey key: String, default defaultValue: @autoclosure @escaping @Sendable () -> Value,
    initial: Bool = true
  ) -> AsyncStream<Value> {
    AsyncStream { continuation in
      let observation = observe(key, initial: initial, defaultValue) { continuation.yield($0) }
      continuation.onTermination = { _ in observation.cancel() }
    }
  }

  /// The observation behind ``observe(_:default:initial:_:)`` and ``values(forKey:default:initial:)``.
  private func observe<Value: PreferenceValue>(
    _ key: String, initial: Bool, _ defaultValue: @escaping @Sendable () -> Value,
    _ handler: @escaping @Sendable (Value) -> Void
  ) -> PreferenceObservation {
    let gate = ChangeGate(fallback: try? defaultValue().propertyListValue())
    let read: @Sendable () -> (Value, PropertyListValue?, UInt64) = { [weak self] in
      guard let self else { return (defaultValue(), nil, 0) }
      return self.snapshot(key, default: defaultValue)
    }
    guard initial else {
      // The value the observer already knows is recorded as the listener starts: the first
      // delivery is the first change.
      return addListener(for: [key], starting: gate.start) { _ in gate.deliverIfChanged(read, to: handler) }
    }
    // Listen first, then deliver the current value through the same gate: the gate delivers
    // whatever it reads first unconditionally and then only changes, so a change racing with
    // the start is delivered once, whichever of the two reads it.
    let observation = addListener(for: [key]) { _ in gate.deliverIfChanged(read, to: handler) }
    Self.beforeInitialDelivery?()
    gate.deliverIfChanged(read, to: handler)
    return observation
  }

  /// Runs between an `initial` observation's start and its first delivery (tests).
  @TaskLocal static var beforeInitialDelivery: TestHook?

  /// The keys among `keys` whose values change, as an async sequence, one element per change.
  public func changes(forKeys keys: [String]) -> AsyncStream<String> {
    AsyncStream { continuation in
      let gates = Dictionary(uniqueKeysWithValues: Set(keys).map { ($0, ChangeGate(fallback: nil)) })
      let observation = addListener(
        for: Set(keys),
        starting: { key, value, version in gates[key]?.start(key, with: value, version: version) }
      ) {
        [weak self] key in
        guard let self, let gate = gates[key] else { return }
        gate.deliverIfChanged({
          let version = self.state.withLock { $0.version }
          return (key, self.effectiveValue(forKey: key), version)
        }) { continuation.yield($0) }
      }
      continuation.onTermination = { _ in observation.cancel() }
    }
  }

  /// Registers `listener` for `keys`; it is called with a key each time that key may have
  /// changed, outside any lock. Listeners decide themselves whether anything changed.
  ///
  /// - Parameters:
  ///   - keys: The keys to listen to.
  ///   - starting: Called for each key with its stored-or-registered value and the change count
  ///     read before it, once the listener is registered: a change racing with the start reaches
  ///     the listener with a later count.
  ///   - listener: Called with each key that may have changed.
  /// - Returns: The registration; cancel it (or release it) to stop listening.
  func addListener(
    for keys: Set<String>, starting: ((String, PropertyListValue?, UInt64) -> Void)? = nil,
    _ listener: @escaping @Sendable (String) -> Void
  ) -> PreferenceObservation {
    let (id, version) = state.withLock { state -> (Int, UInt64) in
      let id = state.nextListener
      state.nextListener += 1
      state.observations += 1
      for key in keys { state.listeners[key, default: [:]][id] = listener }
      return (id, state.version)
    }
    updateBackendObservation()
    if let starting {
      for key in keys { starting(key, effectiveValue(forKey: key), version) }
    }
    return PreferenceObservation { [weak self] in
      guard let self else { return }
      self.state.withLock { state in
        state.observations -= 1
        for key in keys {
          state.listeners[key]?[id] = nil
          if state.listeners[key]?.isEmpty == true { state.listeners[key] = nil }
        }
      }
      self.updateBackendObservation()
    }
  }

  /// Tells the backend whether anything observes this store, so that a backend that must poll
  /// for some changes polls only while it is observed. Calls are ordered by a drain, so the
  /// backend's last message always matches the store's current state.
  private func updateBackendObservation() {
    observedUpdates.submit { [weak self] in
      guard let self else { return }
      let change = self.state.withLock { state -> Bool? in
        let observed = state.observations > 0
        guard observed != state.backendObserved else { return nil }
        state.backendObserved = observed
        return observed
      }
      if let change { self.backend.setObserved(change) }
    }
  }

  /// Values changed outside the store (another process, other code, a merge): drop them from the
  /// cache, then notify.
  /// `listenersAsync`: the listeners are called on a background queue, not on this thread (a
  /// read that found the change; the Observation cells are invalidated before it goes on).
  func externalChange(_ keys: Set<String>, listenersAsync: Bool = false) {
    state.withLock { state in
      for key in keys { state.cache[key] = nil }
      state.version &+= 1
    }
    notify(keys, listenersAsync: listenersAsync)
  }

  /// Invalidates the Observation cells of `keys` whose value actually changed, then calls their
  /// listeners in registration order. The backend and the listeners run without the lock held.
  func notify(_ changed: some Collection<String>, listenersAsync: Bool = false) {
    // Only keys someone reads through a cell or listens to (a registration notifies every key
    // of the module, most of them never read yet; at launch, none).
    guard state.withLock({ !$0.listeners.isEmpty || !$0.cache.cells.isEmpty }) else { return }
    let candidates = overrides.isEmpty ? Array(changed) : changed.filter { overrides[$0] == nil }
    let (keys, registered, version) = state.withLock { state in
      // The process-wide numbers' lock is taken inside the store's, as `number(of:)` does.
      let numbers = KeyNumbers.existingNumbers(of: candidates)
      let listened = !state.listeners.isEmpty
      var watched: [String] = []
      for (key, number) in zip(candidates, numbers)
      where (listened && state.listeners[key] != nil) || number.flatMap(state.cache.cell) != nil {
        watched.append(key)
      }
      watched.sort()
      return (watched, watched.map { state.registered[$0] }, state.version)
    }
    guard !keys.isEmpty else { return }
    // The store's own comparison, not a read the app could base a write on.
    let effective = PreferenceStore.$readingForBookkeeping.withValue(true) {
      zip(keys, registered).map { key, registered in backend.value(forKey: key) ?? registered }
    }
    let (cells, due) = state.withLock { state -> ([PreferenceCell], [(String, @Sendable (String) -> Void)]) in
      var cells: [PreferenceCell] = []
      var due: [(String, @Sendable (String) -> Void)] = []
      for (key, value) in zip(keys, effective) {
        let number = state.cache.number(of: key)
        if let cell = state.cache.cellToInvalidate(number, effective: value, version: version) {
          cells.append(cell)
        }
        guard let listeners = state.listeners[key] else { continue }
        due += listeners.sorted { $0.key < $1.key }.map { (key, $0.value) }
      }
      return (cells, due)
    }
    for cell in cells { cell.changed() }
    if listenersAsync, !due.isEmpty {
      DispatchQueue.global(qos: .utility).async { for (key, listener) in due { listener(key) } }
    } else {
      for (key, listener) in due { listener(key) }
    }
  }
}

/// Delivers one observer's values one at a time, in store order, and only when the value
/// actually changed from the last one delivered, so that under concurrent writes the observer
/// hears each change once and its last value is the store's final value.
///
/// Deliveries go through a ``SerialDrain``: no lock is held while the store is read or the
/// observer runs, and a handler that writes the preference it observes has the new value
/// delivered after it returns.
final class ChangeGate: Sendable {
  private struct State {
    var last: PropertyListValue??
    var lastVersion: UInt64 = 0
  }
  private let state = Locked(State())
  private let drain = SerialDrain()
  /// The observer's own default, encoded: what it sees while nothing is stored or registered.
  private let fallback: PropertyListValue?

  init(fallback: PropertyListValue?) { self.fallback = fallback }

  /// Sets the value the observer already knows, read at change count `version`, unless a
  /// delivery already recorded a newer one.
  func start(_ key: String, with effective: PropertyListValue?, version: UInt64) {
    state.withLock { state in
      guard state.last == nil, version >= state.lastVersion else { return }
      state.last = .some(effective ?? fallback)
      state.lastVersion = version
    }
  }

  /// Reads the current value and delivers it if it is newer than, and different from, the last
  /// one delivered (the first read is always delivered, unless ``start(_:with:version:)`` set
  /// what the observer knows). Reads and deliveries go through the drain: a value read before
  /// the last one delivered is never delivered after it.
  func deliverIfChanged<Value: Sendable>(
    _ read: @escaping @Sendable () -> (Value, PropertyListValue?, UInt64),
    to deliver: @escaping @Sendable (Value) -> Void
  ) {
    drain.submit { [state, fallback] in
      let (value, effective, version) = read()
      let due = state.withLock { state -> Bool in
        guard version >= state.lastVersion else { return false }
        state.lastVersion = version
        let current = effective ?? fallback
        if let last = state.last, last == current { return false }
        state.last = .some(current)
        return true
      }
      if due { deliver(value) }
    }
  }
}

extension PreferenceProjection {
  /// Calls `handler` with the new value each time this preference changes; with `initial`, also
  /// at once with the current value.
  ///
  /// - Parameters:
  ///   - initial: Whether `handler` is also called with the current value as the observation
  ///     starts (before this method returns, unless another thread is delivering a change).
  ///   - handler: Called with each new value.
  /// - Returns: An observation that stops when cancelled or released.
  public func observe(initial: Bool = false, _ handler: @escaping @Sendable (Value) -> Void)
    -> PreferenceObservation
  {
    store.observe(key, default: defaultValue, initial: initial, handler)
  }

  /// The value now and after every change.
  public var values: AsyncStream<Value> { store.values(forKey: key, default: defaultValue) }

  /// The value now (unless `initial` is `false`) and after every change.
  ///
  /// - Parameter initial: Whether the sequence starts with the current value.
  /// - Returns: A sequence that stops observing when its iteration ends.
  public func values(initial: Bool) -> AsyncStream<Value> {
    store.values(forKey: key, default: defaultValue, initial: initial)
  }
}

extension KeyedPreferences {
  /// Calls `handler` with the new value each time `key` changes; with `initial`, also at once
  /// with the current value.
  ///
  /// - Parameters:
  ///   - key: The key to observe.
  ///   - initial: Whether `handler` is also called with the current value as the observation
  ///     starts (before this method returns, unless another thread is delivering a change).
  ///   - handler: Called with each new value.
  /// - Returns: An observation that stops when cancelled or released.
  public func observe<Value: PreferenceValue>(
    _ key: TypedPreferenceKey<Keys, Value>, initial: Bool = false,
    _ handler: @escaping @Sendable (Value) -> Void
  ) -> PreferenceObservation {
    store.observe(
      key.key.rawValue, default: defaultValue(of: key.key, as: Value.self), initial: initial, handler)
  }

  /// The value of `key` now (unless `initial` is `false`) and after every change.
  ///
  /// - Parameters:
  ///   - key: The key to observe.
  ///   - initial: Whether the sequence starts with the current value (the default).
  /// - Returns: A sequence that stops observing when its iteration ends.
  public func values<Value: PreferenceValue>(for key: TypedPreferenceKey<Keys, Value>, initial: Bool = true)
    -> AsyncStream<Value>
  {
    store.values(
      forKey: key.key.rawValue, default: defaultValue(of: key.key, as: Value.self), initial: initial)
  }

  /// The keys that change, one element per change.
  public func changes(for keys: [Keys]) -> AsyncStream<Keys> {
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
