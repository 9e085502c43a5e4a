#if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
  import Foundation

  /// Runs work that must not be interrupted by suspension, as an expiring activity: the system
  /// keeps the process running while `work` runs, and calls it with `expired == true` instead
  /// when the process is about to be suspended, so that no file lock is taken then.
  /// `ProcessInfo.performExpiringActivity(withReason:using:)` exists from iOS 8.2, tvOS 9,
  /// watchOS 2 and visionOS 1, and works in app extensions, unlike UIKit's background tasks.
  /// Its block runs on a system concurrent queue, and is called a second time with
  /// `expired == true` while the first call runs when the process is about to be suspended:
  /// ``ExpiringActivity`` (portable, tested on Linux) decides what each call does.
  enum BackgroundActivity {
    static func perform(reason: String, _ work: @escaping @Sendable (_ expired: Bool) -> Void) {
      let activity = ExpiringActivity(work)
      ProcessInfo.processInfo.performExpiringActivity(withReason: reason) { expired in
        activity.handle(expired: expired)
      }
    }
  }
#endif
