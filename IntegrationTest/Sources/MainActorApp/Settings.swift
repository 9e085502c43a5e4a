// One app's preferences, compiled in two settings (Swift5App links this file): a new Xcode 26 app
// target, where every declaration is main-actor isolated by default and the upcoming features
// Xcode enables are on; and Swift 5 language mode. Defaults are literals, enum cases,
// initializers of the target's own types, and statics of the declaring type.
import Foundation
import Observation
import Preferences

// Declared with no conformance to PreferenceValue: the registry writes it (raw value, JSON).
enum Theme: String { case light, dark, system }

// `nonisolated`: where the default isolation is MainActor, a Codable type's conformance would
// otherwise be main-actor isolated, and a preference is read and written on any thread.
nonisolated struct Layout: Codable, Equatable {
  var columns: Int
  init(columns: Int) { self.columns = columns }
}

struct ContentView {
  static let defaultVolume = 0.8
  @Preference var username = "Anonymous"
  @Preference var volume = Self.defaultVolume
  @Preference var fallbackVolume = Self.defaultVolume
  @Preference var theme: Theme = .system
  @Preference var accent = Theme.dark
  @Preference var layout = Layout(columns: 2)
  @Preference var lastSearch: String?
  @Preference var draft: String?

  struct Inner {
    @Preference var depth = 2
    @Preference var pageSize = 20
    @Preference var density = Density.compact
    @Preference var recent: [Theme] = []

    /// A nested raw-value enum, one only some platforms declare, and one whose conformance the
    /// user wrote for one platform only: the registry writes the rest.
    enum Density: Int { case compact, regular }
    #if os(Linux) || os(macOS)
      enum Platform: String { case desktop }
      @Preference var platform = Platform.desktop
    #endif
    enum Sorting: String { case name, date }
    @Preference var sorting = Sorting.date
  }
}

/// A default that names its own type by its short name, from inside another type.
struct Player {
  struct Queue {
    static let defaultLength = 10
    @Preference var length = Queue.defaultLength
    @Preference var capacity = Queue.defaultLength * 2
  }
}

/// Static preferences (of a main-actor type under default isolation).
enum Flags {
  @Preference static var beta = false
}

/// A store kept in a plain `static let`: main-actor isolated where that is the default, and
/// nonisolated in the Swift 5 target; the registry evaluates it where each allows.
enum Stores {
  static let shared = PreferenceStore.suite("integration-shared-suite")
}

struct SharedSettings {
  @Preference(store: Stores.shared) var sharedCount = 3
  @Preference var volumeFromStatic = ContentView.defaultVolume
}

/// Options no other declaration here writes, so that the initializers the registry generates for
/// them compile in each of this file's three settings: an optional with a key, JSON storage with
/// sync and a rename, a move between stores, and the Settings app.
struct OptionSettings {
  @Preference(key: "legacy_token") var token: String?
  @Preference(format: .json, sync: true, renamedFrom: "recentTags") var tags: [String] = []
  @Preference(store: .suite("integration-options-suite"), movedFrom: .standard) var badge = 0
  @Preference(settings: true) var showsHints = true
}

/// Preferences that background work reads, where the main actor is the default isolation: a
/// `nonisolated` class (Swift rejects a property wrapper in most `nonisolated` structs and in
/// `Sendable` classes), created where it is read.
nonisolated final class SyncSettings {
  @Preference var batchSize = 100
}

/// A nested `Codable` type whose default is one of its static lets: the registry infers the
/// static's type from its initial value and writes the conformance.
enum Cards {
  nonisolated struct Card: Codable, Equatable {
    var width: Int
    static let standard = Card(width: 3)
  }
}

struct CardSettings {
  @Preference var card = Cards.Card.standard
}

/// A raw-value enum that preferences store only in collections: the registry infers `[Badge]`
/// from the literal and from `allCases`, and writes the conformance.
enum Badge: String, CaseIterable { case new, hot }

struct BadgeSettings {
  @Preference var shown = [Badge.new]
  @Preference var every = Badge.allCases
}

/// Defaults of other forms whose type the registry infers: a file-scope constant, and `??`.
enum Speed: Int { case slow = 1, fast = 2 }
enum Shape: String { case round, square }
let defaultSpeed = Speed.fast

struct MotionSettings {
  @Preference var speed = defaultSpeed
  @Preference var shape = Shape(rawValue: "square") ?? .round
}

final class SettingsModel {
  @Preference var fontSize = 12.0
}

@Observable final class SidebarModel {
  @ObservationIgnored @Preference var isShown = true
  var label: String { isShown ? "shown" : "hidden" }
}

#if os(iOS)
  extension ContentView.Inner.Sorting: PreferenceValue {}
#endif

/// Foundation and Core Graphics values the library stores: exact decimals, a time zone, a
/// window size, a range.
struct WindowSettings {
  @Preference var size = CGSize(width: 800, height: 600)
  @Preference var budget: Decimal = 12.5
  @Preference var zone = TimeZone(identifier: "Europe/Paris")!
  @Preference var pages = 1...20
  @Preference var autosave: Duration = .seconds(30)
  @Preference var shipping: ShippingOptions = [.express]
  @Preference var channel = Channel(rawValue: "stable")
  @Preference var columnWidths: [Int: Double] = [0: 120, 1: 80.5]
  @Preference var panesShown: [Pane: Bool] = [.sidebar: true]
  @Preference var accountNames: [UUID: String] = [:]
}

/// A dictionary key with no written conformance: the registry makes it a key (stored as its raw
/// value).
enum Pane: String { case sidebar, inspector }

/// An option set and an "extensible enum": stored as their raw values, as `@AppStorage` stores
/// them, with no written conformance. `nonisolated`, which a default-MainActor target needs for
/// a conformance the registry writes (the generated line says so where it is missing).
nonisolated struct ShippingOptions: OptionSet {
  let rawValue: Int
  static let express = ShippingOptions(rawValue: 1)
  static let giftWrap = ShippingOptions(rawValue: 2)
}

nonisolated struct Channel: RawRepresentable, Hashable {
  typealias RawValue = String
  var rawValue: RawValue
}

/// An app's own settings object named as apps name it (NetNewsWire's and Whisky's are `class
/// Preferences`): nothing the registry generates may need the library's module name, which this
/// type hides in the module.
final class Preferences {
  @Preference var zoom = 1.0
}

/// Two views that read one key, as views that read one `@AppStorage` key do: each names it, and
/// they agree on its type and default.
struct ChatView {
  @Preference(key: "systemPrompt") var systemPrompt = ""
}

struct PromptSettingsView {
  @Preference(key: "systemPrompt") var prompt = ""
}

/// Two views that share a key whose default's type only the compiler knows (`NSPoint` is not in
/// the scanner's table): they agree because their defaults and options are written alike.
struct MainWindowView {
  @Preference(key: "windowPosition", store: .standard) var position = NSPoint(x: 0.5, y: 0.8)
}

struct InspectorWindowView {
  @Preference(key: "windowPosition", store: .standard) var position = NSPoint(x: 0.5, y: 0.8)
}

/// The other spellings of a nonisolated conformance where the default isolation is MainActor:
/// the conformance written `nonisolated`, and a type nested in a `nonisolated` one. The scanner
/// accepts both; the compiler must too.
enum Dock: nonisolated Codable, Equatable {
  case hidden
  case pinned(edge: Int)
}

nonisolated enum Panels {
  struct Frame: Codable, Equatable { var width = 320 }
}

struct DockSettings {
  @Preference var dock = Dock.pinned(edge: 0)
  @Preference var frame = Panels.Frame()
}
