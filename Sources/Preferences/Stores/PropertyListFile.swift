import Foundation

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The disk side of a property-list file store: reading, atomic replacement and the sibling
/// lock file. Shared by ``PropertyListFileBackend`` and, on Linux, ``UserDefaultsBackend``.
///
/// - Reading never needs write access: it opens the file read-only and takes no lock, which is
///   safe because writers replace the file atomically (a reader sees the old or the new file).
/// - Writing holds an exclusive `flock` on `<file>.lock`, writes a temporary file beside the
///   target, syncs it, renames it over the target and syncs the directory, so that the rename
///   itself survives a power loss (SQLite's and the ALICE study's rules for an atomic replace).
///   Directories it creates are made durable too: each new directory's parent is synced after
///   the directory is made. A symbolic link is followed (the target is replaced, the link kept),
///   and an existing file keeps its mode and, where the process may, its owner.
/// - On Apple platforms `fsync` leaves data in the drive's cache; the temporary file is ordered
///   with `F_BARRIERFSYNC` before the rename, and the directory is flushed with `F_FULLFSYNC`
///   after it, which flushes the drive's cache and so everything written before it: one full
///   flush per write, not two. Where a file system refuses either, `fsync` is used.
/// - A file that is not a property-list dictionary is never replaced: it is moved aside to
///   `<name>.corrupt-<time>.<ext>` first, or, if that fails, the write fails. A file that does
///   not parse while it keeps changing is another writer's write in progress (corelibs'
///   `UserDefaults.synchronize()` truncates and rewrites in place): it is read again until it
///   parses, and taken for corrupt only once it has stayed unchanged (``readSettled()``).
/// - Ownership: a symbolic link is followed only if the user writing or the superuser owns it (a
///   link another user planted in a shared folder is refused, for reads and writes); the file it
///   replaces keeps its mode and owner only if the user writing owns it (otherwise the new file
///   is that user's, readable by that user alone). The lock file is created readable and
///   writable by its owner only.
/// - The lock is waited for at most ``lockWait``: a process that holds it and never lets go (a
///   stopped process, another user's) fails the write, which stays pending, instead of stopping
///   this process (its exit included).
struct PropertyListFile: Sendable {
  /// The path as given (possibly a symbolic link).
  let url: URL
  let format: PropertyListFileBackend.Format
  /// Records the file-system calls of writes, for tests that check their order.
  var journal: FileSystemJournal?
  /// The user this process writes the file as: its effective user ID (tests pass another, to
  /// stand for a file or link that belongs to someone else).
  let writer: uid_t

  init(
    url: URL, format: PropertyListFileBackend.Format, journal: FileSystemJournal? = nil,
    writer: uid_t = geteuid()
  ) {
    self.url = url
    self.format = format
    self.journal = journal
    self.writer = writer
  }

  /// How long a write waits for another process's lock before it fails (and stays pending).
  static let lockWait: Duration = .seconds(2)
  /// A shorter wait, for tests.
  @TaskLocal static var lockWaitOverride: Duration?
  /// Called, by lock path, the first time a write finds that lock held elsewhere: tests wait for
  /// it instead of sleeping (a flush runs on a thread of its own).
  static let lockContentionForTests = Locked<[String: @Sendable () -> Void]>([:])

  /// The file that is read and replaced: `url` with symbolic links resolved, as far as they are
  /// trusted (``checkedTarget()`` refuses the rest).
  var target: URL { (try? checkedTarget()) ?? url }
  var lockURL: URL { target.appendingPathExtension("lock") }

  /// `url` with its symbolic links followed, refusing a link owned by anyone but the user
  /// writing or the superuser: root writing a store in a folder another user can write must not
  /// read, move aside or replace the file that user's link points at.
  func checkedTarget() throws -> URL {
    var current = url.standardizedFileURL
    for _ in 0..<32 {
      var info = stat()
      guard lstat(current.path, &info) == 0, info.st_mode & S_IFMT == S_IFLNK else {
        return current.resolvingSymlinksInPath()
      }
      guard info.st_uid == writer || info.st_uid == 0 else {
        throw PreferenceError.writeFailed(
          path: url.path,
          reason: "it is a symbolic link owned by another user (uid \(info.st_uid)); a store follows only "
            + "links its own user or the superuser owns")
      }
      guard let destination = try? FileManager.default.destinationOfSymbolicLink(atPath: current.path) else {
        return current
      }
      current =
        destination.hasPrefix("/")
        ? URL(fileURLWithPath: destination)
        : current.deletingLastPathComponent().appendingPathComponent(destination)
      current = current.standardizedFileURL
    }
    throw PreferenceError.writeFailed(path: url.path, reason: "too many levels of symbolic links")
  }

  /// The result of reading the file.
  enum Contents: Equatable {
    case missing
    case values([String: PropertyListValue])
    /// Present but not a property-list dictionary; `reason` says why.
    case corrupt(reason: String)
  }

  // MARK: Reading

  /// Files that read as data protection makes them before the device's first unlock (`EPERM`),
  /// for tests: running as root, a test cannot make a file unreadable with its mode.
  static let unreadableForTests = Locked<Set<String>>([])

  /// Whether the file exists and cannot be opened for reading now: on iOS, tvOS, watchOS and
  /// visionOS, a file whose data protection class keeps it locked (before the first unlock
  /// after a restart, or while the device is locked, for complete protection) fails with `EPERM`.
  var isUnreadableNow: Bool {
    guard let path = try? checkedTarget().path, FileManager.default.fileExists(atPath: path) else {
      return false
    }
    if Self.unreadableForTests.withLock({ $0.contains(path) }) { return true }
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    if descriptor >= 0 {
      close(descriptor)
      return false
    }
    return errno == EPERM || errno == EACCES
  }

  /// Reads and parses the file without locking it.
  ///
  /// - Throws: ``PreferenceError/writeFailed(path:reason:pendingKeys:)`` when the file exists but
  ///   cannot be read (permissions, I/O error).
  func read() throws -> Contents {
    let path = try checkedTarget().path
    if Self.unreadableForTests.withLock({ $0.contains(path) }) {
      throw PreferenceError.readFailed(path: path, reason: String(cString: strerror(EPERM)))
    }
    let data: Data
    do {
      data = try Data(contentsOf: URL(fileURLWithPath: path))
    } catch {
      if !FileManager.default.fileExists(atPath: path) { return .missing }
      throw PreferenceError.readFailed(path: path, reason: error.localizedDescription)
    }
    return Self.parse(data)
  }

  /// How often, and for how long, a file that does not parse is read again before it is taken
  /// for corrupt: until it has stayed unchanged for ``settleTime``, and no longer than
  /// ``settleLimit`` while it keeps changing.
  static let settleStep: Duration = .milliseconds(20)
  static let settleTime: Duration = .milliseconds(200)
  static let settleLimit: Duration = .seconds(2)
  /// Called instead of waiting between two reads of an unparseable file, for tests that
  /// complete or change the file there.
  @TaskLocal static var whileUnsettled: TestHook?

  /// Reads the file as ``read()`` does; a file that does not parse is read again while it
  /// changes (another writer's write in progress, in place), and is ``Contents/corrupt(reason:)``
  /// only once it has stayed unchanged and unparseable for ``settleTime``.
  func readSettled() throws -> Contents {
    var contents = try read()
    guard case .corrupt = contents else { return contents }
    let path = target.path
    var stamp = FileStamp(path: path)
    var unchanged: Duration = .zero
    var waited: Duration = .zero
    while unchanged < Self.settleTime && waited < Self.settleLimit {
      if let hook = Self.whileUnsettled { hook() } else { Thread.sleep(forTimeInterval: 0.02) }
      waited += Self.settleStep
      contents = try read()
      guard case .corrupt = contents else { return contents }
      let now = FileStamp(path: path)
      if now == stamp {
        unchanged += Self.settleStep
      } else {
        unchanged = .zero
        stamp = now
      }
    }
    return contents
  }

  /// The values the file holds now, whatever reads it is made to refuse, for tests.
  func readUnchecked() throws -> [String: PropertyListValue] {
    let data = try Data(contentsOf: try checkedTarget())
    guard case .values(let values) = Self.parse(data) else { return [:] }
    return values
  }

  static func parse(_ data: Data) -> Contents {
    if data.isEmpty { return .corrupt(reason: "the file is empty") }
    do {
      let object = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
      guard let dictionary = object as? [String: Any] else {
        return .corrupt(reason: "the root is \(Swift.type(of: object)), expected a dictionary")
      }
      guard case .dictionary(let values)? = PropertyListValue(foundationObject: dictionary) else {
        return .corrupt(reason: "it holds values that are not property-list types")
      }
      return .values(values)
    } catch {
      return .corrupt(reason: "not a property list: \(error.localizedDescription)")
    }
  }

  /// Moves a corrupt file aside and returns where it went, or `nil` if it could not be moved (it
  /// then stays where it is, untouched).
  func moveAside() -> String? {
    guard let source = try? checkedTarget() else { return nil }
    let stamp = ISO8601DateFormatter().string(from: Date()).replacingOccurrences(of: ":", with: "")
    let base = source.deletingPathExtension().lastPathComponent
    let ext = source.pathExtension.isEmpty ? "" : ".\(source.pathExtension)"
    for attempt in 0..<100 {
      let suffix = attempt == 0 ? "" : "-\(attempt)"
      let destination = source.deletingLastPathComponent()
        .appendingPathComponent("\(base).corrupt-\(stamp)\(suffix)\(ext)")
      if FileManager.default.fileExists(atPath: destination.path) { continue }
      return rename(source.path, destination.path) == 0 ? destination.path : nil
    }
    return nil
  }

  // MARK: Writing

  /// Runs `body` holding an exclusive lock on the sibling lock file, creating the directory and
  /// the lock file if needed.
  func withExclusiveLock<T>(_ body: () throws -> T) throws -> T {
    // Not taken once the system has said the process is about to be suspended: suspended
    // holding it, an app with the file in a shared container is terminated (0xdead10cc).
    if ExpiringActivity.current?.isExpiring == true { throw ExpiringActivity.Expired() }
    let lockURL = try checkedTarget().appendingPathExtension("lock")
    let lockPath = lockURL.path
    try makeDirectory(lockURL.deletingLastPathComponent())
    var descriptor = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
    // A lock file created by another user may not be writable; flock works on a read-only one.
    if descriptor < 0 && errno != ELOOP { descriptor = open(lockPath, O_RDONLY | O_CLOEXEC | O_NOFOLLOW) }
    guard descriptor >= 0 else { throw PreferenceError.writeFailed(path: lockPath, reason: Self.errnoText()) }
    defer { close(descriptor) }
    // Waited for at most `lockWait`, polling: a holder that never lets go must not stop this
    // process (its exit flush included).
    let wait = Self.lockWaitOverride ?? Self.lockWait
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: wait)
    var contended = false
    while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
      if errno == EINTR { continue }
      guard errno == EWOULDBLOCK || errno == EAGAIN else {
        throw PreferenceError.writeFailed(path: lockPath, reason: Self.errnoText())
      }
      if !contended {
        contended = true
        Self.lockContentionForTests.withLock { $0[lockPath] }?()
      }
      guard clock.now < deadline else {
        throw PreferenceError.writeFailed(
          path: lockPath, reason: "another process has held the lock for \(wait); the changes stay pending")
      }
      Thread.sleep(forTimeInterval: 0.005)
    }
    defer { flock(descriptor, LOCK_UN) }
    return try body()
  }

  /// Replaces the file with `values`, atomically. Call with the exclusive lock held.
  ///
  /// `durable`: the directory is flushed after the rename (`F_FULLFSYNC` on Apple platforms), so
  /// the new file survives a power loss once this returns: for an explicit flush, at exit, and
  /// for migrations. Otherwise (the coalesced flushes in the background) it is only ordered
  /// (`F_BARRIERFSYNC`): a power loss may bring back the previous file, never a torn one, and
  /// the drive's cache is not flushed for every write. Elsewhere both are `fsync`.
  func write(_ values: [String: PropertyListValue], durable: Bool = true) throws {
    let target = try checkedTarget()
    let path = target.path
    let data: Data
    do {
      data = try PropertyListSerialization.data(
        fromPropertyList: values.mapValues(\.foundationObject), format: format == .xml ? .xml : .binary,
        options: 0)
    } catch {
      throw PreferenceError.writeFailed(
        path: path, reason: "could not serialize: \(error.localizedDescription)")
    }
    let directory = target.deletingLastPathComponent()
    try makeDirectory(directory)
    removeOrphanedTemporaryFiles()
    let temporary = directory.appendingPathComponent(
      ".\(target.lastPathComponent).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp")
    let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else { throw PreferenceError.writeFailed(path: path, reason: Self.errnoText()) }
    journal?.record(.create(temporary.path))
    var committed = false
    defer {
      if !committed { unlink(temporary.path) }
    }
    do {
      defer { close(descriptor) }
      // Keep the mode and owner of the file being replaced, if the user writing owns it (chown
      // succeeds only where allowed). Another user's file (one pre-created readable by all, in a
      // folder root writes to) is replaced by this user's own, readable by this user only.
      var existing = stat()
      if stat(path, &existing) == 0 && existing.st_uid == writer {
        _ = fchmod(descriptor, existing.st_mode & 0o7777)
        _ = fchown(descriptor, existing.st_uid, existing.st_gid)
      }
      try data.withUnsafeBytes { buffer in
        var offset = 0
        while offset < buffer.count {
          let written = systemWrite(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
          if written < 0 {
            if errno == EINTR { continue }
            throw PreferenceError.writeFailed(path: path, reason: Self.errnoText())
          }
          offset += written
        }
      }
      journal?.record(.write(temporary.path))
      // The contents reach storage before the rename can: a crash never leaves the new name
      // pointing at missing data.
      guard order(descriptor, recording: .sync(temporary.path)) else {
        throw PreferenceError.writeFailed(path: path, reason: Self.errnoText())
      }
    }
    guard rename(temporary.path, path) == 0 else {
      throw PreferenceError.writeFailed(path: path, reason: Self.errnoText())
    }
    committed = true
    journal?.record(.rename(from: temporary.path, to: path))
    // The rename is a change to the directory: until the directory is synced, a power loss can
    // bring the old file back.
    if durable {
      try syncDirectory(directory, forWriteOf: path)
    } else {
      try orderDirectory(directory, forWriteOf: path)
    }
  }

  /// Creates `directory` and any missing parents, syncing each new directory's parent so that
  /// the new entry is durable before anything is written inside it.
  func makeDirectory(_ directory: URL) throws {
    var missing: [URL] = []
    var current = directory.standardizedFileURL
    while !FileManager.default.fileExists(atPath: current.path) {
      missing.append(current)
      let parent = current.deletingLastPathComponent()
      if parent.path == current.path { break }
      current = parent
    }
    for created in missing.reversed() {
      if mkdir(created.path, 0o755) != 0 && errno != EEXIST {
        throw PreferenceError.writeFailed(path: created.path, reason: Self.errnoText())
      }
      journal?.record(.makeDirectory(created.path))
      try syncDirectory(created.deletingLastPathComponent(), forWriteOf: created.path)
    }
  }

  /// Orders a directory's entries before later writes (a barrier, not a flush of the drive).
  private func orderDirectory(_ directory: URL, forWriteOf path: String) throws {
    let descriptor = open(directory.path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { throw PreferenceError.writeFailed(path: path, reason: Self.errnoText()) }
    defer { close(descriptor) }
    guard order(descriptor, recording: .orderDirectory(directory.path)) else {
      throw PreferenceError.writeFailed(path: path, reason: Self.errnoText())
    }
  }

  /// Orders what was written to `descriptor` before later writes (``Durability/orderBeforeRename(_:)``),
  /// recording `call` in the journal once it is done: the journal says what was synced, not
  /// what was meant to be.
  private func order(_ descriptor: Int32, recording call: FileSystemJournal.Call) -> Bool {
    guard Durability.orderBeforeRename(descriptor) else { return false }
    journal?.record(call)
    return true
  }

  /// Syncs a directory's entries to storage.
  private func syncDirectory(_ directory: URL, forWriteOf path: String) throws {
    let descriptor = open(directory.path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { throw PreferenceError.writeFailed(path: path, reason: Self.errnoText()) }
    defer { close(descriptor) }
    guard Durability.flush(descriptor) else {
      throw PreferenceError.writeFailed(path: path, reason: Self.errnoText())
    }
    journal?.record(.syncDirectory(directory.path))
  }

  /// Removes temporary files that writers of this file left when they died mid-write. Called with
  /// the exclusive lock held, so no writer of this file has one in progress. Only names of the
  /// exact form `.<file name>.<pid>.<number>.tmp` are touched: never another store's files.
  func removeOrphanedTemporaryFiles() {
    let directory = target.deletingLastPathComponent()
    let prefix = ".\(target.lastPathComponent)."
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return }
    for name in names where Self.isTemporaryName(name, prefix: prefix) {
      unlink(directory.appendingPathComponent(name).path)
    }
  }

  static func isTemporaryName(_ name: String, prefix: String) -> Bool {
    guard name.hasPrefix(prefix), name.hasSuffix(".tmp") else { return false }
    let middle = name.dropFirst(prefix.count).dropLast(4).split(
      separator: ".", omittingEmptySubsequences: false)
    return middle.count == 2 && middle.allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isASCIIDigit) }
  }

  static func errnoText() -> String { String(cString: strerror(errno)) }
}

/// How data is made durable on this platform.
enum Durability {
  /// Makes what was written to `descriptor` reach storage before later writes (a rename, or
  /// the next file's): on Apple platforms `F_BARRIERFSYNC`, an ordering barrier that skips the
  /// drive-cache flush, and `fsync` where the file system refuses it; elsewhere `fsync`, which
  /// waits for the data.
  static func orderBeforeRename(_ descriptor: Int32) -> Bool {
    #if canImport(Darwin)
      if fcntl(descriptor, F_BARRIERFSYNC) == 0 { return true }
    #endif
    return retrying { fsync(descriptor) }
  }

  /// Flushes `descriptor` to stable storage: on Apple platforms `F_FULLFSYNC` (also flushes the
  /// drive's cache, and with it every write before it), falling back to `fsync` as SQLite does;
  /// elsewhere `fsync`.
  static func flush(_ descriptor: Int32) -> Bool {
    #if canImport(Darwin)
      if fcntl(descriptor, F_FULLFSYNC) == 0 { return true }
    #endif
    return retrying { fsync(descriptor) }
  }

  private static func retrying(_ call: () -> Int32) -> Bool {
    while call() != 0 {
      // Some file systems do not sync directories; that is not a failure of the write.
      if errno == EINVAL || errno == ENOTSUP { return true }
      if errno != EINTR { return false }
    }
    return true
  }
}

/// The file-system calls of writes, in order, as a test sees them.
final class FileSystemJournal: Sendable {
  enum Call: Equatable, Sendable {
    case makeDirectory(String)
    case create(String)
    case write(String)
    case sync(String)
    case rename(from: String, to: String)
    case syncDirectory(String)
    /// A directory ordered, not flushed (a background flush).
    case orderDirectory(String)
  }
  private let calls = Locked<[Call]>([])
  func record(_ call: Call) { calls.withLock { $0.append(call) } }
  var all: [Call] { calls.withLock { $0 } }
}

@inline(__always)
private func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
  #if canImport(Darwin)
    Darwin.write(descriptor, buffer, count)
  #elseif canImport(Glibc)
    Glibc.write(descriptor, buffer, count)
  #else
    Musl.write(descriptor, buffer, count)
  #endif
}

extension Character {
  fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}

/// What identifies one version of a file: replaced files get a new inode, edited ones a new
/// modification time or size.
struct FileStamp: Equatable, Sendable {
  var inode: UInt64
  var size: Int64
  var seconds: Int
  var nanoseconds: Int

  init?(path: String) {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    inode = UInt64(info.st_ino)
    size = Int64(info.st_size)
    #if canImport(Darwin)
      seconds = Int(info.st_mtimespec.tv_sec)
      nanoseconds = Int(info.st_mtimespec.tv_nsec)
    #else
      seconds = Int(info.st_mtim.tv_sec)
      nanoseconds = Int(info.st_mtim.tv_nsec)
    #endif
  }
}
