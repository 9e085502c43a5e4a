// Foundation, as Apple's SDKs show it to Swift: what only Apple's Foundation has, and Apple's
// form where it is stricter than Linux's. Linux's Foundation underneath supplies the rest; each
// declaration of it that an Apple-only line uses is listed in shared-with-linux.txt.
// Apple's Foundation re-exports Darwin, CoreFoundation and Dispatch.
@_exported import Foundation
@_exported import Darwin
@_exported import CoreFoundation_Apple
@_exported import Dispatch_Apple

// `class UserDefaults : NSObject` is not `Sendable` in any SDK through Xcode 16, and its header
// carries no NS_SWIFT_SENDABLE in Xcode 26's (https://developer.apple.com/forums/thread/757527);
// Linux's Foundation marks the conformance unavailable, the strictest form, so Linux's class
// stands in. https://developer.apple.com/documentation/foundation/userdefaults

#if !APPLE_MACOS
  extension UserDefaults {
    /// `class let sizeLimitExceededNotification: NSNotification.Name` (iOS 9.3, Mac Catalyst 13.1,
    /// tvOS 9, visionOS 1, watchOS 2; unavailable on macOS).
    /// https://developer.apple.com/documentation/foundation/userdefaults/sizelimitexceedednotification
    public class var sizeLimitExceededNotification: NSNotification.Name { fatalError() }
  }
#endif

  extension FileManager {
    /// `func containerURL(forSecurityApplicationGroupIdentifier groupIdentifier: String) -> URL?`
    /// (iOS 7, Mac Catalyst 13.1, macOS 10.8, tvOS 9, visionOS 1, watchOS 2).
    /// https://developer.apple.com/documentation/foundation/filemanager/containerurl(forsecurityapplicationgroupidentifier:)
    public func containerURL(forSecurityApplicationGroupIdentifier groupIdentifier: String) -> URL? { fatalError() }
  }

  /// `class NSUbiquitousKeyValueStore : NSObject`: not `Sendable` in any SDK (iOS 5, macOS 10.7,
  /// tvOS 9, watchOS 9, visionOS 1). https://developer.apple.com/documentation/foundation/nsubiquitouskeyvaluestore
  open class NSUbiquitousKeyValueStore: NSObject {
    /// https://developer.apple.com/documentation/foundation/nsubiquitouskeyvaluestore/default
    open class var `default`: NSUbiquitousKeyValueStore { fatalError() }
    /// https://developer.apple.com/documentation/foundation/nsubiquitouskeyvaluestore/object(forkey:)
    open func object(forKey aKey: String) -> Any? { fatalError() }
    /// https://developer.apple.com/documentation/foundation/nsubiquitouskeyvaluestore/set(_:forkey:)-2kx5r
    open func set(_ anObject: Any?, forKey aKey: String) {}
    /// https://developer.apple.com/documentation/foundation/nsubiquitouskeyvaluestore/removeobject(forkey:)
    open func removeObject(forKey aKey: String) {}
    /// https://developer.apple.com/documentation/foundation/nsubiquitouskeyvaluestore/dictionaryrepresentation
    open var dictionaryRepresentation: [String: Any] { fatalError() }
    /// https://developer.apple.com/documentation/foundation/nsubiquitouskeyvaluestore/synchronize()
    open func synchronize() -> Bool { fatalError() }
    /// https://developer.apple.com/documentation/foundation/nsubiquitouskeyvaluestore/didchangeexternallynotification
    public class var didChangeExternallyNotification: NSNotification.Name { fatalError() }
  }
  /// https://developer.apple.com/documentation/foundation/nsubiquitouskeyvaluestorechangereasonkey
  public let NSUbiquitousKeyValueStoreChangeReasonKey: String = "NSUbiquitousKeyValueStoreChangeReasonKey"
  /// https://developer.apple.com/documentation/foundation/nsubiquitouskeyvaluestorechangedkeyskey
  public let NSUbiquitousKeyValueStoreChangedKeysKey: String = "NSUbiquitousKeyValueStoreChangedKeysKey"
  /// https://developer.apple.com/documentation/foundation/nsubiquitouskeyvaluestoreserverchange
  public var NSUbiquitousKeyValueStoreServerChange: Int { 0 }
  /// https://developer.apple.com/documentation/foundation/nsubiquitouskeyvaluestoreinitialsyncchange
  public var NSUbiquitousKeyValueStoreInitialSyncChange: Int { 1 }
  /// https://developer.apple.com/documentation/foundation/nsubiquitouskeyvaluestorequotaviolationchange
  public var NSUbiquitousKeyValueStoreQuotaViolationChange: Int { 2 }
  /// https://developer.apple.com/documentation/foundation/nsubiquitouskeyvaluestoreaccountchange
  public var NSUbiquitousKeyValueStoreAccountChange: Int { 3 }

#if !APPLE_MACOS
extension ProcessInfo {
  /// `func performExpiringActivity(withReason reason: String, using block: @escaping
  /// @Sendable (Bool) -> Void)` (iOS 8.2, Mac Catalyst 13.1, tvOS 9, watchOS 2, visionOS 1; not macOS): the
  /// block runs asynchronously on a system concurrent queue.
  /// https://developer.apple.com/documentation/foundation/processinfo/performexpiringactivity(withreason:using:)
  public func performExpiringActivity(withReason reason: String, using block: @escaping @Sendable (Bool) -> Void) {}
}
#endif
