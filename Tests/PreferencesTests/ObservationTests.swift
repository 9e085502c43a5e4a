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
