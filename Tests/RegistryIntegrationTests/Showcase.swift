// The scanner's golden fixture: PreferenceScannerCoreTests renders the registry of this file
// and compares it with PreferenceRegistry.generated.swift beside it; this target compiles both
// and checks at run time that every declaration resolves to its key, store and default.
// Re-record with RECORD_SNAPSHOTS=1 swift test --filter RegistrySnapshotTests.
import Foundation
import Preferences

struct Showcase {
  /// The user's name.
  @Preference var username = "Anonymous"
  @Preference(key: "HighScore") var highScore = 0
  @Preference var theme: Theme = .dark
  @Preference var layout = Layout(columns: 2)
  @Preference var nickname: String? = nil
  @Preference var `default` = Self.defaultVolume
  @Preference var tags = [
    "a",
    "b",
  ]
  @Preference(store: Self.separateStore) var separate = 1.5
  @Preference var sameLine = true

  /// Renamed twice: "userName" → "Showcase.userName" → "Showcase.displayName".
  @Preference(store: Self.renameStore, renamedFrom: "Showcase.userName", "userName") var displayName = ""

  static let defaultVolume = 0.8
  nonisolated static let separateStore = PreferenceStore.inMemory()
  nonisolated static let renameStore = PreferenceStore.inMemory([
    "userName": "Oldest", "Showcase.userName": "Newer",
  ])

  struct Inner {
    enum Deepest {
      case unused
    }
    @Preference var depth = Deepest.unused.hashValue == 0 ? 1 : 1
  }

  #if DEBUG
    @Preference var build = "debug"
  #else
    @Preference var build = "release"
  #endif

  enum Theme: String, PreferenceValue { case light, dark }
  struct Layout: Codable, Equatable, PreferenceValue { var columns: Int }
}

/// Static preferences need a global-actor-isolated type in Swift 6.
@MainActor
enum Flags {
  @Preference static var beta = false
}

private struct Hidden {
  @Preference var secret = 42
}

struct Box<Element> {
  @Preference var generic = "box"
}

func readHidden() -> (key: String, value: Int) {
  let hidden = Hidden()
  return (hidden.$secret.key, hidden.secret)
}

/// Defaults that need Foundation: the registry compiles them because it repeats this file's
/// imports.
struct Links {
  @Preference var homepage = URL(string: "https://example.com")!
  @Preference var since = Date(timeIntervalSince1970: 0)
}

/// Defaults the registry cannot evaluate from its own file: they are registered at first read.
@MainActor
struct IsolatedScreen {
  static let columns = 3
  nonisolated static let rows = 2
  @Preference var columnCount = Self.columns
  @Preference var rowCount = Self.rows
}

struct PrivateDefaults {
  private static let limit = 10
  @Preference var limit = Self.limit
}

/// Optionals without a default read nil, like plain optional properties.
struct Optionals {
  @Preference var lastSearch: String?
  @Preference(key: "LegacyToken") var token: Optional<String>
  @Preference(
    key: "Spread") var spread: Int?
}

/// Nested in a generic type through an extension: registered at first read.
extension Box {
  struct Config {
    @Preference var pageSize = 20
  }
}

@MainActor enum ScreenConstants {
  static let columns = 4
}

/// Reads another main-actor type's static: registered at first read.
@MainActor struct DependentScreen {
  @Preference var columns = ScreenConstants.columns
}

/// Every option at once, with a default and without one: the registry generates the
/// initializers these take, one per combination of options.
struct EveryOption {
  nonisolated static let store = PreferenceStore.inMemory()
  nonisolated static let previous = PreferenceStore.inMemory(["EveryOption.motto": "Carpe diem"])
  @Preference(
    key: "EveryOption.font", store: Self.store, movedFrom: Self.previous, format: .json, sync: true,
    settings: false, renamedFrom: "EveryOption.typeface", "typeface") var font = "Helvetica"
  @Preference(
    key: "EveryOption.motto", store: Self.store, movedFrom: Self.previous, format: .propertyList,
    sync: false, settings: true, exported: false, renamedFrom: "EveryOption.slogan") var motto: String?
}
