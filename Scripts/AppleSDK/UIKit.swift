// UIKit, as Apple's SDKs show it to Swift (the parts the project uses).
import Foundation

/// `@MainActor class UIApplication : UIResponder`: its members are main-actor isolated, except
/// its notification names, which Swift 6 (Xcode 16) imports `nonisolated` (swiftlang/swift#71419).
/// https://developer.apple.com/documentation/uikit/uiapplication
@MainActor open class UIApplication {
  /// https://developer.apple.com/documentation/uikit/uiapplication/didbecomeactivenotification
  nonisolated public class var didBecomeActiveNotification: NSNotification.Name { fatalError() }
  /// https://developer.apple.com/documentation/uikit/uiapplication/willenterforegroundnotification
  nonisolated public class var willEnterForegroundNotification: NSNotification.Name { fatalError() }
  /// https://developer.apple.com/documentation/uikit/uiapplication/didenterbackgroundnotification
  nonisolated public class var didEnterBackgroundNotification: NSNotification.Name { fatalError() }
  /// https://developer.apple.com/documentation/uikit/uiapplication/willresignactivenotification
  nonisolated public class var willResignActiveNotification: NSNotification.Name { fatalError() }
  /// https://developer.apple.com/documentation/uikit/uiapplication/protecteddatadidbecomeavailablenotification
  nonisolated public class var protectedDataDidBecomeAvailableNotification: NSNotification.Name { fatalError() }
  /// https://developer.apple.com/documentation/uikit/uiapplication/protecteddatawillbecomeunavailablenotification
  nonisolated public class var protectedDataWillBecomeUnavailableNotification: NSNotification.Name {
    fatalError()
  }
  /// Main-actor isolated, and unavailable in app extensions.
  /// https://developer.apple.com/documentation/uikit/uiapplication/shared
  @available(iOSApplicationExtension, unavailable)
  public class var shared: UIApplication { fatalError() }
}
