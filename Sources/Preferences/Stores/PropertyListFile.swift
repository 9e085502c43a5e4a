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
///   target, `fsync`s it and renames it over the target. A symbolic link is followed (the target
///   is replaced, the link kept), and an existing file keeps its mode and, where the process may,
///   its owner.
/// - A file that is not a property-list dictionary is never replaced: it is moved aside to
///   `<name>.corrupt-<time>.<ext>` first, or, if that fails, the write fails.
struct PropertyListFile: Sendable {
  /// The path as given (possibly a symbolic link).
  let url: URL
  let format: PropertyListFileBackend.Format

  /// The file that is read and replaced: `url` with symbolic links resolved.
  var target: URL { url.resolvingSymlinksInPath() }
  var lockURL: URL { target.appendingPathExtension("lock") }

  /// The result of reading the file.
  enum Contents: Equatable {
    case missing
    case values([String: PropertyListValue])
    /// Present but not a property-list dictionary; `reason` says why.
    case corrupt(reason: String)
  }

  // MARK: Reading

  /// Reads and parses the file without locking it.
  ///
  /// - Throws: ``PreferenceError/writeFailed(path:reason:pendingKeys:)`` when the file exists but
  ///   cannot be read (permissions, I/O error).
  func read() throws -> Contents {
    let path = target.path
    let data: Data
    do {
      data = try Data(contentsOf: URL(fileURLWithPath: path))
    } catch {
      if !FileManager.default.fileExists(atPath: path) { return .missing }
      throw PreferenceError.readFailed(path: path, reason: error.localizedDescription)
    }
    return Self.parse(data)
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
    let source = target
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
    let lockPath = lockURL.path
    try FileManager.default.createDirectory(
      at: lockURL.deletingLastPathComponent(), withIntermediateDirectories: true)
    var descriptor = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o666)
    // A lock file created by another user may not be writable; flock works on a read-only one.
    if descriptor < 0 { descriptor = open(lockPath, O_RDONLY | O_CLOEXEC) }
    guard descriptor >= 0 else { throw PreferenceError.writeFailed(path: lockPath, reason: Self.errnoText()) }
    defer { close(descriptor) }
    while flock(descriptor, LOCK_EX) != 0 {
      guard errno == EINTR else {
        throw PreferenceError.writeFailed(path: lockPath, reason: Self.errnoText())
      }
    }
    defer { flock(descriptor, LOCK_UN) }
    return try body()
  }

  /// Replaces the file with `values`, atomically. Call with the exclusive lock held.
  func write(_ values: [String: PropertyListValue]) throws {
    let target = self.target
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
    do {
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    } catch {
      throw PreferenceError.writeFailed(path: path, reason: error.localizedDescription)
    }
    removeOrphanedTemporaryFiles()
    let temporary = directory.appendingPathComponent(
      ".\(target.lastPathComponent).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp")
    let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else { throw PreferenceError.writeFailed(path: path, reason: Self.errnoText()) }
    var committed = false
    defer {
      if !committed { unlink(temporary.path) }
    }
    do {
      defer { close(descriptor) }
      // Keep the mode and owner of the file being replaced (chown succeeds only where allowed).
      var existing = stat()
      if stat(path, &existing) == 0 {
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
      guard fsync(descriptor) == 0 else {
        throw PreferenceError.writeFailed(path: path, reason: Self.errnoText())
      }
    }
    guard rename(temporary.path, path) == 0 else {
      throw PreferenceError.writeFailed(path: path, reason: Self.errnoText())
    }
    committed = true
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
