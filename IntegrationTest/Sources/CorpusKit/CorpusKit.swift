// Types, constants and functions of another module, declared as an app's dependency declares
// them: the default corpus (Scripts/generate-default-corpus.py) names them, so that the
// compiler, not the scanner, has to know their types and isolation.
import Foundation
import Preferences

/// A dependency's enum, stored as its raw value and usable as a dictionary key.
public enum KitTint: String, Sendable, CaseIterable, PreferenceValue, PreferenceDictionaryKey {
  case red, green, blue
  public static let brand = KitTint.blue
  public static func named(_ name: String) -> KitTint { KitTint(rawValue: name) ?? .red }
}

/// A dependency's enum with `Int` raw values.
public enum KitUnit: Int, Sendable, PreferenceValue {
  case points = 1, pixels = 2
}

/// A dependency's `Codable` struct, stored as JSON text.
public struct KitMargin: Codable, Sendable, Equatable, PreferenceValue {
  public var top: Double
  public var leading: Double
  public init(top: Double = 0, leading: Double = 0) {
    self.top = top
    self.leading = leading
  }
  public static let standard = KitMargin(top: 8, leading: 16)
}

/// A dependency's `RawRepresentable` struct.
public struct KitLevel: RawRepresentable, Sendable, Equatable, PreferenceValue {
  public var rawValue: Int
  public init(rawValue: Int) { self.rawValue = rawValue }
  public static let high = KitLevel(rawValue: 9)
}

/// A namespace with nested types and constants.
public enum KitLayout {
  public enum Density: String, Sendable, PreferenceValue {
    case compact, regular
  }
  public static let defaultColumns = 3
}

/// A dependency's function and constant.
public func kitDefaultName() -> String { "kit" }
public let kitVersion = 4
