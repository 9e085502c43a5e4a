// WatchKit, as Apple's SDKs show it to Swift (the parts the project uses).
import Foundation

/// `@MainActor class WKApplication : NSObject` (watchOS 7); its notification names are ObjC
/// constants, imported `nonisolated` (swiftlang/swift#71419).
/// https://developer.apple.com/documentation/watchkit/wkapplication
@MainActor open class WKApplication {
  /// https://developer.apple.com/documentation/watchkit/wkapplication/didbecomeactivenotification
  nonisolated public class var didBecomeActiveNotification: NSNotification.Name { fatalError() }
  /// https://developer.apple.com/documentation/watchkit/wkapplication/willenterforegroundnotification
  nonisolated public class var willEnterForegroundNotification: NSNotification.Name { fatalError() }
  /// https://developer.apple.com/documentation/watchkit/wkapplication/didenterbackgroundnotification
  nonisolated public class var didEnterBackgroundNotification: NSNotification.Name { fatalError() }
}
