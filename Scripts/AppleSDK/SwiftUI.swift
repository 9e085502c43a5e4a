// SwiftUI, as Apple's SDKs show it to Swift (the parts the project uses).
import Foundation

/// `@frozen @propertyWrapper @dynamicMemberLookup struct Binding<Value>`
/// https://developer.apple.com/documentation/swiftui/binding
@propertyWrapper @dynamicMemberLookup
public struct Binding<Value> {
  /// `@preconcurrency init(get: @escaping @isolated(any) @Sendable () -> Value, set: @escaping
  /// @isolated(any) @Sendable (Value) -> Void)`: the form of Xcode 16's and later SDKs (quoted in
  /// swiftlang/swift#68943). https://developer.apple.com/documentation/swiftui/binding/init(get:set:)-7ufcp
  @preconcurrency public init(
    get: @escaping @isolated(any) @Sendable () -> Value,
    set: @escaping @isolated(any) @Sendable (Value) -> Void
  ) { fatalError() }
  public var wrappedValue: Value {
    get { fatalError() }
    nonmutating set {}
  }
  public var projectedValue: Binding<Value> { self }
  public subscript<Subject>(dynamicMember keyPath: WritableKeyPath<Value, Subject>) -> Binding<Subject> {
    fatalError()
  }
}

/// https://developer.apple.com/documentation/swiftui/shapestyle
public protocol ShapeStyle: Sendable {}

/// https://developer.apple.com/documentation/swiftui/color
@frozen public struct Color: Hashable, Sendable, ShapeStyle {
  /// `struct Resolved: Hashable, ShapeStyle, Codable` (iOS 17, macOS 14, tvOS 17, watchOS 10,
  /// visionOS 1). https://developer.apple.com/documentation/swiftui/color/resolved
  /// `Sendable` through `ShapeStyle: Sendable`.
  public struct Resolved: Hashable, ShapeStyle, Codable, CustomStringConvertible {
    /// https://developer.apple.com/documentation/swiftui/color/resolved/init(colorspace:red:green:blue:opacity:)
    public init(colorSpace: Color.RGBColorSpace = .sRGB, red: Float, green: Float, blue: Float, opacity: Float = 1) {
      fatalError()
    }
    public var description: String { fatalError() }
    public var red: Float
    public var green: Float
    public var blue: Float
    public var opacity: Float
  }
  /// https://developer.apple.com/documentation/swiftui/color/rgbcolorspace
  public enum RGBColorSpace: Hashable, Sendable { case sRGB, sRGBLinear, displayP3 }
  /// https://developer.apple.com/documentation/swiftui/color/init(_:)
  public init(_ resolved: Color.Resolved) {}
}

/// `protocol PreferenceKey`: a view preference's key (what `HeightKey` in the tests declares; the
/// library must declare no type its name would be ambiguous with).
/// https://developer.apple.com/documentation/swiftui/preferencekey
public protocol PreferenceKey {
  associatedtype Value
  /// https://developer.apple.com/documentation/swiftui/preferencekey/defaultvalue
  static var defaultValue: Value { get }
  /// https://developer.apple.com/documentation/swiftui/preferencekey/reduce(value:nextvalue:)
  static func reduce(value: inout Value, nextValue: () -> Value)
}
