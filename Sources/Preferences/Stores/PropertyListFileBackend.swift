import Foundation

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// A backend that keeps preferences in one property-list file, safely shared between processes.
///
/// - Writes return after updating memory; they reach the file about 50 ms later, coalesced, and at
///   normal process exit. Call ``flush()`` to write now.
/// - Every write replaces the file atomically (temporary file, then rename), so a crash leaves
///   either the old or the new file, never a partial one.
/// - Several processes may write the same file: a flush takes an exclusive lock on a sibling
///   `.lock` file, re-reads the file, applies only the keys this process changed, and writes the
///   result. Keys other processes wrote are kept.
/// - A corrupt file (unreadable, not a property list, or not a dictionary) is never overwritten:
///   it is moved aside to `<name>.corrupt-<timestamp>.<ext>`, reported through
///   ``PreferenceDiagnostics``, and the store continues empty.
public final class PropertyListFileBackend: PreferenceBackend {
  /// The file's format on disk.
  public enum Format: Sendable {
    /// XML: readable and diff-friendly. Dates are stored with whole-second precision.
    case xml
    /// Binary: smaller, faster, and keeps dates exact.
    case binary
  }

  /// The property-list file.
  public let url: URL
  /// The format the file is written in.
  public let format: Format

  private struct State {
    /// Values as last read from or written to disk, with `pending` applied on top.
    var values: [String: PropertyListValue] = [:]
    /// Keys changed in this process and not yet written: a value, or `nil` for a removal.
    var pending: [String: PropertyListValue?] = [:]
    /// Identity of the file as last seen, to detect changes by other processes.
    var fileStamp: FileStamp?
  }

  private let state = Locked(State())
  private let poller = Locked<ChangePoller?>(nil)
  /// Serializes flushes within the process; the file lock serializes them across processes.
  private let flushLock = NSLock()

  /// Opens (or prepares to create) the property-list file at `url`.
  ///
  /// A missing file is created on the first write, together with its directory. A corrupt file is
  /// moved aside and reported; the backend then starts empty.
  public init(url: URL, format: Format = .binary) {
    self.url = url.standardizedFileURL
    self.format = format
    reload()
  }

  public var location: String { url.path }

  /// A backend released with unsaved changes writes them first.
  deinit {
    do { try flush() } catch let error as PreferenceError { PreferenceDiagnostics.report(error) } catch {}
  }

  private var lockURL: URL { url.appendingPathExtension("lock") }

  // MARK: Reading

  public func value(forKey key: String) -> PropertyListValue? { state.withLock { $0.values[key] } }
  public func allValues() -> [String: PropertyListValue] { state.withLock { $0.values } }

  /// Re-reads the file if another process changed it since this backend last read or wrote it.
  ///
  /// - Returns: The keys whose values changed.
  @discardableResult
  public func reload() -> Set<String> {
    flushLock.lock()
    defer { flushLock.unlock() }
    let current = FileStamp(url: url)
    if let current, current == state.withLock({ $0.fileStamp }) { return [] }
    let disk: [String: PropertyListValue]
    do {
      disk = try withFileLock { try readDisk() }
    } catch let error as PreferenceError {
      if case .corruptFile = error {} else { PreferenceDiagnostics.report(error) }
      return []
    } catch {
      PreferenceDiagnostics.report(.writeFailed(path: url.path, reason: "\(error)"))
      return []
    }
    return state.withLock { state in
      var merged = disk
      for (key, value) in state.pending { merged[key] = value }
      let changed = Set(merged.keys).union(state.values.keys).filter { merged[$0] != state.values[$0] }
      state.values = merged
      state.fileStamp = FileStamp(url: url)
      return changed
    }
  }

  /// Checks the file for changes by other processes every 200 ms and reports the changed keys.
  public func startWatching(_ onChange: @escaping @Sendable (Set<String>) -> Void) {
    poller.withLock { poller in
      poller = ChangePoller(
        interval: .milliseconds(200), check: { [weak self] in self?.reload() ?? [] }, onChange: onChange)
    }
  }

  public func stopWatching() { poller.withLock { $0 = nil } }

  // MARK: Writing

  public func setValue(_ value: PropertyListValue?, forKey key: String) {
    state.withLock { state in
      state.values[key] = value
      state.pending[key] = .some(value)
    }
    PendingFlushes.schedule(self)
  }

  public func removeAll() {
    state.withLock { state in
      for key in state.values.keys { state.pending[key] = .some(nil) }
      state.values.removeAll()
    }
    PendingFlushes.schedule(self)
  }

  /// Writes the changes made in this process to the file now, merged with the file's current
  /// contents, and returns when the new file is in place.
  ///
  /// - Throws: ``PreferenceError/writeFailed(path:reason:)``; the changes stay pending and are
  ///   retried on the next flush.
  public func flush() throws {
    flushLock.lock()
    defer { flushLock.unlock() }
    let pending = state.withLock { $0.pending }
    if pending.isEmpty { return }
    let merged: [String: PropertyListValue]
    do {
      merged = try withFileLock {
        var disk = try readDisk()
        for (key, value) in pending { disk[key] = value }
        try writeDisk(disk)
        return disk
      }
    } catch let error as PreferenceError {
      throw error
    } catch {
      throw PreferenceError.writeFailed(path: url.path, reason: "\(error)")
    }
    state.withLock { state in
      // Keep changes made while the file was being written; they go out with the next flush.
      for (key, value) in pending where state.pending[key] == value { state.pending[key] = nil }
      var values = merged
      for (key, value) in state.pending { values[key] = value }
      state.values = values
      state.fileStamp = FileStamp(url: url)
    }
  }

  // MARK: Disk

  /// Reads the file. A missing file is empty; a corrupt one is moved aside and reported.
  /// Called with the file lock held.
  private func readDisk() throws -> [String: PropertyListValue] {
    let data: Data
    do {
      data = try Data(contentsOf: url)
    } catch CocoaError.fileReadNoSuchFile, CocoaError.fileNoSuchFile {
      return [:]
    } catch {
      if !FileManager.default.fileExists(atPath: url.path) { return [:] }
      throw PreferenceError.writeFailed(
        path: url.path, reason: "could not read: \(error.localizedDescription)")
    }
    let reason: String
    if data.isEmpty {
      reason = "the file is empty"
    } else {
      do {
        let object = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
        if let dictionary = object as? [String: Any],
          case .dictionary(let values)? = PropertyListValue(foundationObject: dictionary)
        {
          return values
        }
        reason = "the root is \(Swift.type(of: object)), expected a dictionary"
      } catch {
        reason = "not a property list: \(error.localizedDescription)"
      }
    }
    let preserved = moveAside()
    let error = PreferenceError.corruptFile(path: url.path, reason: reason, preservedAt: preserved)
    PreferenceDiagnostics.report(error)
    // A corrupt file that could not be moved aside must not be replaced: fail the write instead.
    guard preserved != nil else { throw error }
    return [:]
  }

  /// Moves the corrupt file to a new name beside it and returns that path, or `nil` if it could
  /// not be moved (then it stays where it is, and writes will fail rather than replace it).
  private func moveAside() -> String? {
    let stamp = ISO8601DateFormatter().string(from: Date()).replacingOccurrences(of: ":", with: "")
    let base = url.deletingPathExtension().lastPathComponent
    let ext = url.pathExtension.isEmpty ? "" : ".\(url.pathExtension)"
    for attempt in 0..<100 {
      let suffix = attempt == 0 ? "" : "-\(attempt)"
      let destination = url.deletingLastPathComponent()
        .appendingPathComponent("\(base).corrupt-\(stamp)\(suffix)\(ext)")
      if FileManager.default.fileExists(atPath: destination.path) { continue }
      do {
        try FileManager.default.moveItem(at: url, to: destination)
        return destination.path
      } catch {
        return nil
      }
    }
    return nil
  }

  private func writeDisk(_ values: [String: PropertyListValue]) throws {
    removeOrphanedTemporaryFiles()
    let object = values.mapValues(\.foundationObject)
    let data = try PropertyListSerialization.data(
      fromPropertyList: object, format: format == .xml ? .xml : .binary, options: 0)
    let directory = url.deletingLastPathComponent()
    let temporary = directory.appendingPathComponent(
      ".\(url.lastPathComponent).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp")
    guard
      FileManager.default.createFile(
        atPath: temporary.path, contents: nil, attributes: [.posixPermissions: 0o600])
    else {
      throw PreferenceError.writeFailed(path: url.path, reason: "could not create \(temporary.path)")
    }
    do {
      let handle = try FileHandle(forWritingTo: temporary)
      defer { try? handle.close() }
      try handle.write(contentsOf: data)
      try handle.synchronize()
    } catch {
      try? FileManager.default.removeItem(at: temporary)
      throw PreferenceError.writeFailed(path: url.path, reason: error.localizedDescription)
    }
    guard rename(temporary.path, url.path) == 0 else {
      let reason = String(cString: strerror(errno))
      try? FileManager.default.removeItem(at: temporary)
      throw PreferenceError.writeFailed(path: url.path, reason: reason)
    }
  }

  /// Removes temporary files left by writers that died mid-write. Called with the file lock
  /// held, when no other writer can have a temporary file in progress.
  private func removeOrphanedTemporaryFiles() {
    let directory = url.deletingLastPathComponent()
    let prefix = ".\(url.lastPathComponent)."
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return }
    for name in names where name.hasPrefix(prefix) && name.hasSuffix(".tmp") {
      try? FileManager.default.removeItem(at: directory.appendingPathComponent(name))
    }
  }

  /// Runs `body` holding an exclusive `flock` on the sibling lock file, creating the directory
  /// if needed.
  private func withFileLock<T>(_ body: () throws -> T) throws -> T {
    let directory = url.deletingLastPathComponent()
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let descriptor = open(lockURL.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else {
      throw PreferenceError.writeFailed(path: lockURL.path, reason: String(cString: strerror(errno)))
    }
    defer { close(descriptor) }
    while flock(descriptor, LOCK_EX) != 0 {
      guard errno == EINTR else {
        throw PreferenceError.writeFailed(path: lockURL.path, reason: String(cString: strerror(errno)))
      }
    }
    defer { flock(descriptor, LOCK_UN) }
    return try body()
  }
}

/// What identifies one version of a file: replaced files get a new inode, edited ones a new
/// modification time or size.
struct FileStamp: Equatable, Sendable {
  var inode: UInt64
  var size: Int64
  var modified: timespec

  init?(url: URL) {
    var info = stat()
    guard stat(url.path, &info) == 0 else { return nil }
    inode = UInt64(info.st_ino)
    size = Int64(info.st_size)
    #if canImport(Darwin)
      modified = info.st_mtimespec
    #else
      modified = info.st_mtim
    #endif
  }

  static func == (a: FileStamp, b: FileStamp) -> Bool {
    a.inode == b.inode && a.size == b.size && a.modified.tv_sec == b.modified.tv_sec
      && a.modified.tv_nsec == b.modified.tv_nsec
  }
}
