// The app module that uses SettingsKit's public preferences. Before the first run, the script
// stores data the way the previous, @AppStorage-based version did ("previous-version"); the
// ported model must read all of it, and write what the previous version can still read.
import Foundation
import IntegrationSupport
import Models
import Observation
import Preferences
import SettingsKit

let defaults = UserDefaults.standard

if CommandLine.arguments.dropFirst().first == "previous-version" {
  // What @AppStorage stored: raw values of enums, numbers, Booleans, arrays as JSON text.
  defaults.set(1, forKey: "preferred_browser")
  defaults.set("boost", forKey: "swipe_action_leading")
  defaults.set(18, forKey: "font_size")
  defaults.set("unlisted", forKey: "app_default_post_visibility")
  defaults.set(false, forKey: "show_translate_button")
  defaults.set(
    String(decoding: try! JSONEncoder().encode(["fr", "de"]), as: UTF8.self),
    forKey: "recently_used_languages")
  defaults.set(
    String(decoding: try! JSONEncoder().encode(["a.social"]), as: UTF8.self), forKey: "remote_timelines")
  defaults.synchronize()
  print("SettingsClient: stored the previous version's data")
  exit(0)
}

@MainActor func run() {
  let preferences = UserPreferences.shared
  switch Mode.current {
  case .write:
    // Everything the previous version stored reads back, in its own representations.
    check(preferences.preferredBrowser == 1, "Int")
    check(preferences.leadingSwipeAction == .boost, "String enum")
    check(preferences.trailingSwipeAction == .favorite, "default of an unstored enum")
    check(preferences.fontSize == .large, "Int enum")
    check(preferences.postVisibility == .unlisted, "another module's enum")
    check(!preferences.showTranslateButton, "Bool")
    check(
      preferences.recentlyUsedLanguages == ["fr", "de"], "JSON text, got \(preferences.recentlyUsedLanguages)"
    )
    check(preferences.remoteTimelines == ["a.social"], "JSON text without format: .json")
    check(preferences.lastAccount == nil, "optional")
    // Observers of the @Observable model are updated.
    let invalidated = Flag()
    withObservationTracking {
      _ = preferences.swipeSummary
    } onChange: {
      invalidated.raise()
    }
    preferences.leadingSwipeAction = .bookmark
    check(invalidated.isRaised, "observers of the model are invalidated")
    preferences.recentlyUsedLanguages.insert("it", at: 0)
    preferences.lastAccount = "paul@example.social"
    ThemeSettings().accentName = "orange"
    check(ThemeSettings().doubledCount() == 6, "an inlinable function reads a preference")
    passed("read the previous version's data and wrote new values")
  case .verify:
    check(preferences.leadingSwipeAction == .bookmark, "written enum persisted")
    check(preferences.recentlyUsedLanguages == ["it", "fr", "de"], "written array persisted")
    check(preferences.lastAccount == "paul@example.social", "optional persisted")
    check(ThemeSettings().accentName == "orange", "open preference persisted")
    // A rollback to the previous version reads what this one wrote.
    let text = defaults.string(forKey: "recently_used_languages") ?? ""
    let previous = try? JSONDecoder().decode([String].self, from: Data(text.utf8))
    check(previous == ["it", "fr", "de"], "the previous version reads the JSON text, got \(text)")
    check(
      defaults.string(forKey: "swipe_action_leading") == "bookmark",
      "the previous version reads the raw value")
    passed("verified; the previous version reads what was written")
  }
}

await run()

// One `Sendable` settings object, shared with a task off the main actor.
let options = SyncOptions()
switch Mode.current {
case .write:
  let before = await Task.detached { [options] in
    let before = options.batchSize
    options.batchSize = 250
    return before
  }.value
  check(before == 100, "a shared object's default, read off the main actor")
case .verify:
  let batchSize = await Task.detached { [options] in options.batchSize }.value
  check(batchSize == 250, "a value written off the main actor persisted")
}
