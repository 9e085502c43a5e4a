import Foundation
import Testing

@testable import Preferences

/// A hand-written registry, shaped like a generated one, for runtime behaviour that does not
/// depend on the scanner.
enum FakeRegistry: GeneratedPreferenceRegistry {
  static let store = Locked<PreferenceStore?>(nil)
  static var preferences: [PreferenceDescriptor] {
    [
      PreferenceDescriptor(
        index: 0, key: "Profile.name", property: "name", declaringType: "Profile", valueType: "String",
        defaultValue: "\"\"", documentation: nil, fileID: "Tests/Fake.swift", line: 1, column: 1, syncs: true)
    ]
  }
  static func index(fileID: UnsafeRawPointer, location: UInt64) -> Int { 0 }
  static let slotBase = _reservePreferenceSlots(1)
  static func key(at index: Int) -> String { "Profile.name" }
  static func store(at index: Int) -> PreferenceStore { store.withLock { $0! } }
  static func defaults(for store: PreferenceStore) -> [String: any PreferenceValue] {
    registrations.withLock { $0 += 1 }
    return ["Profile.name": "Anonymous"]
  }
  static func renames(for store: PreferenceStore) -> [String: [String]] {
    ["Profile.name": ["User.name", "name"]]
  }
  static let retiredKeys = ["Old.flag", "Old.count"]
  static let registrations = Locked(0)
}

@Suite(.serialized) struct RegistryRuntimeTests {
  @Test func concurrentRegistrationMigratesOnceAndRegistersDefaults() {
    for _ in 0..<20 {
      let store = PreferenceStore.inMemory(["User.name": "Newer", "name": "Oldest"])
      DispatchQueue.concurrentPerform(iterations: 8) { _ in FakeRegistry.ensureRegistered(in: store) }
      #expect(store.backend.value(forKey: "Profile.name") == .string("Newer"))
      #expect(!store.hasStoredValue(forKey: "User.name"))
      #expect(store.value(forKey: "name", default: "") == "Oldest")
      #expect(store.registeredDefault(forKey: "Profile.name") == .string("Anonymous"))
    }
  }

  @Test func retiredValuesAreRemovedOnlyWhenAsked() {
    let store = PreferenceStore.inMemory(["Old.flag": true, "Kept": 1])
    FakeRegistry.ensureRegistered(in: store)
    #expect(store.hasStoredValue(forKey: "Old.flag"))
    #expect(FakeRegistry.removeRetiredValues(from: store) == ["Old.flag"])
    #expect(!store.hasStoredValue(forKey: "Old.flag"))
    #expect(store.hasStoredValue(forKey: "Kept"))
  }

  @Test func syncedKeysComeFromTheRegistry() {
    #expect(FakeRegistry.syncedKeys == ["Profile.name"])
  }

  @Test func anotherProcessWritingTheSuiteReachesObservers() throws {
    let suite = "swift-preferences-tests-\(UUID().uuidString)"
    let store = PreferenceStore(backend: UserDefaultsBackend(suiteName: suite), arguments: [])
    defer { UserDefaults(suiteName: suite)?.removePersistentDomain(forName: suite) }
    let heard = Recorder<String>()
    let observation = store.observe("shared", default: "") { heard.record($0) }
    try runHelper(["set-and-exit", "suite:\(suite)", "shared", "from child"])
    let started = Date()
    while heard.all.isEmpty && Date().timeIntervalSince(started) < 2 { usleep(10_000) }
    #expect(heard.all == ["from child"])
    withExtendedLifetime(observation) {}
  }
}
