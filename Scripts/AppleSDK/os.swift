// os, as Apple's SDKs show it to Swift: Logger (os_unfair_lock comes from <os/lock.h>, which
// Darwin re-exports and os re-exports with it).
@_exported import Darwin

/// `struct Logger` (iOS 14, macOS 11, tvOS 14, watchOS 7, visionOS 1); `Sendable` in every SDK
/// since it appeared. https://developer.apple.com/documentation/os/logger
public struct Logger: @unchecked Sendable {
  /// https://developer.apple.com/documentation/os/logger/init(subsystem:category:)
  public init(subsystem: String, category: String) {}
  /// https://developer.apple.com/documentation/os/logger/warning(_:)
  public func warning(_ message: OSLogMessage) {}
  /// https://developer.apple.com/documentation/os/logger/error(_:)
  public func error(_ message: OSLogMessage) {}
  /// https://developer.apple.com/documentation/os/logger/fault(_:)
  public func fault(_ message: OSLogMessage) {}
  /// https://developer.apple.com/documentation/os/logger/debug(_:)
  public func debug(_ message: OSLogMessage) {}
  /// https://developer.apple.com/documentation/os/logger/info(_:)
  public func info(_ message: OSLogMessage) {}
  /// https://developer.apple.com/documentation/os/logger/notice(_:)
  public func notice(_ message: OSLogMessage) {}
}

/// https://developer.apple.com/documentation/os/oslogmessage
public struct OSLogMessage: ExpressibleByStringInterpolation, ExpressibleByStringLiteral {
  public init(stringLiteral value: String) {}
  public init(stringInterpolation: OSLogInterpolation) {}
}

/// https://developer.apple.com/documentation/os/osloginterpolation
public struct OSLogInterpolation: StringInterpolationProtocol {
  public init(literalCapacity: Int, interpolationCount: Int) {}
  public mutating func appendLiteral(_ literal: String) {}
  /// https://developer.apple.com/documentation/os/osloginterpolation/appendinterpolation(_:align:privacy:)-1ooo9
  public mutating func appendInterpolation(
    _ argumentString: @autoclosure @escaping () -> String, align: OSLogStringAlignment = .none,
    privacy: OSLogPrivacy = .auto
  ) {}
  /// https://developer.apple.com/documentation/os/osloginterpolation/appendinterpolation(_:format:align:privacy:)-2kcjt
  public mutating func appendInterpolation(
    _ number: @autoclosure @escaping () -> Int, format: OSLogIntegerFormatting = .decimal,
    align: OSLogIntegerAlignment = .none, privacy: OSLogPrivacy = .auto
  ) {}
}

/// https://developer.apple.com/documentation/os/oslogprivacy
public struct OSLogPrivacy: Equatable {
  public static var `public`: OSLogPrivacy { OSLogPrivacy() }
  public static var `private`: OSLogPrivacy { OSLogPrivacy() }
  public static var sensitive: OSLogPrivacy { OSLogPrivacy() }
  public static var auto: OSLogPrivacy { OSLogPrivacy() }
}
/// https://developer.apple.com/documentation/os/oslogstringalignment
public struct OSLogStringAlignment { public static var none: OSLogStringAlignment { OSLogStringAlignment() } }
/// https://developer.apple.com/documentation/os/oslogintegeralignment
public struct OSLogIntegerAlignment { public static var none: OSLogIntegerAlignment { OSLogIntegerAlignment() } }
/// https://developer.apple.com/documentation/os/oslogintegerformatting
public struct OSLogIntegerFormatting { public static var decimal: OSLogIntegerFormatting { OSLogIntegerFormatting() } }
