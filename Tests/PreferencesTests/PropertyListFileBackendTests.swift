import Foundation
import Testing

@testable import Preferences

@Suite struct PropertyListFileBackendTests {
  @Test func writesAreAtomicReplacementsWithPrivatePermissions() throws {
    let directory = TemporaryDirectory()
    let url = directory.file("nested/dir/p.plist")
    let backend = PropertyListFileBackend(url: url, format: .xml)
    backend.setValue(.string("v"), forKey: "k")
    try backend.flush()
    let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
    #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
    let inode = (attributes[.systemFileNumber] as? NSNumber)?.uint64Value
    backend.setValue(.string("w"), forKey: "k")
    try backend.flush()
    let after = (try FileManager.default.attributesOfItem(atPath: url.path)[.systemFileNumber] as? NSNumber)?
      .uint64Value
    #expect(inode != after, "a flush replaces the file by rename; it does not write in place")
    // No temporary files are left behind.
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: url.deletingLastPathComponent().path).sorted() == [
        "p.plist", "p.plist.lock",
      ])
  }

  @Test func writesReachDiskShortlyAfterwardsWithoutAFlush() throws {
    let directory = TemporaryDirectory()
    let url = directory.file("p.plist")
    let backend = PropertyListFileBackend(url: url)
    backend.setValue(.integer(1), forKey: "k")
    #expect(waitUntil { FileManager.default.fileExists(atPath: url.path) }, "no flush was called")
    #expect(PropertyListFileBackend(url: url).value(forKey: "k") == .integer(1))
  }

  /// A file another process keeps locked delays only its own store's writes.
  @Test func aBlockedFileDoesNotDelayOtherStoresWrites() throws {
    let directory = TemporaryDirectory()
    let blockedURL = directory.file("blocked.plist")
    let freeURL = directory.file("free.plist")
    let lock = open(blockedURL.path + ".lock", O_RDWR | O_CREAT, 0o600)
    #expect(lock >= 0 && flock(lock, LOCK_EX) == 0)
    let blocked = PropertyListFileBackend(url: blockedURL)
    let free = PropertyListFileBackend(url: freeURL)
    let waiting = DispatchSemaphore(value: 0)
    PropertyListFile.lockContentionForTests.withLock { $0[blockedURL.path + ".lock"] = { waiting.signal() } }
    defer {
      _ = PropertyListFile.lockContentionForTests.withLock {
        $0.removeValue(forKey: blockedURL.path + ".lock")
      }
    }
    blocked.setValue(.integer(1), forKey: "k")
    #expect(waiting.wait(timeout: .now() + 10) == .success, "the blocked store's flush waits for the lock")
    free.setValue(.integer(2), forKey: "k")
    #expect(waitUntil { FileManager.default.fileExists(atPath: freeURL.path) })
    #expect(!FileManager.default.fileExists(atPath: blockedURL.path))
    flock(lock, LOCK_UN)
    close(lock)
    #expect(
      waitUntil { PropertyListFileBackend(url: blockedURL).value(forKey: "k") == .integer(1) })
  }

  @Test func aNormalExitWritesPendingValues() throws {
    let directory = TemporaryDirectory()
    let url = directory.file("exit.plist")
    try runHelper(["set-and-exit", url.path, "key", "value"])
    #expect(PropertyListFileBackend(url: url).value(forKey: "key") == .string("value"))
  }

  @Test func userDefaultsWritesSurviveANormalExit() throws {
    let suite = TemporarySuite()
    try runHelper(["set-and-exit", suite.target, "key", "value"])
    #expect(UserDefaults(suiteName: suite.name)!.string(forKey: "key") == "value")
  }

  @Test func flushMergesKeysWrittenByAnotherWriter() throws {
    let directory = TemporaryDirectory()
    let url = directory.file("p.plist")
    let first = PropertyListFileBackend(url: url)
    let second = PropertyListFileBackend(url: url)
    first.setValue(.integer(1), forKey: "a")
    second.setValue(.integer(2), forKey: "b")
    try first.flush()
    try second.flush()
    #expect(second.allValues() == ["a": .integer(1), "b": .integer(2)])
    #expect(PropertyListFileBackend(url: url).allValues() == ["a": .integer(1), "b": .integer(2)])
    // A removal is a change like any other.
    first.setValue(nil, forKey: "b")
    try first.flush()
    #expect(PropertyListFileBackend(url: url).allValues() == ["a": .integer(1)])
  }

  @Test func twoProcessesWritingDifferentKeysLoseNothing() async throws {
    let directory = TemporaryDirectory()
    let url = directory.file("shared.plist")
    let count = Intensity.rounds(quick: 200, long: 1000)
    async let a = runHelperAsync(["write-loop", url.path, "a", "\(count)"])
    async let b = runHelperAsync(["write-loop", url.path, "b", "\(count)"])
    #expect(try await (a, b) == (0, 0))
    let values = PropertyListFileBackend(url: url).allValues()
    #expect(values.count == 2 * count)
    for index in 0..<count {
      #expect(values["a-\(index)"] == .integer(Int64(index)))
      #expect(values["b-\(index)"] == .integer(Int64(index)))
    }
  }

  @Test(arguments: [
    ("garbage", Data("this is not a plist {".utf8)),
    ("empty", Data()),
    (
      "truncated",
      Data(#"<?xml version="1.0" encoding="UTF-8"?><plist version="1.0"><dict><key>a</key><integer>1"#.utf8)
    ),
    (
      "wrongRoot",
      try! PropertyListSerialization.data(fromPropertyList: ["an", "array"], format: .xml, options: 0)
    ),
    ("binaryJunk", Data([0x62, 0x70, 0x6C, 0x69, 0x73, 0x74, 0x30, 0x30, 0xFF, 0x00])),
  ])
  func corruptFilesAreMovedAsideReportedAndNeverOverwritten(name: String, contents: Data) throws {
    Diagnostics.start()
    let directory = TemporaryDirectory()
    let url = directory.file("corrupt-\(name)-\(UUID().uuidString).plist")
    try contents.write(to: url)
    let store = PreferenceStore(backend: PropertyListFileBackend(url: url), arguments: [])
    // The app keeps running on defaults.
    #expect(store.value(forKey: "a", default: 5) == 5)
    let reports = Diagnostics.reported(mentioning: url.path)
    #expect(reports.count == 1)
    guard case .corruptFile(let path, _, let preservedAt)? = reports.first else {
      Issue.record("expected a corruptFile diagnostic, got \(reports)")
      return
    }
    #expect(path == url.path)
    let preserved = try #require(preservedAt)
    #expect(
      try Data(contentsOf: URL(fileURLWithPath: preserved)) == contents,
      "the corrupt file is kept byte for byte")
    #expect(preserved.contains(".corrupt-"))
    // New writes go to a new file; the preserved one is untouched.
    store.set(1, forKey: "a")
    try store.flush()
    #expect(PropertyListFileBackend(url: url).value(forKey: "a") == .integer(1))
    #expect(try Data(contentsOf: URL(fileURLWithPath: preserved)) == contents)
  }

  @Test func reloadPicksUpAnotherWritersChanges() throws {
    let directory = TemporaryDirectory()
    let url = directory.file("p.plist")
    let reader = PropertyListFileBackend(url: url)
    let writer = PropertyListFileBackend(url: url)
    writer.setValue(.string("x"), forKey: "k")
    try writer.flush()
    #expect(reader.value(forKey: "k") == nil)
    #expect(reader.reload() == ["k"])
    #expect(reader.value(forKey: "k") == .string("x"))
    #expect(reader.reload() == [])
  }
}

@Suite struct BackendLifetimeTests {
  /// A store released with writes pending stays alive (held by the flush schedule) until they
  /// are written, then goes.
  @Test func aReleasedFileBackendWritesItsPendingChanges() {
    let directory = TemporaryDirectory()
    let url = directory.file("released.plist")
    weak var released: PropertyListFileBackend?
    do {
      let backend = PropertyListFileBackend(url: url)
      released = backend
      let store = PreferenceStore(backend: backend, arguments: [])
      store.set("kept", forKey: "k")
    }
    #expect(waitUntil { PropertyListFileBackend(url: url).value(forKey: "k") == .string("kept") })
    #expect(waitUntil { released == nil }, "freed once nothing is pending")
  }
}
