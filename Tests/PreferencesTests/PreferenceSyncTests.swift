import Foundation
import Testing

@testable import Preferences

/// A clock a test moves by hand.
final class TestClock: Sendable {
  private let now = Locked(Date(timeIntervalSince1970: 1_000_000))
  func advance(_ seconds: TimeInterval = 1) { now.withLock { $0 += seconds } }
  func set(_ seconds: TimeInterval) { now.withLock { $0 = Date(timeIntervalSince1970: seconds) } }
  var date: Date { now.withLock { $0 } }
}

/// One simulated device: its own local store and sync engine over the shared remote store.
struct Device {
  let backend = InMemoryBackend()
  let store: PreferenceStore
  let sync: PreferenceSync
  init(remote: InMemoryRemoteStore, keys: Set<String>, clock: TestClock) {
    store = PreferenceStore(backend: backend, arguments: [])
    sync = PreferenceSync(local: store, remote: remote, keys: keys, clock: { clock.date })
  }
}

@Suite struct PreferenceSyncTests {
  let keys: Set<String> = ["name", "volume", "theme"]

  @Test func changesReachTheOtherDeviceOnceWithoutEcho() {
    let remote = InMemoryRemoteStore()
    let clock = TestClock()
    let phone = Device(remote: remote, keys: keys, clock: clock)
    let tablet = Device(remote: remote, keys: keys, clock: clock)
    phone.sync.start()
    tablet.sync.start()
    let heard = Recorder<String>()
    let observation = tablet.store.observe("name", default: "") { heard.record($0) }
    let writesBefore = remote.writeCount
    phone.store.set("Paul", forKey: "name")
    remote.waitUntilDelivered()
    #expect(tablet.store.value(forKey: "name", default: "") == "Paul")
    #expect(heard.all == ["Paul"], "the tablet's observers fire exactly once")
    #expect(remote.writeCount == writesBefore + 1, "the tablet does not send the change back")
    clock.advance()
    tablet.store.set("Ann", forKey: "name")
    remote.waitUntilDelivered()
    #expect(phone.store.value(forKey: "name", default: "") == "Ann")
    #expect(remote.writeCount == writesBefore + 2)
    #expect(heard.all == ["Paul", "Ann"])
    withExtendedLifetime(observation) {}
  }

  /// An observer on A writes the key on B while A applies B's earlier value: A must not send
  /// the value it just applied back over B's newer write.
  @Test func applyingARemoteValueNeverEchoesItOverANewerRemoteWrite() {
    let remote = InMemoryRemoteStore(delivery: .manual)
    let clock = TestClock()
    let a = Device(remote: remote, keys: ["n"], clock: clock)
    let b = Device(remote: remote, keys: ["n"], clock: clock)
    a.sync.start()
    b.sync.start()
    let observation = a.store.observe("n", default: 0) { value in
      if value == 1 {
        clock.advance()
        b.store.set(2, forKey: "n")
      }
    }
    clock.advance()
    b.store.set(1, forKey: "n")
    remote.deliverAll()
    #expect(a.store.value(forKey: "n", default: 0) == 2)
    #expect(b.store.value(forKey: "n", default: 0) == 2)
    #expect(remote.value(forKey: "n").flatMap { PreferenceSync.Entry($0)?.value } == .integer(2))
    withExtendedLifetime(observation) {}
  }

  @Test func aBurstOfRemoteWritesEndsAtTheLastOneWithoutEcho() {
    let remote = InMemoryRemoteStore(delivery: .manual)
    let clock = TestClock()
    let a = Device(remote: remote, keys: ["n"], clock: clock)
    let b = Device(remote: remote, keys: ["n"], clock: clock)
    a.sync.start()
    b.sync.start()
    for value in 1...20 {
      clock.advance()
      b.store.set(value, forKey: "n")
      // Deliver some notifications in the middle of the burst.
      if value.isMultiple(of: 3) { remote.deliverNext() }
    }
    remote.deliverAll()
    #expect(remote.writeCount == 20, "only B's 20 writes reach the remote store")
    #expect(a.store.value(forKey: "n", default: 0) == 20)
  }

  /// Offline and never-started writes carry the time they were made: the newest write wins when
  /// the devices meet again, whichever side it was on.
  @Test func writesMadeWhileNotSyncingKeepTheirTime() {
    let remote = InMemoryRemoteStore(delivery: .manual)
    let clock = TestClock()
    let a = Device(remote: remote, keys: ["n"], clock: clock)
    let b = Device(remote: remote, keys: ["n"], clock: clock)
    a.sync.start()
    b.sync.start()
    b.sync.stop()
    clock.set(4000)
    a.store.set("A", forKey: "n")
    clock.set(4100)
    b.store.set("B", forKey: "n")  // offline, later
    remote.deliverAll()
    b.sync.start()
    remote.deliverAll()
    #expect(a.store.value(forKey: "n", default: "") == "B")
    #expect(b.store.value(forKey: "n", default: "") == "B")
    // And the other way round: the offline write is older, the remote one wins.
    b.sync.stop()
    clock.set(4200)
    b.store.set("old offline", forKey: "n")
    clock.set(4300)
    a.store.set("newer online", forKey: "n")
    remote.deliverAll()
    b.sync.start()
    remote.deliverAll()
    #expect(b.store.value(forKey: "n", default: "") == "newer online")
    #expect(a.store.value(forKey: "n", default: "") == "newer online")
  }

  /// An app extension writes the shared store (another store over the same storage) while the
  /// app's engine is not running: the write keeps its time and wins over an older remote value.
  @Test func anExtensionsWriteToTheSharedStoreKeepsItsTime() {
    let remote = InMemoryRemoteStore(delivery: .manual)
    let clock = TestClock()
    let phone = Device(remote: remote, keys: ["n"], clock: clock)
    let watch = Device(remote: remote, keys: ["n"], clock: clock)
    phone.sync.start()
    watch.sync.start()
    phone.sync.stop()
    clock.set(5000)
    watch.store.set("watch", forKey: "n")
    remote.deliverAll()
    let widget = PreferenceStore(backend: phone.backend, arguments: [])
    widget.trackModifications(of: ["n"], clock: { clock.date })
    clock.set(5100)
    widget.set("widget", forKey: "n")
    phone.sync.start()
    remote.deliverAll()
    #expect(watch.store.value(forKey: "n", default: "") == "widget")
  }

  @Test func conflictsAreResolvedPerKeyByTheNewestWrite() {
    let remote = InMemoryRemoteStore()
    let clock = TestClock()
    let phone = Device(remote: remote, keys: keys, clock: clock)
    let tablet = Device(remote: remote, keys: keys, clock: clock)
    phone.sync.start()
    tablet.sync.start()
    phone.store.set("Paul", forKey: "name")
    phone.store.set(0.5, forKey: "volume")
    remote.waitUntilDelivered()
    tablet.sync.stop()
    clock.advance()
    tablet.store.set(0.9, forKey: "volume")
    clock.advance()
    phone.store.set("Paula", forKey: "name")
    remote.waitUntilDelivered()
    tablet.sync.start()
    remote.waitUntilDelivered()
    for device in [phone, tablet] {
      #expect(device.store.value(forKey: "name", default: "") == "Paula")
      #expect(device.store.value(forKey: "volume", default: 0.0) == 0.9)
    }
  }

  @Test func aFreshInstallTakesRemoteValuesAndNeverPushesDefaults() {
    let remote = InMemoryRemoteStore()
    let clock = TestClock()
    let old = Device(remote: remote, keys: keys, clock: clock)
    old.sync.start()
    old.store.set("Paul", forKey: "name")
    remote.waitUntilDelivered()
    let snapshot = remote.allValues()
    clock.advance(1000)
    let fresh = Device(remote: remote, keys: keys, clock: clock)
    fresh.store.register(defaults: ["name": "Anonymous", "volume": 0.5, "theme": "light"])
    fresh.sync.start()
    remote.waitUntilDelivered()
    #expect(fresh.store.value(forKey: "name", default: "") == "Paul")
    #expect(remote.allValues() == snapshot, "registered defaults are never pushed")
  }

  @Test func aValueStoredBeforeSyncingDoesNotOverrideTheRemoteOne() {
    let remote = InMemoryRemoteStore()
    let clock = TestClock()
    let old = Device(remote: remote, keys: ["name"], clock: clock)
    old.sync.start()
    old.store.set("Paul", forKey: "name")
    remote.waitUntilDelivered()
    let backend = InMemoryBackend(["name": .string("from before sync")])
    let upgraded = PreferenceStore(backend: backend, arguments: [])
    let sync = PreferenceSync(local: upgraded, remote: remote, keys: ["name"], clock: { clock.date })
    sync.start()
    remote.waitUntilDelivered()
    #expect(upgraded.value(forKey: "name", default: "") == "Paul")
  }

  @Test func remoteLimitsAreRespectedAndReported() {
    Diagnostics.start()
    let longKey = "Settings.Appearance.Typography.Headings.preferredFontFamilyName-\(UUID().uuidString)"
    let remote = InMemoryRemoteStore(
      limits: RemoteStoreLimits(maximumKeys: 2, maximumTotalBytes: 1_000_000, maximumKeyBytes: 64))
    let clock = TestClock()
    let device = Device(remote: remote, keys: ["a", "b", "c", longKey], clock: clock)
    device.sync.start()
    device.store.set("x", forKey: longKey)
    device.store.set(1, forKey: "a")
    device.store.set(2, forKey: "b")
    device.store.set(3, forKey: "c")
    #expect(remote.value(forKey: longKey) == nil)
    #expect(remote.value(forKey: "c") == nil)
    #expect(remote.allValues().count == 2)
    #expect(Diagnostics.reported(mentioning: longKey).count == 1)
    #expect(device.store.value(forKey: "c", default: 0) == 3, "the value stays on this device")
  }

  @Test func concurrentChangesOnBothDevicesConverge() async {
    let remote = InMemoryRemoteStore()
    let clock = TestClock()
    let keys = Set((0..<20).map { "k\($0)" })
    let phone = Device(remote: remote, keys: keys, clock: clock)
    let tablet = Device(remote: remote, keys: keys, clock: clock)
    phone.sync.start()
    tablet.sync.start()
    await withTaskGroup(of: Void.self) { group in
      for index in 0..<20 {
        group.addTask {
          clock.advance()
          (index.isMultiple(of: 2) ? phone : tablet).store.set(index, forKey: "k\(index)")
        }
      }
    }
    remote.waitUntilDelivered()
    for index in 0..<20 {
      #expect(phone.store.value(forKey: "k\(index)", default: -1) == index)
      #expect(tablet.store.value(forKey: "k\(index)", default: -1) == index)
    }
  }
}

/// Two devices driven through seeded random interleavings of local writes and removals, remote
/// deliveries in any order, and engines stopping and starting. Every action advances a shared
/// clock, so each write has a distinct time. After each program, with both engines running and
/// every notification delivered, both devices and the remote store must hold, for each key, the
/// value of the write made last; and the remote store must have been written at most once per
/// local write plus once per key and start (no echo).
@Suite struct SyncInterleavingTests {
  @Test func everyInterleavingConvergesToTheLastWrite() {
    let programs = Intensity.rounds(quick: 300, long: 3000)
    var failures: [String] = []
    for seed in 0..<programs {
      if let failure = run(seed: UInt64(seed)) { failures.append(failure) }
      if failures.count > 3 { break }
    }
    #expect(failures.isEmpty, "\(failures)")
  }

  func run(seed: UInt64) -> String? {
    var random = SeededRandom(state: seed)
    let keys = ["x", "y"]
    let remote = InMemoryRemoteStore(delivery: .manual)
    let clock = TestClock()
    let devices = [
      Device(remote: remote, keys: Set(keys), clock: clock),
      Device(remote: remote, keys: Set(keys), clock: clock),
    ]
    var running = [false, false]
    var lastWrite: [String: (time: Date, value: Int?)] = [:]
    var localWrites = 0
    var starts = 0
    var log: [String] = []
    for _ in 0..<Int.random(in: 8...30, using: &random) {
      clock.advance()
      let device = Int.random(in: 0...1, using: &random)
      switch Int.random(in: 0..<10, using: &random) {
      case 0..<4:
        let key = keys.randomElement(using: &random)!
        let value = Int.random(in: 0..<4, using: &random)
        devices[device].store.set(value, forKey: key)
        lastWrite[key] = (clock.date, value)
        localWrites += 1
        log.append("\(device) set \(key)=\(value)")
      case 4:
        let key = keys.randomElement(using: &random)!
        devices[device].store.removeValue(forKey: key)
        lastWrite[key] = (clock.date, nil)
        localWrites += 1
        log.append("\(device) remove \(key)")
      case 5..<8:
        if remote.deliverNext() { log.append("deliver") }
      case 8:
        if running[device] {
          devices[device].sync.stop()
          log.append("\(device) stop")
        } else {
          devices[device].sync.start()
          starts += 1
          log.append("\(device) start")
        }
        running[device].toggle()
      default:
        if !running[device] {
          devices[device].sync.start()
          running[device] = true
          starts += 1
          log.append("\(device) start")
        }
      }
    }
    for device in 0...1 where !running[device] {
      clock.advance()
      devices[device].sync.start()
      starts += 1
    }
    remote.deliverAll()
    for key in keys {
      let expected = lastWrite[key]?.value
      for (index, device) in devices.enumerated() {
        let stored = device.store.backend.value(forKey: key)
        if stored != expected.map({ .integer(Int64($0)) }) {
          return
            "seed \(seed): device \(index) holds \(String(describing: stored)) for \(key), expected \(String(describing: expected)); \(log)"
        }
      }
    }
    let bound = localWrites + starts * keys.count
    if remote.writeCount > bound {
      return
        "seed \(seed): \(remote.writeCount) remote writes for \(localWrites) local writes and \(starts) starts; \(log)"
    }
    return nil
  }
}

/// Clocks that tie, disagree and go backwards: each device has a clock the test sets, and the
/// tests read the modification time each write carries in the remote store.
@Suite struct SyncClockTests {
  private func remoteTime(_ remote: InMemoryRemoteStore, _ key: String) -> Date? {
    PreferenceSync.Entry(remote.value(forKey: key))?.modified
  }

  /// Both devices changed a key while apart, at the same recorded time: the change already in the
  /// remote store wins, on both devices.
  @Test func aTieGoesToTheRemoteChange() {
    let remote = InMemoryRemoteStore()
    let clock = TestClock()
    let phone = Device(remote: remote, keys: ["name"], clock: clock)
    let tablet = Device(remote: remote, keys: ["name"], clock: clock)
    phone.sync.start()
    tablet.sync.start()
    phone.store.set("Base", forKey: "name")
    remote.waitUntilDelivered()
    tablet.sync.stop()
    clock.advance()
    phone.store.set("Phone", forKey: "name")
    tablet.store.set("Tablet", forKey: "name")
    remote.waitUntilDelivered()
    tablet.sync.start()
    remote.waitUntilDelivered()
    #expect(phone.store.value(forKey: "name", default: "") == "Phone")
    #expect(tablet.store.value(forKey: "name", default: "") == "Phone", "the remote change wins the tie")
  }

  /// The tablet's clock runs ten minutes behind the phone's: its change, made after it received
  /// the phone's, is sent with a time later than the value it replaces, so that no device takes
  /// the phone's older value for the newer one.
  @Test func aChangeOnADeviceWhoseClockIsBehindStillCountsAsNewer() {
    let remote = InMemoryRemoteStore()
    let phoneClock = TestClock()
    let tabletClock = TestClock()
    tabletClock.set(phoneClock.date.timeIntervalSince1970 - 600)
    let phone = Device(remote: remote, keys: ["name"], clock: phoneClock)
    let tablet = Device(remote: remote, keys: ["name"], clock: tabletClock)
    phone.sync.start()
    tablet.sync.start()
    phone.store.set("From the phone", forKey: "name")
    remote.waitUntilDelivered()
    let phoneTime = remoteTime(remote, "name")
    tabletClock.advance()
    tablet.store.set("From the tablet", forKey: "name")
    remote.waitUntilDelivered()
    let tabletTime = remoteTime(remote, "name")
    #expect(phoneTime != nil && tabletTime != nil)
    #expect(tabletTime! > phoneTime!, "the later change carries the later time")
    #expect(phone.store.value(forKey: "name", default: "") == "From the tablet")
  }

  /// A device's clock goes backwards (set by hand, a dead battery): its next change is still
  /// sent as newer than the last one it agreed on, and reaches the other device.
  @Test func aClockThatGoesBackwardsStillSendsNewerChanges() {
    let remote = InMemoryRemoteStore()
    let phoneClock = TestClock()
    let tabletClock = TestClock()
    let phone = Device(remote: remote, keys: ["volume"], clock: phoneClock)
    let tablet = Device(remote: remote, keys: ["volume"], clock: tabletClock)
    phone.sync.start()
    tablet.sync.start()
    phone.store.set(3, forKey: "volume")
    remote.waitUntilDelivered()
    let first = remoteTime(remote, "volume")
    phoneClock.set(phoneClock.date.timeIntervalSince1970 - 3_600)
    phone.store.set(4, forKey: "volume")
    remote.waitUntilDelivered()
    let second = remoteTime(remote, "volume")
    #expect(first != nil && second != nil)
    #expect(second! > first!, "each change of a key carries a later time than the one before")
    #expect(tablet.store.value(forKey: "volume", default: 0) == 4)
  }
}

#if canImport(Darwin)
  /// Apple platforms only (no iCloud on Linux): the adapter turns each documented reason of
  /// `didChangeExternallyNotification` into the change `PreferenceSync` acts on, as
  /// `InMemoryRemoteStore` delivers them in the tests above. The notification is posted by the
  /// test (no iCloud account or entitlement needed).
  @Suite struct UbiquitousKeyValueStoreTests {
    @Test func everyDocumentedReasonBecomesItsChange() {
      let ubiquitous = NSUbiquitousKeyValueStore.default
      let adapter = UbiquitousKeyValueStore(ubiquitous)
      let received = Locked<[RemoteChange]>([])
      let observation = adapter.observeChanges { change in received.withLock { $0.append(change) } }
      let reasons: [(Int?, RemoteChange.Reason)] = [
        (NSUbiquitousKeyValueStoreServerChange, .serverChange),
        (NSUbiquitousKeyValueStoreInitialSyncChange, .initialSyncChange),
        (NSUbiquitousKeyValueStoreQuotaViolationChange, .quotaViolation),
        (NSUbiquitousKeyValueStoreAccountChange, .accountChange), (nil, .serverChange),
      ]
      for (code, _) in reasons {
        var userInfo: [AnyHashable: Any] = [NSUbiquitousKeyValueStoreChangedKeysKey: ["a", "b"]]
        if let code { userInfo[NSUbiquitousKeyValueStoreChangeReasonKey] = code }
        NotificationCenter.default.post(
          name: NSUbiquitousKeyValueStore.didChangeExternallyNotification, object: ubiquitous,
          userInfo: userInfo)
      }
      observation.cancel()
      NotificationCenter.default.post(
        name: NSUbiquitousKeyValueStore.didChangeExternallyNotification, object: ubiquitous,
        userInfo: [NSUbiquitousKeyValueStoreChangedKeysKey: ["after"]])
      #expect(
        received.withLock { $0 } == reasons.map { RemoteChange(reason: $0.1, keys: ["a", "b"]) },
        "one change per notification, none after the observation ends")
    }
  }
#endif
