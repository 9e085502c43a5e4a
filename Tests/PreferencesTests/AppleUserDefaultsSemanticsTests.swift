import Foundation
import Testing

@testable import Preferences

/// The UserDefaults backend's logic against a stand-in that behaves as Apple documents
/// UserDefaults: the change notification posted synchronously on the writing thread, the
/// registration domain, the persistent domain versus the search list, `NSGlobalDomain`, and other
/// processes' writes that post nothing.
@Suite(.deadlockWatchdog) struct AppleUserDefaultsSemanticsTests {
  /// A store over `defaults` whose announcements are posted by the writing thread, at once: the
  /// re-entries these tests make (a write from inside every call into UserDefaults) then stay on
  /// the thread that started them, where `ReentryDepth` lets each run once. (From the background
  /// queue, each announcement's re-entry would write and announce again, forever.)
  private func makeStore(_ defaults: SimulatedUserDefaults) -> PreferenceStore {
    PreferenceStore(
      backend: UserDefaultsBackend(suiteName: nil, domain: defaults, scheduleAnnouncement: { $0() }),
      arguments: [])
  }

  /// The notification a write posts re-enters the backend on the writing thread, inside the
  /// write: the first write must neither deadlock nor crash.
  @Test func theFirstWriteSurvivesTheSynchronousChangeNotification() {
    let defaults = SimulatedUserDefaults()
    let store = makeStore(defaults)
    let heard = Recorder<String>()
    withDeadlockWatchdog("a lock held while calling out") {
      store.register(defaults: ["name": "Anonymous"])
      #expect(store.value(forKey: "name", default: "") == "Anonymous")
      store.set("Paul", forKey: "name")
      let observation = store.observe("name", default: "") { heard.record($0) }
      store.set("Ringo", forKey: "name")
      store.removeValue(forKey: "name")
      withExtendedLifetime(observation) {}
    }
    #expect(store.value(forKey: "name", default: "") == "Anonymous")
    #expect(heard.all == ["Ringo", "Anonymous"], "own writes are heard once each, not echoed back")
    #expect(
      defaults.object(forKey: "name") == .string("Anonymous"), "direct readers see the registered default")
  }

  /// Every call into UserDefaults re-enters the store (a read and a write of other keys, as a
  /// notification handler in the app would): no lock may be held while UserDefaults runs.
  @Test func noLockIsHeldWhileUserDefaultsRuns() {
    let defaults = SimulatedUserDefaults()
    let store = makeStore(defaults)
    let depth = ReentryDepth()
    defaults.reentry.withLock { reentry in
      reentry = { _ in
        depth.once {
          _ = store.value(forKey: "probe", default: 0)
          _ = store.hasStoredValue(forKey: "probe")
          store.set(store.value(forKey: "counter", default: 0) + 1, forKey: "counter")
        }
      }
    }
    withDeadlockWatchdog("a lock held while calling out") {
      store.register(defaults: ["a": 1])
      store.set(2, forKey: "a")
      #expect(store.value(forKey: "a", default: 0) == 2)
      let observation = store.observe("a", default: 0) { value in
        if value == 3 { store.set(4, forKey: "a") }
      }
      store.set(3, forKey: "a")
      #expect(store.migrate(from: ["a"], to: "b") == .moved)
      #expect(store.dictionaryRepresentation()["b"] == .integer(4))
      store.removeAllValues()
      withExtendedLifetime(observation) {}
    }
    #expect(store.value(forKey: "b", default: 0) == 0)
  }

  /// Two stores written from two threads at once: each write's notification runs on its own
  /// thread, inside the write.
  @Test func twoStoresWrittenFromTwoThreadsNeverDeadlock() {
    let daemon = SimulatedPreferencesDaemon()
    let first = makeStore(SimulatedUserDefaults(daemon: daemon, name: "one"))
    let second = makeStore(SimulatedUserDefaults(daemon: daemon, name: "two"))
    withDeadlockWatchdog("a lock held while calling out") {
      DispatchQueue.concurrentPerform(iterations: 2) { index in
        let (store, other) = index == 0 ? (first, second) : (second, first)
        for round in 0..<500 {
          store.set(round, forKey: "k")
          _ = other.value(forKey: "k", default: 0)
        }
      }
    }
    #expect(first.value(forKey: "k", default: 0) == 499)
    #expect(second.value(forKey: "k", default: 0) == 499)
  }

  /// Other code writing the same UserDefaults object (`@AppStorage`, legacy code) reaches reads
  /// and observers before its write returns, through the notification.
  @Test func otherCodesWritesArriveThroughTheNotification() {
    let defaults = SimulatedUserDefaults()
    let store = makeStore(defaults)
    #expect(store.value(forKey: "legacy", default: "A") == "A")
    let heard = Recorder<String>()
    let observation = store.observe("legacy", default: "A") { heard.record($0) }
    defaults.set(.string("B"), forKey: "legacy")
    #expect(store.value(forKey: "legacy", default: "") == "B", "no polling needed")
    #expect(heard.all == ["B"])
    defaults.set(nil, forKey: "legacy")
    #expect(store.value(forKey: "legacy", default: "A") == "A")
    #expect(heard.all == ["B", "A"])
    withExtendedLifetime(observation) {}
  }

  /// A notification costs the keys in use, never the domain: a domain of 5,000 keys that the
  /// store does not use is not read.
  @Test func aNotificationReadsOnlyTheKeysInUse() {
    let defaults = SimulatedUserDefaults()
    for index in 0..<5_000 {
      defaults.writeFromAnotherProcess(.integer(Int64(index)), forKey: "other\(index)")
    }
    let store = makeStore(defaults)
    _ = store.value(forKey: "used", default: 0)
    let before = defaults.reads.withLock { $0 }
    defaults.set(.integer(1), forKey: "unrelated")
    #expect(defaults.reads.withLock { $0 } - before <= 1)
    #expect(store.value(forKey: "used", default: 0) == 0)
  }

  /// Only the persistent domain holds stored values: a default registered by app code, a value
  /// in NSGlobalDomain and a launch argument are not "stored", for every API that asks.
  @Test func storedMeansInThePersistentDomain() {
    let daemon = SimulatedPreferencesDaemon()
    daemon.set(.string("en"), forKey: "AppleLanguage", in: SimulatedPreferencesDaemon.globalDomain)
    let defaults = SimulatedUserDefaults(daemon: daemon, arguments: ["argued": .string("YES")])
    defaults.registerDirectly(["registeredByApp": .integer(7)])
    let store = makeStore(defaults)
    #expect(defaults.object(forKey: "registeredByApp") == .integer(7))
    for key in ["registeredByApp", "AppleLanguage", "argued"] {
      #expect(!store.hasStoredValue(forKey: key), "\(key) is not stored")
      #expect(store.backend.value(forKey: key) == nil)
    }
    #expect(store.backend.allValues().isEmpty)
    store.set(8, forKey: "registeredByApp")
    #expect(store.hasStoredValue(forKey: "registeredByApp"))
    #expect(store.backend.allValues() == ["registeredByApp": .integer(8)])
    store.removeValue(forKey: "registeredByApp")
    #expect(!store.hasStoredValue(forKey: "registeredByApp"))
    #expect(defaults.object(forKey: "registeredByApp") == .integer(7), "a reset leaves the registration")
    // A rename migration finds nothing to move from a registered-only key.
    #expect(store.migrate(from: ["registeredByApp"], to: "renamed") == .nothingToMigrate)
  }

  /// Another process's write posts nothing: an observed store finds it by polling; an
  /// unobserved one does not poll at all.
  @Test func anotherProcessesWritesArePolledOnlyWhileObserved() throws {
    let defaults = SimulatedUserDefaults()
    let store = makeStore(defaults)
    let backend = try #require(store.backend as? UserDefaultsBackend)
    store.set("A", forKey: "k")
    #expect(!backend.isPolling, "an unobserved store does not poll")
    let heard = Recorder<String>()
    let observation = store.observe("k", default: "") { heard.record($0) }
    #expect(backend.isPolling)
    defaults.writeFromAnotherProcess(.string("B"), forKey: "k")
    backend.checkForOutsideWrites()
    #expect(heard.all == ["B"])
    #expect(store.value(forKey: "k", default: "") == "B")
    observation.cancel()
    #expect(!backend.isPolling, "the last observation's end stops the polling")
  }
}

/// Lets a re-entry run once per thread at a time, so that re-entering calls do not recurse.
final class ReentryDepth: Sendable {
  @TaskLocal private static var inside = false
  func once(_ body: () -> Void) {
    guard !Self.inside else { return }
    Self.$inside.withValue(true, operation: body)
  }
}

/// At rest, nothing runs: the platform's real backends poll only while observed, and file
/// stores learn of other processes' writes through file-system events instead.
@Suite struct AtRestTests {
  @Test func unobservedStoresDoNotPollAndFileStoresUseEvents() throws {
    let directory = TemporaryDirectory()
    let suite = TemporarySuite()
    let suiteStore = PreferenceStore(backend: UserDefaultsBackend(suiteName: suite.name), arguments: [])
    let fileStore = PreferenceStore(
      backend: PropertyListFileBackend(url: directory.file("p.plist")), arguments: [])
    suiteStore.set(1, forKey: "k")
    fileStore.set(1, forKey: "k")
    _ = suiteStore.value(forKey: "k", default: 0)
    _ = fileStore.value(forKey: "k", default: 0)
    let suiteBackend = try #require(suiteStore.backend as? UserDefaultsBackend)
    let fileBackend = try #require(fileStore.backend as? PropertyListFileBackend)
    #expect(!suiteBackend.isPolling)
    #expect(!fileBackend.isPolling)
    #expect(fileBackend.hasEvents, "file-system events are available on this platform")
    let observations = [suiteStore, fileStore].map { $0.observe("k", default: 0) { _ in } }
    #expect(suiteBackend.isPolling, "other code's writes to UserDefaults have no event")
    #expect(!fileBackend.isPolling, "a file store never polls where events exist")
    observations.forEach { $0.cancel() }
    #expect(!suiteBackend.isPolling)
  }

  /// The directories on the way appear after the watch found the nearest existing one and
  /// before it started (another process's first write creates them): the watch still moves down
  /// to the file's directory, and the write arrives. The interleaving is forced, not waited for.
  @Test func directoriesCreatedWhileTheWatchStartsAreFollowed() throws {
    let directory = TemporaryDirectory()
    let url = directory.url.appendingPathComponent("not/yet/there/p.plist")
    let created = Locked(false)
    let store = FileWatch.$beforeWatching.withValue(
      TestHook {
        guard
          !created.withLock({ created in
            defer { created = true }; return created
          })
        else { return }
        let writer = PropertyListFileBackend(url: url)
        writer.setValue(.string("written meanwhile"), forKey: "k")
        try? writer.flush()
      }
    ) {
      PreferenceStore(backend: PropertyListFileBackend(url: url), arguments: [])
    }
    #expect(created.withLock { $0 })
    #expect(waitUntil { store.value(forKey: "k", default: "none") == "written meanwhile" })
    try runHelper(["set-and-exit", url.path, "k", "again"])
    #expect(waitUntil { store.value(forKey: "k", default: "none") == "again" })
  }

  /// Another process's write reaches an unobserved file store through an event, whatever the
  /// directory's state when the store was opened (missing directories are watched from the
  /// nearest existing one).
  @Test func anotherProcessesWriteArrivesThroughEventsEvenIntoAMissingDirectory() throws {
    let directory = TemporaryDirectory()
    let url = directory.url.appendingPathComponent("not/yet/there/p.plist")
    let store = PreferenceStore(backend: PropertyListFileBackend(url: url), arguments: [])
    #expect(store.value(forKey: "k", default: "none") == "none")
    try runHelper(["set-and-exit", url.path, "k", "written elsewhere"])
    #expect(waitUntil { store.value(forKey: "k", default: "none") == "written elsewhere" })
    try runHelper(["set-and-exit", url.path, "k", "again"])
    #expect(waitUntil { store.value(forKey: "k", default: "none") == "again" })
  }
}
