import Foundation
import Preferences

struct ContentView {
  /// The mission's example.
  @Preference var username = "Anonymous"
  @Preference var launchCount = 0
  @Preference var theme: Theme = .system

  struct Detail {
    @Preference var zoom = 1.0
  }
}

enum Theme: String { case light, dark, system }  // its conformance is written by the registry
