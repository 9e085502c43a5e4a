import Foundation
import IntegrationSupport
import Observation
import Preferences

checkDefaultCorpus()
checkMigrationForms()
let view = ContentView()
check(view.$username.key == "ContentView.username", "derived key, got \(view.$username.key)")
check(Player.Queue().$length.key == "Player.Queue.length", "nested key")
check(Flags.$beta.key == "Flags.beta", "static key")

// The first read, on the main actor, registered every default, with UserDefaults too: code that
// reads UserDefaults directly sees them (these keys are never written).
_ = view.username
let defaults = UserDefaults.standard
check(defaults.integer(forKey: "ContentView.Inner.pageSize") == 20, "UserDefaults sees a registered literal")
check(
  defaults.double(forKey: "ContentView.fallbackVolume") == 0.8,
  "UserDefaults sees a default read from a static")
check(defaults.string(forKey: "ContentView.accent") == "dark", "UserDefaults sees an enum default as stored")
check(
  defaults.integer(forKey: "Player.Queue.capacity") == 20,
  "a default naming its type's short name is registered")
check(defaults.object(forKey: "ContentView.draft") == nil, "an optional without a default registers nothing")

// Observation: a tracked read is invalidated by a write from anywhere.
let sidebar = SidebarModel()
let invalidated = Flag()
withObservationTracking {
  _ = sidebar.label
} onChange: {
  invalidated.raise()
}
PreferenceStore.default.set(!sidebar.isShown, forKey: "SidebarModel.isShown")
check(invalidated.isRaised, "an @Observable model's computed property is invalidated by a store write")

// An enum-keyed store, whose typed keys the plugin generated in a file that repeats the keys'
// imports (one of which declares `PreferenceKey`, as SwiftUI does).
let launch = PreferenceStore.default.keyed(by: LaunchKeys.self)
var height = HeightKey.defaultValue
HeightKey.reduce(value: &height) { 44 }
check(height == 44, "a view preference key declared beside the library")

switch Mode.current {
case .write:
  check(launch.value(for: .nickname) == "Anonymous", "an enum key's default")
  check(launch.value(for: .lastOpened) == Date(timeIntervalSince1970: 0), "a typed Date key's default")
  check(launch.value(for: .afterConditional) == 2.5, "a key whose clause follows an #if block")
  #if os(Linux)
    check(launch.value(for: .linuxOnly) == 3, "a key declared under #if")
    check(launch.value(for: .linuxComputed) == 5, "a key under #if whose type the compiler infers")
  #else
    check(launch.value(for: .elsewhere) == "x", "a key declared under #if")
    check(launch.value(for: .elsewhereComputed) == 5, "a key under #if whose type the compiler infers")
  #endif
  launch.set("Paul", for: .nickname)
  check(Preferences().zoom == 1, "a preference in a type named like the library's module")
  Preferences().zoom = 1.25
  check(ChatView().systemPrompt == "" && PromptSettingsView().prompt == "", "a shared key's default")
  PromptSettingsView().prompt = "Be brief"
  check(
    ChatView().systemPrompt == "Be brief",
    "a write through one declaration of a shared key reads through the other")
  check(
    MainWindowView().position == NSPoint(x: 0.5, y: 0.8)
      && InspectorWindowView().position == NSPoint(x: 0.5, y: 0.8),
    "a shared key whose default's type the compiler infers")
  InspectorWindowView().position = NSPoint(x: 0.25, y: 0.75)
  launch.set(Date(timeIntervalSince1970: 86_400), for: .lastOpened)
  check(launch.value(for: .lastPane) == .library, "a key of the module's own enum reads its default")
  launch.set(.search, for: .lastPane)
  let reviewedAt: Date = launch.value(for: .reviewedAt)
  check(
    reviewedAt == Date(timeIntervalSinceReferenceDate: 60) && launch.value(for: .retries) == 3,
    "keys whose default's type the compiler infers read their defaults")
  launch.set(5, for: .retries)
  check(view.volume == 0.8 && view.layout == Layout(columns: 2), "defaults before any write")
  view.username = "Paul"
  view.volume = 0.3
  view.theme = .dark
  view.layout = Layout(columns: 5)
  view.lastSearch = "swift"
  ContentView.Inner().depth = 7
  ContentView.Inner().density = .regular
  ContentView.Inner().recent = [.light, .dark]
  ContentView.Inner().sorting = .name
  Player.Queue().length = 25
  Flags.beta = true
  SettingsModel().fontSize = 18
  check(CardSettings().card == Cards.Card(width: 3), "a static let's default")
  CardSettings().card = Cards.Card(width: 5)
  check(BadgeSettings().shown == [.new] && BadgeSettings().every == [.new, .hot], "collection defaults")
  BadgeSettings().shown = [.hot]
  check(MotionSettings().speed == .fast && MotionSettings().shape == .square, "inferred defaults")
  MotionSettings().speed = .slow
  check(
    DockSettings().dock == .pinned(edge: 0) && DockSettings().frame.width == 320, "nonisolated conformances")
  DockSettings().dock = .hidden
  DockSettings().frame = Panels.Frame(width: 480)
  check(
    defaults.string(forKey: "WindowSettings.budget") == "12.5"
      && defaults.string(forKey: "WindowSettings.zone") == "Europe/Paris"
      && defaults.array(forKey: "WindowSettings.pages") as? [Int] == [1, 20]
      && defaults.string(forKey: "WindowSettings.size") == "[800,600]"
      && defaults.integer(forKey: "WindowSettings.shipping") == 1
      && defaults.string(forKey: "WindowSettings.channel") == "stable"
      && defaults.dictionary(forKey: "WindowSettings.columnWidths") as? [String: Double] == [
        "0": 120, "1": 80.5,
      ]
      && defaults.dictionary(forKey: "WindowSettings.panesShown") as? [String: Bool] == ["sidebar": true],
    "Foundation values' and raw-representable structs' defaults are registered in their stored form")
  check(
    WindowSettings().size == CGSize(width: 800, height: 600) && WindowSettings().pages == 1...20,
    "Foundation values' defaults")
  WindowSettings().size = CGSize(width: 1024, height: 768)
  WindowSettings().budget = Decimal(string: "0.1")! + Decimal(string: "0.2")!
  WindowSettings().zone = TimeZone(identifier: "Asia/Tokyo")!
  WindowSettings().pages = 3...9
  check(WindowSettings().autosave == .seconds(30), "a Duration's default")
  WindowSettings().autosave = .milliseconds(1500)
  check(
    WindowSettings().shipping == .express && WindowSettings().channel == Channel(rawValue: "stable"),
    "raw-representable structs' defaults")
  WindowSettings().shipping = [.express, .giftWrap]
  WindowSettings().channel = Channel(rawValue: "beta")
  check(WindowSettings().columnWidths == [0: 120, 1: 80.5], "an Int-keyed dictionary's default")
  WindowSettings().columnWidths[2] = 64
  check(WindowSettings().panesShown == [.sidebar: true], "an enum-keyed dictionary's default")
  WindowSettings().panesShown = [.sidebar: false, .inspector: true]
  WindowSettings().accountNames = [UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!: "Work"]
  let batch = await Task.detached { () -> Int in
    let settings = SyncSettings()
    let before = settings.batchSize
    settings.batchSize = 250
    return before
  }.value
  check(batch == 100, "a nonisolated class's default, read off the main actor")
  SharedSettings().$sharedCount.removeValue()  // the three programs share the suite
  check(
    SharedSettings().sharedCount == 3
      && UserDefaults(suiteName: "integration-shared-suite")?.integer(forKey: "SharedSettings.sharedCount")
        == 3,
    "a store read from a static let has its default, registered")
  SharedSettings().sharedCount = 9
  check(OptionSettings().token == nil && OptionSettings().showsHints, "options' defaults")
  OptionSettings().token = "abc"
  OptionSettings().tags = ["swift"]
  OptionSettings().badge += 1  // the three programs share the suite
  OptionSettings().showsHints = false
  check(
    FooterBar().showFooter && FooterBar().fontScale == 1.25 && ReaderPane().pinned == ["Inbox"],
    "declarations that share a settings type's preferences read its defaults")
  check(FooterBar().$showFooter.key == "showFooter", "a sharing declaration takes the declared key")
  FooterBar().fontScale = 1.5
  check(
    DisplaySettings().fontScale == 1.5 && ReaderPane().fontScale == 1.5,
    "a write through one sharing declaration is read through the declaration and the others")
  DisplaySettings().showFooter = false
  check(!FooterBar().showFooter, "a write through the declaration is read through a sharing one")
  passed("wrote values")
case .verify:
  check(
    ReaderPane().fontScale == 1.5 && !FooterBar().showFooter,
    "values written through sharing declarations persisted")
  check(view.username == "Paul", "username persisted, got \(view.username)")
  check(view.volume == 0.3, "volume persisted")
  check(view.theme == .dark, "enum persisted")
  check(view.layout == Layout(columns: 5), "Codable persisted")
  check(view.lastSearch == "swift", "optional persisted")
  check(ContentView.Inner().depth == 7, "nested persisted")
  check(
    ContentView.Inner().density == .regular, "a nested enum with a conformance the registry wrote persisted")
  check(ContentView.Inner().recent == [.light, .dark], "an array of a raw-value enum persisted")
  check(ContentView.Inner().sorting == .name, "a conformance written for another platform only")
  check(
    defaults.integer(forKey: "ContentView.Inner.density") == 1
      && defaults.string(forKey: "ContentView.accent") == "dark",
    "a raw-value enum is stored as its raw value")
  check(Player.Queue().length == 25, "short-name default's preference persisted")
  check(Flags.beta, "static persisted")
  check(SettingsModel().fontSize == 18, "class preference persisted")
  check(CardSettings().card == Cards.Card(width: 5), "a nested Codable type's value persisted")
  check(BadgeSettings().shown == [.hot], "an array of an enum stored only in arrays persisted")
  check(MotionSettings().speed == .slow, "an enum whose default is a file-scope constant persisted")
  check(
    DockSettings().dock == .hidden && DockSettings().frame == Panels.Frame(width: 480),
    "types with a nonisolated conformance, or nested in a nonisolated type, persisted")
  check(
    WindowSettings().size == CGSize(width: 1024, height: 768) && WindowSettings().pages == 3...9
      && WindowSettings().zone.identifier == "Asia/Tokyo"
      && WindowSettings().budget == Decimal(string: "0.3")!
      && defaults.string(forKey: "WindowSettings.budget") == "0.3",
    "Foundation values persisted (the decimal exactly)")
  check(
    WindowSettings().autosave == .milliseconds(1500)
      && defaults.double(forKey: "WindowSettings.autosave") == 1.5,
    "a Duration persisted, as seconds")
  check(
    WindowSettings().shipping == [.express, .giftWrap] && WindowSettings().channel.rawValue == "beta"
      && defaults.integer(forKey: "WindowSettings.shipping") == 3
      && defaults.string(forKey: "WindowSettings.channel") == "beta",
    "an option set and a RawRepresentable struct persisted, as their raw values")
  check(
    WindowSettings().columnWidths == [0: 120, 1: 80.5, 2: 64]
      && defaults.dictionary(forKey: "WindowSettings.columnWidths") as? [String: Double] == [
        "0": 120, "1": 80.5, "2": 64,
      ],
    "an Int-keyed dictionary persisted, keyed by text")
  check(
    WindowSettings().panesShown == [.sidebar: false, .inspector: true]
      && defaults.dictionary(forKey: "WindowSettings.panesShown") as? [String: Bool] == [
        "sidebar": false, "inspector": true,
      ]
      && WindowSettings().accountNames == [UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!: "Work"]
      && defaults.dictionary(forKey: "WindowSettings.accountNames") as? [String: String] == [
        "E621E1F8-C36C-495A-93FC-0C247A3E6E5F": "Work"
      ],
    "enum- and UUID-keyed dictionaries persisted, keyed by raw value and uuidString")
  check(
    launch.value(for: .nickname) == "Paul"
      && launch.value(for: .lastOpened) == Date(timeIntervalSince1970: 86_400)
      && launch.value(for: .lastPane) == .search && launch.value(for: .retries) == 5
      && defaults.string(forKey: "nickname") == "Paul",
    "an enum-keyed store's values persisted")
  check(Preferences().zoom == 1.25, "a preference in a type named like the library's module persisted")
  check(
    ChatView().systemPrompt == "Be brief" && defaults.string(forKey: "systemPrompt") == "Be brief"
      && PreferenceRegistry.preferences.filter { $0.key == "systemPrompt" }.count == 2,
    "a shared key persisted; the registry lists both declarations")
  check(
    MainWindowView().position == NSPoint(x: 0.25, y: 0.75)
      && PreferenceRegistry.preferences.filter { $0.key == "windowPosition" }.count == 2,
    "a shared key of an inferred type persisted, read through the other declaration")
  let batch = await Task.detached { SyncSettings().batchSize }.value
  check(batch == 250, "a value written off the main actor persisted, read off it")
  check(SharedSettings().sharedCount == 9, "a store read from a static let persisted")
  check(
    UserDefaults(suiteName: "integration-shared-suite")?.integer(forKey: "SharedSettings.sharedCount") == 9,
    "the static let's suite holds the value")
  check(
    OptionSettings().token == "abc" && defaults.string(forKey: "legacy_token") == "abc"
      && OptionSettings().tags == ["swift"] && defaults.string(forKey: "OptionSettings.tags") == #"["swift"]"#
      && OptionSettings().badge > 0 && !OptionSettings().showsHints
      && UserDefaults(suiteName: "integration-options-suite")?.integer(forKey: "OptionSettings.badge")
        == OptionSettings().badge,
    "values declared with every option persisted where their options say")
  check(!view.$accent.hasStoredValue, "registered defaults are never stored")
  passed("verified values persisted")
}
