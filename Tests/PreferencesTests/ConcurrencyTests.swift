import Foundation
import Testing

@testable import Preferences

/// Preferences read and written through the wrapper (the build plugin is applied to this test
/// target), in a store of their own.
struct Counters {
  nonisolated static let store = PreferenceStore.inMemory()
  @Preference(store: Counters.store) var shared = 0
  @Preference(store: Counters.store) var a = 0
  @Preference(store: Counters.store) var b = 0
  @Preference(store: Counters.store) var c = 0
  @Preference(store: Counters.store) var d = 0
}

enum LoadKeys: String, PreferenceKeys {
  case total, label
  var defaultValue: any PreferenceValue {
    switch self {
    case .total: 0
    case .label: ""
    }
  }
}

/// Run under ThreadSanitizer by `.ci/run` (`swift test --sanitize=thread --filter Concurrency`).
@Suite struct ConcurrencyTests {
  /// Declarations resolved for the first time on many threads at once, while the table they are
  /// resolved into grows past its first capacity: every read finds its own declaration (a read
  /// that found another's would answer another number). Under ThreadSanitizer this holds the
  /// lock-free read of the declaration table to its publication rules.
  @Test func declarationsFirstReadOnManyThreadsAtOnceEachFindTheirOwn() {
    let settings = ManyDeclarations()
    let wrong = Locked([String]())
    DispatchQueue.concurrentPerform(iterations: 8) { thread in
      for round in 0..<20 {
        for step in 0..<96 {
          let number = (step * (thread + 1) * 7 + round) % 96
          let value = settings.read(number)
          if value != number { wrong.withLock { $0.append("p\(number) read \(value)") } }
        }
      }
    }
    #expect(wrong.withLock { $0 }.isEmpty, "\(wrong.withLock { $0 }.prefix(5))")
    ManyDeclarations.store.set(1_000, forKey: "ManyDeclarations.p95")
    #expect(settings.p95 == 1_000)
  }

  @Test func manyThreadsThroughEveryPathLoseNoWriteAndObserversEndConsistent() async throws {
    let directory = TemporaryDirectory()
    let fileStore = PreferenceStore(
      backend: PropertyListFileBackend(url: directory.file("load.plist")), arguments: [])
    let keyed = fileStore.keyed(by: LoadKeys.self)
    let remote = InMemoryRemoteStore()
    let mirror = PreferenceStore.inMemory()
    let syncA = PreferenceSync(local: fileStore, remote: remote, keys: ["label"])
    let syncB = PreferenceSync(local: mirror, remote: remote, keys: ["label"])
    syncA.start()
    syncB.start()
    let lastSeen = Locked<Int>(-1)
    let sharedObservation = Counters.store.observe("Counters.shared", default: 0) { value in
      lastSeen.withLock { $0 = value }
    }
    let perTask = 500
    let tasks = 8
    let counters = Counters()
    await withTaskGroup(of: Void.self) { group in
      for task in 0..<tasks {
        group.addTask {
          for step in 0..<perTask {
            let own = "task\(task)"
            // Store API, own key: every increment must survive.
            fileStore.set(fileStore.value(forKey: own, default: 0) + 1, forKey: own)
            // Wrapper: shared key and per-task keys (tasks 0–3).
            counters.shared = task * perTask + step
            switch task {
            case 0: counters.a += 1
            case 1: counters.b += 1
            case 2: counters.c += 1
            case 3: counters.d += 1
            default: _ = counters.shared
            }
            // Enum-keyed store and sync.
            keyed[.label] = "t\(task)-\(step)"
            _ = keyed.integer(for: .total)
          }
        }
      }
    }
    for task in 0..<tasks { #expect(fileStore.value(forKey: "task\(task)", default: 0) == perTask) }
    for value in [counters.a, counters.b, counters.c, counters.d] { #expect(value == perTask) }
    #expect(lastSeen.withLock { $0 } == counters.shared, "the observer's last value is the final value")
    remote.waitUntilDelivered()
    #expect(mirror.value(forKey: "label", default: "") == keyed.string(for: .label))
    try fileStore.flush()
    let reopened = PropertyListFileBackend(url: directory.file("load.plist"))
    for task in 0..<tasks { #expect(reopened.value(forKey: "task\(task)") == .integer(Int64(perTask))) }
    withExtendedLifetime(sharedObservation) {}
  }

  @Test func severalProcessesWritingDisjointKeysToOneFileLoseNothing() async throws {
    let directory = TemporaryDirectory()
    let url = directory.file("shared.plist")
    let prefixes = ["p0", "p1", "p2", "p3"]
    let statuses = try await withThrowingTaskGroup(of: Int32.self) { group in
      for prefix in prefixes {
        group.addTask { try await runHelperAsync(["disjoint-writes", url.path, prefix, "300"]) }
      }
      return try await group.reduce(into: []) { $0.append($1) }
    }
    #expect(statuses == [0, 0, 0, 0])
    let values = PropertyListFileBackend(url: url).allValues()
    #expect(values.count == 1200)
    for prefix in prefixes { #expect(values["\(prefix)-299"] == .integer(299)) }
  }
}
