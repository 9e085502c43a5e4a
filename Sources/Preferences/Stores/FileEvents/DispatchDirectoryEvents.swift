#if canImport(Darwin)
  import Darwin
  import Foundation

  /// Directory events through a Dispatch file-system object source on the directory, opened with
  /// `O_EVTONLY` (it does not keep the volume from unmounting). A `.write` event on a directory
  /// means an entry was added, removed or renamed, which is how stores replace files. The event
  /// does not name the entry. `DispatchSource.makeFileSystemObjectSource` exists on every Apple
  /// platform (iOS 8, macOS 10.10, tvOS 9, watchOS 2, visionOS 1). A directory that goes away
  /// is noticed by ``FileWatch``, which compares the directory's identity after every event.
  enum DirectoryEvents {
    static var isAvailable: Bool { true }

    static func watch(
      _ path: String, _ handler: @escaping @Sendable (String?, Bool) -> Void
    ) -> WatchResult {
      source(path, [.write, .delete, .rename, .revoke]) { handler(nil, false) }
    }

    /// Calls `handler` when the directory at `path` itself is renamed or removed: a watch on each
    /// ancestor of a watched directory.
    static func watchMoves(_ path: String, _ handler: @escaping @Sendable () -> Void) -> WatchResult {
      source(path, [.delete, .rename, .revoke], handler)
    }

    private static func source(
      _ path: String, _ events: DispatchSource.FileSystemEvent, _ handler: @escaping @Sendable () -> Void
    ) -> WatchResult {
      let descriptor = open(path, O_EVTONLY | O_CLOEXEC)
      guard descriptor >= 0 else { return .failed(String(cString: strerror(errno))) }
      let source = DispatchSource.makeFileSystemObjectSource(
        fileDescriptor: descriptor, eventMask: events,
        queue: DispatchQueue(label: "swift-preferences.file-events", qos: .utility))
      source.setEventHandler { handler() }
      source.setCancelHandler { close(descriptor) }
      source.resume()
      return .watching(SourceWatch(source: source))
    }

    private final class SourceWatch: DirectoryWatch {
      /// Held in a `Locked` so that this class is `Sendable` whether or not the SDK marks the
      /// source protocols `Sendable`; only `cancel()` is called after `init`.
      private let source: Locked<any DispatchSourceFileSystemObject>
      init(source: any DispatchSourceFileSystemObject) { self.source = Locked(source) }
      deinit { source.withLock { $0.cancel() } }
    }
  }
#endif
