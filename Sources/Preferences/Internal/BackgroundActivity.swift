#if !(os(iOS) || os(tvOS) || os(watchOS) || os(visionOS))
  import Foundation

  /// Runs work that must not be interrupted by suspension. Processes on this platform are not
  /// suspended, so the work runs on a thread of its own at once (a flush waiting for another
  /// process's lock must not hold one of the few threads shared by Dispatch).
  enum BackgroundActivity {
    static func perform(reason: String, _ work: @escaping @Sendable (_ expired: Bool) -> Void) {
      Thread.detachNewThread { work(false) }
    }
  }
#endif
