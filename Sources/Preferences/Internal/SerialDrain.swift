/// Runs submitted work one item at a time, in submission order, without holding a lock while an
/// item runs.
///
/// The thread that submits to an idle drain runs the work itself, and keeps running what other
/// threads submit meanwhile until nothing is left; a thread that submits while the drain is busy
/// returns at once, and its work runs after the work before it. Work that submits more work (a
/// handler that writes the value it observes) therefore never re-enters itself and never waits.
///
/// This is how the library keeps order (observer deliveries, sync reconciliation, metadata
/// writes) while following its one locking rule: no lock is held while calling out to a
/// backend, `UserDefaults`, a remote store or user code.
final class SerialDrain: Sendable {
  private struct State {
    var running = false
    var queue: [@Sendable () -> Void] = []
    var head = 0
  }

  private let state = Locked(State())

  init() {}

  /// Runs `work` now on this thread if the drain is idle, else after the work already submitted.
  func submit(_ work: @escaping @Sendable () -> Void) {
    let runHere = state.withLock { state -> Bool in
      state.queue.append(work)
      if state.running { return false }
      state.running = true
      return true
    }
    guard runHere else { return }
    while let next = next() { next() }
  }

  private func next() -> (@Sendable () -> Void)? {
    state.withLock { state in
      guard state.head < state.queue.count else {
        state.queue.removeAll(keepingCapacity: true)
        state.head = 0
        state.running = false
        return nil
      }
      defer { state.head += 1 }
      return state.queue[state.head]
    }
  }
}
