import Foundation
import Testing

@testable import Preferences

/// Preferences of the size-limit tests, read and written through the wrapper.
struct SizeLimitGallery {
  @Preference var thumbnail = Data()
  @Preference var title = "Untitled"
  @Preference var count = 0
}

/// A `UserDefaults` domain at its platform's size limit, against a stand-in that enforces it as
/// CFPreferences does (a write that would bring the domain to the limit is refused and not
/// persisted).
@Suite(.deadlockWatchdog) struct DomainSizeLimitTests {
  /// One simulated machine: its preferences daemon (the domains, across restarts) and the folder
  /// beside the store where values are kept outside the domain.
  final class Machine {
    let daemon: SimulatedPreferencesDaemon
    let name = "com.example.size-\(UUID().uuidString)"
    let directory: URL?
    private let temporary = TemporaryDirectory()

    init(limit: DomainSizeLimit, keepsValues: Bool = true) {
      daemon = SimulatedPreferencesDaemon(sizeLimit: limit)
      directory = keepsValues ? temporary.url.appendingPathComponent("kept") : nil
    }

    /// A process's object of the domain (other code's `UserDefaults`).
    func defaults() -> SimulatedUserDefaults {
      SimulatedUserDefaults(daemon: daemon, name: name, keptValuesDirectory: directory)
    }

    /// A process's store of the domain: a new one is a restart.
    func backend(_ defaults: SimulatedUserDefaults? = nil) -> UserDefaultsBackend {
      UserDefaultsBackend(
        suiteName: nil, domain: defaults ?? self.defaults(), activity: nil, scheduleAnnouncement: { $0() })
    }

    func store() -> PreferenceStore { PreferenceStore(backend: backend(), arguments: []) }

    /// The files values are kept in.
    var keptFiles: [String] {
      guard let directory else { return [] }
      return ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).sorted()
    }
  }

  static func bytes(_ count: Int, seed: UInt8 = 0) -> Data {
    Data((0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31) &+ seed })
  }

  /// Past iOS's and macOS's 4 MiB, and watchOS's 1 MiB: every other key persists across a
  /// restart, the large value reads back, and a diagnostic names it.
  @Test(arguments: [(DomainSizeLimit.fourMebibytes, 5_000_000), (DomainSizeLimit.oneMebibyte, 1_200_000)])
  func aValuePastTheLimitLosesNoOtherKey(limit: DomainSizeLimit, size: Int) {
    Diagnostics.start()
    let machine = Machine(limit: limit)
    let large = Self.bytes(size)
    PreferenceStandIns().run {
      PreferenceStore.default = machine.store()
      let gallery = SizeLimitGallery()
      gallery.title = "Before"
      gallery.thumbnail = large
      gallery.title = "After"
      gallery.count = 7
    }
    #expect(machine.daemon.refusedWrites.withLock { $0 }.isEmpty, "the domain never reached its limit")
    #expect(machine.keptFiles.count == 1)
    // The next launch.
    PreferenceStandIns().run {
      PreferenceStore.default = machine.store()
      let gallery = SizeLimitGallery()
      #expect(gallery.thumbnail == large)
      #expect(gallery.title == "After")
      #expect(gallery.count == 7)
    }
    let named = Diagnostics.reported(
      mentioning: "'SizeLimitGallery.thumbnail' (\(size + 26) bytes) would bring")
    #expect(!named.isEmpty, "a diagnostic names the value kept in a file")
  }

  /// What the stand-in does without the library's files: the write that passes the limit is
  /// refused, so the large value is lost (the test above fails without them).
  @Test func withoutKeptFilesTheDomainRefusesTheWrite() {
    let machine = Machine(limit: .oneMebibyte, keepsValues: false)
    let store = machine.store()
    store.set("Before", forKey: "title")
    store.set(Self.bytes(1_200_000), forKey: "thumbnail")
    #expect(machine.daemon.refusedWrites.withLock { $0 } == ["thumbnail"])
    #expect(machine.store().value(forKey: "thumbnail", default: Data()).isEmpty)
  }

  /// A value kept in a file leaves it when it shrinks or is removed; a new large value gets a new
  /// file and the old one goes.
  @Test func theFileGoesWhenTheValueShrinksOrIsRemoved() throws {
    let machine = Machine(limit: .oneMebibyte)
    let defaults = machine.defaults()
    let store = PreferenceStore(backend: machine.backend(defaults), arguments: [])
    store.set(Self.bytes(200_000), forKey: "thumbnail")
    let first = machine.keptFiles
    #expect(first.count == 1)
    #expect(KeptValues.fileName(of: defaults.storedValue(forKey: "thumbnail")) == first.first)
    store.set(Self.bytes(300_000, seed: 1), forKey: "thumbnail")
    #expect(machine.keptFiles.count == 1 && machine.keptFiles != first, "a new file, the old one removed")
    #expect(machine.store().value(forKey: "thumbnail", default: Data()) == Self.bytes(300_000, seed: 1))
    store.set(Self.bytes(10), forKey: "thumbnail")
    #expect(machine.keptFiles.isEmpty)
    #expect(
      defaults.storedValue(forKey: "thumbnail") == .data(Self.bytes(10)), "small values stay in the domain")
    store.set(Self.bytes(200_000), forKey: "thumbnail")
    #expect(machine.keptFiles.count == 1)
    store.removeValue(forKey: "thumbnail")
    #expect(machine.keptFiles.isEmpty)
    #expect(defaults.storedValue(forKey: "thumbnail") == nil)
  }

  /// Values other code keeps in the domain count: a domain past half its limit names its largest
  /// keys, and a value that would bring it to three quarters is kept in a file, however small.
  @Test func aDomainNearItsLimitNamesItsLargestKeys() {
    Diagnostics.start()
    let machine = Machine(limit: .oneMebibyte)
    let defaults = machine.defaults()
    // Other code's values: 600,000 bytes, under a large value each.
    for index in 0..<6 {
      defaults.set(.data(Self.bytes(100_000, seed: UInt8(index))), forKey: "legacy.\(index)")
    }
    let store = PreferenceStore(backend: machine.backend(defaults), arguments: [])
    store.set("a title", forKey: "title")
    let warnings = Diagnostics.reported(mentioning: "legacy.0 (100008 bytes)").filter {
      if case .domainNearSizeLimit(_, let bytes, let limit, let largest) = $0 {
        bytes > limit / 2 && largest.count == 3
      } else {
        false
      }
    }
    #expect(warnings.count == 1, "named once, while the domain stays past half its limit")
    #expect(machine.keptFiles.isEmpty, "a small value stays in the domain")
    // 600,000 + 200,000 passes 786,432 (three quarters): kept in a file.
    store.set(Self.bytes(100_000, seed: 9), forKey: "preview")
    #expect(machine.keptFiles.isEmpty)
    store.set(Self.bytes(100_000, seed: 10), forKey: "backdrop")
    #expect(machine.keptFiles.count == 1)
    #expect(machine.daemon.refusedWrites.withLock { $0 }.isEmpty)
    #expect(machine.store().value(forKey: "backdrop", default: Data()) == Self.bytes(100_000, seed: 10))
  }

  /// Another process reads a value this one kept in a file, and replaces it: the replaced file
  /// goes, and this process reads the new value.
  @Test func anotherProcessReadsAndReplacesAKeptValue() {
    let machine = Machine(limit: .oneMebibyte)
    let app = machine.store()
    app.set(Self.bytes(200_000), forKey: "thumbnail")
    let widget = machine.store()
    #expect(widget.value(forKey: "thumbnail", default: Data()) == Self.bytes(200_000))
    widget.set(Self.bytes(250_000, seed: 3), forKey: "thumbnail")
    #expect(machine.keptFiles.count == 1)
    app.externalChange(["thumbnail"])
    #expect(app.value(forKey: "thumbnail", default: Data()) == Self.bytes(250_000, seed: 3))
  }

  /// A migration moves a kept value: to a new key (the old key's file goes with its marker), and
  /// to another store (a file store holds the value itself).
  @Test func migrationsMoveKeptValues() throws {
    let machine = Machine(limit: .oneMebibyte)
    let store = machine.store()
    let large = Self.bytes(300_000)
    store.set(large, forKey: "thumbnail")
    #expect(store.migrate(from: ["thumbnail"], to: "Gallery.thumbnail") == .moved)
    #expect(store.value(forKey: "Gallery.thumbnail", default: Data()) == large)
    #expect(!store.hasStoredValue(forKey: "thumbnail"))
    #expect(machine.keptFiles.count == 1, "one file: the new key's; the old key's is removed")
    let directory = TemporaryDirectory()
    let file = PreferenceStore(
      backend: PropertyListFileBackend(url: directory.file("gallery.plist")), arguments: [])
    #expect(file.migrate("Gallery.thumbnail", from: store) == .moved)
    #expect(file.value(forKey: "Gallery.thumbnail", default: Data()) == large)
    #expect(machine.keptFiles.isEmpty)
  }

  /// Files no marker names (a process ended between writing one and storing its marker) are
  /// removed at a store's first write once a day old; a younger one may be another process's
  /// write in progress, and stays.
  @Test func orphanedFilesAreRemovedOnceOld() throws {
    let machine = Machine(limit: .oneMebibyte)
    machine.store().set(Self.bytes(200_000), forKey: "thumbnail")
    let directory = try #require(machine.directory)
    let named = try #require(machine.keptFiles.first)
    let old = directory.appendingPathComponent("0-old.plist")
    let young = directory.appendingPathComponent("0-young.plist")
    try Data("x".utf8).write(to: old)
    try Data("x".utf8).write(to: young)
    try FileManager.default.setAttributes(
      [.modificationDate: Date().addingTimeInterval(-KeptValues.orphanAge - 60)], ofItemAtPath: old.path)
    let restarted = machine.store()
    restarted.set("a title", forKey: "title")
    #expect(machine.keptFiles == ["0-young.plist", named].sorted())
    #expect(restarted.value(forKey: "thumbnail", default: Data()) == Self.bytes(200_000))
  }

  /// Another process filled the domain since this one counted it: the platform refuses the
  /// write of a value this process took for small enough. The value is then kept in a file, and
  /// the file of the value it replaces goes only once the domain holds the new marker.
  @Test func aRefusedWriteIsKeptInAFileAndLosesNothing() {
    let machine = Machine(limit: .oneMebibyte)
    let store = machine.store()
    store.set(Self.bytes(200_000), forKey: "thumbnail")
    // Another process's values, which this one never read.
    let widget = machine.defaults()
    widget.writeFromAnotherProcess(.data(Self.bytes(950_000, seed: 4)), forKey: "widget.cache")
    store.set(Self.bytes(120_000, seed: 2), forKey: "thumbnail")
    #expect(machine.daemon.refusedWrites.withLock { $0 } == ["thumbnail"], "the inline write was refused")
    #expect(machine.keptFiles.count == 1)
    #expect(machine.store().value(forKey: "thumbnail", default: Data()) == Self.bytes(120_000, seed: 2))
  }

  /// A kept file that cannot be read now (data protection while the device is locked) is not
  /// taken for absent: a compare-and-set against "nothing stored" fails and the file stays.
  @Test func anUnreadableFileIsNeverReplacedAsAbsent() throws {
    let machine = Machine(limit: .oneMebibyte)
    let backend = machine.backend()
    let value = PropertyListValue.data(Self.bytes(200_000))
    backend.setValue(value, forKey: "thumbnail")
    let path = try #require(machine.directory).appendingPathComponent(try #require(machine.keptFiles.first))
      .path
    PropertyListFile.unreadableForTests.withLock { _ = $0.insert(path) }
    defer { PropertyListFile.unreadableForTests.withLock { _ = $0.remove(path) } }
    #expect(!backend.replaceValue(forKey: "thumbnail", ifEqualTo: nil, with: .data(Data([1]))))
    #expect(FileManager.default.fileExists(atPath: path))
    PropertyListFile.unreadableForTests.withLock { _ = $0.remove(path) }
    #expect(backend.value(forKey: "thumbnail") == value)
  }

  /// Removing every value removes a marker whose file is gone too.
  @Test func removingEverythingRemovesMarkersWithoutFiles() throws {
    let machine = Machine(limit: .oneMebibyte)
    let defaults = machine.defaults()
    let store = PreferenceStore(backend: machine.backend(defaults), arguments: [])
    store.set(Self.bytes(200_000), forKey: "thumbnail")
    store.set("title", forKey: "title")
    try FileManager.default.removeItem(at: try #require(machine.directory))
    store.removeAllValues()
    #expect(machine.daemon.persistentDomain(machine.name).isEmpty)
  }

  /// Another process replaces a kept value between this process's read of the marker and its
  /// read of the file (whose file it removes): the read follows the new marker.
  @Test func aReadFollowsAMarkerReplacedMeanwhile() {
    let machine = Machine(limit: .oneMebibyte)
    let defaults = machine.defaults()
    let backend = machine.backend(defaults)
    backend.setValue(.data(Self.bytes(200_000)), forKey: "thumbnail")
    let widget = machine.backend()
    // The widget has removed the old file and is about to store its new marker.
    for name in machine.keptFiles {
      try? FileManager.default.removeItem(at: machine.directory!.appendingPathComponent(name))
    }
    let calls = Locked(0)
    defaults.reentry.withLock {
      $0 = { call in
        guard call == "storedValue",
          calls.withLock({
            $0 += 1; return $0
          }) == 2
        else { return }
        widget.setValue(.data(Self.bytes(210_000, seed: 6)), forKey: "thumbnail")
      }
    }
    // The first read of the domain sees the old marker, whose file is gone; the widget's marker
    // lands before the second read (its re-entry), which finds the new file.
    #expect(backend.value(forKey: "thumbnail") == .data(Self.bytes(210_000, seed: 6)))
    defaults.reentry.withLock { $0 = nil }
  }

  /// A compare-and-set against a kept value compares values, not markers, and leaves no stray
  /// file when it fails.
  @Test func aReplaceComparesTheKeptValue() {
    let machine = Machine(limit: .oneMebibyte)
    let backend = machine.backend()
    let first = PropertyListValue.data(Self.bytes(200_000))
    let second = PropertyListValue.data(Self.bytes(200_000, seed: 5))
    backend.setValue(first, forKey: "thumbnail")
    #expect(!backend.replaceValue(forKey: "thumbnail", ifEqualTo: second, with: .data(Data())))
    #expect(machine.keptFiles.count == 1)
    #expect(backend.replaceValue(forKey: "thumbnail", ifEqualTo: first, with: second))
    #expect(machine.keptFiles.count == 1)
    #expect(backend.value(forKey: "thumbnail") == second)
    #expect(backend.allValues() == ["thumbnail": second])
  }

  /// A kept file that is gone (tvOS may purge caches) reads as the default, reported.
  @Test func aPurgedFileReadsAsTheDefault() throws {
    Diagnostics.start()
    let machine = Machine(limit: .oneMebibyte)
    machine.store().set(Self.bytes(200_000), forKey: "thumbnail")
    try FileManager.default.removeItem(at: try #require(machine.directory))
    #expect(machine.store().value(forKey: "thumbnail", default: Data([1])) == Data([1]))
    #expect(!Diagnostics.reported(mentioning: "kept preference 'thumbnail' outside").isEmpty)
  }

  /// The system's `sizeLimitExceededNotification` (tvOS), here for other code's write that the
  /// domain refused: the store measures the domain again and names its largest keys.
  @Test func theSystemsSizeWarningNamesTheLargestKeys() {
    Diagnostics.start()
    let machine = Machine(limit: .oneMebibyte)
    let defaults = machine.defaults()
    let store = PreferenceStore(backend: machine.backend(defaults), arguments: [])
    store.set("a title", forKey: "title")
    defaults.set(.data(Self.bytes(700_000)), forKey: "legacy.cache")
    defaults.set(.data(Self.bytes(400_000)), forKey: "legacy.more")
    #expect(machine.daemon.refusedWrites.withLock { $0 } == ["legacy.more"])
    let warnings = Diagnostics.reported(mentioning: "legacy.cache (700012 bytes)")
    #expect(warnings.count == 1)
    withExtendedLifetime(store) {}
  }
}
