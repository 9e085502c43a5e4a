#if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
  import Foundation

  /// Runs work that must not be interrupted by suspension, as an expiring activity: the system
  /// keeps the process running while `work` runs, and calls it with `expired == true` instead
  /// when the process is about to be suspended, so that no file lock is taken then.
  /// `ProcessInfo.performExpiringActivity(withReason:using:)` exists from iOS 8.2, tvOS 9,
  /// watchOS 2 and visionOS 1, and works in app extensions, unlike UIKit's background tasks.
  enum BackgroundActivity {
    static func perform(reason: String, _ work: @escaping @Sendable (_ expired: Bool) -> Void) {
      // The block runs asynchronously on a system queue; a second call with `expired == true`
      // while the first runs asks it to finish quickly: a flush takes milliseconds.
      let started = Locked(false)
      ProcessInfo.processInfo.performExpiringActivity(withReason: reason) { expired in
        let first = started.withLock { started in
          defer { started = true }
          return !started
        }
        guard first else { return }
        work(expired)
      }
    }
  }
#endif
