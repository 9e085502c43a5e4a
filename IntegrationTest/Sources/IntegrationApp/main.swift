// Checks, in a user's package built with the plugin, that keys are derived, defaults are
// registered centrally and values persist. Exits non-zero on the first failed check.
import Foundation
import Preferences

func check(_ condition: Bool, _ message: String) {
  if !condition {
    FileHandle.standardError.write(Data("IntegrationApp: check failed: \(message)\n".utf8))
    exit(1)
  }
}

let arguments = CommandLine.arguments
guard arguments.count >= 3 else {
  FileHandle.standardError.write(Data("usage: IntegrationApp FILE write|verify\n".utf8))
  exit(2)
}
PreferenceStore.default = .propertyList(at: URL(fileURLWithPath: arguments[1]), format: .xml)
let view = ContentView()
check(view.$username.key == "ContentView.username", "derived key, got \(view.$username.key)")
check(ContentView.Detail().$zoom.key == "ContentView.Detail.zoom", "nested key")
check(
  Set(PreferenceRegistry.preferences.map(\.key)) == [
    "ContentView.Detail.zoom", "ContentView.launchCount", "ContentView.theme", "ContentView.username",
  ], "registry lists every preference: \(PreferenceRegistry.preferences.map(\.key))")
PreferenceRegistry.registerDefaults()
check(
  PreferenceStore.default.registeredDefault(forKey: "ContentView.theme") == .string("system"),
  "central registration")

switch arguments[2] {
case "write":
  check(view.username == "Anonymous", "default before any write")
  view.username = "Paul"
  view.theme = .dark
  view.launchCount += 1
  print("wrote values; they reach disk at exit")
case "verify":
  check(view.username == "Paul", "value persisted across runs, got \(view.username)")
  check(view.theme == .dark, "enum persisted")
  check(view.launchCount == 1, "count persisted")
  check(!ContentView.Detail().$zoom.hasStoredValue, "registered defaults are never stored")
  print("verified: values persisted, keys derived, defaults registered")
default:
  exit(2)
}
