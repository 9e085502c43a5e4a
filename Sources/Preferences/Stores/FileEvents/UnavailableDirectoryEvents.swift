#if !canImport(Darwin) && !os(Linux) && !os(Android)
  /// No file-system events on this platform: file stores poll while observed.
  enum DirectoryEvents {
    static var isAvailable: Bool { false }

    static func watch(
      _ path: String, _ handler: @escaping @Sendable (String?, Bool) -> Void
    ) -> WatchResult { .failed("this platform has no file-system events") }

    static func watchMoves(_ path: String, _ handler: @escaping @Sendable () -> Void) -> WatchResult {
      .failed("this platform has no file-system events")
    }
  }
#endif
