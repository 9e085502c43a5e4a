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
    #expect(recorder.all == [1])
    #expect(observation == nil)
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

  /// Waits by polling on this thread rather than with `Task.sleep`: other tests may occupy every
  /// Swift concurrency thread (there are as many as cores), and the watcher runs on Dispatch.
  @Test func anotherProcessWritingTheFileReachesObserversWithinASecond() throws {
    let directory = TemporaryDirectory()
    let url = directory.file("group.plist")
    let store = PreferenceStore(backend: PropertyListFileBackend(url: url), arguments: [])
    let recorder = Recorder<String>()
    let observation = store.observe("shared", default: "") { recorder.record($0) }
    try runHelper(["set-and-exit", url.path, "shared", "from child"])
    // The child has written the file (it flushes at exit); the parent must notice within a second.
    let started = Date()
    while recorder.all.isEmpty && Date().timeIntervalSince(started) < 1 {
      usleep(10_000)
    }
    #expect(recorder.all == ["from child"])
    #expect(Date().timeIntervalSince(started) < 1)
    #expect(store.value(forKey: "shared", default: "") == "from child")
    // Our own writes are not reported again by the file watcher.
    store.set("mine", forKey: "shared")
    try store.flush()
    usleep(450_000)
    #expect(recorder.all == ["from child", "mine"])
    withExtendedLifetime(observation) {}
  }
}
