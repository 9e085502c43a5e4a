#if canImport(SwiftUI)
  import SwiftUI

  /// A color a user picked, stored as the JSON text of its `Codable` conformance.
  ///
  /// `Color` itself cannot be stored: it may depend on the environment (light or dark
  /// appearance, a named asset). Resolve it where you have an environment, and store that:
  ///
  /// ```swift
  /// struct AppearanceSettings {
  ///   @Preference var accent = Color.Resolved(red: 0, green: 0.48, blue: 1)
  /// }
  ///
  /// struct AccentPicker: View {
  ///   @Environment(\.self) private var environment
  ///   let settings = AppearanceSettings()
  ///
  ///   var body: some View {
  ///     ColorPicker(
  ///       "Accent",
  ///       selection: Binding(
  ///         get: { Color(settings.accent) },
  ///         set: { settings.accent = $0.resolve(in: environment) }))
  ///   }
  /// }
  /// ```
  ///
  /// Apple documents `Color.Resolved` as `Encodable` and `Decodable` and a `ShapeStyle`, which
  /// refines `Sendable`, available from iOS 17, macOS 14, tvOS 17, watchOS 10 and visionOS 1:
  /// this package's deployment targets (developer.apple.com/documentation/swiftui/color/resolved,
  /// …/swiftui/shapestyle). No callback is involved. The stored form is the `Codable` default's:
  /// `Color.Resolved` encodes as an unkeyed array of its components, which `UnkeyedCodableTests`
  /// drives on Linux with a stand-in of that shape. (`ColorPicker`, in the example, is iOS, macOS
  /// and visionOS only.)
  extension Color.Resolved: PreferenceValue {}
#endif
