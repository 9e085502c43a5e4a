import Foundation
import Preferences
import PreferencesTesting
import Testing

/// Preferences that the tests below write from many tests at once.
struct SharedSettings {
  /// A file store unique to this test process.
  nonisolated static let file = FileManager.default.temporaryDirectory
    .appendingPathComponent("swift-preferences-testing-\(UUID().uuidString).plist")

  @Preference var count = 0
  @Preference(store: .suite("swift-preferences-testing.shared")) var label = "none"
  @Preference(store: .propertyList(at: SharedSettings.file)) var note = ""
  @Preference(store: .propertyList(at: SharedSettings.file)) var noteWithoutTrait = ""
}

enum SharedKeys: String, PreferenceKeys {
  case level = "SharedKeys.level"

  var defaultValue: any PreferenceValue {
    switch self {
    case .level: 0
    }
  }
}

/// Removes what a broken build may have left in the real stores, once, before a test looks at
/// them.
let startedClean: Void = {
  PreferenceStore.default.removeValue(forKey: "SharedSettings.count")
  PreferenceStore.default.removeValue(forKey: SharedKeys.level.rawValue)
  PreferenceStore.suite("swift-preferences-testing.shared").removeValue(forKey: "SharedSettings.label")
}()

/// Whether a real store (seen from a detached task, which stand-ins do not reach) holds `key`.
func realStore(_ store: @escaping @Sendable () -> PreferenceStore, holds key: String) async -> Bool {
  await Task.detached { store().hasStoredValue(forKey: key) }.value
}

/// Cleans the real stores (once) outside the stand-ins of `.isolatedPreferences`.
func cleanRealStores() async {
  await Task.detached { _ = startedClean }.value
}

/// Twenty tests that run in parallel and write the same preferences, each reading back only its
/// own values. `.ci/run` runs this suite 50 times in a row.
@Suite(.isolatedPreferences)
struct ParallelIsolationTests {
  @Test(arguments: 1...20)
  func eachTestReadsOnlyWhatItWrote(_ n: Int) async {
    await cleanRealStores()
    let settings = SharedSettings()
    let keyed = PreferenceStore.default.keyed(by: SharedKeys.self)
    #expect(settings.count == 0 && settings.label == "none" && settings.note == "" && keyed[.level] == 0)
    settings.count = n
    settings.label = "\(n)"
    settings.note = "\(n)"
    keyed.set(n, for: .level)
    // Give the other tests turns to write in between.
    for _ in 0..<20 { await Task.yield() }
    #expect(settings.count == n)
    #expect(settings.label == "\(n)")
    #expect(settings.note == "\(n)")
    #expect(keyed[.level] == n)
    #expect(!(await realStore({ .default }, holds: "SharedSettings.count")))
    #expect(!(await realStore({ .suite("swift-preferences-testing.shared") }, holds: "SharedSettings.label")))
    #expect(!(await realStore({ .propertyList(at: SharedSettings.file) }, holds: "SharedSettings.note")))
    #expect(!(await realStore({ .default }, holds: "SharedKeys.level")))
  }
}

@Suite struct IsolatedPreferencesTraitTests {
  @Test func aTestWithoutTheTraitWritesTheRealStores() async {
    let settings = SharedSettings()
    settings.noteWithoutTrait = "real"
    #expect(
      await realStore({ .propertyList(at: SharedSettings.file) }, holds: "SharedSettings.noteWithoutTrait"))
    PreferenceStore.propertyList(at: SharedSettings.file).removeValue(
      forKey: "SharedSettings.noteWithoutTrait")
  }

  @Test func aWriteToARealStoreFailsTheTest() async throws {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent(
      "swift-preferences-\(UUID()).plist")
    defer { try? FileManager.default.removeItem(at: file) }
    let test = try #require(Test.current)
    try await withKnownIssue {
      let trait: IsolatedPreferencesTrait = .isolatedPreferences
      try await trait.provideScope(for: test, testCase: nil) {
        PreferenceStore(backend: PropertyListFileBackend(url: file)).set(1, forKey: "escaped")
      }
    } matching: { issue in
      issue.comments.contains { $0.rawValue.contains("'escaped' was written to PropertyListFileBackend") }
    }
  }
}
