import Foundation
import Testing

@testable import Preferences

/// A write made while a migration runs is newer than the value the migration moves, and wins:
/// each test makes the write at the migration's riskiest moment (inside `transform`, after the
/// new key was found empty and before it is written), in this process and in another one.
@Suite(.deadlockWatchdog) struct WriteWinsOverMigrationTests {
  enum Kind: String, CaseIterable, CustomTestStringConvertible {
    case memory, file, userDefaults
    var testDescription: String { rawValue }
  }

  private func makeStore(_ kind: Kind, in directory: TemporaryDirectory, suite: TemporarySuite)
    -> (PreferenceStore, helperTarget: String?)
  {
    switch kind {
    case .memory:
      return (PreferenceStore(backend: InMemoryBackend(), arguments: []), nil)
    case .file:
      let file = directory.file("settings.plist")
      return (PreferenceStore(backend: PropertyListFileBackend(url: file), arguments: []), file.path)
    case .userDefaults:
      return (
        PreferenceStore(backend: UserDefaultsBackend(suiteName: suite.name), arguments: []),
        "suite:\(suite.name)"
      )
    }
  }

  /// Another thread writes the new key while `transform` runs: the migration keeps that value
  /// (`.keptExistingValue`) and leaves the old key alone.
  @Test(arguments: Kind.allCases)
  func aWriteFromAnotherThreadDuringTheMigrationWins(kind: Kind) {
    let directory = TemporaryDirectory()
    let suite = TemporarySuite()
    let (store, _) = makeStore(kind, in: directory, suite: suite)
    store.set("from the old version", forKey: "username")
    let result = store.migrate(from: "username", to: "Profile.username") { old in
      let written = DispatchSemaphore(value: 0)
      Thread.detachNewThread {
        store.set("typed just now", forKey: "Profile.username")
        written.signal()
      }
      written.wait()
      return old
    }
    #expect(result == .keptExistingValue)
    #expect(store.value(forKey: "Profile.username", default: "") == "typed just now")
    #expect(store.value(forKey: "username", default: "") == "from the old version", "the old copy stays")
  }

  /// Another process writes the new key (and exits, which flushes it) while `transform` runs:
  /// the migration, deciding under the file's lock, keeps that value.
  @Test(arguments: [Kind.file, .userDefaults])
  func aWriteFromAnotherProcessDuringTheMigrationWins(kind: Kind) throws {
    let directory = TemporaryDirectory()
    let suite = TemporarySuite()
    let (store, target) = makeStore(kind, in: directory, suite: suite)
    store.set("from the old version", forKey: "username")
    try store.flush()
    let result = store.migrate(from: "username", to: "Profile.username") { old in
      _ = try? runHelper(["set-and-exit", target!, "Profile.username", "from the widget"])
      return old
    }
    #expect(result == .keptExistingValue)
    try store.flush()
    let reopened = makeStore(kind, in: directory, suite: suite).0
    #expect(reopened.value(forKey: "Profile.username", default: "") == "from the widget")
  }

  /// Unforced: a migration and a write of the new key started together, many times. Whichever
  /// runs first, the write is what stays (`.ci/run`'s long pass runs hundreds of rounds).
  @Test(arguments: Kind.allCases)
  func aWriteRacingAMigrationIsNeverReplaced(kind: Kind) {
    let rounds = Intensity.rounds(quick: 40, long: 600)
    var lost: [Int] = []
    for round in 0..<rounds {
      let directory = TemporaryDirectory()
      let suite = TemporarySuite()
      let (store, _) = makeStore(kind, in: directory, suite: suite)
      store.set("old-\(round)", forKey: "username")
      let start = DispatchSemaphore(value: 0)
      let done = DispatchGroup()
      for worker in 0..<2 {
        done.enter()
        Thread.detachNewThread {
          start.wait()
          if worker == 0 {
            _ = store.migrate(from: "username", to: "Profile.username")
          } else {
            store.set("typed-\(round)", forKey: "Profile.username")
          }
          done.leave()
        }
      }
      start.signal()
      start.signal()
      done.wait()
      if store.value(forKey: "Profile.username", default: "") != "typed-\(round)" { lost.append(round) }
    }
    #expect(lost.isEmpty, "the write was replaced in rounds \(lost) of \(rounds)")
  }

  /// The same across processes: another process writes the new key and exits while this one
  /// migrates, many times; the other process's write stays.
  @Test(arguments: [Kind.file, .userDefaults])
  func anotherProcessesWriteRacingAMigrationIsNeverReplaced(kind: Kind) throws {
    let rounds = Intensity.rounds(quick: 6, long: 120)
    var lost: [(round: Int, found: String)] = []
    for round in 0..<rounds {
      let directory = TemporaryDirectory()
      let suite = TemporarySuite()
      let (store, target) = makeStore(kind, in: directory, suite: suite)
      store.set("old-\(round)", forKey: "username")
      try store.flush()
      let helper = Process()
      helper.executableURL = helperURL
      helper.arguments = ["set-and-exit", target!, "Profile.username", "widget-\(round)"]
      try helper.run()
      _ = store.migrate(from: "username", to: "Profile.username")
      helper.waitUntilExit()
      try store.flush()
      // What is stored, read as a fresh process would: for a UserDefaults suite, plain UserDefaults
      // in another process (a store reopened in this process shares the suite's view, which takes
      // the helper's write when its file event arrives, a moment after the exit), for a file, a
      // new backend reading it.
      let found =
        kind == .userDefaults
        ? try runHelper(["raw-values", suite.name, "Profile.username"]).trimmingCharacters(in: .newlines)
        : makeStore(kind, in: directory, suite: suite).0.value(forKey: "Profile.username", default: "none")
      if found != "widget-\(round)" { lost.append((round, found)) }
    }
    #expect(lost.isEmpty, "the other process's write was replaced (round, value found): \(lost) of \(rounds)")
  }

  /// The old key is removed only if it still holds the value that moved: a write to it while the
  /// migration runs (old code still writing the old name) is kept.
  @Test(arguments: Kind.allCases)
  func aWriteToTheOldKeyDuringTheMigrationIsKept(kind: Kind) {
    let directory = TemporaryDirectory()
    let suite = TemporarySuite()
    let (store, _) = makeStore(kind, in: directory, suite: suite)
    store.set("first", forKey: "username")
    let result = store.migrate(from: "username", to: "Profile.username") { old in
      let written = DispatchSemaphore(value: 0)
      Thread.detachNewThread {
        store.set("second", forKey: "username")
        written.signal()
      }
      written.wait()
      return old
    }
    #expect(result == .moved)
    #expect(store.value(forKey: "Profile.username", default: "") == "first")
    #expect(store.value(forKey: "username", default: "") == "second")
  }

  /// A transform may wait for a migration it starts on another thread (nothing is held while it
  /// runs): this deadlocked when migrations of a store took turns for their whole run.
  @Test func aTransformMayWaitForAnotherThreadsMigration() {
    let store = PreferenceStore.inMemory(["a": "1", "c": "3"])
    let inner = Locked<PreferenceStore.MigrationResult?>(nil)
    let result = store.migrate(from: "a", to: "b") { old in
      let done = DispatchSemaphore(value: 0)
      Thread.detachNewThread {
        inner.withLock { $0 = store.migrate(from: "c", to: "d") }
        done.signal()
      }
      done.wait()
      return old
    }
    #expect(result == .moved)
    #expect(inner.withLock { $0 } == .moved)
    #expect(store.value(forKey: "b", default: "") == "1" && store.value(forKey: "d", default: "") == "3")
  }

  /// The migration's two writes, in the order a crash must see them: the new key written (to
  /// disk, for a file) before the old one is removed.
  @Test func theNewKeyIsWrittenBeforeTheOldOneIsRemoved() throws {
    let base = RecordingBackend(["username": .string("Paul")])
    let store = PreferenceStore(backend: base, arguments: [])
    #expect(store.migrate(from: "username", to: "Profile.username") == .moved)
    #expect(
      base.replacements == [
        .init(key: "Profile.username", expected: nil, value: .string("Paul")),
        .init(key: "username", expected: .string("Paul"), value: nil),
      ])
  }

  /// A move between stores, while the source store renames the same value: the value ends in
  /// the destination only, whichever key the source moved it to.
  @Test func aMoveBetweenStoresWhileTheSourceRenamesItLeavesOneCopy() {
    let source = PreferenceStore.inMemory(["Old.theme": "dark"])
    let destination = PreferenceStore.inMemory()
    // The source renames the value after the destination has written it and before the move
    // removes it from the source.
    let result = PreferenceStore.$afterMovingIn.withValue(
      TestHook {
        let renamed = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
          _ = source.migrate(from: "Old.theme", to: "Settings.theme")
          renamed.signal()
        }
        renamed.wait()
      }
    ) {
      destination.migrate("Settings.theme", from: source, oldKeys: ["Old.theme"])
    }
    #expect(result == .moved)
    #expect(destination.value(forKey: "Settings.theme", default: "") == "dark")
    #expect(
      source.dictionaryRepresentation().isEmpty, "left in the source: \(source.dictionaryRepresentation())")
  }
}

/// A backend that records every compare-and-set, in order.
final class RecordingBackend: PreferenceBackend {
  struct Replacement: Equatable, Sendable {
    var key: String
    var expected: PropertyListValue?
    var value: PropertyListValue?
  }
  private let base: InMemoryBackend
  private let recorded = Locked<[Replacement]>([])
  init(_ values: [String: PropertyListValue]) { base = InMemoryBackend(values) }
  var replacements: [Replacement] { recorded.withLock { $0 } }
  func value(forKey key: String) -> PropertyListValue? { base.value(forKey: key) }
  func setValue(_ value: PropertyListValue?, forKey key: String) { base.setValue(value, forKey: key) }
  func replaceValue(
    forKey key: String, ifEqualTo expected: PropertyListValue?, with value: PropertyListValue?
  )
    -> Bool
  {
    recorded.withLock { $0.append(Replacement(key: key, expected: expected, value: value)) }
    return base.replaceValue(forKey: key, ifEqualTo: expected, with: value)
  }
  func allValues() -> [String: PropertyListValue] { base.allValues() }
  func removeAll() { base.removeAll() }
  func flush() throws {}
  var location: String { "recording" }
}

/// The turns and the flush's bookkeeping, forced: no timing decides these tests.
@Suite(.deadlockWatchdog) struct ForcedInterleavingTests {
  /// A backend whose compare-and-set of a key blocks until the test lets it go, and that counts
  /// how many run at once.
  final class GatedBackend: PreferenceBackend {
    let base: InMemoryBackend
    let entered = DispatchSemaphore(value: 0)
    let proceed = DispatchSemaphore(value: 0)
    /// Compare-and-sets running now, by key, and the most that ever ran at once for one key.
    let inside = Locked<[String: Int]>([:])
    let mostAtOnce = Locked(0)
    init(_ values: [String: PropertyListValue]) { base = InMemoryBackend(values) }
    func value(forKey key: String) -> PropertyListValue? { base.value(forKey: key) }
    func setValue(_ value: PropertyListValue?, forKey key: String) { base.setValue(value, forKey: key) }
    func replaceValue(
      forKey key: String, ifEqualTo expected: PropertyListValue?, with value: PropertyListValue?
    )
      -> Bool
    {
      let now = inside.withLock { inside -> Int in
        inside[key, default: 0] += 1
        return inside[key]!
      }
      mostAtOnce.withLock { $0 = max($0, now) }
      entered.signal()
      proceed.wait()
      // Read, compare and write in separate steps, as a backend without one-step replacement does.
      let matches = base.value(forKey: key) == expected
      if matches { base.setValue(value, forKey: key) }
      inside.withLock { $0[key, default: 1] -= 1 }
      return matches
    }
    func allValues() -> [String: PropertyListValue] { base.allValues() }
    func removeAll() { base.removeAll() }
    func flush() throws {}
    var location: String { "gated" }
  }

  /// Two migrations of one key: the second waits for the first's compare-and-set (it never runs
  /// beside it, whatever the backend), and the value moves once.
  @Test func twoMigrationsOfOneKeyTakeTurnsAndMoveOnce() {
    let backend = GatedBackend(["old": .string("v")])
    let store = PreferenceStore(backend: backend, arguments: [])
    let secondWaits = DispatchSemaphore(value: 0)
    store.replacements.onWaiting.withLock { $0 = { _ in secondWaits.signal() } }
    let results = Locked<[PreferenceStore.MigrationResult]>([])
    let done = DispatchGroup()
    for _ in 0..<2 {
      done.enter()
      Thread.detachNewThread {
        let result = store.migrate(from: "old", to: "new")
        results.withLock { $0.append(result) }
        done.leave()
      }
    }
    backend.entered.wait()  // the first is inside its compare-and-set
    secondWaits.wait()  // the second waits for its turn
    backend.proceed.signal()
    // Then, in either order, the second's turn (its compare fails) and the first's removal of the
    // old key (a compare-and-set of another key).
    backend.entered.wait()
    backend.proceed.signal()
    backend.entered.wait()
    backend.proceed.signal()
    done.wait()
    #expect(backend.mostAtOnce.withLock { $0 } == 1)
    #expect(results.withLock { $0 }.filter { $0 == .moved }.count == 1, "\(results.withLock { $0 })")
    #expect(backend.value(forKey: "new") == .string("v") && backend.value(forKey: "old") == nil)
  }

  /// A write made while a flush writes the file stays pending and goes out with the next flush.
  @Test func aWriteDuringAFlushIsKeptForTheNextOne() throws {
    let directory = TemporaryDirectory()
    let file = directory.file("prefs.plist")
    let backend = PropertyListFileBackend(url: file)
    backend.setValue(.integer(1), forKey: "k")
    try PropertyListFileBackend.$whileFlushing.withValue(
      TestHook { backend.setValue(.integer(2), forKey: "k") }
    ) {
      try backend.flush()
    }
    #expect(
      PropertyListFileBackend(url: file).value(forKey: "k") == .integer(1), "the flush wrote what it took")
    #expect(
      backend.value(forKey: "k") == .integer(2) && backend.hasPendingChanges, "the newer write is pending")
    try backend.flush()
    #expect(PropertyListFileBackend(url: file).value(forKey: "k") == .integer(2))
  }

  /// Two writes of one key overlap: the first's value reaches the backend, then the second's,
  /// and only then does the first finish its bookkeeping. Neither may cache its value (the
  /// first's would be stale): the next read finds what the backend holds.
  @Test func overlappingWritesCacheNothingStale() {
    let store = PreferenceStore.inMemory()
    // Read once: the key's cache entry exists, as for any preference an app shows.
    #expect(store.value(forKey: "k", default: 0) == 0)
    PreferenceStore.$afterBackendWrite.withValue(
      TestHook {
        let second = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
          store.set(2, forKey: "k")
          second.signal()
        }
        second.wait()
      }
    ) {
      store.set(1, forKey: "k")
    }
    #expect(store.backend.value(forKey: "k") == .integer(2))
    #expect(store.value(forKey: "k", default: 0) == 2, "the cache holds no older value than the backend")
  }
}
