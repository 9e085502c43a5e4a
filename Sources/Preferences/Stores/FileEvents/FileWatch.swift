import Foundation

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Calls a handler when a file may have changed (created, replaced, written or removed), through
/// the platform's file-system events: inotify on Linux, a Dispatch file-system source on Apple
/// platforms. Nothing runs while nothing changes.
///
/// The file's directory is watched, because stores replace files by renaming a temporary file
/// over them (a watch on the file itself would follow the old file). While the directory does
/// not exist yet, its nearest existing ancestor is watched instead, and the watch moves down as
/// directories appear. Events for other entries of the directory (the store's own temporary and
/// lock files, other files) are filtered out where the platform names the entry; the handler
/// must be cheap to call spuriously (stores compare a `stat` of the file first).
///
/// Events are delivered on a queue of this watch's own, coalesced: a handler that blocks (a
/// store waiting for another process's file lock) delays only its own file, never the events of
/// other files, which the platform delivers on one shared queue.
final class FileWatch: Sendable {
  private let file: URL
  private let handler: @Sendable () -> Void
  private let queue = DispatchQueue(label: "swift-preferences.file-watch", qos: .utility)
  /// Whether a call of the handler is queued and not started yet.
  private let scheduled = Locked(false)
  /// The running watch, the identity (device and inode) of the directory it watches, the watches of that
  /// directory's ancestors (a rename of any of them moves the store's path away from the watched
  /// directory), and why the last watch could not start, if it could not.
  private struct Running {
    var watch: (any DirectoryWatch)?
    var directory: Identity?
    var ancestors: [any DirectoryWatch] = []
    var failure: String?
    var reported = false
  }
  private let watch = Locked(Running())

  /// Starts watching `file`; `nil` where the platform has no file-system events (the caller then
  /// polls, and only while its store is observed).
  init?(file: URL, handler: @escaping @Sendable () -> Void) {
    guard DirectoryEvents.isAvailable else { return nil }
    self.file = file
    self.handler = handler
    arm()
  }

  deinit {
    let running = watch.withLock { watch in
      defer { watch = Running() }
      return watch
    }
    withExtendedLifetime(running) {}
  }

  /// Whether events are being delivered: `false` when the platform refused the watch (the
  /// user's inotify watch limit used up), until ``retryIfStopped()`` succeeds.
  var isWatching: Bool { watch.withLock { $0.watch != nil } }

  /// Tries again to start a watch the platform refused; called by the store's poll, which runs
  /// meanwhile (while the store is observed).
  func retryIfStopped() {
    if !isWatching { arm() }
  }

  /// Runs between finding the directory to watch and starting its watch, for tests that create
  /// directories there.
  @TaskLocal static var beforeWatching: TestHook?
  /// Runs between starting the directory's watch and watching its ancestors, for tests that
  /// rename an ancestor there.
  @TaskLocal static var afterWatchStarts: TestHook?

  /// The file's directory, or its nearest existing ancestor; and whether it is the directory.
  private func nearestExistingDirectory() -> (path: String, isFileDirectory: Bool) {
    var directory = file.deletingLastPathComponent()
    var atFile = true
    while !FileManager.default.fileExists(atPath: directory.path), directory.path != "/" {
      directory = directory.deletingLastPathComponent()
      atFile = false
    }
    return (directory.path, atFile)
  }

  /// Watches the file's directory, or its nearest existing ancestor.
  ///
  /// A directory on the way created between finding the nearest one and starting its watch
  /// raises no event there, nor does an ancestor renamed before its own watch starts; so once
  /// every watch runs, the path is looked at again, and a deeper directory found then, or the
  /// directory now at the path, is watched at once (another process creating `a/b/c` for its
  /// first write would otherwise leave the watch on `a` for good, and a folder renamed away and
  /// made again would leave it on the renamed one).
  ///
  /// `again` counts the times in a row the path changed while the watch started: past a few (a
  /// folder renamed and made again without pause, or a file system whose inode numbers are not
  /// stable), the watch stays as it is, and the next event watches again.
  private func arm(again: Int = 0) {
    let (watched, atFile) = nearestExistingDirectory()
    Self.beforeWatching?()
    let name = file.lastPathComponent
    let watchingFileDirectory = atFile
    let identity = Self.identity(of: watched)
    let result = DirectoryEvents.watch(watched) { [weak self] entry, directoryChanged in
      guard let self else { return }
      if !watchingFileDirectory || directoryChanged || Self.identity(of: watched) != identity {
        // A directory on the way appeared, or the watched one went away: watch again.
        self.arm()
        self.deliver()
      } else if entry == nil || entry == name {
        self.deliver()
      }
    }
    // A rename of an ancestor (the folder above the store's renamed away and made again) moves
    // the watched directory away from the store's path without an event in it.
    var ancestors: [any DirectoryWatch] = []
    if case .watching = result {
      Self.afterWatchStarts?()
      var ancestor = URL(fileURLWithPath: watched).deletingLastPathComponent()
      while ancestor.path != "/" && !ancestor.path.isEmpty {
        if case .watching(let moves) = DirectoryEvents.watchMoves(
          ancestor.path,
          { [weak self] in
            self?.arm()
            self?.deliver()
          })
        {
          ancestors.append(moves)
        }
        ancestor = ancestor.deletingLastPathComponent()
      }
    }
    let started: (any DirectoryWatch)?
    let failure: String?
    switch result {
    case .watching(let running): (started, failure) = (running, nil)
    case .failed(let reason): (started, failure) = (nil, reason)
    }
    let (previous, report) = watch.withLock { watch -> (Running, Bool) in
      let previous = watch
      let report = failure != nil && !watch.reported
      watch = Running(
        watch: started, directory: identity, ancestors: ancestors, failure: failure,
        reported: watch.reported || report)
      return (previous, report)
    }
    withExtendedLifetime(previous) {}
    if report, let failure {
      PreferenceDiagnostics.report(.changesNotWatched(path: file.path, reason: failure))
    }
    // The path is looked at again once every watch runs: a deeper directory that appeared
    // meanwhile, or an ancestor renamed before its watch started (which moved the watched
    // directory away from the store's path unheard), is watched again at once.
    if started != nil, again < 8,
      (!atFile && nearestExistingDirectory().path != watched) || Self.identity(of: watched) != identity
    {
      arm(again: again + 1)
      deliver()
    }
  }

  /// Calls the handler on this watch's queue, once for any number of events that arrive before
  /// it starts.
  private func deliver() {
    let first = scheduled.withLock { scheduled in
      defer { scheduled = true }
      return !scheduled
    }
    guard first else { return }
    queue.async { [weak self] in
      guard let self else { return }
      self.scheduled.withLock { $0 = false }
      self.handler()
    }
  }

  /// The device and inode of the directory at `path`, or `nil` if there is none.
  private static func identity(of path: String) -> Identity? {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    return Identity(
      device: UInt64(truncatingIfNeeded: info.st_dev), inode: UInt64(truncatingIfNeeded: info.st_ino))
  }

  /// What tells one directory from another: its device and inode.
  private struct Identity: Equatable {
    let device: UInt64
    let inode: UInt64
  }
}

/// A running watch of one directory; released, it stops.
protocol DirectoryWatch: AnyObject, Sendable {}

/// A watch the platform started, or why it refused (`ENOSPC`: the user's inotify watch limit).
enum WatchResult {
  case watching(any DirectoryWatch)
  case failed(String)
}
