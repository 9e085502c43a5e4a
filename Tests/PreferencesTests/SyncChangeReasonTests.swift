import Foundation
import Testing

@testable import Preferences

/// What iCloud documents beyond plain writes, reproduced by ``InMemoryRemoteStore``: the first
/// download, an account change, a quota violation and a missing entitlement.
@Suite struct SyncChangeReasonTests {
  private func entry(_ value: String, at seconds: TimeInterval) -> PropertyListValue {
    PreferenceSync.Entry(value: .string(value), modified: Date(timeIntervalSince1970: seconds)).encoded
  }

  private func remoteValue(_ remote: InMemoryRemoteStore, _ key: String) -> PropertyListValue? {
    PreferenceSync.Entry(remote.value(forKey: key))?.value
  }

  /// A value written on this device before the first download finished was pushed, then
  /// discarded by iCloud in favour of the server's older value. The newer local value survives
  /// and is sent again.
  @Test func aLocalWriteMadeBeforeTheInitialDownloadSurvivesIt() {
    let remote = InMemoryRemoteStore(delivery: .manual)
    let clock = TestClock()
    let device = Device(remote: remote, keys: ["theme"], clock: clock)
    device.sync.start()
    clock.set(2_000_000)
    device.store.set("dark", forKey: "theme")
    #expect(remoteValue(remote, "theme") == .string("dark"), "pushed before the download")
    // The server's value is older than the local write.
    remote.simulateInitialSync(["theme": entry("light", at: 1_500_000)])
    remote.deliverAll()
    #expect(device.store.value(forKey: "theme", default: "") == "dark")
    #expect(remoteValue(remote, "theme") == .string("dark"), "the newer local value is sent again")
  }

  /// The same download with a server value newer than the local write: the server wins.
  @Test func aNewerServerValueWinsTheInitialDownload() {
    let remote = InMemoryRemoteStore(delivery: .manual)
    let clock = TestClock()
    let device = Device(remote: remote, keys: ["theme"], clock: clock)
    device.sync.start()
    clock.set(2_000_000)
    device.store.set("dark", forKey: "theme")
    remote.simulateInitialSync(["theme": entry("light", at: 2_500_000)])
    remote.deliverAll()
    #expect(device.store.value(forKey: "theme", default: "") == "light")
  }

  /// A new account neither wipes this device's values nor receives them: its own values
  /// replace local ones, values it lacks stay here unsent until they change here.
  @Test func anAccountChangeNeitherWipesNorPushesStaleValues() {
    let remote = InMemoryRemoteStore(delivery: .manual)
    let clock = TestClock()
    let device = Device(remote: remote, keys: ["theme", "volume"], clock: clock)
    device.sync.start()
    device.store.set("dark", forKey: "theme")
    device.store.set(7, forKey: "volume")
    let writes = remote.writeCount
    remote.simulateAccountChange(["theme": entry("sepia", at: 1_000)])
    remote.deliverAll()
    #expect(device.store.value(forKey: "theme", default: "") == "sepia", "the new account's value")
    #expect(device.store.value(forKey: "volume", default: 0) == 7, "not wiped")
    #expect(remote.value(forKey: "volume") == nil, "not pushed to the new account")
    #expect(remote.writeCount == writes)
    // A later restart of the engine does not push it either.
    device.sync.stop()
    device.sync.start()
    remote.deliverAll()
    #expect(remote.value(forKey: "volume") == nil)
    // A change made here afterwards is the new account's to have.
    clock.advance()
    device.store.set(8, forKey: "volume")
    #expect(PreferenceSync.Entry(remote.value(forKey: "volume"))?.value == .integer(8))
  }

  @Test func aQuotaViolationIsReported() {
    Diagnostics.start()
    let key = "quota-\(UUID().uuidString.prefix(8))"
    let remote = InMemoryRemoteStore(delivery: .manual)
    let device = Device(remote: remote, keys: [key], clock: TestClock())
    device.sync.start()
    remote.simulateQuotaViolation(keys: [key])
    remote.deliverAll()
    let reports = Diagnostics.reported(mentioning: key)
    #expect(reports.contains { if case .syncLimitExceeded = $0 { true } else { false } })
  }

  /// Without the iCloud key-value entitlement `synchronize()` returns false: reported once per
  /// remote store, however often engines start.
  @Test func aMissingEntitlementIsReportedOnce() {
    Diagnostics.start()
    let remote = InMemoryRemoteStore()
    remote.isAvailable = false
    let clock = TestClock()
    let first = Device(remote: remote, keys: ["a"], clock: clock)
    let second = Device(remote: remote, keys: ["b"], clock: clock)
    first.sync.start()
    first.sync.stop()
    first.sync.start()
    second.sync.start()
    let reports = Diagnostics.reported(mentioning: "InMemoryRemoteStore cannot sync").filter {
      if case .syncUnavailable = $0 { true } else { false }
    }
    #expect(reports.count == 1)
    withExtendedLifetime(remote) {}
  }
}
