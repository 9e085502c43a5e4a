import Foundation
import Testing

@testable import Preferences

/// Values kept outside a `UserDefaults` domain, and the domain's size as the backend counts it.
@Suite(.deadlockWatchdog) struct KeptValueAndDomainSizeTests {
  typealias Machine = DomainSizeLimitTests.Machine
  static func bytes(_ count: Int, seed: UInt8 = 0) -> Data { DomainSizeLimitTests.bytes(count, seed: seed) }

  /// A value kept in a file more than a day ago is not an orphan: a later launch's first write
  /// keeps its file, and the value still reads back.
  @Test func aKeptValueOlderThanADayIsNotAnOrphan() throws {
    let machine = Machine(limit: .oneMebibyte)
    machine.store().set(Self.bytes(200_000), forKey: "thumbnail")
    let directory = try #require(machine.directory)
    let named = try #require(machine.keptFiles.first)
    try FileManager.default.setAttributes(
      [.modificationDate: Date().addingTimeInterval(-KeptValues.orphanAge - 60)],
      ofItemAtPath: directory.appendingPathComponent(named).path)
    let restarted = machine.store()
    restarted.set("a title", forKey: "title")
    #expect(machine.keptFiles == [named])
    #expect(restarted.value(forKey: "thumbnail", default: Data()) == Self.bytes(200_000))
  }

  /// Rewriting a value counts its new size in place of its old one: a value rewritten again
  /// and again near the ceiling stays in the domain, where other code reads it.
  @Test func rewritingAValueNearTheCeilingKeepsItInTheDomain() {
    let machine = Machine(limit: .oneMebibyte)
    let defaults = machine.defaults()
    // Other code's values: 600,048 bytes.
    for index in 0..<6 {
      defaults.set(.data(Self.bytes(100_000, seed: UInt8(index))), forKey: "others.\(index)")
    }
    let store = PreferenceStore(backend: machine.backend(defaults), arguments: [])
    // 600,048 + 100,007 stays under 786,432 (three quarters), each time.
    for seed in UInt8(10)..<13 {
      store.set(Self.bytes(100_000, seed: seed), forKey: "preview")
      #expect(machine.keptFiles.isEmpty, "write with seed \(seed) kept in a file")
    }
    #expect(defaults.storedValue(forKey: "preview") == .data(Self.bytes(100_000, seed: 12)))
  }

  /// The diagnostic of a domain near its limit names its largest keys, largest first.
  @Test func theWarningNamesTheLargestKeysFirst() {
    Diagnostics.start()
    let tag = UUID().uuidString.prefix(8)
    let machine = Machine(limit: .oneMebibyte)
    let defaults = machine.defaults()
    defaults.set(.data(Self.bytes(550_000)), forKey: "big-\(tag)")
    for (index, size) in [10, 20, 30].enumerated() {
      defaults.set(.data(Self.bytes(size)), forKey: "small\(index)-\(tag)")
    }
    let store = PreferenceStore(backend: machine.backend(defaults), arguments: [])
    store.set("a title", forKey: "title-\(tag)")
    let largest = Diagnostics.reported(mentioning: "big-\(tag)").compactMap { report -> [String]? in
      if case .domainNearSizeLimit(_, _, _, let largest) = report { largest } else { nil }
    }
    #expect(largest.count == 1)
    #expect(largest.first?.first == "big-\(tag) (550012 bytes)")
  }

  /// A domain that drops back under half its limit and passes it again is reported again.
  @Test func passingTheWarningAgainIsReportedAgain() {
    Diagnostics.start()
    let tag = UUID().uuidString.prefix(8)
    let machine = Machine(limit: .oneMebibyte)
    let defaults = machine.defaults()
    for index in 0..<6 {
      defaults.set(.data(Self.bytes(100_000, seed: UInt8(index))), forKey: "legacy\(index)-\(tag)")
    }
    let store = PreferenceStore(backend: machine.backend(defaults), arguments: [])
    store.set("a title", forKey: "title-\(tag)")  // 600,000 bytes: past half the limit
    store.removeValue(forKey: "legacy0-\(tag)")  // 500,000: under it
    store.set(Self.bytes(100_000), forKey: "legacy0-\(tag)")  // past it again
    let warnings = Diagnostics.reported(mentioning: "legacy1-\(tag)").filter {
      if case .domainNearSizeLimit = $0 { true } else { false }
    }
    #expect(warnings.count == 2)
  }

  /// A compare-and-set of a large value that loses to another writer leaves no file behind.
  @Test func aLostReplaceOfALargeValueLeavesNoFile() {
    let machine = Machine(limit: .oneMebibyte)
    let defaults = machine.defaults()
    let backend = machine.backend(defaults)
    backend.setValue(.string("small"), forKey: "thumbnail")
    let otherCode = machine.defaults()
    // Another writer's value lands between the comparison and the domain's replacement.
    defaults.reentry.withLock {
      $0 = { call in
        guard call == "replaceStoredValue" else { return }
        defaults.reentry.withLock { $0 = nil }
        otherCode.set(.string("other"), forKey: "thumbnail")
      }
    }
    #expect(
      !backend.replaceValue(
        forKey: "thumbnail", ifEqualTo: .string("small"), with: .data(Self.bytes(200_000))))
    #expect(machine.keptFiles.isEmpty, "the file of the value that was not stored is removed")
    #expect(backend.value(forKey: "thumbnail") == .string("other"))
  }

  /// A kept value whose file is gone (purged) reads as nothing: a compare-and-set that expects
  /// any value fails, and one that expects nothing succeeds.
  @Test func aPurgedValueIsReplacedOnlyAsAbsent() throws {
    let machine = Machine(limit: .oneMebibyte)
    let backend = machine.backend()
    backend.setValue(.data(Self.bytes(200_000)), forKey: "thumbnail")
    try FileManager.default.removeItem(at: try #require(machine.directory))
    #expect(backend.value(forKey: "thumbnail") == nil)
    #expect(!backend.replaceValue(forKey: "thumbnail", ifEqualTo: .string("anything"), with: .string("new")))
    #expect(backend.value(forKey: "thumbnail") == nil)
    #expect(backend.replaceValue(forKey: "thumbnail", ifEqualTo: nil, with: .string("new")))
    #expect(backend.value(forKey: "thumbnail") == .string("new"))
  }

  /// Removing every value of a synced `UserDefaults` store keeps the sync metadata: the removal
  /// is sent, not undone by the remote value.
  @Test func removingEveryValueOfASyncedSuiteIsNotUndone() {
    let remote = InMemoryRemoteStore()
    let clock = TestClock()
    let defaults = SimulatedUserDefaults(name: "com.example.reset-\(UUID().uuidString)")
    let store = PreferenceStore(
      backend: UserDefaultsBackend(
        suiteName: nil, domain: defaults, activity: nil, scheduleAnnouncement: { $0() }),
      arguments: [])
    let sync = PreferenceSync(local: store, remote: remote, keys: ["name"], clock: { clock.date })
    sync.start()
    store.set("Paul", forKey: "name")
    remote.waitUntilDelivered()
    clock.advance()
    store.removeAllValues()
    remote.waitUntilDelivered()
    #expect(store.value(forKey: "name", default: "none") == "none")
    let sent = remote.value(forKey: "name").flatMap { PreferenceSync.Entry($0) }
    #expect(sent != nil && sent?.value == nil, "the removal is sent")
    withExtendedLifetime(sync) {}
  }
}

/// Migrations tell observers of both keys and stores.
@Suite struct MigrationNotificationTests {
  @Test func aRenameTellsTheOldKeysObservers() {
    let store = PreferenceStore.inMemory()
    store.set(3, forKey: "oldCount")
    let heard = Recorder<Int>()
    let observation = store.observe("oldCount", default: 0) { heard.record($0) }
    #expect(store.migrate(from: "oldCount", to: "count") == .moved)
    #expect(heard.all == [0])
    withExtendedLifetime(observation) {}
  }

  @Test func aMoveTellsTheNewStoresObservers() {
    let previous = PreferenceStore.inMemory()
    let store = PreferenceStore.inMemory()
    previous.set("dark", forKey: "theme")
    let heard = Recorder<String>()
    let observation = store.observe("theme", default: "light") { heard.record($0) }
    #expect(store.migrate("theme", from: previous) == .moved)
    #expect(heard.all == ["dark"])
    withExtendedLifetime(observation) {}
  }

  /// Other code wrote the new key through `UserDefaults` (unheard on Linux): the rename keeps it.
  @Test func aRenameKeepsOtherCodesWriteOfTheNewKey() {
    let suite = TemporarySuite()
    let store = PreferenceStore(backend: UserDefaultsBackend(suiteName: suite.name), arguments: [])
    store.set("old name", forKey: "username")
    UserDefaults(suiteName: suite.name)!.set("new name", forKey: "Profile.username")
    #expect(store.migrate(from: "username", to: "Profile.username") == .keptExistingValue)
    #expect(store.value(forKey: "Profile.username", default: "") == "new name")
    #expect(store.value(forKey: "username", default: "") == "old name")
  }
}

/// Sync: quota bookkeeping, quota violations without keys, and the digest of values.
@Suite struct SyncBookkeepingTests {
  private func remoteValue(_ remote: InMemoryRemoteStore, _ key: String) -> PropertyListValue? {
    remote.value(forKey: key).flatMap { PreferenceSync.Entry($0)?.value }
  }

  /// A phone and a tablet syncing `keys` through one remote store, both started.
  private func startedPair(keys: Set<String>) -> (
    remote: InMemoryRemoteStore, clock: TestClock, phone: Device, tablet: Device
  ) {
    let remote = InMemoryRemoteStore()
    let clock = TestClock()
    let phone = Device(remote: remote, keys: keys, clock: clock)
    let tablet = Device(remote: remote, keys: keys, clock: clock)
    phone.sync.start()
    tablet.sync.start()
    return (remote, clock, phone, tablet)
  }

  /// A value another device wrote counts toward the quota: this device's next write that would
  /// pass the total is refused.
  @Test func anotherDevicesWriteCountsTowardTheQuota() {
    let remote = InMemoryRemoteStore(
      limits: RemoteStoreLimits(maximumKeys: 100, maximumTotalBytes: 400, maximumKeyBytes: 64),
      delivery: .manual)
    let clock = TestClock()
    let phone = Device(remote: remote, keys: ["a", "b"], clock: clock)
    let tablet = Device(remote: remote, keys: ["a", "b"], clock: clock)
    phone.sync.start()
    tablet.sync.start()
    clock.advance()
    tablet.store.set(String(repeating: "x", count: 250), forKey: "a")
    #expect(remoteValue(remote, "a") != nil)
    remote.deliverAll()
    #expect(phone.store.value(forKey: "a", default: "") == String(repeating: "x", count: 250))
    clock.advance()
    phone.store.set(String(repeating: "y", count: 150), forKey: "b")
    #expect(remoteValue(remote, "b") == nil, "250 + 150 bytes and their keys pass the 400-byte quota")
  }

  /// The synced keys' own bytes are counted once: a write that fits beside them is sent.
  @Test func syncedKeysAreCountedOnceAtStart() {
    let remote = InMemoryRemoteStore(
      limits: RemoteStoreLimits(maximumKeys: 100, maximumTotalBytes: 500, maximumKeyBytes: 64))
    let clock = TestClock()
    let tablet = Device(remote: remote, keys: ["a", "b"], clock: clock)
    tablet.sync.start()
    tablet.store.set(String(repeating: "x", count: 250), forKey: "a")
    remote.waitUntilDelivered()
    let phone = Device(remote: remote, keys: ["a", "b"], clock: clock)
    phone.sync.start()
    clock.advance()
    phone.store.set("short", forKey: "b")
    #expect(remoteValue(remote, "b") == .string("short"))
  }

  /// A quota violation that names no key concerns every synced key: each is reported and no
  /// longer taken as agreed, so it is sent again.
  @Test func aQuotaViolationWithoutKeysConcernsEverySyncedKey() {
    Diagnostics.start()
    let key = "Quota.all.\(UUID().uuidString.prefix(8))"
    let remote = InMemoryRemoteStore(delivery: .manual)
    let device = Device(remote: remote, keys: [key], clock: TestClock())
    device.sync.start()
    device.store.set("x", forKey: key)
    #expect(SyncMetadata.agreement(for: key, in: device.backend) != nil)
    remote.simulateQuotaViolation(keys: [])
    remote.deliverAll()
    #expect(SyncMetadata.agreement(for: key, in: device.backend) == nil, "not agreed any more")
    #expect(
      Diagnostics.reported(mentioning: key).contains {
        if case .syncLimitExceeded = $0 { true } else { false }
      })
  }

  /// A double that changes only in its upper bits (0.5 → 0.75) reaches the other device.
  @Test func aChangeOfADoubleReachesTheOtherDevice() {
    let (remote, clock, phone, tablet) = startedPair(keys: ["volume"])
    phone.store.set(0.5, forKey: "volume")
    remote.waitUntilDelivered()
    #expect(tablet.store.value(forKey: "volume", default: 0.0) == 0.5)
    clock.advance()
    phone.store.set(0.75, forKey: "volume")
    remote.waitUntilDelivered()
    #expect(remoteValue(remote, "volume") == .double(0.75))
    #expect(tablet.store.value(forKey: "volume", default: 0.0) == 0.75)
  }

  /// Two arrays of strings whose bytes run together alike (["a\u{4}b", "c"] and ["a", "b\u{4}c"])
  /// are different values: the change reaches the other device.
  @Test func stringsThatRunTogetherAreDifferentValues() {
    let (remote, clock, phone, tablet) = startedPair(keys: ["tags"])
    phone.store.set(["a\u{4}b", "c"], forKey: "tags")
    remote.waitUntilDelivered()
    clock.advance()
    phone.store.set(["a", "b\u{4}c"], forKey: "tags")
    remote.waitUntilDelivered()
    #expect(tablet.store.value(forKey: "tags", default: [String]()) == ["a", "b\u{4}c"])
  }
}

/// Corrupt files are preserved, each one.
@Suite struct CorruptCopyTests {
  /// A corrupt file moved aside while earlier copies of this second exist keeps them all.
  @Test func aCorruptFileNeverReplacesAnEarlierCopy() throws {
    let directory = TemporaryDirectory()
    let file = directory.file("prefs.plist")
    // Copies made earlier, under the names of this second and the next few.
    let formatter = ISO8601DateFormatter()
    let now = Date()
    var earlier: [URL] = []
    for offset in 0..<10 {
      let stamp = formatter.string(from: now.addingTimeInterval(TimeInterval(offset)))
        .replacingOccurrences(of: ":", with: "")
      let copy = directory.file("prefs.corrupt-\(stamp).plist")
      try Data("earlier \(offset)".utf8).write(to: copy)
      earlier.append(copy)
    }
    let contents = Data("not a plist {".utf8)
    try contents.write(to: file)
    let store = PropertyListFile.$whileUnsettled.withValue(TestHook {}) {
      PreferenceStore(backend: PropertyListFileBackend(url: file, format: .xml), arguments: [])
    }
    #expect(store.value(forKey: "a", default: 5) == 5)
    for (offset, copy) in earlier.enumerated() {
      #expect(try Data(contentsOf: copy) == Data("earlier \(offset)".utf8))
    }
    let copies = directory.contents().filter { $0.hasPrefix("prefs.corrupt-") }
    #expect(copies.count == 11)
    #expect(
      try copies.contains { try Data(contentsOf: directory.file($0)) == contents }, "the new copy is kept too"
    )
    #expect(copies.allSatisfy { $0.hasSuffix(".plist") }, "a copy keeps the file's extension")
  }
}

/// Reading a file another writer is rewriting in place, and another store's temporary files.
@Suite struct FileReadingEdgeTests {
  /// A writer that pauses between its partial writes (each pause shorter than the settling
  /// time, together longer) is still writing: the file is read again until it parses, never
  /// taken for corrupt.
  @Test func aFileWrittenWithShortPausesIsReadOnceItParses() throws {
    let directory = TemporaryDirectory()
    let file = directory.file("suite.plist")
    try Data("<?xml".utf8).write(to: file)
    let steps = Locked(0)
    let complete = try PropertyListSerialization.data(
      fromPropertyList: ["k": "written"], format: .xml, options: 0)
    // Every sixth step of 20 ms the partial file grows (it stays unchanged for 100 ms, half the
    // settling time); after 48 steps it is whole.
    let hook = TestHook {
      let step = steps.withLock { step -> Int in
        step += 1
        return step
      }
      if step > 48 {
        try? complete.write(to: file)
      } else if step % 6 == 0 {
        try? Data(("<?xml" + String(repeating: " ", count: step)).utf8).write(to: file)
      }
    }
    let backend = PropertyListFile.$whileUnsettled.withValue(hook) {
      PropertyListFileBackend(url: file, format: .xml)
    }
    #expect(backend.value(forKey: "k") == .string("written"))
    #expect(directory.contents().filter { $0.contains("corrupt") }.isEmpty)
  }

  /// A write removes only its own file's orphaned temporary files, not those of a store whose
  /// name extends this one's (`prefs.plist.2`).
  @Test func aWriteLeavesAnotherStoresTemporaryFiles() throws {
    let directory = TemporaryDirectory()
    let other = directory.file(".prefs.plist.2.4242.17.tmp")
    try Data("another store's write in progress".utf8).write(to: other)
    let backend = PropertyListFileBackend(url: directory.file("prefs.plist"))
    backend.setValue(.string("v"), forKey: "k")
    try backend.flush()
    #expect(FileManager.default.fileExists(atPath: other.path))
  }
}

/// What observers hear.
@Suite struct ObservationOrderTests {
  /// Observers of one key are called in the order they started observing.
  @Test func observersAreCalledInTheOrderTheyStarted() {
    let store = PreferenceStore.inMemory()
    let order = Recorder<String>()
    let first = store.observe("level", default: 0) { _ in order.record("first") }
    let second = store.observe("level", default: 0) { _ in order.record("second") }
    store.set(1, forKey: "level")
    #expect(order.all == ["first", "second"])
    withExtendedLifetime((first, second)) {}
  }
}

/// Importing values.
@Suite struct ImportReportTests {
  @Test func anImportListsItsKeysSortedAndRenamesOnlyOldKeys() {
    PreferenceStandIns().run {
      let report = PreferenceRegistry.importValues(
        PreferenceValuesDocument(values: [
          "ExportSettings.volume": .double(0.75), "ExportSettings.name": .string("Ann"),
          "ExportSettings.launches": .integer(4), "ExportSettings.theme": .string("dark"),
        ]))
      #expect(report.renamed == [:], "no value came under an old key")
      #expect(
        report.imported == [
          "ExportSettings.launches", "ExportSettings.name", "ExportSettings.theme", "ExportSettings.volume",
        ])
    }
  }

  @Test func anImportedValueReachesObservers() {
    PreferenceStandIns().run {
      let settings = ExportSettings()
      let heard = Recorder<String>()
      let observation = settings.$name.observe { heard.record($0) }
      PreferenceRegistry.importValues(
        PreferenceValuesDocument(values: ["ExportSettings.name": .string("Kate")]))
      #expect(settings.name == "Kate")
      #expect(heard.all == ["Kate"])
      withExtendedLifetime(observation) {}
    }
  }
}
