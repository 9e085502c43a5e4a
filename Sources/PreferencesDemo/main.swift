// The demo: shows every preference of this target, with its derived key, current value and
// default, and changes them from the command line. Values persist across runs.
//
//   swift run PreferencesDemo                       list every preference
//   swift run PreferencesDemo set ContentView.username Paul
//   swift run PreferencesDemo reset ContentView.username   (or: reset --all)
//   swift run PreferencesDemo watch                 print each change, made here or by another
//                                                   process (run `set` in a second terminal)
//   swift run PreferencesDemo --file /tmp/demo.plist list  use a property-list file store
import Foundation
import Preferences

var arguments = Array(CommandLine.arguments.dropFirst())
if let index = arguments.firstIndex(of: "--file"), index + 1 < arguments.count {
  PreferenceStore.default = .propertyList(at: URL(fileURLWithPath: arguments[index + 1]), format: .xml)
  arguments.removeSubrange(index...index + 1)
}

/// One preference, reachable by key through its projected value.
struct Entry {
  var key: String
  var current: () -> String
  var defaultValue: () -> String
  var isStored: () -> Bool
  var set: (String) -> Bool
  var reset: () -> Void
  /// Calls `handler` with the value as text each time it changes, from any source.
  var observe: (@escaping @Sendable (String) -> Void) -> PreferenceObservation

  init<Value: PreferenceValue>(_ preference: PreferenceProjection<Value>) {
    key = preference.key
    current = { describe(preference.value) }
    defaultValue = { describe(preference.defaultValue) }
    isStored = { preference.hasStoredValue }
    set = { text in
      guard let value = Value(launchArgument: text) else { return false }
      preference.value = value
      return true
    }
    reset = { preference.removeValue() }
    observe = { handler in preference.observe { handler(describe($0)) } }
  }
}

func describe<Value>(_ value: Value) -> String {
  if let value = value as? any PreferenceValue, let plist = try? value.propertyListValue() {
    if case .string(let text) = plist { return text }
    return String(describing: plist.foundationObject).replacingOccurrences(of: "\n", with: " ")
  }
  return "nil"
}

let view = ContentView()
let appearance = ContentView.Appearance()
let entries = [
  Entry(view.$username), Entry(view.$launchCount), Entry(appearance.$theme), Entry(appearance.$fontSize),
  Entry(ContentView.Appearance.Layout.$grid), Entry(view.$lastSearch), Entry(view.$pinnedTags),
]
@MainActor func entry(_ key: String) -> Entry? {
  if let entry = entries.first(where: { $0.key == key }) { return entry }
  FileHandle.standardError.write(Data("unknown key '\(key)'; run 'list' to see the keys\n".utf8))
  return nil
}

switch arguments.first ?? "list" {
case "list":
  view.launchCount += 1
  print(
    "Hello, \(view.username)! This demo has run \(view.launchCount) time(s). Store: \(PreferenceStore.default.backend.location)\n"
  )
  let keyWidth = entries.map(\.key.count).max() ?? 0
  print("KEY".padding(toLength: keyWidth, withPad: " ", startingAt: 0), " VALUE / DEFAULT")
  for entry in entries {
    let marker = entry.isStored() ? "*" : " "
    print(
      entry.key.padding(toLength: keyWidth, withPad: " ", startingAt: 0), marker + entry.current(), " / ",
      entry.defaultValue())
  }
  print("\n* stored value. Declarations (from the generated registry):")
  for preference in PreferenceRegistry.preferences {
    print(
      "  \(preference.fileID):\(preference.line)  \(preference.key): \(preference.valueType ?? "?") = \(preference.defaultValueSource)  \(preference.documentation.map { "— " + $0 } ?? "")"
    )
  }
case "set" where arguments.count == 3:
  guard let entry = entry(arguments[1]) else { exit(1) }
  guard entry.set(arguments[2]) else {
    FileHandle.standardError.write(Data("'\(arguments[2])' is not a valid value for \(arguments[1])\n".utf8))
    exit(1)
  }
  print("\(entry.key) = \(entry.current())")
case "get" where arguments.count == 2:
  guard let entry = entry(arguments[1]) else { exit(1) }
  print(entry.current())
case "reset" where arguments.count == 2:
  if arguments[1] == "--all" {
    entries.forEach { $0.reset() }
    print("every preference reset to its default")
  } else {
    guard let entry = entry(arguments[1]) else { exit(1) }
    entry.reset()
    print("\(entry.key) = \(entry.current()) (default)")
  }
case "watch":
  // Written unbuffered: the output may be a pipe, and the process ends with Ctrl-C.
  func print(_ text: String) { FileHandle.standardOutput.write(Data((text + "\n").utf8)) }
  print(
    "Watching \(entries.count) preferences in \(PreferenceStore.default.backend.location). In another terminal, run"
  )
  print("  swift run PreferencesDemo set ContentView.username Paul\n(Ctrl-C to stop)")
  let observations = entries.map { entry in
    let key = entry.key
    return entry.observe { value in
      let time = Date().formatted(date: .omitted, time: .standard)
      FileHandle.standardOutput.write(Data("\(time)  \(key) = \(value)\n".utf8))
    }
  }
  withExtendedLifetime(observations) { dispatchMain() }
default:
  print(
    "usage: PreferencesDemo [--file PATH] [list | get KEY | set KEY VALUE | reset KEY | reset --all | watch]")
  exit(2)
}
