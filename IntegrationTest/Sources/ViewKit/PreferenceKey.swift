// Stands in for SwiftUI on Linux: SwiftUI declares a `PreferenceKey` protocol (for view
// preferences), which a view's file that also imports Preferences must still be able to name.

/// A value views pass up the hierarchy, as SwiftUI's `PreferenceKey` declares it.
public protocol PreferenceKey {
  associatedtype Value
  static var defaultValue: Value { get }
  static func reduce(value: inout Value, nextValue: () -> Value)
}
