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
enum PendingFlushes {
  private struct Entry {
    var writer: (any PendingWriter)?
    /// Whether a flush of this writer is scheduled.
    var scheduled = false
    /// Consecutive failed flushes.
    var failures = 0
  }

  private static let state = Locked([ObjectIdentifier: Entry]())
  /// Times the flushes; each flush then runs on a thread of its own (``start(_:)``).
  private static let queue = DispatchQueue(label: "swift-preferences.flush", qos: .utility)

  /// How long writes are coalesced before they are flushed.
  static let delay: DispatchTimeInterval = .milliseconds(50)

  private static let installExitHandler: Void = {
    atexit { PendingFlushes.flushAll(atExit: true) }
  }()

  /// Marks `writer` as having pending changes and schedules its flush. A writer whose last flush
  /// failed is retried with this flush, without waiting for its backoff.
  static func schedule(_ writer: any PendingWriter) {
    _ = installExitHandler
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
    if shouldSchedule { queue.asyncAfter(deadline: .now() + delay) { start(id) } }
  }

  /// Flushes the writer registered as `id`; on failure, schedules a retry after a backoff of
  /// its own (1 s, doubling up to a minute).
  private static func flush(_ id: ObjectIdentifier) {
    let writer = state.withLock { entries -> (any PendingWriter)? in
      entries[id]?.scheduled = false
      guard let writer = entries[id]?.writer else {
        entries[id] = nil
        return nil
      }
      return writer
    }
    guard let writer else { return }
    let failed = flush(writer, atExit: false)
    // Unregister only if nothing is pending now; checked under the lock that `schedule` takes,
    // so a write racing with this flush is never left unscheduled.
    let retry = state.withLock { entries -> DispatchTime? in
      guard var entry = entries[id] else { return nil }
      if !writer.hasPendingChanges {
        if !entry.scheduled { entries[id] = nil }
        return nil
      }
      entry.failures = failed ? entry.failures + 1 : 0
      defer { entries[id] = entry }
      guard !entry.scheduled else { return nil }
      entry.scheduled = true
      return .now() + (failed ? min(60, pow(2, Double(entry.failures - 1))) : 0)
    }
    if let retry { queue.asyncAfter(deadline: retry) { start(id) } }
  }

  /// Starts the flush of the writer registered as `id` on a thread of its own, inside a
  /// background activity: on iOS, tvOS, watchOS and visionOS the system does not suspend the
  /// process while it holds a file lock (an app suspended holding a lock in an app-group
  /// container is terminated, 0xdead10cc).
  private static func start(_ id: ObjectIdentifier) {
    BackgroundActivity.perform(reason: "Saving preferences") { expired in run(id, expired: expired) }
  }

  /// Runs a flush the system allowed, or, when the process is about to be suspended, leaves the
  /// writes pending and schedules them again (they run when the process resumes, or at exit).
  static func run(_ id: ObjectIdentifier, expired: Bool) {
    guard expired else {
      flush(id)
      return
    }
    let retry = state.withLock { entries -> Bool in
      guard entries[id]?.writer != nil else { return false }
      entries[id]?.scheduled = true
      return true
    }
    if retry { queue.asyncAfter(deadline: .now() + delay) { start(id) } }
  }

  /// Whether a flush of `writer` is scheduled, for tests.
  static func isScheduled(_ writer: any PendingWriter) -> Bool {
    state.withLock { $0[ObjectIdentifier(writer)]?.scheduled ?? false }
  }

  /// Flushes `writer`, reporting a failure; returns whether it failed.
  private static func flush(_ writer: any PendingWriter, atExit: Bool) -> Bool {
    do {
      try writer.flush()
      return false
    } catch {
      let reported = (error as? PreferenceError) ?? .writeFailed(path: "\(writer)", reason: "\(error)")
      PreferenceDiagnostics.report(atExit ? reported.lostAtExit : reported)
      return true
    }
  }

  /// Flushes every registered writer now, one after another (at exit, or from tests).
  static func flushAll(atExit: Bool = false) {
    let writers = state.withLock { entries in entries.values.compactMap(\.writer) }
    for writer in writers where writer.hasPendingChanges { _ = flush(writer, atExit: atExit) }
  }
}
