import Foundation
import Observation
import Testing

@testable import Preferences

/// Collects values delivered to observers.
final class Recorder<Value: Sendable>: Sendable {
  private let values = Locked<[Value]>([])
  func record(_ value: Value) { values.withLock { $0.append(value) } }
  var all: [Value] { values.withLock { $0 } }
}

/// A preference of its own store, observed through its projection by `ObservationTests`.
struct InitialValues {
  nonisolated static let store = PreferenceStore.inMemory()
  @Preference(store: InitialValues.store) var level = 3
}

/// The same, for `valuesWithoutInitialYieldsChangesOnly` (tests run in parallel).
struct ChangedValues {
  nonisolated static let store = PreferenceStore.inMemory()
  @Preference(store: ChangedValues.store) var level = 3
}

@Suite struct ObservationTests {
  @Test func observersFireOncePerActualChange() {
    let store = PreferenceStore.inMemory()
    store.register(defaults: ["k": "default"])
    let recorder = Recorder<String>()
    let observation = store.observe("k", default: "none") { recorder.record($0) }
    store.set("a", forKey: "k")
    store.set("a", forKey: "k")  // equal: nobody hears
    store.set("b", forKey: "k")
    store.removeValue(forKey: "k")  // back to the registered default
    store.removeValue(forKey: "k")  // already removed
    store.set("default", forKey: "k")  // stored, but equal to what observers saw
    store.register(defaults: ["k": "other default"])  // stored value still wins: no change
    store.removeValue(forKey: "k")  // now the new default shows
    store.set("unrelated", forKey: "other")
    #expect(recorder.all == ["a", "b", "default", "other default"])
    withExtendedLifetime(observation) {}
  }

  @Test func everyWritePathNotifies() {
    let store = PreferenceStore.inMemory()
    let keyed = store.keyed(by: AppKeys.self)
    let recorder = Recorder<String>()
    let observation = keyed.observe(.name) { recorder.record($0) }
    keyed.set("Paul", for: .name)  // enum-keyed store
    store.set("Ann", forKey: "name")  // store API
    keyed.removeValue(for: .name)  // reset
    store.set("Old", forKey: "legacyName")
    store.migrate(from: "legacyName", to: "name")  // migration
    store.removeAllValues()  // remove all
    #expect(recorder.all == ["Paul", "Ann", "Anonymous", "Old", "Anonymous"])
    withExtendedLifetime(observation) {}
  }

  @Test func releasingTheObservationStopsIt() {
    let store = PreferenceStore.inMemory()
    let recorder = Recorder<Int>()
    var observation: PreferenceObservation? = store.observe("n", default: 0) { recorder.record($0) }
    store.set(1, forKey: "n")
    observation = nil
    store.set(2, forKey: "n")
    // Changes through the store are delivered on the writing thread before `set` returns, so
    // the second write, had it been delivered, would be recorded by now.
    #expect(recorder.all == [1])
    withExtendedLifetime(observation) {}
  }

  @Test func valuesIsAnAsyncSequenceOfCurrentThenChanges() async {
    let store = PreferenceStore.inMemory(["v": 1])
    var iterator = store.values(forKey: "v", default: 0).makeAsyncIterator()
    #expect(await iterator.next() == 1)
    store.set(2, forKey: "v")
    store.set(2, forKey: "v")
    store.set(3, forKey: "v")
    #expect(await iterator.next() == 2)
    #expect(await iterator.next() == 3)
  }

  /// `initial: true` (as `Defaults.observe` does): the current value at once, before `observe`
  /// returns, then each change; the default is changes only. Every form passes it through.
  @Test func observeWithInitialDeliversTheCurrentValueFirst() {
    let store = PreferenceStore.inMemory(["k": "stored"])
    let recorder = Recorder<String>()
    let changesOnly = Recorder<String>()
    let observation = store.observe("k", default: "none", initial: true) { recorder.record($0) }
    let plain = store.observe("k", default: "none") { changesOnly.record($0) }
    #expect(recorder.all == ["stored"], "delivered before observe returned")
    store.set("stored", forKey: "k")  // equal to what the observer got: nothing
    store.set("new", forKey: "k")
    #expect(recorder.all == ["stored", "new"])
    #expect(changesOnly.all == ["new"])

    let keyed = PreferenceStore.inMemory().keyed(by: AppKeys.self)
    let names = Recorder<String>()
    let keyedObservation = keyed.observe(.name, initial: true) { names.record($0) }
    keyed.set("Paul", for: .name)
    #expect(names.all == ["Anonymous", "Paul"])

    InitialValues.store.removeAllValues()
    let levels = Recorder<Int>()
    let projected = InitialValues().$level.observe(initial: true) { levels.record($0) }
    InitialValues.store.set(4, forKey: "InitialValues.level")
    #expect(levels.all == [3, 4])
    withExtendedLifetime((observation, plain, keyedObservation, projected)) {}
  }

  /// A change that lands between the start of an `initial` observation and its first delivery
  /// (forced by a hook) is delivered once: the start then reads the same value and skips it.
  @Test func aChangeRacingTheInitialDeliveryIsDeliveredOnce() {
    let store = PreferenceStore.inMemory(["k": "old"])
    let recorder = Recorder<String>()
    let observation = PreferenceStore.$beforeInitialDelivery.withValue(
      TestHook { store.set("new", forKey: "k") }
    ) {
      store.observe("k", default: "none", initial: true) { recorder.record($0) }
    }
    #expect(recorder.all == ["new"])
    store.set("newer", forKey: "k")
    #expect(recorder.all == ["new", "newer"])
    withExtendedLifetime(observation) {}
  }

  /// `values(…, initial: false)`: changes only; the default starts with the current value.
  @Test func valuesWithoutInitialYieldsChangesOnly() async {
    let store = PreferenceStore.inMemory(["v": 1])
    var changes = store.values(forKey: "v", default: 0, initial: false).makeAsyncIterator()
    var keyedChanges = store.keyed(by: AppKeys.self).values(for: .name, initial: false).makeAsyncIterator()
    var current = store.values(forKey: "v", default: 0).makeAsyncIterator()
    ChangedValues.store.set(5, forKey: "ChangedValues.level")
    var projected = ChangedValues().$level.values(initial: false).makeAsyncIterator()
    store.set(1, forKey: "v")  // equal: no change
    store.set(2, forKey: "v")
    store.set("Paul", forKey: "name")
    ChangedValues.store.set(6, forKey: "ChangedValues.level")
    #expect(await changes.next() == 2)
    #expect(await current.next() == 1)
    #expect(await current.next() == 2)
    #expect(await keyedChanges.next() == "Paul")
    #expect(await projected.next() == 6)
  }

  @Test func changesCoversSeveralKeys() async {
    let store = PreferenceStore.inMemory()
    var iterator = store.changes(forKeys: ["a", "b"]).makeAsyncIterator()
    store.set(1, forKey: "a")
    store.set(1, forKey: "c")
    store.set(1, forKey: "b")
    #expect(await iterator.next() == "a")
    #expect(await iterator.next() == "b")
  }

  @Test func storeReadsAreTrackedByObservation() {
    let store = PreferenceStore.inMemory()
    let changes = Recorder<Bool>()
    withObservationTracking {
      _ = store.value(forKey: "theme", default: Theme.light)
    } onChange: {
      changes.record(true)
    }
    store.set(Theme.dark, forKey: "theme")
    #expect(changes.all.count == 1)
    #expect(store.value(forKey: "theme", default: Theme.light) == .dark)
  }

  /// Another process's write reaches observers; this process's own write does not come back
  /// as if it were another's. "Nothing else arrived" is proven by a fence: a second write by
  /// another process, delivered after every event before it, so an echo of the own write
  /// would have been delivered first.
  @Test func anotherProcessWritingTheFileReachesObserversAndOwnWritesAreNotEchoed() throws {
    let directory = TemporaryDirectory()
    let url = directory.file("group.plist")
    let store = PreferenceStore(backend: PropertyListFileBackend(url: url), arguments: [])
    let recorder = Recorder<String>()
    let arrived = DispatchSemaphore(value: 0)
    let observation = store.observe("shared", default: "") { value in
      recorder.record(value)
      if value == "from child" { arrived.signal() }
    }
    let fenced = DispatchSemaphore(value: 0)
    let fence = store.observe("fence", default: "") { value in
      if value == "up" { fenced.signal() }
    }
    try runHelper(["set-and-exit", url.path, "shared", "from child"])
    #expect(arrived.wait(timeout: .now() + 30) == .success, "the other process's write arrives")
    #expect(store.value(forKey: "shared", default: "") == "from child")
    store.set("mine", forKey: "shared")
    try store.flush()
    try runHelper(["set-and-exit", url.path, "fence", "up"])
    #expect(fenced.wait(timeout: .now() + 30) == .success, "the fence arrives")
    #expect(recorder.all == ["from child", "mine"], "the own write is heard once, when made")
    withExtendedLifetime(fence) {}
    withExtendedLifetime(observation) {}
  }
}
