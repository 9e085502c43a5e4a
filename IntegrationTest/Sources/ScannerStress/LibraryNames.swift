// The module declares its own types under names the library uses, as apps do (an app's own
// `PropertyListValue` enum, the `PreferenceStore` class it had before adopting the library).
// The module's declarations hide imported ones in its files, the generated ones included: the
// generated registry must still reach the library's types.
import Foundation
import Preferences

enum PropertyListValue: Equatable {
  case string(String)
  case integer(Int)
}

final class PreferenceStore: Sendable {
  static let standard = PreferenceStore()
}

protocol PreferenceValue {}
protocol PreferenceDictionaryKey {}
struct TypedPreferenceKey {}
enum GeneratedPreferenceRegistry {}
struct PreferenceFileTable {}
struct PreferenceIsolatedStore {}

/// Stored as its raw value and keying a dictionary: the registry writes both conformances.
enum Pane: String {
  case general, advanced
}

@MainActor enum MainActorStores {
  static let store = Preferences.PreferenceStore.default
}

struct NamedLikeTheLibrary {
  /// Evaluated by the registry: a function that returns the library's `PropertyListValue`.
  @Preference var since = Date(timeIntervalSince1970: 0)
  @Preference var pane = Pane.general
  @Preference var widths: [Pane: Int] = [:]
  /// A store the registry evaluates.
  @Preference(store: .default) var count = 1
}

@MainActor struct MainActorNames {
  /// A store the registry evaluates on the main actor.
  @Preference(store: MainActorStores.store) var isolated = "x"
}

/// Typed keys, which the registry declares in an extension of the library's `TypedPreferenceKey`.
enum PaneKeys: String, PreferenceKeys {
  case lastPane
  var defaultValue: any Preferences.PreferenceValue {
    switch self {
    case .lastPane: Pane.general
    }
  }
}
