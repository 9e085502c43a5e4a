#if canImport(UIKit) && !os(watchOS)
  import Foundation
  import UIKit

  extension NotifiedAppActivity {
    /// The app's activity on iOS, iPadOS, Mac Catalyst, tvOS and visionOS, from UIKit's
    /// notifications (`UIApplication.didBecomeActiveNotification`, `didEnterBackgroundNotification`,
    /// nonisolated constants since Xcode 16). A process is taken as active until it hears
    /// otherwise: reading `UIApplication.shared.applicationState` would need the main actor and is
    /// unavailable in app extensions, which post none of these and stay "active" while they run.
    static let system: NotifiedAppActivity? = NotifiedAppActivity(
      initiallyActive: true,
      becameActive: [
        UIApplication.didBecomeActiveNotification, UIApplication.willEnterForegroundNotification,
      ],
      leftForeground: [UIApplication.didEnterBackgroundNotification])
  }
#endif
