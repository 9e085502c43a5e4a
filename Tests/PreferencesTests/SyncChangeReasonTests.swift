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

/// iCloud as Apple documents it, through the stand-in: the first download discards what this
/// device wrote before it, a write over the server's quota is dropped, and the app synchronizes
/// when it becomes active; the engine's bookkeeping follows.
@Suite struct ICloudBehaviourTests {
  private func remoteValue(_ remote: InMemoryRemoteStore, _ key: String) -> PropertyListValue? {
    PreferenceSync.Entry(remote.value(forKey: key))?.value
  }

  /// Written here before the first download, discarded by it under keys the download does not
  /// even name: every key is reconciled after it, and each local value the server lacks is sent
  /// again.
  @Test func valuesTheFirstDownloadDiscardedAreSentAgain() {
    let remote = InMemoryRemoteStore(delivery: .manual)
    let clock = TestClock()
    let device = Device(remote: remote, keys: ["theme", "volume", "name"], clock: clock)
    device.sync.start()
    device.store.set("dark", forKey: "theme")
    device.store.set(7, forKey: "volume")
    #expect(remoteValue(remote, "theme") == .string("dark") && remoteValue(remote, "volume") == .integer(7))
    // The server holds only another key: the download discards both writes, naming only "name".
    remote.simulateInitialSync([
      "name": PreferenceSync.Entry(value: .string("Ann"), modified: Date(timeIntervalSince1970: 10)).encoded
    ])
    #expect(remoteValue(remote, "theme") == nil, "discarded by the download")
    remote.deliverAll()
    #expect(remoteValue(remote, "theme") == .string("dark"), "sent again")
    #expect(remoteValue(remote, "volume") == .integer(7), "sent again")
    #expect(device.store.value(forKey: "name", default: "") == "Ann")
  }

  /// The server drops a write over its quota and says so: the value stays here, reported, not
  /// taken as agreed, and goes out at the next start once there is room.
  @Test func aWriteDroppedForTheQuotaIsSentAgainLater() {
    Diagnostics.start()
    let remote = InMemoryRemoteStore(delivery: .manual)
    remote.serverQuotaBytes = 60
    let clock = TestClock()
    let key = "Quota.note.\(UUID().uuidString.prefix(8))"
    let device = Device(remote: remote, keys: [key], clock: clock)
    device.sync.start()
    device.store.set(String(repeating: "x", count: 80), forKey: key)
    #expect(remoteValue(remote, key) == nil, "dropped")
    remote.deliverAll()
    #expect(!Diagnostics.reported(mentioning: "'\(key)' was not synced").isEmpty)
    #expect(SyncMetadata.agreement(for: key, in: device.backend) == nil, "not agreed")
    remote.serverQuotaBytes = nil
    device.sync.stop()
    device.sync.start()
    #expect(remoteValue(remote, key) == .string(String(repeating: "x", count: 80)))
  }

  /// The agreement on a value is recorded after the remote store took it, never before: an
  /// engine stopped between the two sends it again instead of taking it for sent.
  @Test func theAgreementIsRecordedAfterTheRemoteWrite() {
    let inner = InMemoryRemoteStore(delivery: .manual)
    let backend = InMemoryBackend()
    let store = PreferenceStore(backend: backend, arguments: [])
    let remote = ObservingRemote(inner) { key in SyncMetadata.agreement(for: key, in: backend) != nil }
    let sync = PreferenceSync(
      local: store, remote: remote, keys: ["theme"], clock: { Date(timeIntervalSince1970: 5) })
    sync.start()
    store.set("dark", forKey: "theme")
    #expect(remote.agreedWhenWritten.withLock { $0 } == [false])
    #expect(SyncMetadata.agreement(for: "theme", in: backend) != nil, "agreed once written")
  }

  /// The engine synchronizes when it starts and each time the app becomes active.
  @Test func theEngineSynchronizesWhenTheAppBecomesActive() {
    let remote = InMemoryRemoteStore(delivery: .manual)
    let activity = NotifiedAppActivity(initiallyActive: true, becameActive: [], leftForeground: [])
    let store = PreferenceStore.inMemory()
    let sync = PreferenceSync(
      local: store, remote: remote, keys: ["theme"], clock: { Date() }, activity: activity)
    sync.start()
    #expect(remote.synchronizeCount == 1)
    activity.set(false)
    activity.set(true)
    #expect(waitUntil { remote.synchronizeCount == 2 })
    sync.stop()
  }

  /// The remote store's use of its quota is read when the engine starts, not on every write.
  @Test func theQuotaUseIsKeptUpToDateNotRecomputedOnEveryWrite() {
    let remote = InMemoryRemoteStore(delivery: .manual)
    let store = PreferenceStore.inMemory()
    let keys = Set((0..<10).map { "Quota.key\($0)" })
    let sync = PreferenceSync(local: store, remote: remote, keys: keys, clock: { Date() })
    sync.start()
    let reads = remote.usageReadCount
    for key in keys.sorted() { store.set(key, forKey: key) }
    #expect(remote.usageReadCount == reads, "no whole-store read per write")
    #expect(keys.allSatisfy { remoteValue(remote, $0) == .string($0) })
  }
}

/// A remote store that records, at each write, whether the local store already took it as agreed.
final class ObservingRemote: RemoteKeyValueStore {
  let inner: InMemoryRemoteStore
  let agreed: @Sendable (String) -> Bool
  let agreedWhenWritten = Locked<[Bool]>([])
  init(_ inner: InMemoryRemoteStore, agreed: @escaping @Sendable (String) -> Bool) {
    self.inner = inner
    self.agreed = agreed
  }
  func value(forKey key: String) -> PropertyListValue? { inner.value(forKey: key) }
  func setValue(_ value: PropertyListValue?, forKey key: String) {
    agreedWhenWritten.withLock { $0.append(agreed(key)) }
    inner.setValue(value, forKey: key)
  }
  func observeChanges(_ handler: @escaping @Sendable (RemoteChange) -> Void) -> PreferenceObservation {
    inner.observeChanges(handler)
  }
  func synchronize() -> Bool { inner.synchronize() }
  var limits: RemoteStoreLimits { inner.limits }
  func usage() -> (keys: Int, bytes: Int) { inner.usage() }
}
