import Foundation

/// Lets one thread at a time run a piece of work that calls out (to backends, user closures,
/// observers), so no lock may be held while it runs: other threads wait for it holding no lock,
/// and the running thread, re-entering, is told so instead of waiting for itself. The main actor
/// waits running work the holder hands it (``MainActorHandoff``), so a holder that needs the
/// main actor never waits for a main actor that waits for it.
final class OneAtATime: Sendable {
  private let running = Locked<(thread: ObjectIdentifier, done: DispatchGroup)?>(nil)
  private let waiting = Locked(0)
  /// Called, outside any lock, each time a thread starts waiting for the turn: tests wait for
  /// it instead of polling ``isAwaited``.
  let onWaiting = Locked<(@Sendable () -> Void)?>(nil)

  /// Whether a thread waits for the turn now.
  var isAwaited: Bool { waiting.withLock { $0 > 0 } }

  /// Waits until no other thread runs, then claims the turn: `true`, and ``release()`` must
  /// follow. `false` when this thread already holds it (a re-entry), which must not release.
  func claim() -> Bool {
    let thread = ObjectIdentifier(Thread.current)
    while true {
      let done = DispatchGroup()
      done.enter()
      let other = running.withLock { running -> (thread: ObjectIdentifier, done: DispatchGroup)? in
        if let running { return running }
        running = (thread, done)
        return nil
      }
      guard let other else { return true }
      done.leave()
      if other.thread == thread { return false }
      waiting.withLock { $0 += 1 }
      defer { waiting.withLock { $0 -= 1 } }
      onWaiting.withLock { $0 }?()
      if MainActorContext.isCurrent {
        // The main actor, running work the holder handed off and waits for, acts for it.
        if MainActorHandoff.servedThread == other.thread { return false }
        MainActorHandoff.wait(for: other.done)
      } else {
        other.done.wait()
      }
    }
  }

  /// Ends the turn claimed by ``claim()``, waking the threads that wait for it.
  func release() {
    let done = running.withLock { running in
      defer { running = nil }
      return running?.done
    }
    done?.leave()
  }
}
