import Foundation
import Testing

@testable import Preferences

struct Appointment: Codable, Equatable, PreferenceValue {
  var title: String
  var when: Date
}

/// Reads agree with the store, in this process and the next, however the value got there.
@Suite struct CoherenceTests {
  /// A flush that merges in another process's value drops the decoded value it replaces.
  @Test func aMergeInvalidatesTheDecodedValue() throws {
    let directory = TemporaryDirectory()
    let url = directory.file("merge.plist")
    let store = PreferenceStore(backend: PropertyListFileBackend(url: url), arguments: [])
    store.set(Layout(columns: 1, title: "A", tags: []), forKey: "layout")
    try store.flush()
    #expect(store.value(forKey: "layout", default: Layout(columns: 0, title: "", tags: [])).title == "A")
    let other = PropertyListFileBackend(url: url)
    other.setValue(try Layout(columns: 2, title: "B", tags: []).propertyListValue(), forKey: "layout")
    try other.flush()
    store.set(1, forKey: "unrelated")
    try store.flush()
    #expect(store.value(forKey: "layout", default: Layout(columns: 0, title: "", tags: [])).title == "B")
    #expect(store.propertyListValue(forKey: "layout") == other.value(forKey: "layout"))
  }

  /// Nobody observes the store; another process's write still reaches reads within a second.
  @Test func anotherProcessesWriteReachesAnUnobservedFileStore() throws {
    let directory = TemporaryDirectory()
    let url = directory.file("unobserved.plist")
    let store = PreferenceStore(backend: PropertyListFileBackend(url: url), arguments: [])
    store.set("A", forKey: "k")
    try store.flush()
    #expect(store.value(forKey: "k", default: "") == "A")
    try runHelper(["set-and-exit", url.path, "k", "B"])
    #expect(waitUntil { store.value(forKey: "k", default: "") == "B" })
  }

  /// A value reads the same in this process and the next: sub-second dates in JSON keep their
  /// fraction, and XML files (whole seconds) are read back as the file holds them.
  @Test(arguments: StoreKind.allCases)
  func valuesReadTheSameHereAndInTheNextLaunch(kind: StoreKind) throws {
    let directory = TemporaryDirectory()
    let (store, reopen) = kind.make(in: directory)
    let when = Date(timeIntervalSince1970: 1_700_000_000.25)
    store.set(Appointment(title: "Dentist", when: when), forKey: "appointment")
    store.set(when, forKey: "date")
    let here = store.value(forKey: "appointment", default: Appointment(title: "", when: .distantPast))
    let hereDate = store.value(forKey: "date", default: Date.distantPast)
    let next = reopen()
    #expect(here == next.value(forKey: "appointment", default: Appointment(title: "", when: .distantPast)))
    #expect(hereDate == next.value(forKey: "date", default: Date.distantPast))
    #expect(here.when == when, "JSON keeps the fraction of a second")
    if case .string(let json)? = next.backend.value(forKey: "appointment") {
      #expect(json.contains("2023-11-14T22:13:20.25Z"))
    }
  }

  @Test func codableValuesStoredByOtherCodeRead() {
    // JSONEncoder's default: seconds since 2001; ISO 8601 with an offset; whole seconds.
    let store = PreferenceStore.inMemory([
      "a": #"{"title":"x","when":721692800}"#, "b": #"{"title":"y","when":"2023-11-14T23:13:20+01:00"}"#,
      "c": #"{"title":"z","when":"2023-11-14T22:13:20Z"}"#,
    ])
    let none = Appointment(title: "", when: .distantPast)
    #expect(store.value(forKey: "a", default: none).when == Date(timeIntervalSinceReferenceDate: 721_692_800))
    #expect(store.value(forKey: "b", default: none).when == Date(timeIntervalSince1970: 1_700_000_000))
    #expect(store.value(forKey: "c", default: none).when == Date(timeIntervalSince1970: 1_700_000_000))
  }

  @Test func readersWithTheirOwnDefaultsEachGetTheirs() {
    let store = PreferenceStore.inMemory()
    #expect(store.value(forKey: "k", default: "first") == "first")
    #expect(store.value(forKey: "k", default: "second") == "second")
  }
}

/// Observers hear each actual change once.
@Suite struct ObserverOnceTests {
  @Test func registeringADefaultEqualToTheObserversDefaultIsNoChange() {
    let store = PreferenceStore.inMemory()
    let heard = Recorder<Int>()
    let observation = store.observe("k", default: 0) { heard.record($0) }
    store.register(defaults: ["k": 0])
    #expect(heard.all.isEmpty)
    store.register(defaults: ["k": 5])
    #expect(heard.all == [5])
    withExtendedLifetime(observation) {}
  }

  @Test func equalSetsBuiltDifferentlyAreEqualWrites() throws {
    let store = PreferenceStore.inMemory()
    var small = Set<String>(minimumCapacity: 2)
    var large = Set<String>(minimumCapacity: 512)
    for word in ["pear", "apple", "fig", "kiwi", "plum", "lime"] {
      small.insert(word)
      large.insert(word)
    }
    store.set(small, forKey: "fruit")
    let heard = Recorder<Set<String>>()
    let observation = store.observe("fruit", default: Set<String>()) { heard.record($0) }
    store.set(large, forKey: "fruit")
    #expect(heard.all.isEmpty)
    #expect(store.backend.value(forKey: "fruit") == (try small.propertyListValue()))
    withExtendedLifetime(observation) {}
  }

  /// Streams started while two threads write: no value twice in a row, and the last value is the
  /// final one.
  @Test func streamsNeverYieldTheSameValueTwiceInARow() async {
    for round in 0..<Intensity.rounds(quick: 60, long: 400) {
      let store = PreferenceStore.inMemory()
      let stream = store.values(forKey: "n", default: 0)
      let writers = Task.detached {
        await withTaskGroup(of: Void.self) { group in
          for writer in 0..<2 {
            group.addTask {
              for step in 0..<50 { store.set((step % 5) * 2 + writer, forKey: "n") }
            }
          }
        }
        store.set(-1, forKey: "n")
      }
      var seen: [Int] = []
      for await value in stream {
        seen.append(value)
        if value == -1 { break }
      }
      await writers.value
      let repeats = zip(seen, seen.dropFirst()).filter { $0 == $1 }
      #expect(repeats.isEmpty, "round \(round): \(seen)")
    }
  }

  /// Watching never depends on observers coming and going.
  @Test func observersAddedWhileOthersAreCancelledStillHearOtherProcesses() throws {
    let directory = TemporaryDirectory()
    let url = directory.file("churn.plist")
    let store = PreferenceStore(backend: PropertyListFileBackend(url: url), arguments: [])
    for round in 0..<Intensity.rounds(quick: 4, long: 40) {
      let previous = Locked<PreferenceObservation?>(store.observe("k", default: "") { _ in })
      let heard = Recorder<String>()
      let current = Locked<PreferenceObservation?>(nil)
      DispatchQueue.concurrentPerform(iterations: 2) { index in
        if index == 0 {
          current.withLock { $0 = store.observe("k", default: "") { heard.record($0) } }
        } else {
          previous.withLock { $0?.cancel() }
        }
      }
      try runHelper(["set-and-exit", url.path, "k", "round \(round)"])
      #expect(waitUntil { heard.all.last == "round \(round)" }, "round \(round)")
      current.withLock { $0?.cancel() }
    }
  }
}
