import Foundation
import Testing

@testable import Preferences

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Preferences of a module half ported: its code still writes some of them with plain
/// `UserDefaults`, in the same process, while the wrapper reads them.
struct HalfPorted {
  nonisolated static let suite = TemporarySuite()
  nonisolated static let store = PreferenceStore(
    backend: UserDefaultsBackend(suiteName: HalfPorted.suite.name), arguments: [])
  @Preference(store: HalfPorted.store) var theme = "light"
  @Preference(store: HalfPorted.store) var fontSize = 12
}

enum HalfPortedKeys: String, PreferenceKeys {
  case volume = "HalfPortedKeys.volume"
  var defaultValue: any PreferenceValue { 0.5 }
}

/// Other code in the same process writes the store's `UserDefaults` directly (a migration done
/// in steps, `@AppStorage`, a Settings bundle): an unobserved store's very next read sees it,
/// on every platform, with no timer (on Linux corelibs posts no change notification, so each
/// read compares its key first).
@Suite struct WritesByOtherCodeInThisProcessTests {
  @Test func reachTheWrappersNextReadAtOnce() throws {
    let settings = HalfPorted()
    let plain = UserDefaults(suiteName: HalfPorted.suite.name)!
    #expect(settings.theme == "light")
    #expect(settings.fontSize == 12)
    plain.set("dark", forKey: "HalfPorted.theme")
    plain.set(15, forKey: "HalfPorted.fontSize")
    #expect(settings.theme == "dark")
    #expect(settings.fontSize == 15)
    #expect(settings.$theme.hasStoredValue)
    plain.removeObject(forKey: "HalfPorted.theme")
    #expect(settings.theme == "light", "a removal by other code is a removal")
    settings.fontSize = 16
    #expect(plain.integer(forKey: "HalfPorted.fontSize") == 16)
    #expect(settings.fontSize == 16)
    let backend = try #require(HalfPorted.store.backend as? UserDefaultsBackend)
    #expect(!backend.isPolling, "nothing observes the store: no timer runs")
  }

  @Test func reachTheEnumKeyedAndStringKeyedReadsAtOnceAndPersist() throws {
    let suite = TemporarySuite()
    let backend = UserDefaultsBackend(suiteName: suite.name)
    let store = PreferenceStore(backend: backend, arguments: [])
    let keyed = store.keyed(by: HalfPortedKeys.self)
    store.register(defaults: ["HalfPortedKeys.volume": 0.5])
    #expect(keyed.value(for: .volume) == 0.5)
    #expect(store.value(forKey: "legacy.name", default: "none") == "none")
    let plain = UserDefaults(suiteName: suite.name)!
    plain.set(0.8, forKey: "HalfPortedKeys.volume")
    plain.set("Paul", forKey: "legacy.name")
    plain.set(true, forKey: "legacy.unread")
    #expect(keyed.value(for: .volume) == 0.8)
    #expect(store.value(forKey: "legacy.name", default: "none") == "Paul")
    #expect(store.propertyListValue(forKey: "legacy.unread") == .bool(true), "a key this store never read")
    plain.set(false, forKey: "legacy.fresh")
    #expect(store.hasStoredValue(forKey: "legacy.fresh"), "a key this store never read")
    plain.set(false, forKey: "legacy.unread")
    #expect(store.dictionaryRepresentation()["legacy.unread"] == .bool(false))
    plain.set("Kate", forKey: "legacy.listed")
    #expect(
      store.dictionaryRepresentation()["legacy.listed"] == .string("Kate"), "listed without a read of its own"
    )
    plain.removeObject(forKey: "HalfPortedKeys.volume")
    #expect(keyed.value(for: .volume) == 0.5, "the registered default, not a stored 0.5")
    #expect(!store.hasStoredValue(forKey: "HalfPortedKeys.volume"))
    #expect(!backend.isPolling)
    try store.flush()
    #expect(suite.storedValues()?["legacy.name"] == .string("Paul"), "adopted, and persisted by the library")
    #expect(suite.storedValues()?["HalfPortedKeys.volume"] == nil)
  }

  #if !canImport(Darwin)
    /// `UserDefaults.standard`, in a process of its own (with a home of its own), as an app's
    /// not-yet-ported code writes it; the library persists the value, which corelibs would not.
    @Test func aPlainWriteToStandardReachesTheNextReadAndTheNextLaunch() throws {
      let home = TemporaryDirectory()
      let environment = ["HOME": home.url.path, "XDG_CONFIG_HOME": home.file("xdg").path]
      #expect(
        try runHelper(["plain-write-then-read", "standard", "Legacy.name", "Paul"], environment: environment)
          == "<default> Paul")
      #expect(
        try runHelper(["file-value", "standard", "Legacy.name"], environment: environment)
          == #"string("Paul")"#)
    }
  #endif

  /// A real app's port: 124 settings read once, then all written by its not-yet-migrated code.
  @Test func everySettingOfAPortReadsTheNewValueAtOnce() throws {
    let suite = TemporarySuite()
    let store = PreferenceStore(backend: UserDefaultsBackend(suiteName: suite.name), arguments: [])
    let keys = (0..<124).map { "Settings.option\($0)" }
    for key in keys { #expect(store.value(forKey: key, default: -1) == -1) }
    let plain = UserDefaults(suiteName: suite.name)!
    for (index, key) in keys.enumerated() { plain.set(index, forKey: key) }
    let missed = keys.enumerated().filter { store.value(forKey: $1, default: -1) != $0 }.map(\.element)
    #expect(
      missed.count == 0,
      "still the old value: \(missed.prefix(3).map { ($0, store.value(forKey: $0, default: -1), UserDefaults(suiteName: suite.name)!.object(forKey: $0) as Any) }) …"
    )
  }

  /// A migration done in steps: the old key, written by code still on `UserDefaults`, moves
  /// with the value that code wrote last, and the old key is gone for that code too.
  @Test func aMigrationMovesTheValueOtherCodeWroteLast() {
    let suite = TemporarySuite()
    let store = PreferenceStore(backend: UserDefaultsBackend(suiteName: suite.name), arguments: [])
    let plain = UserDefaults(suiteName: suite.name)!
    store.set("A", forKey: "old_theme")
    plain.set("C", forKey: "old_theme")
    #expect(store.migrate(from: ["old_theme"], to: "Settings.theme") == .moved)
    #expect(store.value(forKey: "Settings.theme", default: "") == "C")
    #expect(plain.object(forKey: "old_theme") == nil)
    #expect(plain.string(forKey: "Settings.theme") == "C")
  }

  #if !canImport(Darwin)
    /// A store that never polls: what observers hear, the read told them.
    private func unpolledStore(_ suite: TemporarySuite) -> (PreferenceStore, UserDefaultsBackend) {
      let backend = UserDefaultsBackend(
        suiteName: suite.name, domain: CorelibsDefaultsDomain(suiteName: suite.name), activity: nil,
        makePoller: { _, _ in NSObject() })
      return (PreferenceStore(backend: backend, arguments: []), backend)
    }

    /// The read that finds the write tells observers too, on a background queue (as of any
    /// outside change), with no poll.
    @Test func theReadThatFindsAWriteTellsObservers() {
      let suite = TemporarySuite()
      let (store, _) = unpolledStore(suite)
      #expect(store.value(forKey: "legacy", default: "A") == "A")
      let heard = Recorder<String>()
      let observation = store.observe("legacy", default: "A") { heard.record($0) }
      UserDefaults(suiteName: suite.name)!.set("B", forKey: "legacy")
      #expect(store.value(forKey: "legacy", default: "A") == "B")
      #expect(waitUntil { heard.all == ["B"] })
      withExtendedLifetime(observation) {}
    }

    /// A default other code registers (corelibs keeps one registration domain for every suite)
    /// is not a stored value: a read never stores it.
    @Test func aDefaultOtherCodeRegisteredIsNeverStored() throws {
      let suite = TemporarySuite()
      let (store, _) = unpolledStore(suite)
      let key = "Legacy.limit-\(UUID().uuidString)"
      UserDefaults(suiteName: suite.name)!.register(defaults: [key: 5])
      #expect(store.value(forKey: key, default: 1) == 1)
      #expect(!store.hasStoredValue(forKey: key))
      #expect(store.dictionaryRepresentation()[key] == nil)
      try store.flush()
      #expect(suite.storedValues()?[key] == nil)
    }

    /// A read finds other code's write and, between deciding to adopt it and storing it, the store
    /// writes the key itself: the store's write stays, in the file and in UserDefaults.
    @Test func aWriteLandingWhileAReadAdoptsOtherCodesWriteIsNeverUndone() throws {
      let suite = TemporarySuite()
      let (store, _) = unpolledStore(suite)
      let plain = UserDefaults(suiteName: suite.name)!
      store.set("A", forKey: "k")
      plain.set("C", forKey: "k")
      let read = CorelibsDefaultsDomain.$beforeAdopting.withValue(TestHook { store.set("B", forKey: "k") }) {
        store.value(forKey: "k", default: "")
      }
      #expect(read == "B")
      #expect(store.value(forKey: "k", default: "") == "B")
      #expect(plain.string(forKey: "k") == "B")
      try store.flush()
      #expect(suite.storedValues()?["k"] == .string("B"))
    }
  #endif
}

/// The UserDefaults store shares its values with plain `UserDefaults`, in this process and
/// others, and on Linux has the file store's guarantees.
@Suite struct UserDefaultsBackendTests {
  @Test func plainUserDefaultsInThisProcessSeesValuesAndRegisteredDefaults() throws {
    let suite = TemporarySuite()
    let store = PreferenceStore(backend: UserDefaultsBackend(suiteName: suite.name), arguments: [])
    store.register(defaults: ["Inner.depth": 2])
    let plain = UserDefaults(suiteName: suite.name)!
    #expect(plain.integer(forKey: "Inner.depth") == 2)
    #expect(!store.hasStoredValue(forKey: "Inner.depth"), "a registered default is not a stored value")
    store.set("Paul", forKey: "name")
    #expect(plain.string(forKey: "name") == "Paul")
    try store.flush()
    let stored = suite.storedValues()
    #expect(stored?["name"] == .string("Paul"), "the flush wrote the domain")
    #expect(stored?["Inner.depth"] == nil, "registered defaults are never written")
  }

  @Test func plainUserDefaultsInAnotherProcessReadsTheWrites() throws {
    let suite = TemporarySuite()
    let store = PreferenceStore(backend: UserDefaultsBackend(suiteName: suite.name), arguments: [])
    store.set("from the library", forKey: "shared")
    try store.flush()
    #expect(try runHelper(["raw-value", suite.name, "shared"]) == "from the library")
  }

  #if !canImport(Darwin)
    /// Two stores over one suite in one process: the first showed corelibs' `UserDefaults` a
    /// value, and another process replaced it in the file before the first heard of it. The
    /// second store, opening now, sees corelibs show the first's value: that is this library's
    /// own, not another writer's, and must not be written over the other process's value (it was,
    /// once in 240 racing rounds of `anotherProcessesWriteRacingAMigrationIsNeverReplaced`).
    @Test func aValueAnotherStoreOfTheLibraryShowedIsNotTakenForAnotherWritersWrite() throws {
      let suite = TemporarySuite()
      let first = CorelibsDefaultsDomain(suiteName: suite.name)
      first.setStoredValue(.string("shown by the first store"), forKey: "k")
      try first.flush()
      first.stopEvents()  // it will not hear the other process's write
      let other = PropertyListFileBackend(url: suite.file)
      other.setValue(.string("written by another process"), forKey: "k")
      try other.flush()
      let second = CorelibsDefaultsDomain(suiteName: suite.name)
      #expect(second.storedValue(forKey: "k") == .string("written by another process"))
      #expect(second.poll(known: ["k"]) == [], "nothing to adopt")
      try second.flush()
      #expect(
        PropertyListFileBackend(url: suite.file).value(forKey: "k") == .string("written by another process"))
      #expect(UserDefaults(suiteName: suite.name)?.string(forKey: "k") == "written by another process")
    }

    /// On Linux the store keeps the file swift-corelibs-foundation reads, so both must find it
    /// the same way. A test runner or a sandbox that gives the process a home of its own (`HOME`)
    /// is where this parts: the account's home (`homeDirectoryForCurrentUser`) would be another
    /// file, shared by every run. Corelibs' own `synchronize()` and a fresh process's plain
    /// `UserDefaults.standard` are the judges, both ways, with `XDG_CONFIG_HOME` unset-equivalent
    /// (relative, which corelibs ignores) and absolute.
    @Test func theStandardStoreAndPlainUserDefaultsShareOneFileWhateverTheProcessCallsHome() throws {
      for useXDG in [false, true] {
        let home = TemporaryDirectory()
        let config = home.file("xdg")
        let environment = [
          "HOME": home.url.path, "XDG_CONFIG_HOME": useXDG ? config.path : "not-absolute",
        ]
        let label = useXDG ? "absolute XDG_CONFIG_HOME" : "HOME only"
        try runHelper(["raw-set", "standard", "fromPlain", "P"], environment: environment)
        let expected = (useXDG ? config : home.file(".config")).appendingPathComponent(
          "PreferencesTestHelper.plist")
        #expect(FileManager.default.fileExists(atPath: expected.path), "\(label): corelibs wrote elsewhere")
        #expect(
          try runHelper(["file-value", "standard", "fromPlain"], environment: environment) == #"string("P")"#,
          "\(label): the library does not read the value plain UserDefaults stored")
        try runHelper(["set-and-exit", "standard", "fromLibrary", "L"], environment: environment)
        #expect(
          try runHelper(["raw-value", "standard", "fromLibrary"], environment: environment) == "L",
          "\(label): plain UserDefaults does not read the value the library stored")
      }
    }

    /// The poll for other code's writes reads UserDefaults without a lock. One that reads it
    /// after a write's bookkeeping but before UserDefaults shows the new value sees the old one;
    /// it must not take that for another writer's and write it back (it did, once in a long CI
    /// run). The interleaving is forced here, not waited for.
    @Test func aPollBetweenAWriteAndUserDefaultsShowingItNeverUndoesTheWrite() {
      let suite = TemporarySuite()
      let domain = CorelibsDefaultsDomain(suiteName: suite.name)
      domain.setStoredValue(.string("old"), forKey: "k")
      #expect(domain.poll(known: ["k"]) == [])
      CorelibsDefaultsDomain.$beforeShowing.withValue(TestHook { _ = domain.poll(known: ["k"]) }) {
        domain.setStoredValue(.string("new"), forKey: "k")
      }
      #expect(domain.storedValue(forKey: "k") == .string("new"))
      #expect(domain.poll(known: ["k"]) == [], "the next poll finds nothing to adopt")
      #expect(domain.storedValue(forKey: "k") == .string("new"))
      #expect(UserDefaults(suiteName: suite.name)?.string(forKey: "k") == "new")
    }

    /// The same for a registration that changes a default no domain stores a value for: a poll
    /// that reads UserDefaults after the registration's bookkeeping but before UserDefaults
    /// shows the new default sees the old one, which is not another writer's value either.
    @Test func aPollBetweenARegistrationAndUserDefaultsShowingItStoresNothing() {
      let suite = TemporarySuite()
      let domain = CorelibsDefaultsDomain(suiteName: suite.name)
      let key = "registeredDuringAPoll.\(UUID().uuidString)"
      domain.register(defaults: [key: .string("old")])
      #expect(domain.poll(known: [key]) == [])
      CorelibsDefaultsDomain.$beforeShowing.withValue(TestHook { _ = domain.poll(known: [key]) }) {
        domain.register(defaults: [key: .string("new")])
      }
      #expect(domain.storedValue(forKey: key) == nil, "the old default was stored as a value")
      #expect(domain.poll(known: [key]) == [], "the next poll finds nothing to adopt")
      #expect(domain.storedValue(forKey: key) == nil)
      #expect(UserDefaults(suiteName: suite.name)?.string(forKey: key) == "new")
    }

    /// A poll that read UserDefaults before a registration and compares after it: what it read
    /// is the old default, not another writer's value.
    @Test func aPollThatReadBeforeARegistrationComparesNothingAfterIt() {
      let suite = TemporarySuite()
      let domain = CorelibsDefaultsDomain(suiteName: suite.name)
      let key = "registeredAfterAPollRead.\(UUID().uuidString)"
      domain.register(defaults: [key: .string("old")])
      CorelibsDefaultsDomain.$afterReadingFileValues.withValue(
        TestHook { domain.register(defaults: [key: .string("new")]) }
      ) {
        #expect(domain.poll(known: [key]) == [])
      }
      #expect(domain.storedValue(forKey: key) == nil, "the old default was stored as a value")
      #expect(UserDefaults(suiteName: suite.name)?.string(forKey: key) == "new")
    }

    /// The registration domain is the process's: a registration by another suite's domain
    /// between a poll's read and its comparison changes what this suite shows too, and is no
    /// other writer's value here either.
    @Test func aPollOverlappingAnotherSuitesRegistrationStoresNothing() {
      let suite = TemporarySuite()
      let other = TemporarySuite()
      let domain = CorelibsDefaultsDomain(suiteName: suite.name)
      let otherDomain = CorelibsDefaultsDomain(suiteName: other.name)
      let key = "registeredElsewhereDuringAPoll.\(UUID().uuidString)"
      domain.register(defaults: [key: .string("old")])
      #expect(domain.poll(known: [key]) == [])
      CorelibsDefaultsDomain.$afterReadingFileValues.withValue(
        TestHook { otherDomain.register(defaults: [key: .string("new")]) }
      ) {
        #expect(domain.poll(known: [key]) == [])
      }
      #expect(domain.storedValue(forKey: key) == nil, "the old default was stored as a value")
      #expect(domain.poll(known: [key]) == [], "the next poll finds nothing to adopt")
      #expect(domain.storedValue(forKey: key) == nil)
    }

    /// Other code removing a value through plain UserDefaults leaves the registered default
    /// showing: that is a removal, not a write of the default.
    @Test func anotherWritersRemovalIsARemovalNotAWriteOfTheDefault() {
      let suite = TemporarySuite()
      let domain = CorelibsDefaultsDomain(suiteName: suite.name)
      let key = "removedByOtherCode.\(UUID().uuidString)"
      domain.register(defaults: [key: .string("default")])
      domain.setStoredValue(.string("mine"), forKey: key)
      UserDefaults(suiteName: suite.name)?.removeObject(forKey: key)
      #expect(domain.poll(known: [key]) == [key])
      #expect(domain.storedValue(forKey: key) == nil, "the default was stored in the value's place")
      #expect(domain.poll(known: [key]) == [], "the next poll finds nothing to adopt")
    }

    /// Another process's change is shown to this process's UserDefaults after the file is read.
    /// A write of this process's between the two is newer: UserDefaults must end showing it, not
    /// the value read before it (it showed that one until the key next changed). A registration
    /// between the two changes no stored value: UserDefaults must still show the other
    /// process's. The interleavings are forced here, not waited for.
    @Test func aChangeBetweenReadingAnotherProcesssChangeAndShowingItLeavesUserDefaultsShowingTheFile() {
      let suite = TemporarySuite()
      let domain = CorelibsDefaultsDomain(suiteName: suite.name)
      let keys: Set<String> = ["written", "registered", "untouched"]
      for key in keys { domain.setStoredValue(.string("mine"), forKey: key) }
      // What a reload after another process's writes leaves in the file.
      for key in keys { domain.file.setValue(.string("theirs"), forKey: key) }
      CorelibsDefaultsDomain.$afterReadingFileValues.withValue(
        TestHook {
          domain.setStoredValue(.string("newer"), forKey: "written")
          domain.register(defaults: ["registered": .string("default")])
        }
      ) {
        domain.showFileValues(of: keys)
      }
      let plain = UserDefaults(suiteName: suite.name)
      #expect(plain?.string(forKey: "written") == "newer")
      #expect(plain?.string(forKey: "registered") == "theirs")
      #expect(plain?.string(forKey: "untouched") == "theirs")
      #expect(domain.poll(known: keys) == [], "the next poll finds nothing to adopt")
      #expect(domain.storedValue(forKey: "written") == .string("newer"))
      #expect(domain.storedValue(forKey: "registered") == .string("theirs"))
      #expect(domain.storedValue(forKey: "untouched") == .string("theirs"))
    }

    @Test func theDomainFileIsFoundAsCorelibsFindsIt() {
      func path(_ environment: [String: String]) -> String {
        UserDefaultsBackend.domainFileURL(domain: "d", environment: environment).path
      }
      #expect(path(["XDG_CONFIG_HOME": "/x/config", "HOME": "/h"]) == "/x/config/d.plist")
      #expect(path(["XDG_CONFIG_HOME": "config", "HOME": "/h"]) == "/h/.config/d.plist")
      #expect(path(["HOME": "/h/"]) == "/h/.config/d.plist")
      #expect(path(["HOME": ""]) == "/.config/d.plist")
      let cwd = FileManager.default.currentDirectoryPath
      #expect(
        path(["HOME": "rel"]) == URL(fileURLWithPath: cwd).appendingPathComponent("rel/.config/d.plist").path)
      #expect(
        path([:]) == "/.config/d.plist", "no HOME (a system service): corelibs' path, not the account's")
      #expect(path(["XDG_CONFIG_HOME": "/", "HOME": "/h"]) == "/h/.config/d.plist")
    }

    /// The same, against corelibs itself: a child process with each environment prints where its
    /// CFPreferences keeps preferences, and the library must name the same folder.
    @Test func theDomainFileIsTheOneCorelibsUsesInEveryEnvironment() throws {
      let cases: [(set: [String: String], removed: Set<String>)] = [
        ([:], ["HOME", "XDG_CONFIG_HOME"]),
        (["HOME": ""], ["XDG_CONFIG_HOME"]),
        (["HOME": "/h"], ["XDG_CONFIG_HOME"]),
        (["HOME": "rel"], ["XDG_CONFIG_HOME"]),
        (["HOME": "/h", "XDG_CONFIG_HOME": "/"], []),
        (["HOME": "/h", "XDG_CONFIG_HOME": "relative"], []),
        (["HOME": "/h", "XDG_CONFIG_HOME": "/x/config"], []),
      ]
      for (set, removed) in cases {
        let corelibs = try runHelper(["config-home"], environment: set, removing: removed)
        var environment = ProcessInfo.processInfo.environment.merging(set) { $1 }
        for variable in removed { environment[variable] = nil }
        let library = UserDefaultsBackend.domainFileURL(domain: "d", environment: environment)
        #expect(
          library.deletingLastPathComponent().path
            == URL(fileURLWithPath: corelibs).standardizedFileURL.path,
          "environment \(set), without \(removed)")
      }
    }
  #endif

  /// `@AppStorage`, a Settings bundle and legacy code write UserDefaults directly.
  @Test func writesByOtherCodeToTheSameUserDefaultsReachReadsAndObservers() throws {
    let suite = TemporarySuite()
    let store = PreferenceStore(backend: UserDefaultsBackend(suiteName: suite.name), arguments: [])
    #expect(store.value(forKey: "legacy", default: "A") == "A")
    let heard = Recorder<String>()
    let observation = store.observe("legacy", default: "A") { heard.record($0) }
    UserDefaults(suiteName: suite.name)!.set("B", forKey: "legacy")
    #expect(waitUntil { store.value(forKey: "legacy", default: "") == "B" })
    #expect(waitUntil { heard.all == ["B"] })
    // The library persists it, though plain UserDefaults on Linux would not.
    try store.flush()
    #expect(suite.storedValues()?["legacy"] == .string("B"))
    UserDefaults(suiteName: suite.name)!.removeObject(forKey: "legacy")
    #expect(waitUntil { store.value(forKey: "legacy", default: "none") == "none" })
    #expect(waitUntil { heard.all == ["B", "A"] })
    withExtendedLifetime(observation) {}
  }

  #if !canImport(Darwin)
    /// Corelibs' registration domain is the process's: a default one suite registered shows in
    /// another suite that stores no value for the key. The comparison of the keys in use (the
    /// poll of an observed store) must not take it for other code's write there (it would store
    /// another module's default, or undo a migration's removal of an old key).
    @Test func aDefaultAnotherSuiteRegisteredIsNotTakenForAWriteHere() throws {
      let (first, second) = (TemporarySuite(), TemporarySuite())
      let backend = UserDefaultsBackend(
        suiteName: first.name, domain: CorelibsDefaultsDomain(suiteName: first.name), activity: nil)
      let store = PreferenceStore(backend: backend, arguments: [])
      store.set("dark", forKey: "Shared.theme")
      #expect(store.value(forKey: "Shared.theme", default: "") == "dark")
      store.removeValue(forKey: "Shared.theme")
      let other = PreferenceStore(backend: UserDefaultsBackend(suiteName: second.name), arguments: [])
      other.register(defaults: ["Shared.theme": "light"])
      #expect(UserDefaults(suiteName: first.name)!.string(forKey: "Shared.theme") == "light")
      backend.checkForOutsideWrites()
      #expect(store.value(forKey: "Shared.theme", default: "none") == "none")
      try store.flush()
      #expect(first.storedValues()?["Shared.theme"] == nil, "the other suite's default was not stored here")
    }
  #endif

  /// Another process changes a value nobody here observes; reads see it, and an observer added
  /// later hears the next change (and a change back), which comparing against a stale value
  /// would swallow.
  @Test func anotherProcessesChangeReachesReadsWithoutObserversAndLaterObserversHearTheNext() throws {
    let suite = TemporarySuite()
    let store = PreferenceStore(backend: UserDefaultsBackend(suiteName: suite.name), arguments: [])
    store.set("A", forKey: "k")
    try store.flush()
    #expect(store.value(forKey: "k", default: "") == "A")
    try runHelper(["set-and-exit", suite.target, "k", "B"])
    #expect(
      waitUntil { store.value(forKey: "k", default: "") == "B" }, "reads see B within the polling bound")
    let heard = Recorder<String>()
    let observation = store.observe("k", default: "") { heard.record($0) }
    try runHelper(["set-and-exit", suite.target, "k", "A"])
    #expect(waitUntil { heard.all == ["A"] })
    try runHelper(["set-and-exit", suite.target, "k", "C"])
    #expect(waitUntil { heard.all == ["A", "C"] })
    withExtendedLifetime(observation) {}
  }

  // The suite file's layout under ~/.config is swift-corelibs-foundation's; on Apple platforms
  // the system owns the storage.
  #if !canImport(Darwin)
    @Test(arguments: [
      ("garbage", Data("this is not a plist {".utf8)),
      ("empty", Data()),
      (
        "truncated",
        Data(#"<?xml version="1.0" encoding="UTF-8"?><plist version="1.0"><dict><key>a</key><integer>1"#.utf8)
      ),
      (
        "arrayRoot",
        try! PropertyListSerialization.data(fromPropertyList: ["an", "array"], format: .xml, options: 0)
      ),
    ])
    func aCorruptSuiteFileIsPreservedAndReported(name: String, contents: Data) throws {
      Diagnostics.start()
      let suite = TemporarySuite()
      try FileManager.default.createDirectory(
        at: suite.file.deletingLastPathComponent(), withIntermediateDirectories: true)
      try contents.write(to: suite.file)
      let store = PreferenceStore(backend: UserDefaultsBackend(suiteName: suite.name), arguments: [])
      #expect(store.value(forKey: "a", default: 5) == 5)
      let reports = Diagnostics.reported(mentioning: suite.file.path)
      guard case .corruptFile(_, _, let preservedAt?)? = reports.first else {
        Issue.record("expected a corruptFile diagnostic with the preserved path, got \(reports)")
        return
      }
      defer { try? FileManager.default.removeItem(atPath: preservedAt) }
      #expect(try Data(contentsOf: URL(fileURLWithPath: preservedAt)) == contents, "kept byte for byte")
      store.set(1, forKey: "a")
      try store.flush()
      #expect(suite.storedValues()?["a"] == .integer(1))
      #expect(try Data(contentsOf: URL(fileURLWithPath: preservedAt)) == contents)
    }

    /// A writer killed with SIGKILL at random moments never leaves an empty or partial suite file.
    /// Until the child has committed a round, each kill waits for the file first, so that the
    /// run cannot pass without the child writing.
    @Test func sigkillDuringSuiteWritesNeverDamagesTheFile() throws {
      let suite = TemporarySuite()
      var previous = 0
      var progressed = false
      for _ in 0..<Intensity.rounds(quick: 25, long: 200) {
        let process = Process()
        process.executableURL = helperURL
        process.arguments = ["kill-loop", suite.target]
        try process.run()
        if !progressed { waitUntil { FileManager.default.fileExists(atPath: suite.file.path) } }
        // Not synchronization: the random delay picks when, in the child's writes, the kill lands.
        usleep(UInt32.random(in: 5_000...40_000))
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        guard FileManager.default.fileExists(atPath: suite.file.path) else { continue }
        let values = try #require(suite.storedValues(), "the file parses")
        let rounds = (0..<10).compactMap { key -> Int64? in
          if case .integer(let n)? = values["k\(key)"] { return n }
          return nil
        }
        #expect(rounds.count == 10)
        #expect((rounds.max() ?? 0) - (rounds.min() ?? 0) <= 1)
        #expect((rounds.min() ?? 0) >= Int64(previous))
        previous = Int(rounds.min() ?? 0)
        progressed = true
      }
      #expect(progressed, "the child committed a round between kills")
    }

  #endif

  @Test func threeProcessesWritingDisjointKeysToOneSuiteLoseNothing() async throws {
    let suite = TemporarySuite()
    let prefixes = ["p0", "p1", "p2"]
    let statuses = try await withThrowingTaskGroup(of: Int32.self) { group in
      for prefix in prefixes {
        group.addTask { try await runHelperStatus(["disjoint-writes", suite.target, prefix, "300"]) }
      }
      return try await group.reduce(into: []) { $0.append($1) }
    }
    #expect(statuses == [0, 0, 0])
    let values = try #require(suite.storedValues())
    #expect(values.count == 900)
  }

  /// The check for other code's writes reads UserDefaults without holding the backend's lock; a
  /// write made while it reads must not be taken for a removal. A large value slows each check
  /// (to about a quarter of a second here), so that writes land during one.
  @Test func writesRacingTheCheckForOtherCodesWritesAreNeverUndone() {
    let suite = TemporarySuite()
    let backend = UserDefaultsBackend(suiteName: suite.name)
    backend.setValue(.data(Data(count: 4_000_000)), forKey: "big")
    let checks = Locked(0)
    let done = Locked(false)
    let checking = DispatchGroup()
    DispatchQueue.global().async(group: checking) {
      while !done.withLock({ $0 }) {
        checks.withLock { $0 += 1 }
        backend.checkForOutsideWrites()
      }
    }
    #expect(waitUntil { checks.withLock { $0 } > 0 })
    // Keep writing until several checks have overlapped the writes (each takes a while).
    let minimum = Intensity.rounds(quick: 200, long: 2_000)
    let deadline = Date().addingTimeInterval(20)
    var count = 0
    while count < minimum || (checks.withLock { $0 } < 3 && Date() < deadline) {
      backend.setValue(.integer(Int64(count)), forKey: "k\(count)")
      count += 1
      // Not synchronization: paces the writes so that checks (which take a while) overlap them.
      usleep(2_000)
    }
    done.withLock { $0 = true }
    checking.wait()
    #expect(checks.withLock { $0 } >= 3, "writes overlapped several checks")
    let lost = (0..<count).filter { backend.value(forKey: "k\($0)") != .integer(Int64($0)) }
    #expect(lost.isEmpty, "\(lost.count) writes undone")
  }
}
