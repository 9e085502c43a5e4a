import Foundation

/// Lets one thread at a time run a short piece of work for one key (a store's compare-and-set of
/// that key, one backend call): other threads wait for that key, holding no lock, and the running
/// thread re-entering is let through instead of waiting for itself. Work for other keys never
/// waits.
final class KeyedTurns: Sendable {
  private let running = Locked<[String: (thread: ObjectIdentifier, done: DispatchGroup)]>([:])
  /// Called, outside any lock, with the key each time a thread starts waiting for another's turn,
  /// for tests.
  let onWaiting = Locked<(@Sendable (String) -> Void)?>(nil)

  /// Runs `work` once no other thread runs work for `key`.
  func run<T>(_ key: String, _ work: () throws -> T) rethrows -> T {
    let thread = ObjectIdentifier(Thread.current)
    while true {
      let done = DispatchGroup()
      done.enter()
      let other = running.withLock { running -> (thread: ObjectIdentifier, done: DispatchGroup)? in
        if let other = running[key] { return other }
        running[key] = (thread, done)
        return nil
      }
      guard let other else {
        defer {
          running.withLock { $0[key] = nil }
          done.leave()
        }
        return try work()
      }
      done.leave()
      if other.thread == thread { return try work() }
      onWaiting.withLock { $0 }?(key)
      other.done.wait()
    }
  }
}
