import Foundation
import Testing

@_spi(Generated) @testable import Preferences

/// Declarations in every kind of store, for stand-ins.
struct StandInSettings {
  nonisolated static let sharedMemory = PreferenceStore.inMemory()
  nonisolated static let oldMemory = PreferenceStore.inMemory(["StandInSettings.moved": "from the old store"])
  nonisolated static let suiteName = "swift-preferences-tests.stand-ins"

  @Preference var count = 0
  @Preference(store: .suite(StandInSettings.suiteName)) var label = "none"
  @Preference(store: StandInSettings.sharedMemory) var shared = "unset"
  @Preference(store: StandInSettings.sharedMemory, movedFrom: StandInSettings.oldMemory) var moved = "default"
}

/// Lets `parties` tasks wait until all of them have arrived.
actor Barrier {
  private let parties: Int
  private var arrived = 0
  private var waiting: [CheckedContinuation<Void, Never>] = []

  init(parties: Int) { self.parties = parties }

  func arriveAndWait() async {
    arrived += 1
    if arrived == parties {
      for continuation in waiting { continuation.resume() }
      waiting.removeAll()
      return
    }
    await withCheckedContinuation { waiting.append($0) }
  }
}

@Suite struct PreferenceStandInsTests {
  /// Removes what a broken build may have left in the real stores, once, before any test of the
  /// suite looks at them.
  static let startedClean: Void = {
    PreferenceStore.default.removeValue(forKey: "StandInSettings.count")
    PreferenceStore.default.removeValue(forKey: StandInKeys.level.rawValue)
    PreferenceStore.suite(StandInSettings.suiteName).removeValue(forKey: "StandInSettings.label")
  }()

  init() { _ = Self.startedClean }

  /// The real stores hold nothing the stand-ins' code wrote.
  func expectRealStoresUntouched() {
    #expect(!PreferenceStore.default.hasStoredValue(forKey: "StandInSettings.count"))
    #expect(!PreferenceStore.suite(StandInSettings.suiteName).hasStoredValue(forKey: "StandInSettings.label"))
    #expect(!StandInSettings.sharedMemory.hasStoredValue(forKey: "StandInSettings.shared"))
  }

  @Test func twentyTasksWritingTheSamePreferencesEachReadTheirOwn() async {
    let settings = StandInSettings()
    // Read once outside, so that the declarations are resolved and the real values cached: reads
    // inside must still find the stand-ins, not the cache of the real store.
    _ = (settings.count, settings.label, settings.shared)
    let barrier = Barrier(parties: 20)
    await withTaskGroup(of: Void.self) { group in
      for n in 1...20 {
        group.addTask {
          await PreferenceStandIns().run {
            #expect(settings.count == 0 && settings.label == "none" && settings.shared == "unset")
            settings.count = n
            settings.label = "\(n)"
            settings.shared = "\(n)"
            PreferenceStore.default.keyed(by: StandInKeys.self).set(n, for: .level)
            // Every task has written before any reads back.
            await barrier.arriveAndWait()
            #expect(settings.count == n)
            #expect(settings.label == "\(n)")
            #expect(settings.shared == "\(n)")
            #expect(PreferenceStore.default.keyed(by: StandInKeys.self)[.level] == n)
          }
        }
      }
    }
    expectRealStoresUntouched()
    #expect(!PreferenceStore.default.hasStoredValue(forKey: StandInKeys.level.rawValue))
  }

  /// The app or another test may set the real default while a test runs in stand-ins (the
  /// integration tests do, in the same process): the stand-in of the default stays the one the
  /// test first used.
  @Test func theDefaultsStandInHoldsWhenTheRealDefaultChangesMeanwhile() async {
    let first = PreferenceStore.inMemory()
    let realDefault = Locked(first)
    let standIns = PreferenceStandIns(realDefault: { realDefault.withLock { $0 } })
    let settings = StandInSettings()
    await standIns.run {
      // First used in a child task: the run's other tasks share the pinned stand-in.
      await Task { settings.count = 4 }.value
      realDefault.withLock { $0 = .inMemory() }
      PreferenceStore.default.keyed(by: StandInKeys.self).set(4, for: .level)
      #expect(settings.count == 4)
    }
    let second = realDefault.withLock { $0 }
    realDefault.withLock { $0 = .inMemory() }
    standIns.run {
      #expect(settings.count == 4)
      #expect(PreferenceStore.default.keyed(by: StandInKeys.self)[.level] == 4)
    }
    for real in [first, second, realDefault.withLock { $0 }] {
      #expect(!real.hasStoredValue(forKey: "StandInSettings.count"))
      #expect(!real.hasStoredValue(forKey: StandInKeys.level.rawValue))
    }
  }

  /// A `static let` store first evaluated inside a test's stand-ins holds that test's stand-in
  /// for the process. The registry takes the real store back from it, and another test's write
  /// to it is listed, with the fix.
  @Test func aStandInThatOutlivesItsRunIsTakenForItsRealStoreAndItsWritesListed() {
    let name = "swift-preferences-tests.escaped-\(UUID())"
    let real = PreferenceStore.suite(name)
    let directory = TemporaryDirectory()
    let file = directory.file("escaped.plist")
    let realFile = PreferenceStore.propertyList(at: file)
    let (escaped, escapedFile, escapedMemory) = PreferenceStandIns().run {
      (
        PreferenceStore.suite(name), PreferenceStore.propertyList(at: file),
        PreferenceStandIns.current!.store(standingInFor: StandInSettings.sharedMemory)
      )
    }
    #expect(escaped !== real)
    #expect(PreferenceStandIns.realStore(of: escaped) === real)
    #expect(PreferenceStandIns.realStore(of: escapedFile) === realFile)
    #expect(PreferenceStandIns.realStore(of: escapedMemory) === StandInSettings.sharedMemory)
    #expect(PreferenceStandIns.realStore(of: real) === real, "a real store is its own")

    // The registry keeps the real store of a declaration whose store expression gives the stand-in.
    let table = PreferenceFileTable(
      fileID: "Tests/Escaped.swift",
      records: { ["[" + FakeTables.record(key: "Escaped.value", index: 0, line: 1, store: "s") + "]"] },
      store: { _ in escaped })
    let catalog = RegistryCatalog(tables: [table])
    let entry = catalog.entry(fileID: "Tests/Fake.swift", location: 1)
    #expect(entry.flatMap { catalog.store(of: $0) } === real)

    // The same store, moved from: the values move from the real store.
    let oldReal = PreferenceStore.inMemory(["Escaped.moved": 5])
    let escapedOld = PreferenceStandIns().run { PreferenceStandIns.current!.store(standingInFor: oldReal) }
    let target = PreferenceStore.inMemory()
    let moving = PreferenceFileTable(
      fileID: "Tests/EscapedMove.swift",
      records: { ["[" + FakeTables.record(key: "Escaped.moved", index: 0, line: 1, store: "s") + "]"] },
      registration: { _ in .registry { .integer(0) } },
      store: { _ in target },
      movedFrom: { _ in escapedOld })
    RegistryCatalog(tables: [moving]).ensureRegistered(in: target)
    #expect(target.value(forKey: "Escaped.moved", default: 0) == 5)

    let standIns = PreferenceStandIns()
    standIns.run {
      escaped.set(1, forKey: "k")
      PreferenceStore.suite(name).set(2, forKey: "k")
      // A stand-in of live stand-ins (a run inside this one) is no other test's.
      let inner = PreferenceStandIns()
      let innerStore = inner.run { PreferenceStore.suite(name) }
      innerStore.set(3, forKey: "k")
      withExtendedLifetime(inner) {}
    }
    #expect(standIns.writesOutside.map(\.key) == ["k"], "only the write to the ended run's stand-in")
    #expect(standIns.writesOutside.first?.isOtherStandIn == true)
    #expect(standIns.writesOutside.first?.description.contains("static let") == true)
    #expect(!real.hasStoredValue(forKey: "k"))
    #expect(!FileManager.default.fileExists(atPath: file.path))
  }

  @Test func factoriesReturnOneStandInPerStoreInside() {
    let directory = TemporaryDirectory()
    let file = directory.url.appendingPathComponent("settings.plist")
    let standIns = PreferenceStandIns()
    let real = PreferenceStore.suite(StandInSettings.suiteName)
    let (realDefault, realStandard) = (PreferenceStore.default, PreferenceStore.standard)
    standIns.run {
      let suite = PreferenceStore.suite(StandInSettings.suiteName)
      #expect(suite !== real)
      #expect(suite === PreferenceStore.suite(StandInSettings.suiteName))
      #expect(suite === standIns.store(standingInFor: real))
      #expect(PreferenceStore.default !== realDefault && PreferenceStore.default === PreferenceStore.default)
      #expect(PreferenceStore.standard !== realStandard)
      PreferenceStore.propertyList(at: file).set("written", forKey: "k")
      #expect(PreferenceStore.propertyList(at: file).value(forKey: "k", default: "") == "written")
    }
    #expect(!FileManager.default.fileExists(atPath: file.path), "the file store's stand-in wrote no file")
    #expect(standIns.writesOutside.isEmpty)
    #expect(PreferenceStore.suite(StandInSettings.suiteName) === real, "outside, the real store again")
  }

  @Test func aDefaultSetInsideHoldsForThatCodeOnly() async {
    let chosen = PreferenceStore.inMemory()
    await PreferenceStandIns().run {
      PreferenceStore.default = chosen
      #expect(PreferenceStore.default === chosen)
      StandInSettings().count = 7
      #expect(chosen.value(forKey: "StandInSettings.count", default: 0) == 7)
      // A task created inside inherits the stand-ins; a detached one does not.
      #expect(await Task { PreferenceStore.default === chosen }.value)
      #expect(await Task.detached { PreferenceStore.default !== chosen }.value)
    }
    // (Not compared with the default before: another suite of this process sets the real one.)
    #expect(PreferenceStore.default !== chosen)
    expectRealStoresUntouched()
  }

  @Test func aTaskStartedInsideThatOutlivesTheRunStillUsesItsStandIns() async {
    let settings = StandInSettings()
    _ = settings.count  // resolved and cached outside
    let (gate, open) = AsyncStream<Void>.makeStream()
    let task = PreferenceStandIns().run {
      Task {
        for await _ in gate { break }
        settings.count = 5
        return settings.count
      }
    }
    // The run has ended; the task it started has not.
    open.yield()
    open.finish()
    #expect(await task.value == 5)
    expectRealStoresUntouched()
  }

  @Test func aRealStoreChosenAsTheDefaultInsideIsUsedAndItsWritesListed() {
    let directory = TemporaryDirectory()
    let real = PreferenceStore(
      backend: PropertyListFileBackend(url: directory.url.appendingPathComponent("d.plist")))
    let standIns = PreferenceStandIns()
    standIns.run {
      PreferenceStore.default = real
      #expect(PreferenceStore.default === real)
      StandInSettings().count = 3
    }
    #expect(real.value(forKey: "StandInSettings.count", default: 0) == 3)
    #expect(standIns.writesOutside.map(\.key) == ["StandInSettings.count"])
  }

  @Test func writesToRealStoresAreListedAndOthersAreNot() {
    let directory = TemporaryDirectory()
    let standIns = PreferenceStandIns()
    let real = PreferenceStore(
      backend: PropertyListFileBackend(url: directory.url.appendingPathComponent("a.plist")))
    standIns.run {
      real.set(1, forKey: "escaped")
      real.removeValue(forKey: "escaped")
      PreferenceStore.inMemory().set(2, forKey: "memory")
      PreferenceStore.default.set(3, forKey: "standIn")
      StandInSettings().label = "stand-in"
    }
    #expect(standIns.writesOutside.map(\.key) == ["escaped", "escaped"])
    #expect(
      standIns.writesOutside.first?.description.contains("'escaped' was written to PropertyListFileBackend")
        == true)
    #expect(!PreferenceStore.default.hasStoredValue(forKey: "standIn"))
  }

  @Test func aStoreFirstEvaluatedInsideStandInsIsRememberedAsTheRealOne() throws {
    let name = "swift-preferences-tests.\(UUID().uuidString)"
    let table = PreferenceFileTable(
      fileID: "Tests/StandIn.swift",
      records: {
        [
          "["
            + FakeTables.record(
              key: "StandIn.value", index: 0, line: 1, fileID: "Tests/StandIn.swift", store: "s") + "]"
        ]
      },
      store: { _ in PreferenceStore.suite(name) })
    let catalog = RegistryCatalog(tables: [table])
    let entry = try #require(catalog.entry(fileID: "Tests/StandIn.swift", location: 1))
    let real = PreferenceStore.suite(name)
    PreferenceStandIns().run {
      #expect(catalog.store(of: entry) === real, "evaluated inside, remembered as the real store")
    }
    #expect(catalog.store(of: entry) === real)
  }

  @Test func aDeclaredMoveInsideStandInsLeavesTheRealOldStoreAlone() {
    // The real stores registered (and moved the value) once; a value written to the old store
    // since stays there for the real stores, and stand-ins must not take it either.
    _ = StandInSettings().moved
    StandInSettings.oldMemory.set("written later", forKey: "StandInSettings.moved")
    PreferenceStandIns().run {
      #expect(StandInSettings().moved == "default", "the old store's stand-in is empty")
    }
    #expect(StandInSettings.oldMemory.value(forKey: "StandInSettings.moved", default: "") == "written later")
  }
}

enum StandInKeys: String, PreferenceKeys {
  case level = "StandInKeys.level"

  var defaultValue: any PreferenceValue {
    switch self {
    case .level: 0
    }
  }
}
