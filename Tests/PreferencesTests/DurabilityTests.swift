import Foundation
import Testing

@testable import Preferences

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Writes acknowledged before a normal exit are on disk after it, whatever the delay, and failed
/// writes are retried, never silently dropped.
@Suite struct DurabilityTests {
  enum Target: String, CaseIterable, CustomTestStringConvertible {
    case file, suite
    var testDescription: String { rawValue }
  }

  /// Exits 0–150 ms after a write, around the 50 ms coalescing window and the flush it starts,
  /// by returning from main, by `exit(0)`, and by `exit(0)` from another thread while the main
  /// thread keeps writing. Every run must leave a file that parses and holds the value.
  @Test(arguments: Target.allCases)
  func aWriteSurvivesANormalExitAtAnyDelay(target: Target) async throws {
    let directory = TemporaryDirectory()
    let rounds = Intensity.rounds(quick: 24, long: 300)
    var failures: [String] = []
    try await withThrowingTaskGroup(of: String?.self) { group in
      var running = 0
      for round in 0..<rounds {
        if running == 3 {
          if let failure = try await group.next()! { failures.append(failure) }
          running -= 1
        }
        let suite = TemporarySuite()
        let file = directory.file("exit-\(round).plist")
        let delay = (round * 150_000 / max(1, rounds - 1)) + Int.random(in: 0...2_000)
        let ending = ["return", "exit", "thread"][round % 3]
        let value = "v\(round)"
        group.addTask {
          let where_ = target == .file ? file.path : suite.target
          let status = try await runHelperStatus(["exit-after", where_, "key", value, "\(delay)", ending])
          let stored =
            target == .file
            ? { () -> [String: PropertyListValue]? in
              guard case .values(let values)? = try? PropertyListFile(url: file, format: .binary).read()
              else {
                return nil
              }
              return values
            }() : suite.storedValues()
          if status != 0 { return "round \(round) (\(ending), \(delay) µs): exit status \(status)" }
          guard let stored else {
            return "round \(round) (\(ending), \(delay) µs): the file is missing or corrupt"
          }
          if stored["key"] != .string(value) {
            return "round \(round) (\(ending), \(delay) µs): key is \(String(describing: stored["key"]))"
          }
          return nil
        }
        running += 1
      }
      for try await failure in group { if let failure { failures.append(failure) } }
    }
    #expect(failures.isEmpty, "\(failures.count) of \(rounds) exits lost the write: \(failures.prefix(5))")
  }

  /// The folder is blocked while the first flushes run, then freed: the value is on disk after a
  /// normal exit, and the failure was reported with the key that stayed pending.
  @Test func aFailedWriteStaysPendingAndReachesDiskAtExit() throws {
    let directory = TemporaryDirectory()
    let blocker = directory.file("blocked")
    try Data("not a folder".utf8).write(to: blocker)
    let file = blocker.appendingPathComponent("prefs.plist")
    let said = try runHelper(["recover-and-exit", file.path, "kept", "yes"])
    #expect(
      said.contains("could not be written") && said.contains("'kept'"), "the failure names the key: \(said)")
    #expect(PropertyListFileBackend(url: file).value(forKey: "kept") == .string("yes"))
  }

  /// The last reference to a store with a pending write goes on another thread while another
  /// process holds the file's lock, and the process exits normally: the flush schedule still
  /// holds the store, and the exit writes it once the lock is free. (Held weakly, the store was
  /// freed on that thread, and its final flush was cut short by the exit.)
  @Test func aFinalFlushOnAnotherThreadIsNotCutShortByExit() throws {
    let directory = TemporaryDirectory()
    let file = directory.file("prefs.plist")
    let locking = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
      _ = try? PropertyListFile(url: file, format: .binary).withExclusiveLock {
        locking.signal()
        release.wait()
      }
    }
    locking.wait()
    let process = Process()
    process.executableURL = helperURL
    process.arguments = ["release-elsewhere-and-exit", file.path, "kept", "yes"]
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    // The helper says when the store was released on its other thread and it is exiting; only
    // then is the lock let go, so the write can happen only in the exit's flush or a flush
    // running on that thread.
    var said = Data()
    while !String(decoding: said, as: UTF8.self).contains("released") {
      let chunk = output.fileHandleForReading.availableData
      if chunk.isEmpty { break }
      said += chunk
    }
    #expect(String(decoding: said, as: UTF8.self).contains("released"))
    release.signal()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    #expect(PropertyListFileBackend(url: file).value(forKey: "kept") == .string("yes"))
  }

  @Test func aFailedFlushKeepsTheValuesTheFileAndRetriesOnTheNextFlush() throws {
    Diagnostics.start()
    let directory = TemporaryDirectory()
    let blocker = directory.file("not-a-directory-\(UUID().uuidString)")
    try Data("x".utf8).write(to: blocker)
    let url = blocker.appendingPathComponent("prefs.plist")
    let store = PreferenceStore(backend: PropertyListFileBackend(url: url), arguments: [])
    store.set("kept", forKey: "k")
    #expect {
      try store.flush()
    } throws: { error in
      guard case .writeFailed(_, _, let keys) = error as? PreferenceError else { return false }
      return keys == ["k"]
    }
    #expect(store.value(forKey: "k", default: "") == "kept", "the value stays in memory, pending")
    #expect(try Data(contentsOf: blocker) == Data("x".utf8), "nothing was written over the blocker")
    try FileManager.default.removeItem(at: blocker)
    try store.flush()
    #expect(PropertyListFileBackend(url: url).value(forKey: "k") == .string("kept"))
  }

  /// Reading needs no write access: not to the file, its folder or a lock file.
  @Test func aFileOnReadOnlyStorageIsRead() throws {
    let directory = TemporaryDirectory()
    let folder = directory.file("read-only")
    let url = folder.appendingPathComponent("prefs.plist")
    let writer = PropertyListFileBackend(url: url)
    writer.setValue(.string("shipped"), forKey: "k")
    try writer.flush()
    try FileManager.default.removeItem(at: url.appendingPathExtension("lock"))
    try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: folder.path)
    try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: url.path)
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: directory.url.path)
    defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder.path) }
    // As root, the helper drops to `nobody`, for whom the folder is read-only.
    #expect(try runHelper(["read-as-nobody", url.path, "k"]) == #"string("shipped")"#)
    #expect(!FileManager.default.fileExists(atPath: url.appendingPathExtension("lock").path))
  }

  @Test func cleaningUpTemporaryFilesTouchesOnlyThisStoresFiles() throws {
    let directory = TemporaryDirectory()
    // Another store's flush in progress, and this store's own orphan from a killed writer.
    let othersTemporary = directory.file(".settings.plist.4242.17.tmp")
    let ownOrphan = directory.file(".settings.99999.5.tmp")
    try Data("in progress".utf8).write(to: othersTemporary)
    try Data("orphan".utf8).write(to: ownOrphan)
    let store = PreferenceStore(
      backend: PropertyListFileBackend(url: directory.file("settings")), arguments: [])
    store.set(1, forKey: "k")
    try store.flush()
    #expect(FileManager.default.fileExists(atPath: othersTemporary.path))
    #expect(!FileManager.default.fileExists(atPath: ownOrphan.path))
  }

  @Test func writingThroughASymlinkKeepsTheLinkAndTheMode() throws {
    let directory = TemporaryDirectory()
    let target = directory.file("real.plist")
    let writer = PropertyListFileBackend(url: target)
    writer.setValue(.integer(1), forKey: "a")
    try writer.flush()
    try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: target.path)
    let link = directory.file("link.plist")
    try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
    let store = PreferenceStore(backend: PropertyListFileBackend(url: link), arguments: [])
    store.set(2, forKey: "b")
    try store.flush()
    let linkAttributes = try FileManager.default.attributesOfItem(atPath: link.path)
    #expect(linkAttributes[.type] as? FileAttributeType == .typeSymbolicLink, "the link is kept")
    #expect(PropertyListFileBackend(url: target).allValues() == ["a": .integer(1), "b": .integer(2)])
    let attributes = try FileManager.default.attributesOfItem(atPath: target.path)
    #expect(
      (attributes[.posixPermissions] as? NSNumber)?.intValue == 0o644, "the writer's own file keeps its mode")
  }
}

/// A migration's write (the rename the registry applies at first use) is held to the same exit
/// guarantees as an ordinary write: after a normal exit at any delay the value is under the new
/// key, in the file and for plain `UserDefaults` in the next process; after SIGKILL at any delay
/// it is under the old key, the new key or both, never under neither.
@Suite struct MigrationDurabilityTests {
  @Test(arguments: DurabilityTests.Target.allCases)
  func aMigrationSurvivesExitsAndKillsAtAnyDelay(target: DurabilityTests.Target) async throws {
    let directory = TemporaryDirectory()
    let rounds = Intensity.rounds(quick: 18, long: 150)
    var failures: [String] = []
    for round in 0..<rounds {
      let suite = TemporarySuite()
      let file = directory.file("migrate-\(round).plist")
      let place = target == .file ? file.path : suite.target
      let value = "Paul \(round)"
      let seed = PreferenceStore(
        backend: target == .file
          ? PropertyListFileBackend(url: file) : UserDefaultsBackend(suiteName: suite.name),
        arguments: [])
      seed.set(value, forKey: "ContentView.username")
      try seed.flush()
      let delay = (round * 120_000 / max(1, rounds - 1)) + Int.random(in: 0...2_000)
      let ending = ["return", "exit", "kill-me"][round % 3]
      let read = try runHelper(
        ["migrate-exit-after", place, "ContentView.username", "ContentView.userName", "\(delay)", ending],
        expectSuccess: false)
      let label = "round \(round) (\(ending), \(delay) µs)"
      if read != value { failures.append("\(label): the migrating process read \(read)") }
      let stored: [String: PropertyListValue]?
      if target == .file {
        if case .values(let values)? = try? PropertyListFile(url: file, format: .binary).read() {
          stored = values
        } else {
          stored = nil
        }
      } else {
        stored = suite.storedValues()
      }
      guard let stored else {
        failures.append("\(label): the file is missing or corrupt")
        continue
      }
      let new = stored["ContentView.userName"]
      let old = stored["ContentView.username"]
      if ending == "kill-me" {
        if new != .string(value) && old != .string(value) { failures.append("\(label): the value is gone") }
        continue
      }
      if new != .string(value) { failures.append("\(label): the new key holds \(String(describing: new))") }
      if old != nil { failures.append("\(label): the old key is still there") }
      if target == .suite {
        let direct = try runHelper(["raw-value", suite.name, "ContentView.userName"])
        if direct != value {
          failures.append("\(label): plain UserDefaults in the next process reads \(direct)")
        }
      }
    }
    #expect(failures.isEmpty, "\(failures.count) of \(rounds): \(failures.prefix(5))")
  }
}

/// On iOS-family platforms a flush runs inside an expiring background activity. When the
/// system says the process is about to be suspended, the flush does not take the file lock:
/// the writes stay pending and are scheduled again, never dropped.
@Suite struct SuspensionTests {
  /// Records the threads that flushed it.
  final class RecordingWriter: PendingWriter {
    let flushThreads = Locked<[ObjectIdentifier]>([])
    let pending = Locked(true)
    var hasPendingChanges: Bool { pending.withLock { $0 } }
    func flush(durable: Bool) throws {
      flushThreads.withLock { $0.append(ObjectIdentifier(Thread.current)) }
      pending.withLock { $0 = false }
    }
  }

  @Test func aFlushRefusedBeforeSuspensionStaysPendingAndRunsLater() {
    // A schedule run by hand, whose flushes start as the system allows them: refused while the
    // process is being suspended.
    let timer = FlushScheduleTests.ManualTimer()
    let suspending = Locked(false)
    let schedule = FlushSchedule(timer: timer.timer, start: { work in work(suspending.withLock { $0 }) })
    let writer = RecordingWriter()
    schedule.schedule(writer)
    suspending.withLock { $0 = true }
    #expect(timer.fire() == FlushSchedule.delay)
    #expect(writer.flushThreads.withLock { $0 }.isEmpty, "no flush while the process is being suspended")
    #expect(writer.hasPendingChanges)
    #expect(timer.delays == [FlushSchedule.delay], "the flush is scheduled again")
    #expect(schedule.isScheduled(writer))
    suspending.withLock { $0 = false }
    #expect(timer.fire() == FlushSchedule.delay)
    #expect(!writer.hasPendingChanges, "and runs later")
    #expect(timer.isEmpty)
    // A flush the system allows runs at once, on the thread that asked.
    writer.flushThreads.withLock { $0 = [] }
    writer.pending.withLock { $0 = true }
    schedule.schedule(writer)
    schedule.run(ObjectIdentifier(writer), expired: false)
    #expect(writer.flushThreads.withLock { $0 } == [ObjectIdentifier(Thread.current)])
  }

  @Test func aFileStoresWriteRefusedBeforeSuspensionReachesDiskLater() {
    let directory = TemporaryDirectory()
    let backend = PropertyListFileBackend(url: directory.file("group.plist"))
    backend.setValue(.string("kept"), forKey: "k")
    PendingFlushes.run(ObjectIdentifier(backend), expired: true)
    #expect(waitUntil { !backend.hasPendingChanges })
    #expect(PropertyListFileBackend(url: directory.file("group.plist")).value(forKey: "k") == .string("kept"))
  }
}

/// The flush schedule, run by hand with a timer the test fires: the coalescing delay, the backoff
/// after failed flushes (1 s, doubling to a minute), the retry a new write brings forward, and
/// nothing scheduled once everything is written.
@Suite struct FlushScheduleTests {
  /// A timer whose requests the test fires, one at a time.
  final class ManualTimer: Sendable {
    private let requests = Locked<[(delay: Duration, work: @Sendable () -> Void)]>([])
    var timer: FlushSchedule.Timer {
      FlushSchedule.Timer { delay, work in self.requests.withLock { $0.append((delay, work)) } }
    }
    var delays: [Duration] { requests.withLock { $0.map(\.delay) } }
    /// Runs the oldest request; returns its delay.
    @discardableResult
    func fire() -> Duration? {
      let next = requests.withLock { $0.isEmpty ? nil : $0.removeFirst() }
      next?.work()
      return next?.delay
    }
    var isEmpty: Bool { requests.withLock { $0.isEmpty } }
  }

  /// Fails its first `failing` flushes.
  final class FailingWriter: PendingWriter {
    let failing: Locked<Int>
    let pending = Locked(true)
    let attempts = Locked(0)
    init(failing: Int) { self.failing = Locked(failing) }
    var hasPendingChanges: Bool { pending.withLock { $0 } }
    func flush(durable: Bool) throws {
      attempts.withLock { $0 += 1 }
      let fails = failing.withLock { failing -> Bool in
        defer { failing -= 1 }
        return failing > 0
      }
      if fails { throw PreferenceError.writeFailed(path: "/flush-schedule-test", reason: "the disk is full") }
      pending.withLock { $0 = false }
    }
  }

  private func schedule(_ timer: ManualTimer) -> FlushSchedule {
    FlushSchedule(timer: timer.timer, start: { work in work(false) })
  }

  @Test func failedFlushesAreRetriedWithABackoffThatDoubles() {
    Diagnostics.start()
    let timer = ManualTimer()
    let schedule = schedule(timer)
    let writer = FailingWriter(failing: 8)
    schedule.schedule(writer)
    var delays: [Duration] = []
    while let delay = timer.fire() { delays.append(delay) }
    #expect(
      delays == [
        .milliseconds(50), .seconds(1), .seconds(2), .seconds(4), .seconds(8), .seconds(16), .seconds(32),
        .seconds(60), .seconds(60),
      ])
    #expect(writer.attempts.withLock { $0 } == 9 && !writer.hasPendingChanges)
    #expect(!schedule.isScheduled(writer) && schedule.failures(of: writer) == 0, "nothing left scheduled")
    #expect(!Diagnostics.reported(mentioning: "/flush-schedule-test").isEmpty, "each failure is reported")
  }

  @Test func aNewWriteDuringTheBackoffIsTriedAfterTheCoalescingDelay() {
    let timer = ManualTimer()
    let schedule = schedule(timer)
    let writer = FailingWriter(failing: 2)
    schedule.schedule(writer)
    timer.fire()  // fails; backs off 1 s
    #expect(timer.delays == [.seconds(1)])
    schedule.schedule(writer)  // a new write: tried again without waiting out the backoff
    #expect(timer.delays == [.seconds(1), .milliseconds(50)])
    timer.fire()  // the backoff's retry fails again
    timer.fire()  // the write's retry succeeds
    #expect(!writer.hasPendingChanges)
  }

  @Test func writesWhileScheduledAreCoalesced() {
    let timer = ManualTimer()
    let schedule = schedule(timer)
    let writer = FailingWriter(failing: 0)
    for _ in 0..<5 { schedule.schedule(writer) }
    #expect(timer.delays == [.milliseconds(50)], "one flush for five writes")
    timer.fire()
    #expect(timer.isEmpty && !writer.hasPendingChanges)
  }
}

/// An expiring activity called as Apple documents it: the second call, with `expired == true`,
/// while the first one's flush runs, returns only once that flush has finished (suspended while
/// it holds the file lock, the app would be terminated, 0xdead10cc); a flush that has not taken
/// the lock when the activity expires leaves its writes pending, unreported.
@Suite(.deadlockWatchdog) struct ExpiringActivityTests {
  @Test func theExpiringCallWaitsForTheFlushInProgress() {
    let events = Locked<[String]>([])
    let inWork = DispatchSemaphore(value: 0)
    let proceed = DispatchSemaphore(value: 0)
    let activity = ExpiringActivity { expired in
      events.withLock { $0.append("work(expired: \(expired))") }
      inWork.signal()
      proceed.wait()
      events.withLock { $0.append("work finished") }
    }
    let first = DispatchGroup()
    first.enter()
    Thread.detachNewThread {
      activity.handle(expired: false)
      first.leave()
    }
    inWork.wait()
    let second = DispatchGroup()
    second.enter()
    Thread.detachNewThread {
      ExpiringActivity.$beforeWaitingForWork.withValue(
        TestHook {
          events.withLock { $0.append("expiring call waits") }
          proceed.signal()
        }
      ) {
        activity.handle(expired: true)
      }
      events.withLock { $0.append("expiring call returned") }
      second.leave()
    }
    second.wait()
    first.wait()
    #expect(
      events.withLock { $0 } == [
        "work(expired: false)", "expiring call waits", "work finished", "expiring call returned",
      ])
    #expect(activity.isExpiring)
  }

  @Test func anExpiredFlushTakesNoLockAndKeepsItsWrites() throws {
    Diagnostics.start()
    let directory = TemporaryDirectory()
    let file = directory.file("group.plist")
    // No background flush: the process-wide schedule's could write the file between two lines.
    let schedule = FlushSchedule(
      timer: FlushScheduleTests.ManualTimer().timer, start: { work in work(false) })
    let backend = PropertyListFileBackend(url: file, format: .binary, journal: nil, flushes: schedule)
    backend.setValue(.string("kept"), forKey: "k")
    let activity = ExpiringActivity { _ in }
    activity.handle(expired: true)
    #expect(throws: ExpiringActivity.Expired.self) {
      try ExpiringActivity.$current.withValue(activity) { try backend.flush() }
    }
    #expect(backend.hasPendingChanges && backend.value(forKey: "k") == .string("kept"))
    #expect(!FileManager.default.fileExists(atPath: file.path + ".lock"), "no lock was taken")
    #expect(Diagnostics.reported(mentioning: file.path).isEmpty, "not a failure")
    try backend.flush()
    #expect(PropertyListFileBackend(url: file).value(forKey: "k") == .string("kept"))
  }

  /// A first call that comes with `expired == true` runs no flush: the writes stay pending and
  /// are scheduled again.
  @Test func anActivityThatStartsExpiredLeavesTheWritesScheduled() {
    let timer = FlushScheduleTests.ManualTimer()
    let schedule = FlushSchedule(timer: timer.timer, start: { work in work(true) })
    let writer = FlushScheduleTests.FailingWriter(failing: 0)
    schedule.schedule(writer)
    timer.fire()
    #expect(writer.attempts.withLock { $0 } == 0 && writer.hasPendingChanges)
    #expect(schedule.isScheduled(writer) && timer.delays == [.milliseconds(50)])
  }
}

/// The registry's migrations at first use (a configured migration, a declared rename, a store
/// move), as an app meets them: the helper's module declares them, runs them by reading its
/// preferences, and ends at 0–120 ms, normally or by SIGKILL. After a normal exit the values
/// are under their new keys and stores, and plain `UserDefaults.standard` in the next process
/// reads them once `PreferenceRegistry.registerDefaults()` has run; after a kill each value is
/// in its old place, its new one, or both. Half the rounds run the processes with a `HOME` of
/// their own, as a test runner does.
@Suite struct RegistryMigrationDurabilityTests {
  // Linux only: reads corelibs' files directly, wherever corelibs keeps them ($XDG_CONFIG_HOME
  // or $HOME/.config). Its twin below holds the same promise on every platform.
  #if !canImport(Darwin)
    @Test func theRegistrysMigrationsSurviveExitsAndKillsAtAnyDelay() throws {
      let rounds = Intensity.rounds(quick: 12, long: 90)
      var failures: [String] = []
      for round in 0..<rounds {
        // Half the rounds give the processes a home of their own instead (a test runner's), with
        // no absolute XDG_CONFIG_HOME: the files are then under $HOME/.config.
        let root = TemporaryDirectory()
        let ownHome = round % 2 == 1
        let environment =
          ownHome
          ? ["HOME": root.url.path, "XDG_CONFIG_HOME": "not-absolute"] : ["XDG_CONFIG_HOME": root.url.path]
        let config = ownHome ? root.file(".config") : root.url
        let standard = config.appendingPathComponent("PreferencesTestHelper.plist")
        let moved = config.appendingPathComponent("swift-preferences-helper-moved.plist")
        let seed = PropertyListFileBackend(url: standard)
        for (key, value) in ["Migrating.username": "Paul", "Migrating.nick": "P", "Migrating.theme": "dark"] {
          seed.setValue(.string(value), forKey: key)
        }
        try seed.flush()
        let delay = (round * 120_000 / max(1, rounds - 1)) + Int.random(in: 0...2_000)
        let ending = ["return", "exit", "kill-me"][round % 3]
        let label = "round \(round) (\(ending), \(delay) µs\(ownHome ? ", own HOME" : ""))"
        let read = try runHelper(
          ["registry-migrate-exit-after", "\(delay)", ending], expectSuccess: false, environment: environment)
        if read != "Paul|P|dark" { failures.append("\(label): the migrating process read \(read)") }
        let old = PropertyListFileBackend(url: standard).allValues()
        let new = PropertyListFileBackend(url: moved).allValues()
        let placed: [(String, PropertyListValue?, PropertyListValue?)] = [
          ("userName", old["Migrating.userName"], old["Migrating.username"]),
          ("nickname", old["Migrating.nickname"], old["Migrating.nick"]),
          ("theme", new["Migrating.theme"], old["Migrating.theme"]),
        ]
        let expected: [String: PropertyListValue] = [
          "userName": .string("Paul"), "nickname": .string("P"), "theme": .string("dark"),
        ]
        for (name, newPlace, oldPlace) in placed {
          if ending == "kill-me" {
            if newPlace != expected[name] && oldPlace != expected[name] {
              failures.append("\(label): \(name) is gone")
            }
          } else {
            if newPlace != expected[name] {
              failures.append("\(label): \(name) is \(String(describing: newPlace))")
            }
            if oldPlace != nil { failures.append("\(label): \(name)'s old place still holds it") }
          }
        }
        if ending != "kill-me" {
          let direct = try runHelper(
            ["registered-raw", "Migrating.userName", "Migrating.nickname"], environment: environment)
          if direct != "Paul|P" {
            failures.append("\(label): UserDefaults.standard in the next process reads \(direct)")
          }
        }
      }
      #expect(failures.isEmpty, "\(failures.count) problems in \(rounds) rounds: \(failures.prefix(5))")
    }
  #endif

  /// The same promise through the platform's own UserDefaults on every platform (the real one
  /// on macOS, where the test above does not compile; corelibs' on Linux): each round seeds the
  /// helper's domain through plain UserDefaults in one process, migrates in another that
  /// returns, exits or is killed at a delay, and reads both domains back in a third.
  @Test func theRegistrysMigrationsSurviveExitsAndKillsInPlainUserDefaults() throws {
    let rounds = Intensity.rounds(quick: 6, long: 30)
    let config = TemporaryDirectory()
    #if canImport(Darwin)
      // The user's real domains: the helper's own and the suite it moves to, emptied after.
      let environment: [String: String] = [:]
    #else
      let environment = ["XDG_CONFIG_HOME": config.url.path]
    #endif
    let moved = "swift-preferences-helper-moved"
    defer {
      _ = try? runHelper(["raw-domain", "standard"], environment: environment)
      _ = try? runHelper(["raw-domain", moved], environment: environment)
    }
    var failures: [String] = []
    for round in 0..<rounds {
      _ = try runHelper(
        ["raw-domain", "standard", "Migrating.username=Paul", "Migrating.nick=P", "Migrating.theme=dark"],
        environment: environment)
      _ = try runHelper(["raw-domain", moved], environment: environment)
      let delay = (round * 120_000 / max(1, rounds - 1)) + Int.random(in: 0...2_000)
      let ending = ["return", "exit", "kill-me"][round % 3]
      let label = "round \(round) (\(ending), \(delay) µs)"
      let read = try runHelper(
        ["registry-migrate-exit-after", "\(delay)", ending], expectSuccess: false, environment: environment)
      if read != "Paul|P|dark" { failures.append("\(label): the migrating process read \(read)") }
      let old = try runHelper(
        [
          "raw-values", "standard", "Migrating.userName", "Migrating.username", "Migrating.nickname",
          "Migrating.nick", "Migrating.theme",
        ], environment: environment
      ).split(separator: "|").map(String.init)
      let new = try runHelper(["raw-values", moved, "Migrating.theme"], environment: environment)
      guard old.count == 5 else {
        failures.append("\(label): read \(old)")
        continue
      }
      let placed = [
        ("userName", old[0], old[1]), ("nickname", old[2], old[3]), ("theme", new, old[4]),
      ]
      let expected = ["userName": "Paul", "nickname": "P", "theme": "dark"]
      for (name, newPlace, oldPlace) in placed {
        if ending == "kill-me" {
          if newPlace != expected[name] && oldPlace != expected[name] {
            failures.append("\(label): \(name) is gone")
          }
        } else {
          if newPlace != expected[name] { failures.append("\(label): \(name) is \(newPlace)") }
          if oldPlace != "none" { failures.append("\(label): \(name)'s old place still holds \(oldPlace)") }
        }
      }
    }
    withExtendedLifetime(config) {}
    #expect(failures.isEmpty, "\(failures.count) problems in \(rounds) rounds: \(failures.prefix(5))")
  }
}

/// What code that reads `UserDefaults` directly sees after the module's first read, made on a
/// background thread while the main thread is blocked (a document-based app reading its
/// settings off the main thread at launch): every default the registry can evaluate there,
/// including those from a plain `static let` and a memberwise initializer, and the defaults of
/// every store the module's preferences name, not only the one read (a suite, and a store read
/// from a plain `static let`).
@Suite struct DirectReaderTests {
  #if !canImport(Darwin)
    @Test func directReadersOnABackgroundThreadSeeEveryStoresDefaults() throws {
      let config = TemporaryDirectory()
      let seen = try runHelper(["direct-readers"], environment: ["XDG_CONFIG_HOME": config.url.path])
      #expect(seen == #"0.8|{"count":3}|suite default|7"#)
    }
  #endif
}
