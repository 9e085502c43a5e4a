import Foundation

/// A backend that keeps preferences in one property-list file, safely shared between processes.
///
/// - Writes return after updating memory; they reach the file about 50 ms later, coalesced, and at
///   normal process exit. Call ``flush()`` to write now. A write that fails (a full disk, a
///   read-only folder) stays pending and is retried after a backoff, at the next write or flush,
///   and at exit.
/// - Every write replaces the file atomically (temporary file, sync, rename, directory sync), so a
///   crash or a power loss leaves either the old or the new file, never a partial one, and a
///   ``flush()`` that returned is on durable storage. A symbolic link is followed: its target
///   is replaced and the link kept. An existing file keeps its mode and owner.
/// - Several processes may write the same file: a flush takes an exclusive lock on a sibling
///   `.lock` file, re-reads the file, applies only the keys this process changed, and writes the
///   result. Keys other processes wrote are kept, and reported as changes.
/// - Changes written by other processes reach reads and observers through file-system events
///   (inotify on Linux, a Dispatch source on Apple platforms), observed or not; nothing runs
///   while nothing changes. Where the platform has no such events, the file is checked every
///   250 ms while the store is observed.
/// - Reading never needs write access: a file on read-only storage is read normally.
/// - A corrupt file (not a property-list dictionary) is never overwritten: it is moved aside to
///   `<name>.corrupt-<timestamp>.<ext>` and reported through ``PreferenceDiagnostics``, and the
///   store continues empty. If it cannot be moved aside, it is left untouched and writes fail.
///
/// Every flush reads and rewrites the whole file, so the store suits preference-sized data: a
/// file of 1,000 keys flushes in about a millisecond, one of 100,000 keys takes seconds.
public final class PropertyListFileBackend: PreferenceBackend, PendingWriter, ReloadsAfterUnlock {
  /// The file's format on disk.
  public enum Format: Sendable {
    /// XML: readable and diff-friendly. Dates are stored with whole-second precision; the store
    /// reads back exactly what the file will hold, in this process and the next.
    case xml
    /// Binary: smaller, faster, and keeps dates exact.
    case binary
  }

  /// The property-list file.
  public let url: URL
  /// The format the file is written in.
  public let format: Format

  let file: PropertyListFile
  /// Where this backend's flushes are scheduled: the process's, or a test's.
  let flushes: FlushSchedule

  private struct State {
    /// Values as last read from or written to disk, with `pending` applied on top.
    var values: [String: PropertyListValue] = [:]
    /// Keys changed in this process and not yet written: a value, or `nil` for a removal.
    var pending: [String: PropertyListValue?] = [:]
    /// Identity of the file as last read or written, to notice changes by other processes.
    var stamp: FileStamp?
    var onChange: (@Sendable (Set<String>) -> Void)?
    /// File-system events for the file, while watching.
    var events: FileWatch?
    /// The check every 250 ms, only while observed and only where there are no events.
    var poller: ChangePoller?
  }

  private let state = Locked(State())
  /// Serializes disk work in this process (loading, reloading, flushing); the lock file
  /// serializes writers across processes.
  private let diskLock = NSLock()

  /// Runs inside a flush, after it took the pending changes and before it writes them, for tests
  /// that write there.
  @TaskLocal static var whileFlushing: TestHook?

  /// How often the file is checked for changes by other processes where there are no events.
  static let pollInterval: DispatchTimeInterval = .milliseconds(250)

  /// Opens (or prepares to create) the property-list file at `url`.
  ///
  /// A missing file is created on the first write, together with its directory. A corrupt file is
  /// moved aside and reported; the backend then starts empty.
  public convenience init(url: URL, format: Format = .binary) {
    self.init(url: url, format: format, journal: nil)
  }

  /// Opens the file, recording the file-system calls of every write in `journal` (tests), as the
  /// user `writer` (tests pass another user than the process's, to stand for files and links
  /// that belong to someone else).
  init(
    url: URL, format: Format, journal: FileSystemJournal?, writer: uid_t = geteuid(),
    flushes: FlushSchedule = PendingFlushes.shared
  ) {
    self.url = url.standardizedFileURL
    self.format = format
    self.file = PropertyListFile(url: self.url, format: format, journal: journal, writer: writer)
    self.flushes = flushes
    load()
  }

  /// Where the values live, for diagnostics.
  public var location: String { url.path }

  // MARK: Reading

  /// The value stored under `key`, if any.
  public func value(forKey key: String) -> PropertyListValue? { state.withLock { $0.values[key] } }
  /// Every stored value, by key.
  public func allValues() -> [String: PropertyListValue] { state.withLock { $0.values } }

  /// Reads the file again after protected data became available (``ReloadsAfterUnlock``).
  func reloadAfterUnlock() { load() }

  /// The first read: a corrupt file is moved aside (under the write lock, if this process may
  /// take it) and reported; an unreadable one is reported and left alone.
  private func load() {
    diskLock.lock()
    defer { diskLock.unlock() }
    do {
      // A file another process is rewriting in place is read again until it parses.
      switch try file.readSettled() {
      case .missing:
        break
      case .values(let values):
        state.withLock { state in
          state.values = values
          state.stamp = FileStamp(path: file.target.path)
        }
      case .corrupt(let reason):
        preserveCorruptFile(reason: reason)
      }
    } catch let error as PreferenceError {
      PreferenceDiagnostics.report(error)
    } catch {}
  }

  private func preserveCorruptFile(reason: String) {
    let preserved = try? file.withExclusiveLock { () -> String? in
      // Another process may have repaired it meanwhile.
      guard case .corrupt = try file.readSettled() else { return nil }
      return file.moveAside()
    }
    PreferenceDiagnostics.report(
      .corruptFile(path: file.target.path, reason: reason, preservedAt: preserved ?? nil))
  }

  /// Re-reads the file if another process changed it since this backend last read or wrote it.
  ///
  /// A file that does not parse is taken for a write in progress by a writer that does not
  /// replace files atomically: it is read again at the next check, and never moved or replaced
  /// from here.
  ///
  /// - Returns: The keys whose values changed.
  @discardableResult
  public func reload() -> Set<String> {
    let changed = reloadFromDisk()
    report(changed)
    return changed
  }

  private func reloadFromDisk() -> Set<String> {
    diskLock.lock()
    defer { diskLock.unlock() }
    let stamp = FileStamp(path: file.target.path)
    if stamp == state.withLock({ $0.stamp }) { return [] }
    let disk: [String: PropertyListValue]
    switch try? file.read() {
    case .values(let values)?: disk = values
    case .missing?: disk = [:]
    case .corrupt?, nil: return []
    }
    return state.withLock { state in
      var merged = disk
      for (key, value) in state.pending { merged[key] = value }
      let changed = Set(merged.keys).union(state.values.keys).filter { merged[$0] != state.values[$0] }
      state.values = merged
      state.stamp = stamp
      return changed
    }
  }

  private func report(_ changed: Set<String>) {
    guard !changed.isEmpty, let onChange = state.withLock({ $0.onChange }) else { return }
    onChange(changed)
  }

  /// Reports other processes' changes (through file-system events) and the keys a flush's merge
  /// brought in, until ``stopWatching()``. Calling it again replaces the handler.
  public func startWatching(_ onChange: @escaping @Sendable (Set<String>) -> Void) {
    let needsEvents = state.withLock { state -> Bool in
      state.onChange = onChange
      return state.events == nil
    }
    guard needsEvents else { return }
    let events = FileWatch(file: file.target) { [weak self] in self?.reload() }
    let unused = state.withLock { state -> FileWatch? in
      guard state.events == nil else { return events }
      state.events = events
      return nil
    }
    withExtendedLifetime(unused) {}
    // A change made between the first read and the start of the events.
    reload()
  }

  /// Stops reporting changes made outside this process.
  public func stopWatching() {
    let stopped = state.withLock { state in
      defer {
        state.onChange = nil
        state.events = nil
        state.poller = nil
      }
      return (state.events, state.poller)
    }
    withExtendedLifetime(stopped) {}
  }

  /// Whether the backend is polling (only while observed, and only without file-system events).
  var isPolling: Bool { state.withLock { $0.poller != nil } }

  /// Whether file-system events are watching the file.
  var hasEvents: Bool { state.withLock { $0.events != nil } }

  /// Polls while observed, where the platform has no file-system events or refused to watch
  /// this file's folder (each poll tries the watch again).
  public func setObserved(_ observed: Bool) {
    let watching = state.withLock { $0.events?.isWatching ?? false }
    if observed && watching { return }
    let poller =
      observed
      ? ChangePoller(interval: Self.pollInterval) { [weak self] in
        guard let self else { return }
        self.state.withLock { $0.events }?.retryIfStopped()
        self.reload()
      } : nil
    let previous = state.withLock { state in
      defer { state.poller = poller }
      return state.poller
    }
    withExtendedLifetime(previous) {}
  }

  // MARK: Writing

  /// Stores `value` under `key`; `nil` removes it.
  public func setValue(_ value: PropertyListValue?, forKey key: String) {
    // Hold exactly what the file will: reads in this process then agree with the next launch.
    let value = value.map(storedForm(of:))
    state.withLock { state in
      state.values[key] = value
      state.pending[key] = .some(value)
    }
    flushes.schedule(self)
  }

  /// Removes every stored value.
  public func removeAll() {
    state.withLock { state in
      for key in state.values.keys { state.pending[key] = .some(nil) }
      state.values.removeAll()
    }
    flushes.schedule(self)
  }

  /// The value this file will hold for `value`: XML stores dates to the whole second.
  public func storedForm(of value: PropertyListValue) -> PropertyListValue {
    format == .xml ? value.truncatingDatesToSeconds() : value
  }

  var hasPendingChanges: Bool { state.withLock { !$0.pending.isEmpty } }

  /// Writes the changes made in this process to the file now, merged with the file's current
  /// contents, and returns when the new file is in place.
  ///
  /// - Throws: ``PreferenceError/writeFailed(path:reason:pendingKeys:)``; the changes stay
  ///   pending and are retried.
  public func flush() throws { try flush(durable: true) }

  /// Writes the pending changes: `durable`, on stable storage when this returns; otherwise
  /// ordered after earlier writes (the background flushes).
  func flush(durable: Bool) throws {
    diskLock.lock()
    let changedByOthers: Set<String>
    do {
      defer { diskLock.unlock() }
      changedByOthers = try flushToDisk(durable: durable)
    }
    report(changedByOthers)
  }

  /// Stores `value` under `key` only if `expected` is stored, as one step against this
  /// process's other writers and other processes': under the file's lock the file is read again,
  /// the key compared with what it holds now (this process's unwritten changes on top), and, if it
  /// is `expected`, the file is written with the new value at once. A write that fails leaves the
  /// value pending, like any other.
  public func replaceValue(
    forKey key: String, ifEqualTo expected: PropertyListValue?, with value: PropertyListValue?
  ) -> Bool {
    let value = value.map(storedForm(of:))
    var replaced = false
    diskLock.lock()
    var changed: Set<String> = []
    var failure: (any Error)?
    do {
      defer { diskLock.unlock() }
      changed = try flushToDisk { current in
        guard current[key] == expected else { return nil }
        replaced = true
        return (key, value)
      }
    } catch is ExpiringActivity.Expired {
      // The process is about to be suspended: no lock now. Decided against what this process
      // holds, and left pending.
      replaced = state.withLock { state in
        guard state.values[key] == expected else { return false }
        state.values[key] = value
        state.pending[key] = .some(value)
        return true
      }
      flushes.schedule(self)
    } catch {
      failure = error
    }
    if let failure {
      PreferenceDiagnostics.report(
        (failure as? PreferenceError) ?? .writeFailed(path: file.url.path, reason: "\(failure)"))
      flushes.schedule(self)
    }
    report(changed)
    return replaced
  }

  /// Writes the pending changes, merged with the file as it is now, under the file's lock.
  /// `change`, given the values the file and this process's pending changes make together, may
  /// add one change, decided and applied in the same step (``replaceValue(forKey:ifEqualTo:with:)``).
  ///
  /// - Returns: The keys whose values differ from what this backend held before.
  private func flushToDisk(
    durable: Bool = true,
    adding change: (([String: PropertyListValue]) -> (key: String, value: PropertyListValue?)?)? = nil
  ) throws -> Set<String> {
    if change == nil, state.withLock({ $0.pending.isEmpty }) { return [] }
    var written: [String: PropertyListValue?] = [:]
    let (merged, stamp): ([String: PropertyListValue], FileStamp?)
    do {
      (merged, stamp) = try file.withExclusiveLock {
        var disk: [String: PropertyListValue]
        // A file another process is rewriting in place is read again until it parses; only one
        // that stays unparseable is corrupt.
        switch try file.readSettled() {
        case .missing:
          disk = [:]
        case .values(let values):
          disk = values
        case .corrupt(let reason):
          guard let preserved = file.moveAside() else {
            throw PreferenceError.writeFailed(
              path: file.target.path, reason: "the file is corrupt (\(reason)) and could not be moved aside")
          }
          PreferenceDiagnostics.report(
            .corruptFile(path: file.target.path, reason: reason, preservedAt: preserved))
          disk = [:]
        }
        // The pending changes, read now, and the added change, decided against them and the file
        // in one step: a write in this process after this point is newer, and wins.
        written = state.withLock { state in
          if let change {
            var current = disk
            for (key, value) in state.pending { current[key] = value }
            if let (key, value) = change(current) {
              state.values[key] = value
              state.pending[key] = .some(value)
            }
          }
          return state.pending
        }
        if written.isEmpty { return (disk, FileStamp(path: file.target.path)) }
        Self.whileFlushing?()
        for (key, value) in written { disk[key] = value }
        try file.write(disk, durable: durable)
        return (disk, FileStamp(path: file.target.path))
      }
    } catch let expired as ExpiringActivity.Expired {
      throw expired
    } catch {
      let reason = (error as? PreferenceError)?.reason ?? "\(error)"
      let keys = state.withLock { $0.pending.keys.sorted() }
      throw PreferenceError.writeFailed(path: file.target.path, reason: reason, pendingKeys: keys)
    }
    return state.withLock { state in
      // Keep changes made while the file was being written; they go out with the next flush.
      for (key, value) in written where state.pending[key] == value { state.pending[key] = nil }
      var values = merged
      for (key, value) in state.pending { values[key] = value }
      let changed = Set(values.keys).union(state.values.keys).filter { values[$0] != state.values[$0] }
      state.values = values
      state.stamp = stamp
      return changed
    }
  }
}

extension PropertyListValue {
  /// The value with every date truncated to the whole second, as XML property lists store it.
  func truncatingDatesToSeconds() -> PropertyListValue {
    switch self {
    case .date(let date): .date(Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down)))
    case .array(let values): .array(values.map { $0.truncatingDatesToSeconds() })
    case .dictionary(let values): .dictionary(values.mapValues { $0.truncatingDatesToSeconds() })
    default: self
    }
  }
}
