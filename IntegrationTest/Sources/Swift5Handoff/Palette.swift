// Swift 5 mode lets a nonisolated default read a preference whose default needs the main actor
// (it does not yet check a stored property's initial value for isolation, SE-0411). When the
// module's first registration runs off the main thread and the main thread waits for it, the
// library must run that default on the waiting main thread rather than deadlock.
import Foundation
import Preferences

/// The app's palette, isolated to the main actor.
@MainActor enum Palette {
  static let standardAccent = "teal"
}

/// A nonisolated type whose default reads a main-actor static: only the main actor may
/// evaluate it.
struct Appearance {
  @Preference var accent = Palette.standardAccent
}

/// A nonisolated default that reads the preference above, after giving the main thread time to
/// begin waiting for this registration.
struct Banner {
  static let evaluating = DispatchSemaphore(value: 0)

  static func defaultTitle() -> String {
    evaluating.signal()
    Thread.sleep(forTimeInterval: 0.3)
    return "Accent: " + Appearance().accent
  }

  @Preference var title = Banner.defaultTitle()
}
