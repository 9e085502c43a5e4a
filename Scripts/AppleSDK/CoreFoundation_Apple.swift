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
