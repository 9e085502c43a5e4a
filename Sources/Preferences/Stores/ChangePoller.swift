import Foundation

/// Calls a function on a background queue at a fixed interval until it is released; used, only
/// while a store is observed, to notice changes that no event reports.
final class ChangePoller: Sendable {
  /// Held in a `Locked` so that this class is `Sendable` whether or not the SDK marks the source
  /// protocols `Sendable`; after `init`, only `cancel()` is called.
  private let timer: Locked<any DispatchSourceTimer>

  init(interval: DispatchTimeInterval, tick: @escaping @Sendable () -> Void) {
    let timer = DispatchSource.makeTimerSource(
      queue: DispatchQueue(label: "swift-preferences.watch", qos: .utility))
    timer.schedule(deadline: .now() + interval, repeating: interval, leeway: .milliseconds(50))
    timer.setEventHandler(handler: tick)
    timer.resume()
    self.timer = Locked(timer)
  }

  deinit { timer.withLock { $0.cancel() } }
}
