import Foundation
import Testing

@testable import Preferences

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A file store shared with other processes and other users: a writer that rewrites the file in
/// place, a lock another process keeps, a link or a file another user planted.
@Suite(.deadlockWatchdog) struct FileSafetyTests {
  /// Four hundred keys, as another process's UserDefaults writes them.
  private static let othersKeys: [String: PropertyListValue] = Dictionary(
    uniqueKeysWithValues: (0..<400).map { ("Other.key\($0)", PropertyListValue.integer($0)) })

  private static func xml(_ values: [String: PropertyListValue]) throws -> Data {
    try PropertyListSerialization.data(
      fromPropertyList: values.mapValues(\.foundationObject), format: .xml, options: 0)
  }

  /// The store opens while another process (corelibs' `synchronize()`, which truncates the file
  /// and writes it in place) is half-way through its write: it waits for the write to finish and
  /// reads every key, instead of moving the half-written file aside as corrupt.
  @Test func openingAFileAnotherProcessIsRewritingInPlaceReadsItOnceWritten() throws {
    let directory = TemporaryDirectory()
    let file = directory.file("suite.plist")
    let complete = try Self.xml(Self.othersKeys)
    try complete.prefix(complete.count / 2).write(to: file)
    let retries = Locked(0)
    let backend = PropertyListFile.$whileUnsettled.withValue(
      TestHook {
        retries.withLock { $0 += 1 }
        // The other writer finishes.
        try? complete.write(to: file)
      }
    ) {
      PropertyListFileBackend(url: file, format: .xml)
    }
    #expect(retries.withLock { $0 } == 1)
    #expect(backend.allValues() == Self.othersKeys)
    #expect(directory.contents() == ["suite.plist"], "nothing moved aside")
  }

  /// A flush that finds the file half-written by another process waits for that write and merges
  /// with it: the other process's 400 keys and this one's all stay.
  @Test func flushingWhileAnotherProcessRewritesInPlaceKeepsItsKeys() throws {
    let directory = TemporaryDirectory()
    let file = directory.file("suite.plist")
    let backend = PropertyListFileBackend(url: file, format: .xml)
    let complete = try Self.xml(Self.othersKeys)
    try complete.prefix(10).write(to: file)
    backend.setValue(.string("mine"), forKey: "Mine.key")
    try PropertyListFile.$whileUnsettled.withValue(TestHook { try? complete.write(to: file) }) {
      try backend.flush()
    }
    guard case .values(let onDisk) = try PropertyListFile(url: file, format: .xml).read() else {
      Issue.record("the file does not read")
      return
    }
    #expect(onDisk.count == 401)
    #expect(onDisk["Mine.key"] == .string("mine") && onDisk["Other.key399"] == .integer(399))
    #expect(directory.contents().filter { $0.contains("corrupt") }.isEmpty)
  }

  /// A file that stays unparseable, unchanged, is corrupt: moved aside (never overwritten) once
  /// it has stayed so for the settling time.
  @Test func aFileThatStaysUnparseableIsStillMovedAside() throws {
    let directory = TemporaryDirectory()
    let file = directory.file("suite.plist")
    try Data("<?xml version=\"1.0\"?><plist><dict><key>a</key>".utf8).write(to: file)
    let retries = Locked(0)
    let backend = PropertyListFile.$whileUnsettled.withValue(TestHook { retries.withLock { $0 += 1 } }) {
      PropertyListFileBackend(url: file, format: .xml)
    }
    #expect(backend.allValues().isEmpty)
    #expect(retries.withLock { $0 } >= 10, "read again while it could still be a write in progress")
    #expect(directory.contents().contains { $0.hasPrefix("suite.corrupt-") })
  }

  /// Another process keeps the lock (stopped in a debugger, another user's process): a flush
  /// gives up after a bounded wait and reports it, the value stays pending and readable, and the
  /// next flush after the lock is released writes it.
  @Test func aLockHeldElsewhereDelaysTheWriteInsteadOfStoppingTheProcess() throws {
    let directory = TemporaryDirectory()
    let file = directory.file("settings.plist")
    let backend = PropertyListFileBackend(url: file)
    backend.setValue(.string("v"), forKey: "k")
    let holder = open(file.path + ".lock", O_RDWR | O_CREAT, 0o600)
    #expect(holder >= 0)
    #expect(flock(holder, LOCK_EX) == 0)
    #expect(throws: PreferenceError.self) {
      try PropertyListFile.$lockWaitOverride.withValue(.milliseconds(50)) { try backend.flush() }
    }
    #expect(backend.hasPendingChanges)
    #expect(backend.value(forKey: "k") == .string("v"))
    flock(holder, LOCK_UN)
    close(holder)
    try backend.flush()
    #expect(PropertyListFileBackend(url: file).value(forKey: "k") == .string("v"))
  }

  /// A process whose lock is held elsewhere still exits: its exit flush waits a bounded time,
  /// reports the value as lost, and returns.
  @Test func aLockHeldElsewhereNeverStopsTheProcessFromExiting() throws {
    let directory = TemporaryDirectory()
    let file = directory.file("settings.plist")
    let holder = open(file.path + ".lock", O_RDWR | O_CREAT, 0o600)
    #expect(flock(holder, LOCK_EX) == 0)
    defer { close(holder) }
    // The helper sets a value and returns from main; it must exit (the watchdog aborts the run
    // if it does not).
    try runHelper(["set-and-exit", file.path, "k", "v"])
    #expect(!FileManager.default.fileExists(atPath: file.path), "nothing written while the lock is held")
  }

  /// The uid that stands for "another user" in these tests: a real one (nobody's) where the test
  /// runs as root and can give a file away, else the test's own, with the store told it writes
  /// as someone else.
  private static var isRoot: Bool { geteuid() == 0 }
  private static let nobody: uid_t = 65534

  /// Root writing a store in a folder another user can write: that user's symbolic link is not
  /// followed. The file it points at is neither read, moved aside as corrupt, nor replaced, and no
  /// lock file is made beside it; the store reports the refusal and keeps its writes pending.
  @Test func aLinkAnotherUserPlantedIsNotFollowed() throws {
    let directory = TemporaryDirectory()
    let victim = directory.file("victim.conf")
    try Data("not a property list: a file the link's owner wants moved".utf8).write(to: victim)
    let link = directory.file("settings.plist")
    try FileManager.default.createSymbolicLink(at: link, withDestinationURL: victim)
    let writer: uid_t
    if Self.isRoot {
      #expect(lchown(link.path, Self.nobody, Self.nobody) == 0)
      writer = 0
    } else {
      writer = geteuid() + 1
    }
    Diagnostics.start()
    let backend = PropertyListFileBackend(url: link, format: .binary, journal: nil, writer: writer)
    #expect(backend.allValues().isEmpty)
    backend.setValue(.string("secret"), forKey: "token")
    #expect(throws: PreferenceError.self) { try backend.flush() }
    #expect(
      try Data(contentsOf: victim) == Data("not a property list: a file the link's owner wants moved".utf8))
    #expect(Set(directory.contents()) == ["settings.plist", "victim.conf"], "nothing moved, no lock file")
    #expect(!Diagnostics.reported(mentioning: link.path).isEmpty, "the refusal is reported")
  }

  /// Root replacing a file another user made (readable by everyone) does not keep that owner or
  /// mode: the new file is root's, readable by root only, so the token it writes stays private.
  @Test func anotherUsersFileIsReplacedByThePrivateFileOfTheUserWriting() throws {
    let directory = TemporaryDirectory()
    let file = directory.file("settings.plist")
    try PropertyListFile(url: file, format: .binary).withExclusiveLock {
      try PropertyListFile(url: file, format: .binary).write([:])
    }
    #expect(chmod(file.path, 0o666) == 0)
    let writer: uid_t
    if Self.isRoot {
      #expect(chown(file.path, Self.nobody, Self.nobody) == 0)
      writer = 0
    } else {
      writer = geteuid() + 1
    }
    let backend = PropertyListFileBackend(url: file, format: .binary, journal: nil, writer: writer)
    backend.setValue(.string("secret"), forKey: "token")
    try backend.flush()
    let attributes = try FileManager.default.attributesOfItem(atPath: file.path)
    #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
    if Self.isRoot { #expect((attributes[.ownerAccountID] as? NSNumber)?.intValue == 0) }
    let lock = try FileManager.default.attributesOfItem(atPath: file.path + ".lock")
    #expect((lock[.posixPermissions] as? NSNumber)?.intValue == 0o600, "the lock file is private too")
  }

  /// The folder above the store's is renamed away and made again (a sync tool or a restore
  /// replacing a folder): the store's events move to the new folder, and another process's
  /// write there still reaches observers. The watch stayed on the renamed folder, and the store
  /// heard nothing again.
  @Test func renamingAnAncestorAwayAndMakingItAgainKeepsTheEventsComing() throws {
    let directory = TemporaryDirectory()
    let file = directory.url.appendingPathComponent("parent/settings/prefs.plist")
    let store = PreferenceStore(backend: PropertyListFileBackend(url: file), arguments: [])
    store.set("before", forKey: "k")
    try store.flush()
    let heard = DispatchSemaphore(value: 0)
    let fenced = DispatchSemaphore(value: 0)
    let observation = store.observe("k", default: "") { value in
      if value == "fence" { fenced.signal() }
      if value == "after" { heard.signal() }
    }
    // A fence: the file replaced by the test, whose last event (the rename onto the file's name)
    // is heard after every event of the flush above (one queue, in order). Without it, the
    // flush's events could be handled after the rename below, and the watch would move on that
    // alone, never needing the ancestors' watch this test is about.
    let fence = try PropertyListSerialization.data(
      fromPropertyList: ["k": "fence"], format: .binary, options: 0)
    try fence.write(to: file, options: .atomic)
    #expect(fenced.wait(timeout: .now() + 30) == .success, "the fence write is heard")
    try FileManager.default.moveItem(
      at: directory.url.appendingPathComponent("parent"),
      to: directory.url.appendingPathComponent("parent.old"))
    // Another process writes the store's path, which no longer exists: its folders are made anew.
    try runHelper(["set-and-exit", file.path, "k", "after"])
    #expect(heard.wait(timeout: .now() + 30) == .success, "the write under the new folder is heard")
    #expect(store.value(forKey: "k", default: "") == "after")
    withExtendedLifetime(observation) {}
  }

  /// The folder above the store's is renamed away and made again after the store's directory
  /// watch started and before its ancestors' watches did, so no watch hears the rename: the
  /// watch still moves to the new folder, and another process's write there arrives. It stayed
  /// on the renamed folder (1 run in 60 of the test above on a loaded machine). The interleaving
  /// is forced, not waited for.
  @Test func anAncestorRenamedBeforeItsWatchStartsIsStillFollowed() throws {
    let directory = TemporaryDirectory()
    let parent = directory.url.appendingPathComponent("parent")
    let file = parent.appendingPathComponent("settings/prefs.plist")
    let writer = PropertyListFileBackend(url: file)
    writer.setValue(.string("before"), forKey: "k")
    try writer.flush()
    let renamed = Locked(false)
    let old = directory.url.appendingPathComponent("parent.old")
    let store = FileWatch.$afterWatchStarts.withValue(
      TestHook {
        guard
          !renamed.withLock({ renamed in
            defer { renamed = true }; return renamed
          })
        else { return }
        try? FileManager.default.moveItem(at: parent, to: old)
        try? FileManager.default.createDirectory(
          at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
      }
    ) {
      PreferenceStore(backend: PropertyListFileBackend(url: file), arguments: [])
    }
    #expect(renamed.withLock { $0 })
    try runHelper(["set-and-exit", file.path, "k", "after"])
    #expect(waitUntil { store.value(forKey: "k", default: "none") == "after" })
  }

  #if os(Linux)
    /// The user's inotify watch limit is used up (IDEs and sync tools take thousands): the store
    /// says so once, and finds other processes' writes by polling while it is observed. It went
    /// silent.
    @Test func aRefusedWatchIsReportedAndObservedStoresPollInstead() throws {
      Diagnostics.start()
      let directory = TemporaryDirectory()
      DirectoryEvents.failWatchesForTests(under: directory.url.path)
      defer { DirectoryEvents.failWatchesForTests(under: directory.url.path, false) }
      let file = directory.file("prefs.plist")
      let backend = PropertyListFileBackend(url: file)
      let store = PreferenceStore(backend: backend, arguments: [])
      store.set("before", forKey: "k")
      try store.flush()
      #expect(
        Diagnostics.reported(mentioning: "changes other processes make to '\(file.path)' cannot be watched")
          .count
          == 1)
      #expect(!backend.isPolling, "nothing runs while nothing observes the store")
      let heard = DispatchSemaphore(value: 0)
      let observation = store.observe("k", default: "") { value in
        if value == "after" { heard.signal() }
      }
      #expect(waitUntil { backend.isPolling })
      try runHelper(["set-and-exit", file.path, "k", "after"])
      #expect(heard.wait(timeout: .now() + 30) == .success, "the poll finds the other process's write")
      observation.cancel()
      #expect(waitUntil { !backend.isPolling }, "polling stops with the last observer")
    }
  #endif
}
