import Foundation

/// A backend that holds writes in memory until it flushes them.
protocol PendingWriter: AnyObject, Sendable {
  /// Whether some change has not reached durable storage yet.
  var hasPendingChanges: Bool { get }
  /// Writes every pending change; on failure the changes stay pending. `durable`: on stable
  /// storage when this returns (an explicit flush, exit); otherwise ordered after earlier writes
  /// (the background flushes).
  func flush(durable: Bool) throws
}

/// Flushes backends with pending writes shortly after a change, after a failure (with backoff),
/// and at normal process exit.
///
/// swift-corelibs-foundation writes nothing at exit, and the file store coalesces writes; both
/// register here, so a value set through the library is on disk after a normal exit without the
/// app calling anything.
///
/// Each backend is flushed on its own schedule, concurrently with the others: a slow disk, or a
/// file another process keeps locked, delays only that backend's writes. A flush runs on a thread
/// of its own, not on a Dispatch worker: a flush waiting for another process's lock must not
/// hold one of the few threads the app's (and other stores') work shares. A backend stays
/// registered until a flush leaves it with nothing pending: a failed flush keeps it, and the exit
/// handler flushes every registered backend, waiting for a flush already in progress on another
/// thread (each backend serializes its flushes).
///
/// A registered backend is held strongly: a store the app releases with writes pending stays
/// alive until they are written. (Held weakly, it was freed on whichever thread let it go last,
/// a flush or an event thread, where its final flush could be cut short by a process exit that
/// no longer saw it.)
///
/// The schedule's clock and the way a flush is started are parameters, so that tests run the
/// schedule by hand (``FlushSchedule/init(timer:start:)``); the app uses ``PendingFlushes``, the
/// process-wide schedule over Dispatch timers and background activities.
final class FlushSchedule: Sendable {
  /// Runs work after a delay.
  struct Timer: Sendable {
    let after: @Sendable (_ delay: Duration, _ work: @escaping @Sendable () -> Void) -> Void
  }

  private struct Entry {
    var writer: (any PendingWriter)?
    /// Whether a flush of this writer is scheduled.
    var scheduled = false
    /// Consecutive failed flushes.
    var failures = 0
  }

  private let state = Locked([ObjectIdentifier: Entry]())
  private let timer: Timer
  /// Starts a flush: runs the given work, telling it whether the process is about to be
  /// suspended (``BackgroundActivity/perform(reason:_:)`` in the app).
  private let start: @Sendable (_ work: @escaping @Sendable (_ expired: Bool) -> Void) -> Void

  /// How long writes are coalesced before they are flushed.
  static let delay: Duration = .milliseconds(50)

  /// The backoff after `failures` consecutive failed flushes: 1 s, doubling up to a minute.
  static func backoff(afterFailures failures: Int) -> Duration {
    .seconds(min(60, 1 << min(max(failures - 1, 0), 6)))
  }

  init(
    timer: Timer,
    start: @escaping @Sendable (_ work: @escaping @Sendable (_ expired: Bool) -> Void) -> Void
  ) {
    self.timer = timer
    self.start = start
  }

  /// Marks `writer` as having pending changes and schedules its flush. A writer whose last flush
  /// failed is retried with this flush, without waiting for its backoff.
  func schedule(_ writer: any PendingWriter) {
    let id = ObjectIdentifier(writer)
    let shouldSchedule = state.withLock { entries -> Bool in
      var entry = entries[id] ?? Entry(writer: writer)
      entry.writer = writer
      defer {
        entry.scheduled = true
        entries[id] = entry
      }
      // A writer waiting out a backoff is tried again now: the new write may find the disk back.
      return !entry.scheduled || entry.failures > 0
    }
    if shouldSchedule { timer.after(Self.delay) { [self] in begin(id) } }
  }

  /// Starts the flush of the writer registered as `id`.
  private func begin(_ id: ObjectIdentifier) {
    start { [self] expired in run(id, expired: expired) }
  }

  /// Runs a flush the system allowed, or, when the process is about to be suspended, leaves the
  /// writes pending and schedules them again (they run when the process resumes, or at exit).
  func run(_ id: ObjectIdentifier, expired: Bool) {
    guard expired else {
      flush(id)
      return
    }
    let retry = state.withLock { entries -> Bool in
      guard entries[id]?.writer != nil else { return false }
      entries[id]?.scheduled = true
      return true
    }
    if retry { timer.after(Self.delay) { [self] in begin(id) } }
  }

  /// Flushes the writer registered as `id`; on failure, schedules a retry after a backoff of
  /// its own (``backoff(afterFailures:)``).
  private func flush(_ id: ObjectIdentifier) {
    let writer = state.withLock { entries -> (any PendingWriter)? in
      entries[id]?.scheduled = false
      guard let writer = entries[id]?.writer else {
        entries[id] = nil
        return nil
      }
      return writer
    }
    guard let writer else { return }
    let outcome = Self.flush(writer, atExit: false, durable: false)
    if outcome == .expired {
      // The process is about to be suspended: left pending, scheduled again, not a failure.
      run(id, expired: true)
      return
    }
    let failed = outcome == .failed
    // Unregister only if nothing is pending now; checked under the lock that `schedule` takes,
    // so a write racing with this flush is never left unscheduled.
    let retry = state.withLock { entries -> Duration? in
      guard var entry = entries[id] else { return nil }
      if !writer.hasPendingChanges {
        if !entry.scheduled { entries[id] = nil }
        return nil
      }
      entry.failures = failed ? entry.failures + 1 : 0
      defer { entries[id] = entry }
      guard !entry.scheduled else { return nil }
      entry.scheduled = true
      return failed ? Self.backoff(afterFailures: entry.failures) : .zero
    }
    if let retry { timer.after(retry) { [self] in begin(id) } }
  }

  /// Whether a flush of `writer` is scheduled, for tests.
  func isScheduled(_ writer: any PendingWriter) -> Bool {
    state.withLock { $0[ObjectIdentifier(writer)]?.scheduled ?? false }
  }

  /// Consecutive failed flushes of `writer`, for tests.
  func failures(of writer: any PendingWriter) -> Int {
    state.withLock { $0[ObjectIdentifier(writer)]?.failures ?? 0 }
  }

  private enum Outcome { case written, failed, expired }

  /// Flushes `writer`, reporting a failure.
  private static func flush(_ writer: any PendingWriter, atExit: Bool, durable: Bool) -> Outcome {
    do {
      try writer.flush(durable: durable)
      return .written
    } catch is ExpiringActivity.Expired {
      return .expired
    } catch {
      let reported = (error as? PreferenceError) ?? .writeFailed(path: "\(writer)", reason: "\(error)")
      PreferenceDiagnostics.report(atExit ? reported.lostAtExit : reported)
      return .failed
    }
  }

  /// Flushes every registered writer now, one after another (at exit, or from tests).
  func flushAll(atExit: Bool = false) {
    let writers = state.withLock { entries in entries.values.compactMap(\.writer) }
    for writer in writers where writer.hasPendingChanges {
      _ = Self.flush(writer, atExit: atExit, durable: true)
    }
  }
}

/// The process-wide flush schedule: Dispatch timers, each flush on a thread of its own inside a
/// background activity (on iOS, tvOS, watchOS and visionOS the system does not suspend the
/// process while it holds a file lock: an app suspended holding a lock in an app-group container
/// is terminated, 0xdead10cc), and a flush of everything at normal exit.
enum PendingFlushes {
  /// Times the flushes; each flush then runs on a thread of its own.
  private static let queue = DispatchQueue(label: "swift-preferences.flush", qos: .utility)

  /// The process's schedule; made with the handler that flushes everything at normal exit.
  static let shared: FlushSchedule = {
    let schedule = FlushSchedule(
      timer: FlushSchedule.Timer { delay, work in
        let (seconds, attoseconds) = delay.components
        let nanoseconds = Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
        queue.asyncAfter(deadline: .now() + .nanoseconds(nanoseconds), execute: work)
      },
      start: { work in BackgroundActivity.perform(reason: "Saving preferences", work) })
    atexit { PendingFlushes.shared.flushAll(atExit: true) }
    return schedule
  }()

  /// Schedules `writer`'s flush (see ``FlushSchedule/schedule(_:)``).
  static func schedule(_ writer: any PendingWriter) { shared.schedule(writer) }

  /// Runs the flush of `id` as the activity allows (see ``FlushSchedule/run(_:expired:)``).
  static func run(_ id: ObjectIdentifier, expired: Bool) { shared.run(id, expired: expired) }

  /// Whether a flush of `writer` is scheduled, for tests.
  static func isScheduled(_ writer: any PendingWriter) -> Bool { shared.isScheduled(writer) }

  /// Flushes every registered writer now.
  static func flushAll(atExit: Bool = false) { shared.flushAll(atExit: atExit) }
}
