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
