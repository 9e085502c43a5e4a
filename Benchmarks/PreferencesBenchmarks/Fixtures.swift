import Foundation
import Preferences

struct Profile: Codable, Equatable, PreferenceValue {
  var name: String
  var age: Int
  var tags: [String]
}

/// Read through `@Preference`.
struct Reader {
  @Preference var count = 0
  @Preference var name = "Anonymous"
  @Preference var profile = Profile(name: "P", age: 1, tags: ["a", "b"])
}

/// Where the property-list file store of the write rows lives: a fresh temporary directory.
let benchmarkDirectory = FileManager.default.temporaryDirectory
  .appendingPathComponent("swift-preferences-bench-\(ProcessInfo.processInfo.processIdentifier)")

/// Written through `@Preference` in the property-list file store.
struct FileWriter {
  nonisolated static let store = PreferenceStore.propertyList(
    at: benchmarkDirectory.appendingPathComponent("bench.plist"))
  @Preference(store: FileWriter.store) var count = 0
  @Preference(store: FileWriter.store) var name = "Anonymous"
  @Preference(store: FileWriter.store) var profile = Profile(name: "P", age: 1, tags: ["a", "b"])
}

/// Five preferences, for the initialisation row.
struct FivePreferences {
  @Preference var a = 1
  @Preference var b = "b"
  @Preference var c = true
  @Preference var d = 2.5
  @Preference var e = [1, 2]
}

/// The same shape with plain stored properties.
struct FivePlain {
  var a = 1
  var b = "b"
  var c = true
  var d = 2.5
  var e = [1, 2]
}

/// Five preferences beside one more stored property, as in most types that declare them.
///
/// `FivePlain` holds six scalar fields (a `String` is two), the most the Swift optimizer takes
/// apart to destroy field by field (`shouldExpand` in the compiler's SIL utilities: at most six
/// fields); a type with more is destroyed through its outlined value witness, which calls the
/// runtime to release the string and the array. With one more property the plain type is beyond
/// the limit; the wrappers, which keep only their locations, have nothing to release.
struct FivePreferencesAndTitle {
  var title = "Settings"
  @Preference var a = 1
  @Preference var b = "b"
  @Preference var c = true
  @Preference var d = 2.5
  @Preference var e = [1, 2]
}

/// `FivePreferencesAndTitle` with plain stored properties.
struct FivePlainAndTitle {
  var title = "Settings"
  var a = 1
  var b = "b"
  var c = true
  var d = 2.5
  var e = [1, 2]
}

enum BenchKeys: String, PreferenceKeys {
  case count, name, profile
  var defaultValue: any PreferenceValue {
    switch self {
    case .count: 0
    case .name: "Anonymous"
    case .profile: Profile(name: "P", age: 1, tags: ["a", "b"])
    }
  }
}
