import Foundation
import Testing

@testable import Preferences

/// A clock a test moves by hand.
final class TestClock: Sendable {
  private let now = Locked(Date(timeIntervalSince1970: 1_000_000))
  func advance(_ seconds: TimeInterval = 1) { now.withLock { $0 += seconds } }
  var date: Date { now.withLock { $0 } }
}

/// One simulated device: its own local store and sync engine over the shared remote store.
struct Device {
  let store = PreferenceStore.inMemory()
  let sync: PreferenceSync
  init(remote: InMemoryRemoteStore, keys: Set<String>, clock: TestClock) {
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
    // The tablet goes offline and edits the volume; the phone then edits the name.
    tablet.sync.stop()
    clock.advance()
    tablet.store.set(0.9, forKey: "volume")
    clock.advance()
    phone.store.set("Paula", forKey: "name")
    remote.waitUntilDelivered()
    // Back online: each key keeps its newest value on both devices.
    tablet.sync.start()
    remote.waitUntilDelivered()
    for device in [phone, tablet] {
      #expect(device.store.value(forKey: "name", default: "") == "Paula")
      #expect(device.store.value(forKey: "volume", default: 0.0) == 0.9)
    }
  }

  @Test func aStaleDeviceDoesNotOverwriteNewerValues() {
    let remote = InMemoryRemoteStore()
    let clock = TestClock()
    let stale = Device(remote: remote, keys: keys, clock: clock)
    stale.sync.start()
    stale.store.set("Old", forKey: "name")
    stale.store.set("light", forKey: "theme")
    remote.waitUntilDelivered()
    stale.sync.stop()
    clock.advance(100)
    let current = Device(remote: remote, keys: keys, clock: clock)
    current.sync.start()
    current.store.set("New", forKey: "name")
    current.store.set("dark", forKey: "theme")
    remote.waitUntilDelivered()
    stale.sync.start()
    remote.waitUntilDelivered()
    #expect(stale.store.value(forKey: "name", default: "") == "New")
    #expect(stale.store.value(forKey: "theme", default: "") == "dark")
    #expect(current.store.value(forKey: "name", default: "") == "New")
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
    #expect(old.store.value(forKey: "name", default: "") == "Paul")
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
