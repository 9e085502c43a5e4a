import Foundation
import Testing

@testable import Preferences

/// Every acknowledged flush follows the rules for an atomic, durable replace (the rules SQLite
/// follows and the ALICE crash-consistency study checks): the new file's data is synced before
/// the rename, the directory is synced after it, and every directory the store creates is made
/// durable by syncing its parent. The file-system calls of real flushes are recorded and
/// checked in order.
@Suite struct AtomicReplaceTests {
  typealias Call = FileSystemJournal.Call

  /// What could be lost or torn if power failed right after the flush returned.
  static func violations(_ calls: [Call], target: String) -> [String] {
    var problems: [String] = []
    func parent(_ path: String) -> String { (path as NSString).deletingLastPathComponent }
    let renames = calls.enumerated().compactMap { index, call -> (Int, String)? in
      if case .rename(let from, let to) = call, to == target { return (index, from) }
      return nil
    }
    if renames.isEmpty { problems.append("no rename over \(target)") }
    for (index, temporary) in renames {
      let before = calls[..<index]
      guard let synced = before.lastIndex(of: .sync(temporary)) else {
        problems.append("\(temporary) renamed over the target without a sync: a crash can leave it empty")
        continue
      }
      if let written = before.lastIndex(of: .write(temporary)), written > synced {
        problems.append("\(temporary) written after its sync")
      }
      if !calls[(index + 1)...].contains(.syncDirectory(parent(target))) {
        problems.append("the rename over \(target) is not durable: its directory is never synced after it")
      }
    }
    let lastRename = renames.last?.0 ?? calls.count
    for (index, call) in calls.enumerated() {
      guard case .makeDirectory(let directory) = call else { continue }
      let synced = calls[(index + 1)...].firstIndex(of: .syncDirectory(parent(directory)))
      if synced == nil || synced! > lastRename {
        problems.append(
          "created \(directory) without syncing \(parent(directory)) before the write is acknowledged")
      }
    }
    return problems
  }

  @Test(arguments: [PropertyListFileBackend.Format.binary, .xml])
  func flushesIntoNewDirectoriesAndOverExistingFilesFollowTheRules(format: PropertyListFileBackend.Format)
    throws
  {
    let directory = TemporaryDirectory()
    let url = directory.url.appendingPathComponent("Library/Preferences/Nested/prefs.plist")
    let journal = FileSystemJournal()
    // Only the explicit flushes: a background one would make them return with nothing to write.
    let schedule = FlushSchedule(
      timer: FlushScheduleTests.ManualTimer().timer, start: { work in work(false) })
    let backend = PropertyListFileBackend(url: url, format: format, journal: journal, flushes: schedule)
    let store = PreferenceStore(backend: backend, arguments: [])
    for round in 0..<3 {
      store.set(round, forKey: "k")
      try store.flush()
      let problems = Self.violations(journal.all, target: backend.file.target.path)
      #expect(problems.isEmpty, "round \(round): \(problems)")
    }
    let created = journal.all.compactMap { call -> String? in
      if case .makeDirectory(let path) = call { return path }
      return nil
    }
    #expect(created.count == 3, "Library, Preferences and Nested were created: \(created)")
  }

  /// The checker finds each way a replace can lose data.
  @Test func theRulesCatchEachMissingSync() {
    let target = "/d/p.plist"
    let good: [Call] = [
      .makeDirectory("/d"), .syncDirectory("/"), .create("/d/t"), .write("/d/t"), .sync("/d/t"),
      .rename(from: "/d/t", to: target), .syncDirectory("/d"),
    ]
    #expect(Self.violations(good, target: target).isEmpty)
    for dropped in [Call.syncDirectory("/"), .sync("/d/t"), .syncDirectory("/d")] {
      #expect(Self.violations(good.filter { $0 != dropped }, target: target).count == 1, "without \(dropped)")
    }
  }

  /// The background flushes order the directory after the rename (a barrier) and leave the
  /// drive's cache alone; an explicit flush and the flush at exit flush the directory, so that
  /// what they wrote survives a power loss.
  @Test func backgroundFlushesOrderTheDirectoryAndExplicitOnesFlushIt() throws {
    let directory = TemporaryDirectory()
    let url = directory.file("prefs.plist")
    let journal = FileSystemJournal()
    let timer = FlushScheduleTests.ManualTimer()
    let schedule = FlushSchedule(timer: timer.timer, start: { work in work(false) })
    let backend = PropertyListFileBackend(url: url, format: .binary, journal: journal, flushes: schedule)
    let folder = backend.file.target.deletingLastPathComponent().path
    backend.setValue(.integer(1), forKey: "k")
    timer.fire()
    #expect(journal.all.contains(.orderDirectory(folder)), "\(journal.all)")
    #expect(!journal.all.contains(.syncDirectory(folder)), "no full flush in the background")
    let afterBackground = journal.all.count
    backend.setValue(.integer(2), forKey: "k")
    try backend.flush()
    #expect(journal.all[afterBackground...].contains(.syncDirectory(folder)), "an explicit flush is durable")
    #expect(Self.violations(Array(journal.all[afterBackground...]), target: backend.file.target.path).isEmpty)
    let afterExplicit = journal.all.count
    backend.setValue(.integer(3), forKey: "k")
    schedule.flushAll(atExit: true)
    #expect(journal.all[afterExplicit...].contains(.syncDirectory(folder)), "the exit's flush is durable")
  }
}
