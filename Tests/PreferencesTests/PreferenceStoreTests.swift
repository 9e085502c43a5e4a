import Foundation
import Testing

@testable import Preferences

@Suite struct PreferenceStoreTests {
  @Test(arguments: StoreKind.allCases)
  func registeredDefaultsAreReadButNeverStored(kind: StoreKind) {
    let directory = TemporaryDirectory()
    let (store, reopen) = kind.make(in: directory)
    store.register(defaults: ["ReadingMode": "standard", "HighScore": 0])
    #expect(store.value(forKey: "ReadingMode", default: "none") == "standard")
    #expect(!store.hasStoredValue(forKey: "ReadingMode"))
    store.set(10, forKey: "HighScore")
    // A later registration never overrides a stored value, and combines with earlier ones.
    store.register(defaults: ["HighScore": 5, "Volume": 0.5])
    #expect(store.value(forKey: "HighScore", default: -1) == 10)
    #expect(store.value(forKey: "Volume", default: 0.0) == 0.5)
    #expect(store.value(forKey: "ReadingMode", default: "none") == "standard")
    // A fresh store over the same storage sees the stored value and none of the defaults.
    let fresh = reopen()
    #expect(fresh.value(forKey: "HighScore", default: -1) == 10)
    #expect(fresh.value(forKey: "ReadingMode", default: "none") == "none")
    #expect(!fresh.hasStoredValue(forKey: "Volume"))
  }

  /// The `@Preference` read path: a key's process-wide number indexes every store's cache.
  @Test func numberedReadsFollowEveryChangeToTheirKey() {
    let store = PreferenceStore.inMemory()
    let key = "K-\(UUID().uuidString)"
    let number = KeyNumbers.number(of: key)
    let registry = 1_000
    // Nothing is cached before the first read, and nothing is served for a registry that has
    // not registered its defaults in this store.
    #expect(store.cachedValue(number: number, registry: registry, as: Int.self) == nil)
    #expect(store.value(number: number, key: key) { 1 } == 1)
    #expect(
      store.cachedValue(number: number, registry: registry, as: Int.self) == nil,
      "a declaration's own default is not cached: another declaration of the key may have another")
    store.register(defaults: [key: 1])
    store.markRegistered(registry: registry)
    #expect(store.value(number: number, key: key) { 2 } == 1, "the registered default")
    #expect(store.cachedValue(number: number, registry: registry, as: Int.self) == 1)
    #expect(store.cachedValue(number: number, registry: registry + 1, as: Int.self) == nil)
    store.set(5, forKey: key)
    #expect(store.cachedValue(number: number, registry: registry, as: Int.self) == 5)
    // Two declarations of one key share its number and its value.
    #expect(KeyNumbers.number(of: key) == number)
    #expect(store.value(number: number, key: key) { 2 } == 5)
    store.removeValue(forKey: key)
    #expect(store.cachedValue(number: number, registry: registry, as: Int.self) != 5)
    #expect(store.value(number: number, key: key) { 1 } == 1)
    store.backend.setValue(.integer(9), forKey: key)
    store.externalChange([key])
    #expect(store.cachedValue(number: number, registry: registry, as: Int.self) != 1)
    #expect(store.value(number: number, key: key) { 1 } == 9)
    // A value read as another type misses instead of misreading.
    #expect(store.cachedValue(number: number, registry: registry, as: String.self) == nil)
    store.removeAllValues()
    #expect(store.cachedValue(number: number, registry: registry, as: Int.self) != 9)
    #expect(store.value(number: number, key: key) { 1 } == 1)
    // Caches are per store.
    let other = PreferenceStore.inMemory([key: 3])
    other.markRegistered(registry: registry)
    #expect(other.cachedValue(number: number, registry: registry, as: Int.self) == nil)
    #expect(other.value(number: number, key: key) { 1 } == 3)
  }

  @Test func keyNumbersAreStableAndDistinctUnderConcurrency() {
    let keys = (0..<200).map { "Numbered-\($0)-\(UUID().uuidString)" }
    let numbers = Locked([String: Int]())
    DispatchQueue.concurrentPerform(iterations: 4) { _ in
      for key in keys.shuffled() {
        let number = KeyNumbers.number(of: key)
        numbers.withLock { numbers in
          if let known = numbers[key] { #expect(known == number) }
          numbers[key] = number
        }
      }
    }
    let assigned = numbers.withLock { $0 }
    #expect(Set(assigned.values).count == keys.count)
  }

  /// `register(defaults:)` semantics: registering again replaces a default, also one a read
  /// already cached (typed and string-keyed reads alike).
  @Test func registeringAgainReplacesADefaultAReadCached() {
    let store = PreferenceStore.inMemory()
    store.register(defaults: ["Mode": "light", "Count": 1])
    #expect(store.value(forKey: "Mode", default: "") == "light")
    let keyed = store.keyed(by: AppKeys.self)
    #expect(keyed[TypedPreferenceKey<AppKeys, Int>(.launchCount)] == 0)
    store.register(defaults: ["Mode": "dark", "launchCount": 5])
    #expect(store.value(forKey: "Mode", default: "") == "dark")
    #expect(keyed[TypedPreferenceKey<AppKeys, Int>(.launchCount)] == 5)
  }

  @Test func registeredDefaultsNeverReachTheFile() throws {
    let directory = TemporaryDirectory()
    let url = directory.file("p.plist")
    let store = PreferenceStore(backend: PropertyListFileBackend(url: url, format: .xml), arguments: [])
    store.register(defaults: ["Registered": "default"])
    store.set("x", forKey: "Stored")
    try store.flush()
    let text = try String(contentsOf: url, encoding: .utf8)
    #expect(text.contains("Stored"))
    #expect(!text.contains("Registered"))
  }

  @Test func aFreshProcessSeesNoRegisteredDefaults() throws {
    let directory = TemporaryDirectory()
    let url = directory.file("p.plist")
    let store = PreferenceStore(backend: PropertyListFileBackend(url: url), arguments: [])
    store.register(defaults: ["Registered": "default"])
    store.set("x", forKey: "Stored")
    try store.flush()
    #expect(try runHelper(["file-value", url.path, "Stored"]) == #"string("x")"#)
    #expect(try runHelper(["file-value", url.path, "Registered"]) == "none")
  }

  @Test func resetReturnsToTheRegisteredDefault() {
    let store = PreferenceStore.inMemory()
    store.register(defaults: ["k": 1])
    store.set(2, forKey: "k")
    #expect(store.value(forKey: "k", default: 0) == 2)
    store.removeValue(forKey: "k")
    #expect(store.value(forKey: "k", default: 0) == 1)
    #expect(!store.hasStoredValue(forKey: "k"))
  }

  @Test(arguments: StoreKind.allCases)
  func removeAllValuesRemovesEverythingTheStoreOwns(kind: StoreKind) {
    let directory = TemporaryDirectory()
    let (store, reopen) = kind.make(in: directory)
    store.register(defaults: ["a": 0])
    store.set(1, forKey: "a")
    store.set("b", forKey: "b")
    store.removeAllValues()
    #expect(store.value(forKey: "a", default: -1) == 0)
    #expect(!store.hasStoredValue(forKey: "b"))
    let fresh = reopen()
    #expect(!fresh.hasStoredValue(forKey: "a"))
    #expect(!fresh.hasStoredValue(forKey: "b"))
  }

  @Test func migrationMovesOnceAndNeverOverwrites() {
    let store = PreferenceStore.inMemory(["username": "Paul"])
    #expect(store.migrate(from: "username", to: "ContentView.username") == .moved)
    #expect(store.value(forKey: "ContentView.username", default: "") == "Paul")
    #expect(!store.hasStoredValue(forKey: "username"))
    // Idempotent.
    #expect(store.migrate(from: "username", to: "ContentView.username") == .nothingToMigrate)
    #expect(store.value(forKey: "ContentView.username", default: "") == "Paul")
    // A value already under the new key wins; the old one is left in place.
    store.set("Old", forKey: "legacy")
    store.set("New", forKey: "modern")
    #expect(store.migrate(from: "legacy", to: "modern") == .keptExistingValue)
    #expect(store.value(forKey: "modern", default: "") == "New")
    #expect(store.value(forKey: "legacy", default: "") == "Old")
  }

  @Test func migrationCanTransformTheValue() {
    let store = PreferenceStore.inMemory(["darkMode": true])
    store.migrate(from: "darkMode", to: "theme") { old in
      old == .bool(true) ? .string("dark") : .string("light")
    }
    #expect(store.value(forKey: "theme", default: Theme.light) == .dark)
  }

  @Test func launchArgumentsOverrideWithoutBeingStored() {
    let store = PreferenceStore(
      backend: InMemoryBackend(),
      arguments: [
        "app", "-flag", "YES", "-count", "42", "-ratio", "0.25", "-name", "Paul", "-tags", #"["a","b"]"#,
        "-layout", #"{"columns":3,"title":"T","tags":[]}"#, "-theme", "dark", "--verbose", "-off", "false",
        "-oldtags", "(x, y)",
      ])
    #expect(store.value(forKey: "flag", default: false) == true)
    #expect(store.value(forKey: "off", default: true) == false)
    #expect(store.value(forKey: "count", default: 0) == 42)
    #expect(store.value(forKey: "ratio", default: 0.0) == 0.25)
    #expect(store.value(forKey: "name", default: "") == "Paul")
    #expect(store.value(forKey: "tags", default: [String]()) == ["a", "b"])
    #expect(store.value(forKey: "layout", default: Layout(columns: 0, title: "", tags: [])).columns == 3)
    #expect(store.value(forKey: "theme", default: Theme.light) == .dark)
    #expect(!store.hasStoredValue(forKey: "flag"))
    // A write still goes to the store, but the override wins for this run.
    store.set(7, forKey: "count")
    #expect(store.value(forKey: "count", default: 0) == 42)
    #expect(store.backend.value(forKey: "count") == .integer(7))
  }

  @Test func launchArgumentsInAChildProcess() throws {
    #expect(try runHelper(["read", "bool", "Flag", "-Flag", "YES"]) == "true")
    #expect(try runHelper(["read", "bool", "Flag", "-Flag", "0"]) == "false")
    #expect(try runHelper(["read", "int", "Count", "-Count", "12"]) == "12")
    #expect(try runHelper(["read", "double", "Ratio", "-Ratio", "1.5"]) == "1.5")
    #expect(try runHelper(["read", "string", "Name", "-Name", "Paul"]) == "Paul")
    #expect(try runHelper(["read", "string", "Name"]) == "<default>")
    #expect(try runHelper(["read", "strings", "Tags", "-Tags", #"["a","b"]"#]) == #"["a", "b"]"#)
    #expect(try runHelper(["read", "dictionary", "D", "-D", #"{"x":1}"#]) == #"[(key: "x", value: 1)]"#)
    #expect(try runHelper(["read", "date", "When", "-When", "2001-01-01T00:00:00Z"]) == "978307200.0")
    #expect(try runHelper(["read", "stored", "Flag", "-Flag", "YES"]) == "false")
  }

  @Test func factoriesReturnOneStorePerStorage() {
    let directory = TemporaryDirectory()
    let url = directory.file("shared.plist")
    #expect(PreferenceStore.propertyList(at: url) === PreferenceStore.propertyList(at: url))
    let suite = TemporarySuite()
    #expect(PreferenceStore.suite(suite.name) === PreferenceStore.suite(suite.name))
    #expect(PreferenceStore.inMemory() !== PreferenceStore.inMemory())
  }

  @Test func enumKeyedStoreChecksTypesAndRegistersDefaults() {
    Diagnostics.start()
    let store = PreferenceStore.inMemory().keyed(by: AppKeys.self)
    #expect(store.string(for: .name) == "Anonymous")
    #expect(store.store.registeredDefault(forKey: "name") == .string("Anonymous"))
    #expect(store.set("Paul", for: .name))
    #expect(store.string(for: .name) == "Paul")
    #expect(store[.name] == "Paul")
    store[.launchCount] += 1
    #expect(store.integer(for: .launchCount) == 1)
    // `store.set(42, for: .name)` does not compile (Scripts/integration-test.sh holds that); a
    // hand-written key of the wrong type stores nothing and says why.
    #expect(!store.set(42, for: TypedPreferenceKey<AppKeys, Int>(.name)))
    #expect(store.string(for: .name) == "Paul")
    #expect(
      Diagnostics.reported(mentioning: "preference 'name' is declared as String but was given Int").count >= 1
    )
    // Optional keys accept the wrapped type and nil.
    #expect(store.value(for: .emailAddress) == nil)
    #expect(store.set("paul@example.com", for: .emailAddress))
    #expect(store.value(for: .emailAddress) == "paul@example.com")
    #expect(store.set(String?.none, for: .emailAddress))
    #expect(!store.hasStoredValue(for: .emailAddress))
    #expect(store.value(for: .theme) == Theme.dark)
    store.removeValue(for: .name)
    #expect(store.string(for: .name) == "Anonymous")
  }

  /// A hand-written typed key whose type differs from its case's default (the slip generated
  /// keys rule out: a default written as `0` read as `Double`, an unsigned raw value read as
  /// `Int`). No read traps: the default converts where it can, else the stored value or an empty
  /// value is read, and each mismatch is reported once.
  @Test func aKeyedReadWithTheWrongTypeNeverTraps() {
    Diagnostics.start()
    let store = PreferenceStore.inMemory().keyed(by: PortedKeys.self)
    let rateAsDouble = TypedPreferenceKey<PortedKeys, Double>(.overscrollRate)
    #expect(store.value(for: rateAsDouble) == 0.0)
    #expect(store[rateAsDouble] == 0.0)
    #expect(
      store.value(for: TypedPreferenceKey<PortedKeys, Int>(.encoding)) == Int(String.Encoding.utf8.rawValue))
    #expect(store.value(for: TypedPreferenceKey<PortedKeys, Int>(.title)) == 0)
    #expect(store.value(for: TypedPreferenceKey<PortedKeys, [String]>(.title)) == [])
    #expect(store.value(for: TypedPreferenceKey<PortedKeys, Int?>(.title)) == nil)
    let received = Locked<[Double]>([])
    let observation = store.observe(rateAsDouble) { value in received.withLock { $0.append(value) } }
    store.store.set(0.5, forKey: "overscrollRate")
    #expect(store.value(for: rateAsDouble) == 0.5)
    observation.cancel()
    #expect(
      Diagnostics.reported(mentioning: "preference 'overscrollRate' is declared as Int but was given Double")
        .count
        == 1)
    #expect(
      Diagnostics.reported(mentioning: "preference 'title' is declared as String but was given Int").count
        == 1)
    // The generated keys carry each default's type: no annotation, no mismatch.
    let rate: Int = store[.overscrollRate]
    let encoding: UInt = store.value(for: .encoding)
    #expect(rate == 0 && encoding == String.Encoding.utf8.rawValue && store.string(for: .title) == "Untitled")
  }
}

/// A hand-written typed key of a type no empty value reads as (an enum, a date, an identifier, a
/// URL): the read returns a fixed substitute, reports the mismatch once, and never traps (it
/// trapped for these). A mismatch found where another caller's value of the wrong type is
/// cached is reported too.
@Suite struct KeyedMismatchTests {
  enum Mode: String, PreferenceValue, CaseIterable { case light, dark }

  @Test func aWrongTypeWithNoEmptyValueReadsASubstituteAndIsReported() {
    Diagnostics.start()
    let keys = PreferenceStore.inMemory().keyed(by: MismatchKeys.self)
    #expect(keys.value(for: TypedPreferenceKey<MismatchKeys, Mode>(.count)) == .light)
    #expect(
      keys.value(for: TypedPreferenceKey<MismatchKeys, Date>(.count))
        == Date(timeIntervalSinceReferenceDate: 0))
    #expect(
      keys.value(for: TypedPreferenceKey<MismatchKeys, UUID>(.count)).uuidString
        == "00000000-0000-0000-0000-000000000000")
    #expect(keys.value(for: TypedPreferenceKey<MismatchKeys, URL>(.count)).absoluteString == "about:blank")
    for type in ["Mode", "Date", "UUID", "URL"] {
      #expect(
        Diagnostics.reported(
          mentioning: "preference 'MismatchKeys.count' is declared as Int but was given \(type)"
        )
        .count == 1, "\(type)")
    }
  }

  @Test func aMismatchIsReportedEvenWhenTheStoredValueReadsAsTheWrongType() {
    Diagnostics.start()
    let keys = PreferenceStore.inMemory().keyed(by: MismatchKeys.self)
    keys.store.set(3, forKey: "MismatchKeys.ratio")
    // A read with the declared type first (it makes the key's cell, after which a read that
    // finds a usable stored value asks for no default); then a stored 3 reads as a Double too:
    // the read succeeds, and is still a mismatch.
    #expect(keys.value(for: TypedPreferenceKey<MismatchKeys, Int>(.ratio)) == 3)
    #expect(keys.value(for: TypedPreferenceKey<MismatchKeys, Double>(.ratio)) == 3)
    #expect(keys.value(for: TypedPreferenceKey<MismatchKeys, Double>(.ratio)) == 3)
    #expect(
      Diagnostics.reported(
        mentioning: "preference 'MismatchKeys.ratio' is declared as Int but was given Double"
      )
      .count == 1)
  }
}

enum MismatchKeys: String, PreferenceKeys {
  case count = "MismatchKeys.count"
  case ratio = "MismatchKeys.ratio"
  var defaultValue: any PreferenceValue {
    switch self {
    case .count: 0
    case .ratio: 1
    }
  }
}

enum PortedKeys: String, PreferenceKeys {
  case overscrollRate, encoding, title

  var defaultValue: any PreferenceValue {
    switch self {
    case .overscrollRate: 0
    case .encoding: String.Encoding.utf8.rawValue as UInt
    case .title: "Untitled"
    }
  }
}

enum AppKeys: String, PreferenceKeys {
  case name, emailAddress, launchCount, theme

  var defaultValue: any PreferenceValue {
    switch self {
    case .name: "Anonymous"
    case .emailAddress: String?.none
    case .launchCount: 0
    case .theme: Theme.dark
    }
  }
}

/// An in-memory backend whose reads go through `read` (given the key, its read count so far and
/// the stored value), to make reads slow or make a value vanish after its first read.
private final class InterceptedBackend: PreferenceBackend {
  let base = InMemoryBackend()
  let read: @Sendable (_ key: String, _ count: Int, _ stored: PropertyListValue?) -> PropertyListValue?
  private let reads = Locked([String: Int]())
  init(
    _ values: [String: PropertyListValue],
    read:
      @escaping @Sendable (_ key: String, _ count: Int, _ stored: PropertyListValue?) -> PropertyListValue?
  ) {
    self.read = read
    for (key, value) in values { base.setValue(value, forKey: key) }
  }
  func value(forKey key: String) -> PropertyListValue? {
    let count = reads.withLock { reads -> Int in
      reads[key, default: 0] += 1
      return reads[key]!
    }
    return read(key, count, base.value(forKey: key))
  }
  func setValue(_ value: PropertyListValue?, forKey key: String) { base.setValue(value, forKey: key) }
  func allValues() -> [String: PropertyListValue] { base.allValues() }
  func removeAll() { base.removeAll() }
  func flush() throws {}
  var location: String { "intercepted" }

  /// Keys in `vanishing` hold a value for their first read only, as when another thread migrates
  /// them away between two reads.
  static func vanishing(_ values: [String: PropertyListValue], _ vanishing: Set<String>) -> InterceptedBackend
  {
    InterceptedBackend(values) { key, count, stored in vanishing.contains(key) && count > 1 ? nil : stored }
  }

  /// Every read takes a millisecond, so that migrations on several threads overlap.
  static func slow(_ values: [String: PropertyListValue]) -> InterceptedBackend {
    InterceptedBackend(values) { _, _, stored in
      // Not synchronization: a slow read widens the window in which migrations overlap.
      usleep(1_000)
      return stored
    }
  }
}

@Suite struct RenameMigrationTests {
  /// Two threads migrating the same keys: each old key is read once, so a value that another
  /// migration takes away between two reads cannot stop the app (it trapped in a CI run).
  @Test func aValueThatVanishesAfterItIsReadIsMigratedWithoutAFault() {
    let store = PreferenceStore(
      backend: InterceptedBackend.vanishing(["old": .string("v")], ["old"]), arguments: [])
    #expect(store.migrate(from: ["old"], to: "new") == .moved)
    #expect(store.value(forKey: "new", default: "") == "v")
    let previous = PreferenceStore(
      backend: InterceptedBackend.vanishing(["moved": .string("m")], ["moved"]), arguments: [])
    #expect(PreferenceStore.inMemory().migrate("moved", from: previous) == .moved)
  }

  /// Migrations of the same keys on several threads whose reads overlap (a slow backend): the
  /// value moves once, whichever form moves it.
  @Test func overlappingMigrationsMoveExactlyOnce() {
    for round in 0..<6 {
      let old = PreferenceStore(backend: InterceptedBackend.slow(["old": .string("v")]), arguments: [])
      let new = round % 2 == 0 ? old : PreferenceStore(backend: InterceptedBackend.slow([:]), arguments: [])
      let results = Locked<[PreferenceStore.MigrationResult]>([])
      DispatchQueue.concurrentPerform(iterations: 6) { _ in
        let result =
          round % 2 == 0
          ? old.migrate(from: "old", to: "new") : new.migrate("new", from: old, oldKeys: ["old"])
        results.withLock { $0.append(result) }
      }
      #expect(
        results.withLock { $0 }.filter { $0 == .moved }.count == 1,
        "round \(round): \(results.withLock { $0 })")
      #expect(new.value(forKey: "new", default: "") == "v")
      #expect(!old.hasStoredValue(forKey: "old"))
    }
  }

  @Test func chainedRenamesTakeTheNewestOldValue() {
    let store = PreferenceStore.inMemory(["A": 1, "B": 2])
    #expect(store.migrate(from: ["B", "A"], to: "C") == .moved)
    #expect(store.value(forKey: "C", default: 0) == 2)
    #expect(!store.hasStoredValue(forKey: "B"))
    #expect(store.migrate(from: ["B", "A"], to: "C") == .keptExistingValue)
    #expect(store.value(forKey: "C", default: 0) == 2)
    let onlyOldest = PreferenceStore.inMemory(["A": 1])
    #expect(onlyOldest.migrate(from: ["B", "A"], to: "C") == .moved)
    #expect(onlyOldest.value(forKey: "C", default: 0) == 1)
  }

  /// The single-key and the chain forms of `migrate` are one mechanism: for every state of the
  /// two keys they answer alike and leave the same values.
  @Test func bothMigrateFormsAnswerAlike() {
    let states: [[String: String]] = [["old": "o", "new": "n"], ["new": "n"], ["old": "o"], [:]]
    for state in states {
      let single = PreferenceStore.inMemory(state)
      let chain = PreferenceStore.inMemory(state)
      #expect(single.migrate(from: "old", to: "new") == chain.migrate(from: ["old"], to: "new"), "\(state)")
      #expect(single.backend.allValues() == chain.backend.allValues(), "\(state)")
    }
    let same = PreferenceStore.inMemory(["k": "v"])
    #expect(same.migrate(from: "k", to: "k") == .nothingToMigrate)
    #expect(same.migrate(from: ["k"], to: "k") == .nothingToMigrate)
    let declined = PreferenceStore.inMemory(["old": "o"])
    #expect(declined.migrate(from: ["old"], to: "new", transform: { _ in nil }) == .nothingToMigrate)
    #expect(declined.value(forKey: "old", default: "") == "o")
  }

  @Test func concurrentMigrationsMoveExactlyOnce() {
    for _ in 0..<50 {
      let store = PreferenceStore.inMemory(["old": "value"])
      let results = Locked<[PreferenceStore.MigrationResult]>([])
      DispatchQueue.concurrentPerform(iterations: 8) { _ in
        let result = store.migrate(from: ["old"], to: "new")
        results.withLock { $0.append(result) }
      }
      #expect(results.withLock { $0 }.filter { $0 == .moved }.count == 1)
      #expect(store.value(forKey: "new", default: "") == "value")
      #expect(!store.hasStoredValue(forKey: "old"))
    }
  }
}

/// The app's own domain is not a suite: `.suite` of it is `.standard`, and says so.
@Suite struct SuiteNameTests {
  @Test func theAppsOwnDomainAsASuiteIsTheStandardStore() {
    Diagnostics.start()
    let name = UserDefaultsBackend.applicationDomain
    #expect(PreferenceStore.suite(name) === PreferenceStore.standard)
    #expect(!Diagnostics.reported(mentioning: "'\(name)' is the app's own domain, not a suite").isEmpty)
  }
}
