#if os(watchOS)
  import Foundation
  import WatchKit

  extension NotifiedAppActivity {
    /// The app's activity on watchOS, from `WKApplication.didBecomeActiveNotification` and
    /// `didEnterBackgroundNotification` (watchOS 7; the `WKExtension` ones are main-actor
    /// isolated and deprecated). Taken as active until it hears otherwise.
    static let system: NotifiedAppActivity? = NotifiedAppActivity(
      initiallyActive: true,
      becameActive: [
        WKApplication.didBecomeActiveNotification, WKApplication.willEnterForegroundNotification,
      ],
      leftForeground: [WKApplication.didEnterBackgroundNotification])
  }
#endif
