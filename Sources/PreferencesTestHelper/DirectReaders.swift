import Foundation
import Preferences

/// Preferences that code reading `UserDefaults` directly expects to find registered once the
/// module has read any preference, even on a background thread while the main thread is busy:
/// defaults from a plain static member and a memberwise initializer (no longer deferred to the
/// main actor in a module that is nonisolated by default), and the defaults of stores other than
/// the one read (a suite factory, and a store read from a plain `static let`).
struct DirectReaders {
  static let defaultVolume = 0.8
  static let sharedStore = PreferenceStore.suite("swift-preferences-helper-shared")

  @Preference var plain = "plain"
  @Preference var fromStatic = DirectReaders.defaultVolume
  @Preference var memberwise = Limits(count: 3)
  @Preference(store: .suite("swift-preferences-helper-direct")) var inSuite = "suite default"
  @Preference(store: DirectReaders.sharedStore) var inShared = 7
}

/// Stored as JSON text, with a conformance the build plugin writes.
struct Limits: Codable, Equatable {
  var count: Int
}
