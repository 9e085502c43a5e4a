#if os(Linux) || os(Android)
  import Foundation
  #if canImport(Glibc)
    import Glibc
  #elseif canImport(Musl)
    import Musl
  #elseif canImport(Bionic)
    import Bionic
  #endif

  /// Directory events through one process-wide inotify descriptor, read by a Dispatch source: the
  /// process sleeps in the kernel until a watched directory changes.
  enum DirectoryEvents {
    static var isAvailable: Bool { Inotify.shared != nil }

    /// Calls `handler(entry, directoryChanged)` for each change in `path`: `entry` is the name of
    /// the entry that changed; `directoryChanged` is true when the directory itself was removed or
    /// moved (or events were lost), and the watch should be made again.
    static func watch(
      _ path: String, _ handler: @escaping @Sendable (String?, Bool) -> Void
    ) -> WatchResult {
      guard let inotify = Inotify.shared else { return .failed("inotify is not available") }
      return inotify.add(path, handler)
    }

    /// Calls `handler` when the directory at `path` itself is moved or removed (not for changes
    /// inside it): a watch on each ancestor of a watched directory, so that renaming any of them
    /// away is noticed. A separate inotify instance, so that its narrow mask never replaces the
    /// full one of a directory another store watches.
    /// Makes watches of `path` and the folders under it fail as if the user's inotify watch
    /// limit were used up (`ENOSPC`), for tests; `false` ends it.
    static func failWatchesForTests(under path: String, _ failing: Bool = true) {
      Inotify.failingForTests.withLock { paths in
        if failing { paths.insert(path) } else { paths.remove(path) }
      }
    }

    static func watchMoves(_ path: String, _ handler: @escaping @Sendable () -> Void) -> WatchResult {
      guard let inotify = Inotify.moves else { return .failed("inotify is not available") }
      return inotify.add(path) { _, moved in if moved { handler() } }
    }
  }

  private final class Inotify: Sendable {
    static let shared = Inotify(
      mask: UInt32(
        IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_DELETE | IN_DELETE_SELF | IN_MOVE_SELF
          | IN_ATTRIB))
    static let moves = Inotify(mask: UInt32(IN_DELETE_SELF | IN_MOVE_SELF))

    /// Paths (and the folders under them) whose watches fail as if the user's inotify watch limit
    /// were used up (`ENOSPC`), for tests.
    static let failingForTests = Locked<Set<String>>([])

    private let mask: UInt32

    private let descriptor: Int32
    /// Created, configured and resumed in `init`, then only kept alive (the shared instance
    /// lives as long as the process).
    private let source: Locked<any DispatchSourceRead>

    private struct Entry {
      var handler: @Sendable (String?, Bool) -> Void
    }
    private struct State {
      var entries: [Int32: [Int: Entry]] = [:]
      var next = 0
    }
    private let state = Locked(State())

    private init?(mask: UInt32) {
      self.mask = mask
      let descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
      guard descriptor >= 0 else { return nil }
      self.descriptor = descriptor
      let source = DispatchSource.makeReadSource(
        fileDescriptor: descriptor,
        queue: DispatchQueue(label: "swift-preferences.file-events", qos: .utility))
      self.source = Locked(source)
      source.setEventHandler { [weak self] in self?.drain() }
      source.resume()
    }

    /// Adds a watch. inotify returns the same watch descriptor for a directory watched twice, so
    /// adding and removing happen under the lock (system calls only, no callouts).
    func add(_ path: String, _ handler: @escaping @Sendable (String?, Bool) -> Void) -> WatchResult {
      let injected = Self.failingForTests.withLock { prefixes in
        prefixes.contains { path == $0 || path.hasPrefix($0 + "/") }
      }
      if injected { return .failed(String(cString: strerror(ENOSPC))) }
      return state.withLock { state -> WatchResult in
        let watch = inotify_add_watch(descriptor, path, mask)
        guard watch >= 0 else { return .failed(String(cString: strerror(errno))) }
        let id = state.next
        state.next += 1
        state.entries[watch, default: [:]][id] = Entry(handler: handler)
        return .watching(Token(inotify: self, watch: watch, id: id))
      }
    }

    fileprivate func remove(watch: Int32, id: Int) {
      state.withLock { state in
        state.entries[watch]?[id] = nil
        if state.entries[watch]?.isEmpty == true {
          state.entries[watch] = nil
          inotify_rm_watch(descriptor, watch)
        }
      }
    }

    /// Reads every pending event, then calls the handlers outside the lock.
    private func drain() {
      var due: [(@Sendable (String?, Bool) -> Void, String?, Bool)] = []
      let capacity = 64 * 1024
      let buffer = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 8)
      defer { buffer.deallocate() }
      while true {
        let count = read(descriptor, buffer, capacity)
        if count <= 0 { break }
        var offset = 0
        while offset + MemoryLayout<inotify_event>.size <= count {
          let event = buffer.load(fromByteOffset: offset, as: inotify_event.self)
          let nameLength = Int(event.len)
          var name: String?
          if nameLength > 0 {
            let start = buffer.advanced(by: offset + MemoryLayout<inotify_event>.size)
              .assumingMemoryBound(to: CChar.self)
            name = String(cString: start)
          }
          offset += MemoryLayout<inotify_event>.size + nameLength
          let lost = event.mask & UInt32(IN_Q_OVERFLOW) != 0
          let gone = event.mask & UInt32(IN_IGNORED | IN_DELETE_SELF | IN_MOVE_SELF) != 0
          let handlers = state.withLock { state -> [@Sendable (String?, Bool) -> Void] in
            if lost { return state.entries.values.flatMap { $0.values.map(\.handler) } }
            return state.entries[event.wd].map { $0.values.map(\.handler) } ?? []
          }
          due += handlers.map { ($0, lost ? nil : name, gone || lost) }
        }
      }
      for (handler, name, directoryChanged) in due { handler(name, directoryChanged) }
    }

    private final class Token: DirectoryWatch {
      let inotify: Inotify
      let watch: Int32
      let id: Int
      init(inotify: Inotify, watch: Int32, id: Int) {
        self.inotify = inotify
        self.watch = watch
        self.id = id
      }
      deinit { inotify.remove(watch: watch, id: id) }
    }
  }
#endif
