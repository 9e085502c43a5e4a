import Foundation
import Testing

@testable import Preferences

/// A backend that calls back into its store on every call, as `UserDefaults`' synchronous change
/// notification, a user's backend or a user's observer may: the store must hold no lock while it
/// calls out.
final class ReentrantBackend: PreferenceBackend {
  let inner = InMemoryBackend()
  let store = Locked<PreferenceStore?>(nil)
  private let depth = ReentryDepth()
  let reentries = Locked(0)

  private func reenter() {
    guard let store = store.withLock({ $0 }) else { return }
    depth.once {
      reentries.withLock { $0 += 1 }
      _ = store.value(forKey: "probe", default: 0)
      _ = store.registeredDefault(forKey: "probe")
      store.set(store.value(forKey: "reentered", default: 0) + 1, forKey: "reentered")
    }
  }

  func value(forKey key: String) -> PropertyListValue? {
    reenter()
    return inner.value(forKey: key)
  }
  func setValue(_ value: PropertyListValue?, forKey key: String) {
    reenter()
    inner.setValue(value, forKey: key)
  }
  func allValues() -> [String: PropertyListValue] {
    reenter()
    return inner.allValues()
  }
  func removeAll() {
    reenter()
    inner.removeAll()
  }
  func flush() throws { reenter() }
  var location: String { "reentrant" }
  func register(defaults: [String: PropertyListValue]) { reenter() }
  func setObserved(_ observed: Bool) { reenter() }
  func storedForm(of value: PropertyListValue) -> PropertyListValue {
    reenter()
    return value
  }
}

/// A remote store that calls back into the local store and the sync engine on every call.
final class ReentrantRemoteStore: RemoteKeyValueStore {
  let inner = InMemoryRemoteStore(delivery: .manual)
  let local = Locked<PreferenceStore?>(nil)
  private let depth = ReentryDepth()

  private func reenter() {
    guard let local = local.withLock({ $0 }) else { return }
    depth.once { _ = local.value(forKey: "synced", default: "") }
  }
  func value(forKey key: String) -> PropertyListValue? {
    reenter()
    return inner.value(forKey: key)
  }
  func setValue(_ value: PropertyListValue?, forKey key: String) {
    reenter()
    inner.setValue(value, forKey: key, from: nil)
  }
  func observeChanges(_ handler: @escaping @Sendable (RemoteChange) -> Void) -> PreferenceObservation {
    reenter()
    return inner.observeChanges(handler)
  }
  func synchronize() -> Bool {
    reenter()
    return inner.synchronize()
  }
  var limits: RemoteStoreLimits { inner.limits }
  func usage() -> (keys: Int, bytes: Int) {
    reenter()
    return inner.usage()
  }
}

@Suite(.deadlockWatchdog) struct ReentrancyTests {
  /// Every store API, with a backend that re-enters the store on every call: a lock held while
  /// calling out deadlocks (the store's locks are not recursive), and the watchdog fails the test.
  @Test func everyStoreOperationToleratesABackendThatReentersIt() {
    let backend = ReentrantBackend()
    let store = PreferenceStore(backend: backend, arguments: [])
    backend.store.withLock { $0 = store }
    let heard = Recorder<Int>()
    withDeadlockWatchdog("a lock held while calling out") {
      store.register(defaults: ["a": 1])
      #expect(store.value(forKey: "a", default: 0) == 1)
      let observation = store.observe("a", default: 0) { value in
        heard.record(value)
        // A handler that writes what it observes.
        if value == 2 { store.set(3, forKey: "a") }
      }
      let stream = store.values(forKey: "a", default: 0)
      store.set(2, forKey: "a")
      #expect(store.value(forKey: "a", default: 0) == 3)
      store.useFormat(.json, forKeys: ["j"])
      store.set(["x"], forKey: "j")
      #expect(store.convertStoredValue(forKey: "j", as: [String].self, to: .propertyList))
      #expect(store.migrate(from: ["a"], to: "b") == .moved)
      #expect(store.migrate(from: "b", to: "c") == .moved)
      #expect(store.hasStoredValue(forKey: "c"))
      _ = store.dictionaryRepresentation()
      store.removeAllValues()
      observation.cancel()
      withExtendedLifetime(stream) {}
    }
    #expect(heard.all == [2, 3, 1])
    #expect(backend.reentries.withLock { $0 } > 10)
    #expect(store.value(forKey: "c", default: 0) == 0)
  }

  /// Defaults that read other preferences, and a sync engine whose remote store re-enters.
  @Test func defaultsAndSyncTolerateReentry() {
    let store = PreferenceStore.inMemory()
    let remote = ReentrantRemoteStore()
    remote.local.withLock { $0 = store }
    withDeadlockWatchdog("a lock held while calling out") {
      // A default computed from another preference, evaluated during a read.
      let read = store.value(forKey: "derived", default: store.value(forKey: "base", default: 5) * 2)
      #expect(read == 10)
      let sync = PreferenceSync(local: store, remote: remote, keys: ["synced"])
      sync.start()
      store.set("local", forKey: "synced")
      remote.inner.setValue(
        PreferenceSync.Entry(value: .string("remote"), modified: Date().addingTimeInterval(60)).encoded,
        forKey: "synced", from: 99)
      remote.inner.deliverAll()
      sync.stop()
    }
    #expect(store.value(forKey: "synced", default: "") == "remote")
  }
}
