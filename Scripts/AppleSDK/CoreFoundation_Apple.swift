// CoreFoundation, as Apple's SDKs show it to Swift (the parts the project uses). CF types are
// classes that are not `Sendable` in any SDK.

/// https://developer.apple.com/documentation/corefoundation/cftyperef
public typealias CFTypeRef = AnyObject
/// https://developer.apple.com/documentation/corefoundation/cfpropertylistref
public typealias CFPropertyList = CFTypeRef
/// https://developer.apple.com/documentation/corefoundation/cfstring
public final class CFString {}

/// https://developer.apple.com/documentation/corefoundation/kcfpreferencescurrentapplication
nonisolated(unsafe) public let kCFPreferencesCurrentApplication = CFString()
/// https://developer.apple.com/documentation/corefoundation/kcfpreferencescurrentuser
nonisolated(unsafe) public let kCFPreferencesCurrentUser = CFString()
/// https://developer.apple.com/documentation/corefoundation/kcfpreferencesanyhost
nonisolated(unsafe) public let kCFPreferencesAnyHost = CFString()
/// https://developer.apple.com/documentation/corefoundation/kcfpreferencesanyuser
nonisolated(unsafe) public let kCFPreferencesAnyUser = CFString()
/// https://developer.apple.com/documentation/corefoundation/kcfpreferencescurrenthost
nonisolated(unsafe) public let kCFPreferencesCurrentHost = CFString()

/// `func CFPreferencesCopyValue(_ key: CFString, _ applicationID: CFString, _ userName: CFString,
/// _ hostName: CFString) -> CFPropertyList!`
/// https://developer.apple.com/documentation/corefoundation/1515396-cfpreferencescopyvalue
public func CFPreferencesCopyValue(
  _ key: CFString, _ applicationID: CFString, _ userName: CFString, _ hostName: CFString
) -> CFPropertyList! { fatalError() }

/// `class CFNotificationCenter`: not `Sendable` in any SDK.
/// https://developer.apple.com/documentation/corefoundation/cfnotificationcenter
public final class CFNotificationCenter {}
/// https://developer.apple.com/documentation/corefoundation/cfdictionary
public final class CFDictionary {}

/// `struct CFNotificationName: RawRepresentable` over a `CFString`.
/// https://developer.apple.com/documentation/corefoundation/cfnotificationname
public struct CFNotificationName: RawRepresentable {
  public var rawValue: CFString
  public init(rawValue: CFString) { self.rawValue = rawValue }
  public init(_ rawValue: CFString) { self.rawValue = rawValue }
}

/// `CF_ENUM(CFIndex) CFNotificationSuspensionBehavior`.
/// https://developer.apple.com/documentation/corefoundation/cfnotificationsuspensionbehavior
public enum CFNotificationSuspensionBehavior: Int {
  case drop = 1, coalesce = 2, hold = 3, deliverImmediately = 4
}

/// A C function pointer: it captures nothing; context comes through `observer`. Apple's takes
/// `(CFNotificationCenter?, UnsafeMutableRawPointer?, CFNotificationName?, UnsafeRawPointer?,
/// CFDictionary?)`; here the CF types are opaque pointers, since these stand-in classes cannot
/// cross a C function pointer (a closure that uses them would not type-check here).
/// https://developer.apple.com/documentation/corefoundation/cfnotificationcallback
public typealias CFNotificationCallback = @convention(c) (
  OpaquePointer?, UnsafeMutableRawPointer?, OpaquePointer?, UnsafeRawPointer?, OpaquePointer?
) -> Void

/// https://developer.apple.com/documentation/corefoundation/cfnotificationcentergetdarwinnotifycenter()
public func CFNotificationCenterGetDarwinNotifyCenter() -> CFNotificationCenter! { fatalError() }

/// https://developer.apple.com/documentation/corefoundation/cfnotificationcenteraddobserver(_:_:_:_:_:_:)
public func CFNotificationCenterAddObserver(
  _ center: CFNotificationCenter!, _ observer: UnsafeRawPointer!, _ callBack: CFNotificationCallback!,
  _ name: CFString!, _ object: UnsafeRawPointer!, _ suspensionBehavior: CFNotificationSuspensionBehavior
) {}

/// https://developer.apple.com/documentation/corefoundation/cfnotificationcenterpostnotification(_:_:_:_:_:)
public func CFNotificationCenterPostNotification(
  _ center: CFNotificationCenter!, _ name: CFNotificationName!, _ object: UnsafeRawPointer!,
  _ userInfo: CFDictionary!, _ deliverImmediately: Bool
) {}

/// https://developer.apple.com/documentation/corefoundation/cfnotificationcenterremoveobserver(_:_:_:_:)
public func CFNotificationCenterRemoveObserver(
  _ center: CFNotificationCenter!, _ observer: UnsafeRawPointer!, _ name: CFNotificationName!,
  _ object: UnsafeRawPointer!
) {}
