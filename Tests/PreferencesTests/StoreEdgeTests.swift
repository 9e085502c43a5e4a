import Foundation
import Testing

@testable import Preferences

/// What a store's reads and writes promise about the form a value is stored in.
@Suite struct StoreWriteReadBackTests {
  /// A key switched back to the property-list format stores property-list values again: an
  /// array written after `useFormat(.propertyList, …)` is an array, not JSON text.
  @Test func aKeySwitchedBackToPropertyListsStoresPropertyListsAgain() {
    let store = PreferenceStore.inMemory()
    let key = "languages-\(UUID().uuidString)"
    store.useFormat(.json, forKeys: [key])
    store.useFormat(.propertyList, forKeys: [key])
    store.set(["fr", "de"], forKey: key)
    #expect(store.backend.value(forKey: key) == .array([.string("fr"), .string("de")]))
  }

  /// In an XML file, which keeps dates to the whole second, a date read right after it was
  /// written is the date the file holds, as the next launch reads it, not the one written.
  @Test func aDateReadBackFromAnXMLFileIsWhatTheFileHolds() throws {
    let directory = TemporaryDirectory()
    let url = directory.file("dates.plist")
    let store = PreferenceStore(backend: PropertyListFileBackend(url: url, format: .xml), arguments: [])
    let written = Date(timeIntervalSince1970: 1_700_000_000.75)
    // A key already read, as an app's is: the write may then keep what it wrote for the next read.
    #expect(store.value(forKey: "lastOpened", default: Date.distantPast) == .distantPast)
    store.set(written, forKey: "lastOpened")
    let held = Date(timeIntervalSince1970: 1_700_000_000)
    #expect(store.value(forKey: "lastOpened", default: Date.distantPast) == held)
    try store.flush()
    let reopened = PreferenceStore(backend: PropertyListFileBackend(url: url, format: .xml), arguments: [])
    #expect(reopened.value(forKey: "lastOpened", default: Date.distantPast) == held)
  }
}

/// What a store's reads return when a stored value is present, absent or unusable.
@Suite struct StoreReadPrecedenceTests {
  /// The property-list value of a key with both a stored value and a registered default is
  /// the stored value: the default is only what shows where nothing is stored.
  @Test func aStoredValueShowsOverTheRegisteredDefault() {
    let store = PreferenceStore.inMemory()
    store.register(defaults: ["score": 0])
    store.set(42, forKey: "score")
    #expect(store.propertyListValue(forKey: "score") == .integer(42))
    store.removeValue(forKey: "score")
    #expect(store.propertyListValue(forKey: "score") == .integer(0))
  }

  /// A stored value of the wrong type falls back to the registered default, which comes before
  /// the default passed to the read, and is reported.
  @Test func aWrongTypedStoredValueFallsBackToTheRegisteredDefault() {
    Diagnostics.start()
    let key = "readingMode-\(UUID().uuidString)"
    let store = PreferenceStore.inMemory()
    store.register(defaults: [key: "standard"])
    store.backend.setValue(.integer(3), forKey: key)
    #expect(store.value(forKey: key, default: "compact") == "standard")
    #expect(store.value(forKey: key, default: "compact") == "standard")
    #expect(Diagnostics.reported(mentioning: key).count == 1)
  }
}

/// The in-memory stand-in for iCloud's key-value store counts and delivers as the engine expects.
@Suite struct InMemoryRemoteStoreTests {
  /// A store's usage counts each key's UTF-8 bytes as well as its value's, as the quota does.
  @Test func usageCountsKeysAndValues() {
    let remote = InMemoryRemoteStore()
    remote.setValue(.string("abc"), forKey: "name", from: nil)
    remote.setValue(.data(Data(count: 10)), forKey: "é", from: nil)
    let usage = remote.usage()
    #expect(usage.keys == 2)
    #expect(usage.bytes == (4 + 3) + (2 + 10))
  }

  /// A write that brings the store exactly to the server's quota is stored; only one that would
  /// pass it is dropped, and its writer hears a quota violation.
  @Test func aWriteReachingTheServerQuotaExactlyIsStored() {
    let remote = InMemoryRemoteStore(delivery: .manual)
    let heard = Locked<[RemoteChange.Reason]>([])
    let observation = remote.observeChanges { change in heard.withLock { $0.append(change.reason) } }
    remote.serverQuotaBytes = 7
    remote.setValue(.string("abc"), forKey: "name", from: nil)
    #expect(remote.value(forKey: "name") == .string("abc"))
    remote.setValue(.string("abcd"), forKey: "name", from: nil)
    #expect(remote.value(forKey: "name") == .string("abc"))
    remote.deliverAll()
    #expect(heard.withLock { $0 } == [.serverChange, .quotaViolation])
    withExtendedLifetime(observation) {}
  }

  /// Manual delivery to one observer delivers that observer's oldest notification, leaving the
  /// others' queued.
  @Test func deliveringToOneObserverLeavesTheOthersQueued() throws {
    let remote = InMemoryRemoteStore(delivery: .manual)
    let first = Locked<[Set<String>]>([])
    let second = Locked<[Set<String>]>([])
    let observations = [
      remote.observeChanges { change in first.withLock { $0.append(change.keys) } },
      remote.observeChanges { change in second.withLock { $0.append(change.keys) } },
    ]
    remote.setValue(.integer(1), forKey: "volume", from: nil)
    let queued = remote.queuedObservers
    #expect(queued.count == 2)
    let last = try #require(queued.last)
    #expect(remote.deliverNext(to: last))
    #expect(first.withLock { $0 }.isEmpty)
    #expect(second.withLock { $0 } == [["volume"]])
    #expect(remote.queuedObservers == [try #require(queued.first)])
    withExtendedLifetime(observations) {}
  }
}

/// A property-list file backend used on its own, without a store.
@Suite struct FileBackendOnItsOwnTests {
  /// `removeAll()` empties the file, not only this process's view of it: a backend opened on the
  /// file afterwards finds nothing.
  @Test func removeAllEmptiesTheFile() throws {
    let directory = TemporaryDirectory()
    let url = directory.file("prefs.plist")
    let backend = PropertyListFileBackend(url: url)
    backend.setValue(.string("dark"), forKey: "theme")
    backend.setValue(.integer(3), forKey: "volume")
    try backend.flush()
    backend.removeAll()
    try backend.flush()
    #expect(PropertyListFileBackend(url: url).allValues().isEmpty)
  }
}
