import Foundation
import Preferences

/// The demo's preferences: nested types, Codable, enum and optional values.
struct ContentView {
  /// The name shown in the greeting.
  @Preference var username = "Anonymous"
  /// How many times the demo has run.
  @Preference var launchCount = 0

  struct Appearance {
    /// The colour scheme.
    @Preference var theme: Theme = .system
    /// The text size, in points.
    @Preference var fontSize = 14.0

    /// Static preferences need a global-actor-isolated type in Swift 6: the wrapper's backing
    /// storage is a static variable.
    @MainActor
    enum Layout {
      /// The grid the library screen uses.
      @Preference static var grid = Grid(columns: 3, spacing: 8)
    }
  }

  /// The last search, if any.
  @Preference var lastSearch: String? = nil
  /// Tags pinned to the top.
  @Preference var pinnedTags = ["swift", "preferences"]
}

enum Theme: String, CaseIterable, PreferenceValue {
  case light, dark, system
}

struct Grid: Codable, Equatable, PreferenceValue {
  var columns: Int
  var spacing: Double
}
