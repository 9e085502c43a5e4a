// Types only available from an OS version later than the deployment target, and a deprecated
// one, as apps declare them (`@available(iOS 17, *) struct NewFeatureSettings`). Generated code
// that names them must repeat their availability (an extension of such a type must, and code
// outside it may name the type only under `if #available`), and must not name a deprecated type
// where the compiler would warn. On Linux these attributes do not apply; the macOS CI job builds
// this target where they do.
import Preferences

@available(macOS 99, iOS 99, tvOS 99, watchOS 99, visionOS 99, *)
enum FutureMode: String {
  case compact, wide
}

@available(macOS 99, iOS 99, tvOS 99, watchOS 99, visionOS 99, *)
struct FutureSettings {
  static let initialMode = FutureMode.compact
  static let start = 2
  static let shared = Preferences.PreferenceStore.standard  // the module declares its own PreferenceStore

  @Preference var mode = Self.initialMode
  @Preference(store: Self.shared) var count = Self.start
}

struct Outer {
  @available(macOS, introduced: 99)
  @available(iOS, introduced: 99)
  @available(tvOS, introduced: 99)
  @available(watchOS, introduced: 99)
  @available(visionOS, introduced: 99)
  struct Inner {
    static let initialLevel = 4
    @Preference var level = Self.initialLevel
  }
}

@available(*, deprecated, message: "Use PackageScoped")
struct LegacyOptions {
  static let standardTimeout = 10
  @Preference var timeout = Self.standardTimeout
}

/// Typed keys of an enum available from a later OS version: each generated extension of
/// `TypedPreferenceKey` that names it repeats its availability.
@available(macOS 99, iOS 99, tvOS 99, watchOS 99, visionOS 99, *)
enum FutureKeys: String, PreferenceKeys {
  case layout, columns
  var defaultValue: any Preferences.PreferenceValue {
    switch self {
    case .layout: FutureMode.wide
    case .columns: 3
    }
  }
}

/// Typed keys of a deprecated enum: the generated extensions are deprecated alike, so naming it
/// draws no warning (the integration test fails on any warning in generated code).
@available(*, deprecated, message: "Use FutureKeys")
enum LegacyKeys: String, PreferenceKeys {
  case columns
  var defaultValue: any Preferences.PreferenceValue {
    switch self {
    case .columns: 2
    }
  }
}

/// A deprecated type whose preferences name their stores: generated code that evaluates a store
/// names the type, in code as deprecated as the type, so it draws no warning.
@available(*, deprecated, message: "Use FutureSettings")
struct LegacyStores {
  static let shared = Preferences.PreferenceStore.standard
  @Preference(store: .suite("group.legacy")) var suiteCount = 1
  @Preference(store: Self.shared, movedFrom: .default) var sharedCount = 2
}

/// A deprecated preference in a type that is not.
struct PartlyLegacy {
  @available(*, deprecated, message: "Use limit")
  @Preference var oldLimit = 5
  @Preference var limit = 10
}

/// A type unavailable on some platform (`@available(watchOS, unavailable)` in a multiplatform
/// app; here on every platform, so that each build checks it): only code as unavailable may name
/// it, so generated code does not, and its default is kept at first creation; the table names
/// its store only under `#if`, where it is available.
@available(*, unavailable, message: "Desktop only")
struct DesktopOnly {
  static let columns = 3
  @Preference var layout = Self.columns
  @Preference(store: .suite("group.desktop")) var zoomed = false
}
