import Dispatch
import Foundation

/// Whether code runs on the main actor, asked without trapping: the registry evaluates a
/// default that needs the main actor only when registration happens there.
///
/// The main actor runs on the main queue. That is the main thread on Apple platforms and in
/// Linux programs with a synchronous `main`; a Linux program with an `async` main (or a test
/// runner) calls `dispatchMain()`, after which the main queue is drained by worker threads. A
/// marker set on the main queue recognises both.
enum MainActorContext {
  private static let key = DispatchSpecificKey<UInt8>()
  private static let marked: Void = DispatchQueue.main.setSpecific(key: key, value: 1)

  /// Whether the current code runs on the main thread or on the main queue, where
  /// `MainActor.assumeIsolated` holds.
  static var isCurrent: Bool {
    _ = marked
    return Thread.isMainThread || DispatchQueue.getSpecific(key: key) != nil
  }
}
