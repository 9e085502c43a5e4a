// AppKit, as Apple's SDKs show it to Swift (the parts the project uses).
import Foundation

/// `@MainActor class NSApplication : NSResponder`; its notification names are `nonisolated`
/// (swiftlang/swift#71419). https://developer.apple.com/documentation/appkit/nsapplication
@MainActor open class NSApplication {
  /// https://developer.apple.com/documentation/appkit/nsapplication/didbecomeactivenotification
  nonisolated public class var didBecomeActiveNotification: NSNotification.Name { fatalError() }
  /// https://developer.apple.com/documentation/appkit/nsapplication/didresignactivenotification
  nonisolated public class var didResignActiveNotification: NSNotification.Name { fatalError() }

  /// https://developer.apple.com/documentation/appkit/nsapplication/activationpolicy-swift.enum
  public enum ActivationPolicy: Int, Sendable {
    case regular = 0, accessory = 1, prohibited = 2
  }
}

/// `class NSRunningApplication : NSObject`: not main-actor isolated; "thread safe, in that its
/// properties are returned atomically". Not `Sendable`.
/// https://developer.apple.com/documentation/appkit/nsrunningapplication
open class NSRunningApplication: NSObject {
  /// https://developer.apple.com/documentation/appkit/nsrunningapplication/current
  open class var current: NSRunningApplication { fatalError() }
  /// https://developer.apple.com/documentation/appkit/nsrunningapplication/activationpolicy
  open var activationPolicy: NSApplication.ActivationPolicy { fatalError() }
  /// https://developer.apple.com/documentation/appkit/nsrunningapplication/isactive
  open var isActive: Bool { fatalError() }
}
