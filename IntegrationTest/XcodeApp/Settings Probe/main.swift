import Foundation
import Preferences

// Run twice by CI: `write`, then `verify` in a new process.
let suite = "swift-preferences.xcode-fixture"
PreferenceStore.default = .suite(suite)

func check(_ condition: Bool, _ message: String) {
  guard condition else {
    FileHandle.standardError.write(Data("Settings Probe: error: \(message)\n".utf8))
    exit(1)
  }
}

let probe = Probe()
check(probe.$username.key == "Probe.username", "derived key, got \(probe.$username.key)")
check(Probe.Window().$width.key == "Probe.Window.width", "nested key")
_ = probe.username
check(UserDefaults(suiteName: suite)?.double(forKey: "Probe.Window.width") == 800, "registered default")

#if canImport(SwiftUI)
  // A SwiftUI view with `@State` beside `@Preference` (Xcode 27 makes `@State` a macro).
  let view = GreetingView()
  check(view.$greeting.key == "GreetingView.greeting", "a view's key, got \(view.$greeting.key)")
#endif

switch CommandLine.arguments.dropFirst().first {
case "write":
  probe.username = "Paul"
  probe.launches = 3
  #if canImport(SwiftUI)
    view.greeting = "Hi"
  #endif
  print("Settings Probe: wrote values")
case "verify":
  check(probe.username == "Paul", "username persisted, got \(probe.username)")
  check(probe.launches == 3, "launches persisted")
  check(!Probe.Window().$width.hasStoredValue, "a registered default is not stored")
  #if canImport(SwiftUI)
    check(GreetingView().greeting == "Hi", "a view's preference persisted")
  #endif
  UserDefaults(suiteName: suite)?.removePersistentDomain(forName: suite)
  print("Settings Probe: verified values persisted")
default:
  check(false, "usage: Settings Probe write|verify")
}
