#if !canImport(os)
  import Foundation

  /// Where diagnostics go without a handler: standard error.
  enum DiagnosticsLog {
    static func write(_ error: PreferenceError) {
      FileHandle.standardError.write(Data("swift-preferences: warning: \(error.description)\n".utf8))
    }
  }
#endif
