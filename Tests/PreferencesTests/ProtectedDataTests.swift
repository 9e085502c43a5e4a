import Foundation
import Testing

@testable import Preferences

/// A stand-in for the device: protected data is unavailable until the test unlocks it, and a
/// store that is unreadable until then (as UserDefaults is before the first unlock after a
/// restart, or when prewarmed).
final class SimulatedDevice: ProtectedDataSignal {
  private let state = Locked<(available: Bool, handlers: [Int: @Sendable () -> Void], next: Int)>(
    (false, [:], 0))

  var isAvailable: Bool { state.withLock { $0.available } }

  func whenAvailable(_ handler: @escaping @Sendable () -> Void) -> PreferenceObservation {
    let id = state.withLock { state in
      defer { state.next += 1 }
      state.handlers[state.next] = handler
      return state.next
    }
    return PreferenceObservation { [weak self] in
      self?.state.withLock { _ = $0.handlers.removeValue(forKey: id) }
    }
  }

  /// The user unlocks the device: protected data becomes available.
  func unlock() {
    let handlers = state.withLock { state in
      state.available = true
      defer { state.handlers = [:] }
      return Array(state.handlers.values)
    }
    handlers.forEach { $0() }
  }
}

/// A store that reads as empty and silently loses writes while the device is locked, as
/// UserDefaults' protected storage does.
final class LockedUntilUnlockBackend: PreferenceBackend {
  let inner: InMemoryBackend
  let device: SimulatedDevice
  init(_ values: [String: PropertyListValue], device: SimulatedDevice) {
    inner = InMemoryBackend(values)
    self.device = device
  }
  func value(forKey key: String) -> PropertyListValue? { device.isAvailable ? inner.value(forKey: key) : nil }
  func setValue(_ value: PropertyListValue?, forKey key: String) {
    // Written while locked, a value would replace the stored settings once the file is
    // written back: record it so the test can tell.
    inner.setValue(value, forKey: key)
  }
  func allValues() -> [String: PropertyListValue] { device.isAvailable ? inner.allValues() : [:] }
  func removeAll() { inner.removeAll() }
  func flush() throws {}
  var location: String { "locked until unlock" }
}

@Suite struct ProtectedDataTests {
  /// The user's settings as they were stored by an earlier launch (with the sentinel).
  let stored: [String: PropertyListValue] = [
    ProtectedDataBackend.sentinelKey: .bool(true), "Settings.theme": .string("dark"),
    "Settings.volume": .integer(7),
  ]

  @Test func launchedBeforeFirstUnlockNothingIsOverwrittenAndEverythingIsReadAfterIt() {
    let device = SimulatedDevice()
    let base = LockedUntilUnlockBackend(stored, device: device)
    let guarded = ProtectedDataBackend(base, signal: device)
    let store = PreferenceStore(backend: guarded, arguments: [])
    store.register(defaults: ["Settings.theme": "light", "Settings.volume": 5])
    #expect(guarded.isLocked)
    #expect(store.value(forKey: "Settings.theme", default: "") == "light", "only the default is visible")
    let heard = Recorder<String>()
    let observation = store.observe("Settings.theme", default: "") { heard.record($0) }
    // A write made meanwhile is held, readable, and not written over the stored settings.
    store.set(9, forKey: "Settings.volume")
    #expect(store.value(forKey: "Settings.volume", default: 0) == 9)
    #expect(base.inner.value(forKey: "Settings.theme") == .string("dark"))
    #expect(base.inner.value(forKey: "Settings.volume") == .integer(7), "nothing written while locked")
    device.unlock()
    #expect(!guarded.isLocked)
    #expect(store.value(forKey: "Settings.theme", default: "") == "dark", "the real value, re-read")
    #expect(heard.all == ["dark"], "observers and views hear it")
    #expect(store.value(forKey: "Settings.volume", default: 0) == 9, "the newer held write wins")
    #expect(base.inner.value(forKey: "Settings.volume") == .integer(9))
    #expect(!store.dictionaryRepresentation().keys.contains(ProtectedDataBackend.sentinelKey))
    withExtendedLifetime(observation) {}
  }

  /// A readable store (protected data available, or the sentinel visible) passes straight
  /// through, and gets the sentinel.
  @Test func anAvailableStoreIsUsedDirectlyAndMarked() {
    let device = SimulatedDevice()
    device.unlock()
    let base = LockedUntilUnlockBackend(["Settings.theme": .string("dark")], device: device)
    let guarded = ProtectedDataBackend(base, signal: device)
    #expect(!guarded.isLocked)
    #expect(base.inner.value(forKey: ProtectedDataBackend.sentinelKey) == .bool(true))
    let store = PreferenceStore(backend: guarded, arguments: [])
    store.set("sepia", forKey: "Settings.theme")
    #expect(base.inner.value(forKey: "Settings.theme") == .string("sepia"))
    #expect(guarded.allValues() == ["Settings.theme": .string("sepia")])
  }

  /// Protected data unavailable, but the sentinel readable: not the locked state (some other
  /// protection class), used directly.
  @Test func aVisibleSentinelMeansReadable() {
    let device = SimulatedDevice()
    let base = InMemoryBackend(stored)
    let guarded = ProtectedDataBackend(base, signal: device)
    #expect(!guarded.isLocked)
    #expect(guarded.value(forKey: "Settings.theme") == .string("dark"))
  }

  /// A write made while the held writes are being applied (the app runs on as the device
  /// unlocks) is newer than every held one, and stays: it was replaced by the older held value
  /// when the unlock let writes through before applying what it held.
  @Test func aWriteDuringTheUnlockIsNotReplacedByAnOlderHeldOne() {
    let device = SimulatedDevice()
    let base = LockedUntilUnlockBackend(stored, device: device)
    let guarded = ProtectedDataBackend(base, signal: device)
    let store = PreferenceStore(backend: guarded, arguments: [])
    store.set("held-a", forKey: "a")
    store.set("held-b", forKey: "b")
    // Applying `a` (the first held write, in key order), the app writes `b` anew.
    ProtectedDataBackend.$whileApplying.withValue(
      TestHook {
        guard base.inner.value(forKey: "b") == nil else { return }
        store.set("typed during the unlock", forKey: "b")
      }
    ) {
      device.unlock()
    }
    #expect(base.inner.value(forKey: "b") == .string("typed during the unlock"))
    #expect(store.value(forKey: "b", default: "") == "typed during the unlock")
    #expect(base.inner.value(forKey: "a") == .string("held-a"))
  }

  /// Removing every value before the first unlock (a sign-out in a background launch) removes
  /// the values the unreadable store holds too, once it can: they came back at unlock.
  @Test func removingEverythingWhileLockedRemovesTheStoredValuesAtUnlock() {
    let device = SimulatedDevice()
    let base = LockedUntilUnlockBackend(
      stored.merging(["Account.token": .string("t0k3n")]) { $1 }, device: device)
    let guarded = ProtectedDataBackend(base, signal: device)
    let store = PreferenceStore(backend: guarded, arguments: [])
    store.set("kept", forKey: "Settings.before")
    store.removeAllValues()
    store.set("written after", forKey: "Settings.after")
    device.unlock()
    #expect(base.inner.value(forKey: "Account.token") == nil, "the token is gone")
    #expect(base.inner.value(forKey: "Settings.theme") == nil)
    #expect(base.inner.value(forKey: "Settings.before") == nil)
    #expect(base.inner.value(forKey: "Settings.after") == .string("written after"))
    #expect(store.value(forKey: "Account.token", default: "") == "", "reads agree")
    #expect(base.inner.value(forKey: ProtectedDataBackend.sentinelKey) == .bool(true))
  }

  /// A migration before the first unlock decides on the held writes; after it, on the store.
  @Test func aMigrationWhileLockedKeepsAHeldWriteOfTheNewKey() {
    let device = SimulatedDevice()
    let base = LockedUntilUnlockBackend(stored, device: device)
    let store = PreferenceStore(backend: ProtectedDataBackend(base, signal: device), arguments: [])
    store.set("old", forKey: "Old.name")
    store.set("new", forKey: "Settings.name")
    #expect(store.migrate(from: "Old.name", to: "Settings.name") == .keptExistingValue)
    device.unlock()
    #expect(base.inner.value(forKey: "Settings.name") == .string("new"))
  }

  /// A file store opened while data protection keeps its file locked: it does not start empty
  /// over it, a read-modify-write of a default it returned never replaces the real value (the
  /// write is dropped and reported), a write of a key not read first is applied, and everything
  /// reads the real values once the file can be read.
  @Test func aFileStoreOpenedWhileItsFileIsLockedAwayLosesNothing() throws {
    Diagnostics.start()
    let directory = TemporaryDirectory()
    let url = directory.file("settings.plist")
    let seed = PropertyListFileBackend(url: url)
    seed.setValue(.integer(57), forKey: "App.launches")
    seed.setValue(.string("dark"), forKey: "App.theme")
    try seed.flush()
    let file = PropertyListFile(url: url.standardizedFileURL, format: .binary)
    PropertyListFile.unreadableForTests.withLock { _ = $0.insert(file.target.path) }
    defer { _ = PropertyListFile.unreadableForTests.withLock { $0.remove(file.target.path) } }
    let pollers = ManualPollers()
    let fileBackend = PropertyListFileBackend(url: url)
    let guarded = ProtectedDataBackend(
      fileBackend, signal: FileReadableSignal(file: file, makePoller: pollers.factory), usesSentinel: false,
      heldWritesRecord: directory.file("held"))
    let store = PreferenceStore(backend: guarded, arguments: [])
    #expect(guarded.isLocked)
    // The app reads its launch count (the file cannot be read: the default) and adds one.
    let launches = store.value(forKey: "App.launches", default: 0)
    #expect(launches == 0)
    store.set(launches + 1, forKey: "App.launches")
    // A value set without reading first: the newest.
    store.set("2026-11-27", forKey: "App.lastRefresh")
    #expect(try PropertyListFile(url: url, format: .binary).readUnchecked()["App.launches"] == .integer(57))
    PropertyListFile.unreadableForTests.withLock { _ = $0.remove(file.target.path) }
    pollers.tick()
    #expect(!guarded.isLocked)
    #expect(store.value(forKey: "App.launches", default: 0) == 57, "the real value, not the default plus one")
    #expect(store.value(forKey: "App.theme", default: "") == "dark")
    #expect(store.value(forKey: "App.lastRefresh", default: "") == "2026-11-27")
    #expect(
      !Diagnostics.reported(mentioning: "preference 'App.launches'").isEmpty, "the dropped write is reported")
    try store.flush()
    let onDisk = try PropertyListFile(url: url, format: .binary).readUnchecked()
    #expect(onDisk["App.launches"] == .integer(57) && onDisk["App.lastRefresh"] == .string("2026-11-27"))
    #expect(onDisk[ProtectedDataBackend.sentinelKey] == nil, "a file store keeps no sentinel")
  }

  /// Writes held before the first unlock die with a process that ends before it: the next start
  /// says which keys were lost (the record holds key names, never values).
  @Test func heldWritesLostWithTheProcessAreReportedAtTheNextStart() throws {
    Diagnostics.start()
    let directory = TemporaryDirectory()
    let record = directory.file("held")
    let device = SimulatedDevice()
    let location = "held-writes-\(UUID().uuidString)"
    do {
      let guarded = ProtectedDataBackend(
        NamedBackend(location), signal: device, usesSentinel: true, heldWritesRecord: record)
      let store = PreferenceStore(backend: guarded, arguments: [])
      store.set("s3cr3t-token", forKey: "Account.token")
      #expect(FileManager.default.fileExists(atPath: record.path))
      #expect(!(try String(contentsOf: record, encoding: .utf8)).contains("s3cr3t"), "key names only")
    }
    // The process ended before the unlock; the next one starts.
    _ = ProtectedDataBackend(
      NamedBackend(location), signal: device, usesSentinel: true, heldWritesRecord: record)
    #expect(
      !Diagnostics.reported(mentioning: "\(location) made before the device's first unlock were lost").isEmpty
    )
    #expect(!FileManager.default.fileExists(atPath: record.path), "reported once")
  }
}

/// An in-memory backend with a location of its own, to find its diagnostics.
final class NamedBackend: PreferenceBackend {
  let inner = InMemoryBackend()
  let location: String
  init(_ location: String) { self.location = location }
  func value(forKey key: String) -> PropertyListValue? { inner.value(forKey: key) }
  func setValue(_ value: PropertyListValue?, forKey key: String) { inner.setValue(value, forKey: key) }
  func allValues() -> [String: PropertyListValue] { inner.allValues() }
  func removeAll() { inner.removeAll() }
  func flush() throws {}
}
