import Foundation
import Testing

@_spi(Generated) @testable import Preferences

/// Hand-written file tables, shaped like generated ones, for runtime behaviour that does not
/// depend on the scanner.
enum FakeTables {
  /// The store the tables name (`store(_:)`), set by each test before its catalog first needs it.
  static let store = Locked<PreferenceStore?>(nil)
  static let evaluations = Locked(0)

  static func record(
    key: String, index: Int, line: Int, fileID: String = "Tests/Fake.swift", store: String? = nil,
    syncs: Bool = false, renamedFrom: [String] = [], registration: String = "registry",
    registeredValue: String? = nil
  ) -> String {
    let renamed = renamedFrom.map { "\"\($0)\"" }.joined(separator: ",")
    let storeText = store.map { "\"\($0)\"" } ?? "null"
    return """
      {"key":"\(key)","property":"p\(index)","declaringType":"Profile","valueType":"String",\
      "defaultValue":"\\"\\"","documentation":null,"fileID":"\(fileID)","line":\(line),"column":3,\
      "condition":null,"syncs":\(syncs),"inSettings":false,"store":\(storeText),"format":"propertyList",\
      "renamedFrom":[\(renamed)],"registration":"\(registration)","registrationNote":null,"index":\(index)\
      \(registeredValue.map { ",\"registeredValue\":\($0)" } ?? "")}
      """
  }
}

/// One declaration in an explicit store, renamed twice and synced; its default is encoded.
let profileTable = PreferenceFileTable(
  fileID: "Tests/Fake.swift",
  records: {
    [
      "["
        + FakeTables.record(
          key: "Profile.name", index: 0, line: 1, store: "Self.store", syncs: true,
          renamedFrom: ["User.name", "name"], registeredValue: #"{"string":"Anonymous"}"#) + "]"
    ]
  },
  store: { _ in FakeTables.store.withLock { $0 } })

/// Defaults the registry evaluates: one anywhere, one only on the main actor; and a declaration
/// whose `#sourceLocation` names another file.
let evaluatedTable = PreferenceFileTable(
  fileID: "Tests/Evaluated.swift",
  records: {
    [
      "["
        + [
          FakeTables.record(
            key: "Evaluated.anywhere", index: 0, line: 1, fileID: "Tests/Evaluated.swift", store: "s",
            registration: "registry"),
          FakeTables.record(
            key: "Evaluated.onMain", index: 1, line: 2, fileID: "Tests/Evaluated.swift", store: "s",
            registration: "mainActor"),
          FakeTables.record(
            key: "Evaluated.mapped", index: 2, line: 900, fileID: "Tests/Template.stencil", store: "s"),
        ].joined(separator: ",") + "]"
    ]
  },
  registration: { index in
    switch index {
    case 0:
      return .registry {
        FakeTables.evaluations.withLock { $0 += 1 }
        return .integer(1)
      }
    case 1: return .mainActor { .integer(2) }
    default: return .none
    }
  },
  store: { _ in FakeTables.store.withLock { $0 } })

/// A default the registry evaluates anywhere (index 0) that reads one only the main actor may
/// evaluate (index 1), as a nonisolated default may in Swift 5 mode; it first waits until the
/// main actor is blocked waiting for the registration it is part of. The main-actor default
/// reads another preference of the module in turn (it re-enters registration).
enum HandoffTable {
  static let catalog = Locked<RegistryCatalog?>(nil)
  static let registering = DispatchSemaphore(value: 0)
  /// Signalled when the main actor starts waiting for the registration.
  static let awaited = DispatchSemaphore(value: 0)

  static let table = PreferenceFileTable(
    fileID: "Tests/Handoff.swift",
    records: {
      [
        "["
          + [
            FakeTables.record(
              key: "Handoff.dependent", index: 0, line: 1, fileID: "Tests/Handoff.swift", store: "s",
              registration: "registry"),
            FakeTables.record(
              key: "Handoff.onMain", index: 1, line: 2, fileID: "Tests/Handoff.swift", store: "s",
              registration: "mainActor"),
          ].joined(separator: ",") + "]"
      ]
    },
    registration: { index in
      switch index {
      case 0:
        return .registry {
          registering.signal()
          guard let catalog = catalog.withLock({ $0 }), let store = FakeTables.store.withLock({ $0 })
          else { return nil }
          // Until the main actor waits for this registration (the watchdog ends a hang).
          awaited.wait()
          guard
            let entry = catalog.entry(fileID: "Tests/Handoff.swift", location: 2),
            case .integer(let onMain) = catalog.declaredDefault(of: entry, in: store)
          else { return nil }
          return .integer(onMain + 1)
        }
      case 1:
        return .mainActor {
          if let store = FakeTables.store.withLock({ $0 }) {
            catalog.withLock { $0 }?.ensureRegistered(in: store)
          }
          // Evaluated outside any test's stand-ins, even by a main actor waiting inside them.
          return .integer(PreferenceStandIns.current == nil ? 2 : 20)
        }
      default: return .none
      }
    },
    store: { _ in FakeTables.store.withLock { $0 } })
}

/// Generated records that do not decode (a registry from another version of the library).
let brokenTable = PreferenceFileTable(fileID: "Tests/Broken.swift", records: { [#"[{"key": 42}]"#] })

/// A registry as generated for a file whose declarations need no code: its table is the file ID
/// and the records as two static strings. Anything else in the list is not a table.
enum StaticStringRegistry: GeneratedPreferenceRegistry {
  static func _preferenceFiles() -> [Any] {
    [
      (
        "Tests/Literal.swift" as StaticString,
        #"[{"key":"Literal.count","property":"count","declaringType":"Literal","valueType":"Int","defaultValue":"3","documentation":null,"fileID":"Tests/Literal.swift","line":7,"column":3,"condition":null,"syncs":false,"inSettings":false,"store":null,"format":"propertyList","renamedFrom":[],"registration":"registry","registrationNote":null,"index":0,"registeredValue":{"integer":3}}]"#
          as StaticString
      ),
      42,
      ("Tests/Other.swift", "not static"),
    ]
  }
  static func _retiredKeys() -> [String] { [] }
}

enum FakeRegistry: GeneratedPreferenceRegistry {
  static func _preferenceFiles() -> [Any] { [profileTable, evaluatedTable] }
  static func _retiredKeys() -> [String] { ["Old.flag", "Old.count", "Profile.name"] }
}

@Suite(.serialized) struct RegistryRuntimeTests {
  /// A catalog of its own, in a store of its own, so that each test registers from scratch.
  func catalog(_ tables: [PreferenceFileTable], store: PreferenceStore) -> RegistryCatalog {
    FakeTables.store.withLock { $0 = store }
    return RegistryCatalog(tables: tables)
  }

  @Test func concurrentRegistrationMigratesOnceAndRegistersDefaults() {
    for _ in 0..<Intensity.rounds(quick: 20, long: 500) {
      let store = PreferenceStore.inMemory(["User.name": "Newer", "name": "Oldest"])
      let catalog = catalog([profileTable], store: store)
      DispatchQueue.concurrentPerform(iterations: 8) { _ in catalog.ensureRegistered(in: store) }
      #expect(store.backend.value(forKey: "Profile.name") == .string("Newer"))
      #expect(!store.hasStoredValue(forKey: "User.name"))
      #expect(store.value(forKey: "name", default: "") == "Oldest", "older leftovers are kept, never lost")
      #expect(store.registeredDefault(forKey: "Profile.name") == .string("Anonymous"))
      #expect(store.hasRegistered(registry: catalog.number))
    }
  }

  @Test func defaultsAreEvaluatedOncePerStoreAndMainActorOnesOnTheMainActor() async {
    // On the main actor: every default is registered at once.
    let mainStore = PreferenceStore.inMemory()
    let mainCatalog = catalog([evaluatedTable], store: mainStore)
    await MainActor.run {
      mainCatalog.ensureRegistered(in: mainStore)
      #expect(mainStore.registeredDefault(forKey: "Evaluated.onMain") == .integer(2))
    }

    // Elsewhere: the main-actor default follows on the main actor's next turn.
    let store = PreferenceStore.inMemory()
    let catalog = catalog([evaluatedTable], store: store)
    let before = FakeTables.evaluations.withLock { $0 }
    await Task.detached { catalog.ensureRegistered(in: store) }.value
    catalog.ensureRegistered(in: store)
    #expect(FakeTables.evaluations.withLock { $0 } == before + 1, "evaluated once per store")
    #expect(store.registeredDefault(forKey: "Evaluated.anywhere") == .integer(1))
    await MainActor.run {}
    #expect(store.registeredDefault(forKey: "Evaluated.onMain") == .integer(2))
  }

  /// A read off the main thread that needs a default registration left to the main actor
  /// evaluates it there and then, rather than waiting for the main actor's next turn.
  @Test func aDefaultLeftToTheMainActorIsEvaluatedThereWhenAReadNeedsIt() async {
    let store = PreferenceStore.inMemory()
    let catalog = catalog([evaluatedTable], store: store)
    let found = await Task.detached { () -> PropertyListValue? in
      catalog.ensureRegistered(in: store)
      guard let entry = catalog.entry(fileID: "Tests/Evaluated.swift", location: 2) else { return nil }
      return catalog.declaredDefault(of: entry, in: store)
    }.value
    #expect(found == .integer(2))
    #expect(store.registeredDefault(forKey: "Evaluated.onMain") == .integer(2), "registered by the read")
    let anywhere = catalog.entry(fileID: "Tests/Evaluated.swift", location: 1)
    #expect(anywhere.flatMap { catalog.declaredDefault(of: $0, in: store) } == .integer(1))
    let mapped = catalog.entry(fileID: "Tests/Template.stencil", location: 900)
    #expect(mapped != nil)
    #expect(mapped.flatMap { catalog.declaredDefault(of: $0, in: store) } == nil, "no default to give")
    await MainActor.run {}
    #expect(store.registeredDefault(forKey: "Evaluated.onMain") == .integer(2))
  }

  /// A registration off the main actor that needs a main-actor default while the main actor
  /// waits for that registration: the main actor runs the default as it waits, instead of both
  /// waiting for each other, and that default re-entering registration reads on.
  @Test(.deadlockWatchdog)
  func aRegistrationThatNeedsTheWaitingMainActorFinishes() async {
    let store = PreferenceStore.inMemory()
    FakeTables.store.withLock { $0 = store }
    let catalog = RegistryCatalog(tables: [HandoffTable.table], mainActorIsDefaultIsolation: false)
    HandoffTable.catalog.withLock { $0 = catalog }
    catalog.onRegistrationAwaited { HandoffTable.awaited.signal() }
    let registering = Task.detached { catalog.ensureRegistered(in: store) }
    await MainActor.run {
      // The main actor waits inside a test's stand-ins, running the handed-off default there.
      PreferenceStandIns().run {
        HandoffTable.registering.wait()
        catalog.ensureRegistered(in: store)
        #expect(
          store.registeredDefault(forKey: "Handoff.dependent") == .integer(3),
          "registered before the wait ends, from the default evaluated outside the stand-ins")
      }
    }
    await registering.value
    #expect(store.hasRegistered(registry: catalog.number))
    #expect(!catalog.isRegistrationAwaited, "the main actor stopped waiting")
  }

  /// The store a preference moved from is evaluated outside a test's stand-ins, as its store
  /// is: a `static let` it names, first made there, would hold that test's stand-in for good.
  @Test func aMovedFromStoreIsEvaluatedOutsideStandIns() {
    let outside = Locked<[Bool]>([])
    let old = PreferenceStore.inMemory()
    let table = PreferenceFileTable(
      fileID: "Tests/MovedFrom.swift",
      records: { ["[" + FakeTables.record(key: "MovedFrom.value", index: 0, line: 1) + "]"] },
      registration: { _ in .registry { .integer(1) } },
      movedFrom: { _ in
        outside.withLock { $0.append(PreferenceStandIns.current == nil) }
        return old
      })
    let catalog = RegistryCatalog(tables: [table])
    PreferenceStandIns().run {
      catalog.ensureRegistered(in: PreferenceStore.default)
    }
    #expect(outside.withLock { $0 } == [true])
  }

  @Test func aTableOfTwoStaticStringsIsReadLikeATableValue() {
    let catalog = RegistryCatalog.of(StaticStringRegistry.self)
    #expect(catalog.entry(fileID: "AnyModule/Literal.swift", location: 7)?.descriptor.key == "Literal.count")
    #expect(catalog.allEntries().map(\.descriptor.key) == ["Literal.count"], "what is not a table is skipped")
    #expect(catalog.allEntries().first?.core.registeredValue == .integer(3))
  }

  @Test func declarationsAreFoundWhereTheCompilerReportsThem() {
    let catalog = catalog([evaluatedTable], store: .inMemory())
    // Found by file and line: the wrapper passes no column.
    let onMain = catalog.entry(fileID: "Tests/Evaluated.swift", location: 2)
    #expect(onMain?.descriptor.key == "Evaluated.onMain")
    // A `#sourceLocation` directive reports another file, which has no table of its own.
    let mapped = catalog.entry(fileID: "Tests/Template.stencil", location: 900)
    #expect(mapped?.descriptor.key == "Evaluated.mapped")
    #expect(catalog.entry(fileID: "Tests/Evaluated.swift", location: 3) == nil)
    #expect(catalog.entry(fileID: "Tests/Nowhere.swift", location: 2) == nil)
  }

  @Test func recordsThatDoNotDecodeAreReportedNotFatal() {
    Diagnostics.start()
    let catalog = catalog([brokenTable, profileTable], store: .inMemory())
    #expect(catalog.allEntries().map(\.descriptor.key) == ["Profile.name"])
    #expect(!Diagnostics.reported(mentioning: "Tests/Broken.swift").isEmpty)
  }

  @Test func retiredValuesAreRemovedOnlyWhenAskedAndNeverFromDeclaredKeys() {
    let store = PreferenceStore.inMemory(["Old.flag": true, "Kept": 1, "Profile.name": "Paul"])
    FakeTables.store.withLock { $0 = store }
    FakeRegistry.registerDefaults(in: store)
    #expect(store.hasStoredValue(forKey: "Old.flag"))
    #expect(FakeRegistry.retiredKeys == ["Old.flag", "Old.count", "Profile.name"])
    #expect(FakeRegistry.removeRetiredValues(from: store) == ["Old.flag"])
    #expect(!store.hasStoredValue(forKey: "Old.flag"))
    #expect(store.hasStoredValue(forKey: "Kept"))
    #expect(store.hasStoredValue(forKey: "Profile.name"), "a declared key is never purged")
  }

  @Test func theRegistryListsItsPreferences() throws {
    #expect(FakeRegistry.syncedKeys == ["Profile.name"])
    #expect(
      FakeRegistry.preferences.map(\.key) == [
        "Evaluated.anywhere", "Evaluated.onMain", "Evaluated.mapped", "Profile.name",
      ])
    let name = try #require(FakeRegistry.preference(forKey: "Profile.name"))
    #expect(name.renamedFrom == ["User.name", "name"])
    #expect(name.storeSource == "Self.store")
    #expect(FakeRegistry.preference(forKey: "Old.flag") == nil)
  }

  @Test func anotherProcessWritingTheSuiteReachesObservers() throws {
    let suite = TemporarySuite()
    let store = PreferenceStore(backend: UserDefaultsBackend(suiteName: suite.name), arguments: [])
    let heard = Recorder<String>()
    let observation = store.observe("shared", default: "") { heard.record($0) }
    try runHelper(["set-and-exit", "suite:\(suite.name)", "shared", "from child"])
    #expect(waitUntil { !heard.all.isEmpty })
    #expect(heard.all == ["from child"])
    withExtendedLifetime(observation) {}
  }
}

/// A preference whose store changed, declaring where its value was before.
struct MovedSettings {
  nonisolated static let oldStore = PreferenceStore.inMemory(["MovedSettings.theme": "dark", "old.size": 3])
  nonisolated static let newStore = PreferenceStore.inMemory()
  @Preference(store: MovedSettings.newStore, movedFrom: MovedSettings.oldStore) var theme = "light"
  @Preference(store: MovedSettings.newStore, movedFrom: MovedSettings.oldStore, renamedFrom: "old.size")
  var size = 1
}

@Suite struct StoreMoveTests {
  @Test func aDeclaredMoveCarriesTheValueToTheNewStoreOnce() {
    let settings = MovedSettings()
    #expect(settings.theme == "dark")
    #expect(settings.size == 3, "renamed and moved at once")
    #expect(MovedSettings.newStore.backend.value(forKey: "MovedSettings.theme") == .string("dark"))
    #expect(!MovedSettings.oldStore.hasStoredValue(forKey: "MovedSettings.theme"))
    #expect(!MovedSettings.oldStore.hasStoredValue(forKey: "old.size"))
    // Once: a value written to the old store later stays there.
    MovedSettings.oldStore.set("blue", forKey: "MovedSettings.theme")
    MovedSettings.registry.registerDefaults(in: MovedSettings.newStore)
    #expect(settings.theme == "dark")
  }

  @Test func aMoveNeverOverwritesAValueTheNewStoreHolds() {
    let old = PreferenceStore.inMemory(["k": "old"])
    let new = PreferenceStore.inMemory(["k": "new"])
    #expect(new.migrate("k", from: old) == .keptExistingValue)
    #expect(new.value(forKey: "k", default: "") == "new")
    #expect(old.value(forKey: "k", default: "") == "old", "kept, never lost")
    #expect(new.migrate("k", from: new) == .nothingToMigrate, "a store never moves into itself")
  }

  /// Moves of one key into one store on many threads at once: one moves it, the others find it
  /// moved, and it ends in the new store only.
  @Test func concurrentMovesMoveExactlyOnce() {
    for _ in 0..<50 {
      let old = PreferenceStore.inMemory(["k": "value"])
      let new = PreferenceStore.inMemory()
      let results = Locked<[PreferenceStore.MigrationResult]>([])
      DispatchQueue.concurrentPerform(iterations: 8) { _ in
        let result = new.migrate("k", from: old)
        results.withLock { $0.append(result) }
      }
      #expect(results.withLock { $0 }.filter { $0 == .moved }.count == 1)
      #expect(new.value(forKey: "k", default: "") == "value")
      #expect(!old.hasStoredValue(forKey: "k"))
    }
  }

  /// The store move answers as the key migration does, for the same situations.
  @Test func aMoveAnswersAsAKeyMigrationDoes() {
    let old = PreferenceStore.inMemory(["older": "v"])
    let new = PreferenceStore.inMemory()
    #expect(new.migrate("k", from: old) == .nothingToMigrate)
    #expect(new.migrate("k", from: old, oldKeys: ["older"]) == .moved)
    #expect(new.value(forKey: "k", default: "") == "v")
    #expect(!old.hasStoredValue(forKey: "older"), "removed where it came from")
    #expect(new.migrate("k", from: old, oldKeys: ["older"]) == .nothingToMigrate, "idempotent")
  }
}

extension MovedSettings {
  static var registry: PreferenceRegistry.Type { PreferenceRegistry.self }
}

@Suite struct UnresolvedDeclarationTests {
  /// A declaration the registry does not know (a stale build) is reported with its place and
  /// keeps its values in memory, never under a made-up key in the user's store.
  @Test func anUnknownDeclarationIsReportedAndNeverReachesTheStore() {
    Diagnostics.start()
    let fileID: StaticString = "Tests/StaleBuild.swift"
    let resolution = DeclarationResolver.resolve(
      KeepingRegistry.self, fileIDAddress: UInt(bitPattern: fileID.utf8Start),
      location: 41)
    #expect(resolution.key == "Tests/StaleBuild.swift:41")
    #expect(resolution.store !== PreferenceStore.default)
    #expect(resolution.store != nil)
    let reported = Diagnostics.reported(mentioning: "Tests/StaleBuild.swift:41")
    #expect(reported.count == 1)
    #expect(reported.first?.description.contains("Rebuild") == true)
  }

  /// What an unknown declaration reads with nothing stored: the default it kept where the
  /// registry says to keep it (a registry of an older library keeps every one), else, the
  /// registry having none to give, `nil` for an optional and an empty value otherwise.
  @Test func anUnknownDeclarationReadsItsKeptDefaultElseAnEmptyValue() {
    Diagnostics.start()
    let kept = DerivedPreference<Int, KeepingRegistry>(
      wrappedValue: 5, fileID: "Tests/StaleKept.swift", line: 7)
    #expect(kept.wrappedValue == 5)
    let empty = DerivedPreference<Int, NonKeepingRegistry>(
      wrappedValue: 5, fileID: "Tests/StaleEmpty.swift", line: 7)
    #expect(empty.wrappedValue == 0)
    let none = DerivedPreference<String?, NonKeepingRegistry>(fileID: "Tests/StaleEmpty.swift", line: 8)
    #expect(none.wrappedValue == nil)
    #expect(Diagnostics.reported(mentioning: "Tests/StaleEmpty.swift:7").count == 1)
    empty.wrappedValue = 6
    #expect(empty.wrappedValue == 6, "its value lives in memory")
  }
}

/// A registry that lists nothing and keeps every declaration's default, as one of an older
/// library does. Its own, so that reading through it registers nothing another suite counts
/// (``FakeRegistry``'s evaluations).
enum KeepingRegistry: GeneratedPreferenceRegistry {
  static func _preferenceFiles() -> [Any] { [] }
  static func _retiredKeys() -> [String] { [] }
}

/// A registry that lists nothing and keeps no declaration's default, as a generated one whose
/// module has no default the registry cannot evaluate.
enum NonKeepingRegistry: GeneratedPreferenceRegistry {
  static func _preferenceFiles() -> [Any] { [] }
  static func _retiredKeys() -> [String] { [] }
  static func _keepsDefault(line: UInt) -> Bool { false }
}

/// Xcode names a module after the product (`$(PRODUCT_NAME:c99extidentifier)`, or an override
/// the build plugin cannot see): declarations resolve whatever the module is called, because
/// the registry matches them by file name and position.
@Suite struct ModuleNameIndependenceTests {
  @Test func aDeclarationResolvesUnderAnyModuleName() throws {
    let catalog = RegistryCatalog.of(PreferenceRegistry.self)
    let entry = try #require(catalog.allEntries().first)
    let descriptor = entry.descriptor
    let location = UInt64(descriptor.line)
    let file = RegistryCatalog.fileKey(descriptor.fileID)
    #expect(descriptor.fileID == "PreferencesTests/\(file)")
    for module in ["PreferencesTests", "My_App", "SomethingElse"] {
      #expect(
        catalog.entry(fileID: "\(module)/\(file)", location: location)?.descriptor.key == descriptor.key)
    }
    #expect(catalog.entry(fileID: "My_App/NotAFile.swift", location: location) == nil)
  }
}

/// Two modules of one app (each a generated registry of its own) that declare one key in one
/// store: both would read and write the one value, which is reported unless both name the key
/// with `key:` and agree on its type and default.
@Suite struct KeysOfTwoModulesTests {
  /// A declaration of `module`, as its generated table records it, in `store`.
  struct Declaration {
    var module: String
    var line: Int
    var explicitKey = false
    var valueType = "Bool"
    var defaultValue = "false"
  }

  /// A catalog of one module whose one declaration stores `key` in `store`.
  func module(_ declaration: Declaration, key: String, store: PreferenceStore) -> RegistryCatalog {
    let fileID = "\(declaration.module)/Settings.swift"
    let record = """
      [{"key":"\(key)","isKeyDerived":\(!declaration.explicitKey),"property":"showGrid",\
      "declaringType":"Settings","valueType":"\(declaration.valueType)",\
      "defaultValue":"\(declaration.defaultValue)","documentation":null,"fileID":"\(fileID)",\
      "line":\(declaration.line),"column":3,"condition":null,"syncs":false,"inSettings":false,\
      "store":"Self.store","format":"propertyList","renamedFrom":[],"registration":"registry",\
      "registrationNote":null,"index":0}]
      """
    let table = PreferenceFileTable(
      fileID: StaticString("Settings.swift"), records: { [record] },
      registration: { _ in .registry { nil } }, store: { _ in store })
    return RegistryCatalog(tables: [table])
  }

  static let cases: [(first: Declaration, second: Declaration, reported: Bool)] = [
    // Derived from type and property names that happen to match: two settings, one value.
    (Declaration(module: "App", line: 3), Declaration(module: "Feature", line: 8), true),
    // Both name the key and agree: they mean to share it, as two views reading one key do.
    (
      Declaration(module: "App", line: 3, explicitKey: true),
      Declaration(module: "Feature", line: 8, explicitKey: true), false
    ),
    // Named in both, but read as different types, or with different defaults.
    (
      Declaration(module: "App", line: 3, explicitKey: true),
      Declaration(module: "Feature", line: 8, explicitKey: true, valueType: "Int", defaultValue: "0"), true
    ),
    (
      Declaration(module: "App", line: 3, explicitKey: true),
      Declaration(module: "Feature", line: 8, explicitKey: true, defaultValue: "true"), true
    ),
    // Named in one and derived in the other: a collision, not an agreement.
    (Declaration(module: "App", line: 3, explicitKey: true), Declaration(module: "Feature", line: 8), true),
  ]

  @Test(arguments: cases.indices)
  func aKeyOfTwoModulesInOneStoreIsReportedUnlessBothNameItAndAgree(_ index: Int) {
    Diagnostics.start()
    let (first, second, reported) = Self.cases[index]
    let key = "TwoModules\(index).showGrid"
    let store = PreferenceStore.inMemory()
    let app = module(first, key: key, store: store)
    let feature = module(second, key: key, store: store)
    app.ensureRegistered(in: store)
    #expect(Diagnostics.reported(mentioning: "'\(key)'").isEmpty, "one module alone is fine")
    feature.ensureRegistered(in: store)
    let expected = PreferenceError.keyDeclaredInTwoModules(
      key: key, declarations: ["App/Settings.swift:3", "Feature/Settings.swift:8"])
    #expect(Diagnostics.reported(mentioning: "'\(key)'") == (reported ? [expected] : []))
    if reported {
      #expect(expected.description.contains("@Preference(key: \"…\")"), "the message names the fix")
    }
  }

  @Test func oneKeyInTwoStoresOrOneModuleInTwoStoresIsNotReported() {
    Diagnostics.start()
    let key = "TwoModulesApart.showGrid"
    let (appStore, featureStore) = (PreferenceStore.inMemory(), PreferenceStore.inMemory())
    module(Declaration(module: "App", line: 3), key: key, store: appStore).ensureRegistered(in: appStore)
    let feature = module(Declaration(module: "Feature", line: 8), key: key, store: featureStore)
    feature.ensureRegistered(in: featureStore)
    // The same module again (a second registration of its own registry) is not a second module.
    let again = PreferenceStore.inMemory()
    let app = module(Declaration(module: "App", line: 3), key: key, store: again)
    app.ensureRegistered(in: again)
    app.ensureRegistered(in: again)
    #expect(Diagnostics.reported(mentioning: "'\(key)'").isEmpty)
  }

  @Test func aRecordWrittenBeforeTheFieldExistedReadsAsDerived() throws {
    let descriptor = try JSONDecoder().decode(
      PreferenceDescriptor.self,
      from: Data(
        #"{"key":"K","property":"p","declaringType":"T","valueType":null,"defaultValue":"1","documentation":null,"fileID":"M/F.swift","line":1,"column":3,"condition":null,"syncs":false,"inSettings":false,"store":null,"format":"propertyList","renamedFrom":[],"registration":"registry","registrationNote":null}"#
          .utf8))
    #expect(descriptor.isKeyDerived)
    let explicit = PreferenceDescriptor(
      key: "K", property: "p", declaringType: "T", valueType: "Int", defaultValueSource: "1",
      fileID: "M/F.swift",
      line: 1, column: 3, isKeyDerived: false)
    let roundTripped = try JSONDecoder().decode(
      PreferenceDescriptor.self, from: JSONEncoder().encode(explicit))
    #expect(roundTripped == explicit)
  }
}
