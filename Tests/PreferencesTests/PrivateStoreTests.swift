import Foundation
import Testing

@_spi(Generated) @testable import Preferences

/// A store only this file sees: a run-time choice (a UI-test suite) kept `private`.
struct PrivateStoreScreen {
  private static let uiTests = PreferenceStore.inMemory()
  @Preference(store: Self.uiTests) var draft = "empty"
  @Preference(store: .screenLocal) var zoom = 1.5

  static var uiTestsForTests: PreferenceStore { uiTests }
}

extension PreferenceStore {
  fileprivate static let screenLocal = PreferenceStore.inMemory()
  static var screenLocalForTests: PreferenceStore { screenLocal }
}

/// A private store that a test meets first inside stand-ins.
struct PrivateStandInScreen {
  static let suiteName = "swift-preferences-tests.private-stand-in"
  private static let suite = PreferenceStore.suite(suiteName)
  @Preference(store: Self.suite) var note = "none"

  static var suiteForTests: PreferenceStore { suite }
}

/// A private store that no value names until its test creates one.
struct PrivateLaterScreen {
  private static let memory = PreferenceStore.inMemory()
  @Preference(store: Self.memory) var later = 5
}

/// A store generated code evaluates (it is not private): its declaration never does.
struct NotKeptStoreScreen {
  @Preference(store: .inMemory()) var count = 0
}

/// A fake table of two declarations in one store: a default whose evaluation waits for the
/// test (so a registration holds its turn), and a preference whose declaration keeps its store.
enum KeptRace {
  static let store = Locked<PreferenceStore?>(nil)
  static let entered = DispatchSemaphore(value: 0)
  static let release = DispatchSemaphore(value: 0)

  static let table = PreferenceFileTable(
    fileID: "Tests/KeptRace.swift",
    records: {
      let gate = FakeTables.record(
        key: "Race.gate", index: 0, line: 1, fileID: "Tests/KeptRace.swift", store: "Race.shared")
      let kept = FakeTables.record(
        key: "Race.kept", index: 1, line: 2, fileID: "Tests/KeptRace.swift", store: "Self.hidden",
        registeredValue: #"{"string":"kept"}"#)
      return ["[" + gate + "," + kept.dropLast() + #","storeKeptByDeclaration":true}]"#]
    },
    registration: { index in
      guard index == 0 else { return .none }
      return .registry {
        entered.signal()
        release.wait()
        return .integer(1)
      }
    },
    store: { index in index == 0 ? store.withLock { $0 } : nil })
}

/// `@Preference(store:)` naming a `private` or `fileprivate` store: the declaration evaluates it
/// (generated code cannot see it) and hands it to the registry when it is first created.
@Suite struct PrivateStoreTests {
  @Test func aPrivateStoreHoldsTheDeclarationsValues() throws {
    var screen = PrivateStoreScreen()
    let store = PrivateStoreScreen.uiTestsForTests
    #expect(screen.$draft.store === store)
    #expect(screen.$zoom.store === PreferenceStore.screenLocalForTests)
    #expect(screen.draft == "empty")
    // Its default is registered there, as every other preference's is in its store.
    #expect(store.registeredDefault(forKey: "PrivateStoreScreen.draft") == .string("empty"))
    screen.draft = "Dear Paul"
    screen.zoom = 2
    #expect(store.value(forKey: "PrivateStoreScreen.draft", default: "") == "Dear Paul")
    #expect(PreferenceStore.screenLocalForTests.value(forKey: "PrivateStoreScreen.zoom", default: 0.0) == 2)
    #expect(!PreferenceStore.default.hasStoredValue(forKey: "PrivateStoreScreen.draft"))
    // A second value of the type shares the one store.
    #expect(PrivateStoreScreen().draft == "Dear Paul")
    // The registry knows the store once a value was created: export includes the value.
    let descriptor = try #require(PreferenceRegistry.preference(forKey: "PrivateStoreScreen.draft"))
    #expect(descriptor.storeIsKeptByDeclaration)
    #expect(PreferenceRegistry.exportValues().values["PrivateStoreScreen.draft"] == .string("Dear Paul"))
  }

  /// The declaration's store expression is evaluated outside a test's stand-ins, as the
  /// registry evaluates every store: a factory there would make it a stand-in for the process.
  @Test func aPrivateStoreFirstMetInsideStandInsIsTheRealOne() throws {
    try PreferenceStandIns().run {
      var screen = PrivateStandInScreen()
      screen.note = "inside"
      #expect(screen.note == "inside")
    }
    let real = PreferenceStore.suite(PrivateStandInScreen.suiteName)
    #expect(PrivateStandInScreen.suiteForTests === real)
    #expect(PrivateStandInScreen().$note.store === real)
    #expect(!real.hasStoredValue(forKey: "PrivateStandInScreen.note"), "the write went to the stand-in")
  }

  /// Until a value declaring it is created, the registry does not know a kept store: export and
  /// reset pass the preference by, and an import says why it stored nothing.
  @Test func moduleWideOperationsPassAKeptStoreByUntilItIsKnown() throws {
    try PreferenceStandIns().run {
      let key = "PrivateLaterScreen.later"
      #expect(PreferenceRegistry.exportValues().values[key] == nil)
      #expect(!PreferenceRegistry.resetAllValues().contains(key))
      let report = PreferenceRegistry.importValues(PreferenceValuesDocument(values: [key: .integer(9)]))
      #expect(report.storeNotKnownYet == [key])
      #expect(report.unknown.isEmpty)
      #expect(report.problems.first?.contains("no value declaring it was created yet") == true)

      var screen = PrivateLaterScreen()
      #expect(screen.later == 5)
      screen.later = 6
      #expect(PreferenceRegistry.exportValues().values[key] == .integer(6))
      #expect(
        PreferenceRegistry.importValues(PreferenceValuesDocument(values: [key: .integer(7)])).imported == [
          key
        ])
      #expect(screen.later == 7)
      #expect(PreferenceRegistry.resetAllValues().contains(key))
      #expect(screen.later == 5)
    }
  }

  /// `_keepsStore(line:)` names lines, which a declaration in another file may share: only a
  /// declaration whose record says it keeps its store evaluates its expression.
  @Test func onlyAKeptStoreIsTakenFromItsDeclaration() throws {
    let descriptor = try #require(PreferenceRegistry.preference(forKey: "NotKeptStoreScreen.count"))
    #expect(!descriptor.storeIsKeptByDeclaration)
    let declaration = DerivedPreference<Int, PreferenceRegistry>(
      fileID: #fileID, line: UInt(descriptor.line), default: 0)
    var evaluations = 0
    declaration.keep {
      evaluations += 1
      return .inMemory()
    }
    #expect(evaluations == 0)
  }

  /// A value created while another thread registers the module's defaults: its kept store
  /// waits for that registration's turn, so its default is registered either way.
  @Test(.deadlockWatchdog) func aStoreKeptDuringARegistrationGetsItsDefault() async throws {
    let store = PreferenceStore.inMemory()
    KeptRace.store.withLock { $0 = store }
    let catalog = RegistryCatalog(tables: [KeptRace.table], mainActorIsDefaultIsolation: false)
    let registering = Task.detached { catalog.ensureRegistered(in: store) }
    // The registration holds its turn, in the default's evaluation, before the store is kept.
    KeptRace.entered.wait()
    catalog.onRegistrationAwaited { KeptRace.release.signal() }
    let entry = try #require(catalog.entry(fileID: "Tests/KeptRace.swift", location: 2))
    #expect(entry.descriptor.storeIsKeptByDeclaration)
    catalog.keepStore(store, of: entry)
    // Had keeping not waited for the turn, the registration is still waiting: let it end.
    KeptRace.release.signal()
    await registering.value
    #expect(store.hasRegistered(registry: catalog.number))
    #expect(store.registeredDefault(forKey: "Race.kept") == .string("kept"))
    #expect(catalog.store(of: entry) === store)
  }
}
