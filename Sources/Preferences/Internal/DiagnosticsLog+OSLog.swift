#if canImport(os)
  import os

  /// Where diagnostics go without a handler on Apple platforms: the unified logging system, which
  /// a device shows in Console and Xcode (standard error is invisible there). `Logger` exists
  /// from iOS 14, macOS 11, tvOS 14, watchOS 7 and visionOS 1, below this package's minimums.
  enum DiagnosticsLog {
    private static let logger = Logger(subsystem: "swift-preferences", category: "diagnostics")

    static func write(_ error: PreferenceError) {
      let message = error.description
      logger.warning("\(message, privacy: .public)")
    }
  }
#endif
