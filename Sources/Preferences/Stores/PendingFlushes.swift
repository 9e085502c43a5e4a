import Foundation

/// A backend that holds writes in memory until it flushes them.
protocol PendingWriter: AnyObject, Sendable {
  /// Whether some change has not reached durable storage yet.
  var hasPendingChanges: Bool { get }
  /// Writes every pending change; on failure the changes stay pending.
  func flush() throws
}

/// Flushes backends with pending writes shortly after a change, after a failure (with backoff),
/// and at normal process exit.
///
/// swift-corelibs-foundation writes nothing at exit, and the file store coalesces writes; both
/// register here, so a value set through the library is on disk after a normal exit without the
/// app calling anything.
///
/// A backend stays registered until a flush leaves it with nothing pending: a failed flush keeps
/// it, and the exit handler flushes every registered backend, waiting for a flush already in
/// progress on another thread (each backend serializes its flushes).
enum PendingFlushes {
  private struct Entry {
    weak var writer: (any PendingWriter)?
    /// Consecutive failed flushes, and when to try again; `nil` when due with the next flush.
    var failures = 0
    var retryAt: DispatchTime?
  }

  private struct State {
    var entries: [ObjectIdentifier: Entry] = [:]
    /// Whether the coalesced flush is scheduled.
    var scheduled = false
    /// When the earliest retry is scheduled, if one is.
    var retryScheduled: DispatchTime?
  }

  private static let state = Locked(State())
  private static let queue = DispatchQueue(label: "swift-preferences.flush", qos: .utility)

  /// How long writes are coalesced before they are flushed.
  static let delay: DispatchTimeInterval = .milliseconds(50)

  private static let installExitHandler: Void = {
    atexit { PendingFlushes.flushAll(atExit: true) }
  }()

  /// Marks `writer` as having pending changes and schedules a flush. A writer whose last flush
  /// failed is retried with this flush, without waiting for its backoff.
  static func schedule(_ writer: any PendingWriter) {
    _ = installExitHandler
    let shouldSchedule = state.withLock { state -> Bool in
      let id = ObjectIdentifier(writer)
      var entry = state.entries[id] ?? Entry(writer: writer)
      entry.writer = writer
      entry.retryAt = nil
      state.entries[id] = entry
      defer { state.scheduled = true }
      return !state.scheduled
    }
    if shouldSchedule { queue.asyncAfter(deadline: .now() + delay) { flushAll(atExit: false) } }
  }

  /// Flushes the registered writers that are due (at exit: all of them). A writer whose flush
  /// fails stays registered and is retried after a backoff of its own (1 s, doubling up to a
  /// minute), at its next write, and at exit.
  static func flushAll(atExit: Bool = false) {
    let now = DispatchTime.now()
    let due = state.withLock { state -> [any PendingWriter] in
      if !atExit { state.scheduled = false }
      state.entries = state.entries.filter { $0.value.writer != nil }
      return state.entries.values.filter { atExit || ($0.retryAt.map { $0 <= now } ?? true) }.compactMap(
        \.writer)
    }
    for writer in due {
      var failed = false
      do {
        try writer.flush()
      } catch {
        failed = true
        let reported = (error as? PreferenceError) ?? .writeFailed(path: "\(writer)", reason: "\(error)")
        PreferenceDiagnostics.report(atExit ? reported.lostAtExit : reported)
      }
      // Unregister only if nothing is pending now; checked under the lock that `schedule` takes,
      // so a write racing with this flush is never left unscheduled.
      state.withLock { state in
        let id = ObjectIdentifier(writer)
        guard var entry = state.entries[id] else { return }
        if !writer.hasPendingChanges {
          state.entries[id] = nil
        } else if failed {
          entry.failures += 1
          entry.retryAt = .now() + min(60, pow(2, Double(entry.failures - 1)))
          state.entries[id] = entry
        }
      }
    }
    guard !atExit else { return }
    let retry = state.withLock { state -> DispatchTime? in
      guard let earliest = state.entries.values.compactMap(\.retryAt).min() else { return nil }
      if let scheduled = state.retryScheduled, scheduled <= earliest, scheduled > now { return nil }
      state.retryScheduled = earliest
      return earliest
    }
    if let retry {
      queue.asyncAfter(deadline: retry) {
        state.withLock { $0.retryScheduled = nil }
        flushAll(atExit: false)
      }
    }
  }
}
