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

/// Stores that other declarations name, which a private alias names too.
enum SharedForPrivate {
  static let memory = PreferenceStore.inMemory()
}

/// A declaration in a store the module registers, and one that names the same store through a
/// private alias: the module's registration in that store runs before the alias is known.
struct PrivateAliasScreen {
  @Preference(store: SharedForPrivate.memory) var visible = 1
  @Preference(store: Self.alias) var hidden = "alias default"
  private static var alias: PreferenceStore { SharedForPrivate.memory }
}

/// A fake table of a gate (a default whose evaluation runs `KeptRace.duringRegistration`, so a
/// registration holds its turn there) and a declaration that keeps its store, renamed from
/// `Race.old`.
enum KeptRace {
  static let store = Locked<PreferenceStore?>(nil)
  static let duringRegistration = Locked<(@Sendable () -> Void)?>(nil)

  static let table = PreferenceFileTable(
    fileID: "Tests/KeptRace.swift",
    records: {
      let gate = FakeTables.record(
        key: "Race.gate", index: 0, line: 1, fileID: "Tests/KeptRace.swift", store: "Race.shared")
      let kept = FakeTables.record(
        key: "Race.kept", index: 1, line: 2, fileID: "Tests/KeptRace.swift", store: "Self.hidden",
        renamedFrom: ["Race.old"], registeredValue: #"{"string":"kept"}"#)
      return ["[" + gate + "," + kept.dropLast() + #","storeKeptByDeclaration":true}]"#]
    },
    registration: { index in
      guard index == 0 else { return .none }
      return .registry {
        duringRegistration.withLock { $0 }?()
        return .integer(1)
      }
    },
    store: { index in index == 0 ? store.withLock { $0 } : nil })

  /// A fresh catalog of the table, its gate in `store`, and its kept declaration.
  static func catalog(over store: PreferenceStore) throws -> (RegistryCatalog, RegistryCatalog.Entry) {
    self.store.withLock { $0 = store }
    let catalog = RegistryCatalog(tables: [table], mainActorIsDefaultIsolation: false)
    return (catalog, try #require(catalog.entry(fileID: "Tests/KeptRace.swift", location: 2)))
  }
}

/// `@Preference(store:)` naming a `private` or `fileprivate` store: the declaration evaluates it
/// (generated code cannot see it) and hands it to the registry when it is first created.
@Suite struct PrivateStoreTests {
  @Test func aPrivateStoreHoldsTheDeclarationsValues() throws {
    let screen = PrivateStoreScreen()
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
    // The registry knows the store once a value was created (export: the test below).
    let descriptor = try #require(PreferenceRegistry.preference(forKey: "PrivateStoreScreen.draft"))
    #expect(descriptor.storeIsKeptByDeclaration)
    #expect(
      RegistryCatalog.of(PreferenceRegistry.self).allEntries().first {
        $0.descriptor.key == "PrivateStoreScreen.draft"
      }
      .flatMap { RegistryCatalog.of(PreferenceRegistry.self).store(of: $0) } === store)
  }

  /// The declaration's store expression is evaluated outside a test's stand-ins, as the
  /// registry evaluates every store: a factory there would make it a stand-in for the process.
  @Test func aPrivateStoreFirstMetInsideStandInsIsTheRealOne() throws {
    PreferenceStandIns().run {
      let screen = PrivateStandInScreen()
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
    PreferenceStandIns().run {
      let key = "PrivateLaterScreen.later"
      #expect(PreferenceRegistry.exportValues().values[key] == nil)
      #expect(!PreferenceRegistry.resetAllValues().contains(key))
      let report = PreferenceRegistry.importValues(PreferenceValuesDocument(values: [key: .integer(9)]))
      #expect(report.storeNotKnownYet == [key])
      #expect(report.unknown.isEmpty)
      #expect(report.problems.first?.contains("no value declaring it was created yet") == true)

      let screen = PrivateLaterScreen()
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

  /// The module registered the store before a private alias of it was known: the
  /// declaration's first read registers its default there.
  @Test func aKeptStoreTheModuleRegisteredBeforeGetsTheDefaultAtTheFirstRead() {
    // Only this test creates the screen, so the alias is unknown to this registration.
    PreferenceRegistry.registerDefaults(in: SharedForPrivate.memory)
    #expect(SharedForPrivate.memory.registeredDefault(forKey: "PrivateAliasScreen.visible") == .integer(1))
    #expect(SharedForPrivate.memory.registeredDefault(forKey: "PrivateAliasScreen.hidden") == nil)
    let screen = PrivateAliasScreen()
    #expect(screen.hidden == "alias default")
    #expect(screen.$hidden.store === SharedForPrivate.memory)
    #expect(
      SharedForPrivate.memory.registeredDefault(forKey: "PrivateAliasScreen.hidden")
        == .string("alias default"))
  }
}

/// The fake table's tests: one at a time, as they share `KeptRace`'s store and hook.
@Suite(.serialized) struct KeptStoreRegistrationTests {
  /// A value of a kept declaration created and read inside the module's registration (a default
  /// that builds such a value) is registered there, with its migration, although the running
  /// registration had grouped its stores before; and keeping the store never waits.
  @Test func aKeptStoreMetInsideARegistrationIsRegisteredThere() throws {
    let store = PreferenceStore.inMemory()
    store.set("mine", forKey: "Race.old")
    let (catalog, entry) = try KeptRace.catalog(over: store)
    KeptRace.duringRegistration.withLock {
      $0 = {
        catalog.keepStore(store, of: entry)
        catalog.registerKept(entry, in: store)
      }
    }
    defer { KeptRace.duringRegistration.withLock { $0 = nil } }
    catalog.ensureRegistered(in: store)
    #expect(store.hasRegistered(registry: catalog.number))
    #expect(store.registeredDefault(forKey: "Race.kept") == .string("kept"))
    #expect(store.value(forKey: "Race.kept", default: "") == "mine", "moved from its old key")
    #expect(!store.hasStoredValue(forKey: "Race.old"))
    #expect(catalog.store(of: entry) === store)
  }

  /// One declaration's registration registers it alone: the store is not marked as registered
  /// for the module, whose registration there still registers every other declaration.
  @Test func aKeptDeclarationsRegistrationLeavesTheModulesToCome() throws {
    let store = PreferenceStore.inMemory()
    let (catalog, entry) = try KeptRace.catalog(over: store)
    catalog.keepStore(store, of: entry)
    catalog.registerKept(entry, in: store)
    #expect(store.registeredDefault(forKey: "Race.kept") == .string("kept"))
    #expect(
      store.hasRegisteredKept(number: KeyNumbers.number(of: "Race.kept"), registry: catalog.number),
      "once per store")
    #expect(!store.hasRegistered(registry: catalog.number))
    catalog.ensureRegistered(in: store)
    #expect(store.registeredDefault(forKey: "Race.gate") == .integer(1))
  }

  /// Keeping a store, and registering its declaration, while another thread holds the
  /// registration's turn return at once (a value may be created and read in a `static let`'s
  /// initializer that that registration waits for); the registration that ends after them
  /// changes nothing of it.
  @Test(.deadlockWatchdog) func aKeptStoreNeverWaitsForARegistration() throws {
    let store = PreferenceStore.inMemory()
    let (catalog, entry) = try KeptRace.catalog(over: store)
    let entered = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    KeptRace.duringRegistration.withLock {
      $0 = {
        entered.signal()
        release.wait()
      }
    }
    defer { KeptRace.duringRegistration.withLock { $0 = nil } }
    let registered = DispatchSemaphore(value: 0)
    // On a thread of its own: a task could wait for a cooperative thread other tests hold.
    Thread {
      catalog.ensureRegistered(in: store)
      registered.signal()
    }.start()
    entered.wait()
    catalog.keepStore(store, of: entry)
    catalog.registerKept(entry, in: store)
    #expect(registered.wait(timeout: .now()) == .timedOut, "the registration still holds its turn")
    #expect(catalog.store(of: entry) === store)
    #expect(store.registeredDefault(forKey: "Race.kept") == .string("kept"))
    release.signal()
    registered.wait()
    #expect(store.registeredDefault(forKey: "Race.kept") == .string("kept"))
    #expect(store.registeredDefault(forKey: "Race.gate") == .integer(1))
  }

  /// Export, import and reset register a known kept declaration first where the module
  /// registered its store before: its value still under an old key is moved, not left behind.
  @Test func moduleWideOperationsRegisterAKnownKeptDeclarationFirst() throws {
    let store = PreferenceStore.inMemory()
    store.set("mine", forKey: "Race.old")
    let (catalog, entry) = try KeptRace.catalog(over: store)
    catalog.ensureRegistered(in: store)
    catalog.keepStore(store, of: entry)
    #expect(store.hasStoredValue(forKey: "Race.old"), "the store was registered before it was known")
    let found = catalog.entriesWithStores().first { $0.0.descriptor.key == "Race.kept" }
    #expect(found?.1 === store)
    #expect(store.value(forKey: "Race.kept", default: "") == "mine")
    #expect(!store.hasStoredValue(forKey: "Race.old"))
  }
}
