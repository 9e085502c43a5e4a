import Foundation

/// What the runtime knows about one generated registry: its per-file tables, their records
/// (decoded once, when first needed), the stores they name, and where they registered.
final class RegistryCatalog: Sendable {
  /// One declaration of the registry. A class: registration passes every entry of the module
  /// through several lists, and a reference is copied with one retain.
  final class Entry: Sendable {
    /// What launch read of the record: its key, file and line, flags and stored default.
    let core: GeneratedRecordCore
    /// The records' text the record stands in, with its table, shared by the text's entries.
    private let source: Source

    /// A text of records, and the file table it comes from.
    final class Source: Sendable {
      let table: PreferenceFileTable
      let text: String

      init(table: PreferenceFileTable, text: String) {
        self.table = table
        self.text = text
      }
    }

    /// The file table the record comes from.
    var table: PreferenceFileTable { source.table }

    init(_ core: GeneratedRecordCore, source: Source) {
      self.core = core
      self.source = source
    }

    /// The whole record, read again from its text: launch reads only what registration and
    /// resolution use, and descriptors are for tools and debug screens.
    var descriptor: PreferenceDescriptor {
      let tableFileID = RegistryCatalog.text(table.fileID)
      do {
        return try GeneratedRecordReader.record(in: source.text, at: core.offset, tableFileID: tableFileID)
          .descriptor
      } catch {
        // The bytes read at launch, checked as a whole record is: only a reader that checks less
        // at launch could get here. Reported, and described from what launch read.
        PreferenceDiagnostics.report(
          .unresolvedDeclaration(
            location: "\(core.fileID):\(core.line) (its generated record does not decode: \(error))"))
        return PreferenceDescriptor(
          key: core.key, property: "", declaringType: "", valueType: nil, defaultValueSource: "",
          fileID: core.fileID, line: core.line, column: 0, syncs: core.syncs, format: core.format,
          renamedFrom: core.renamedFrom, isExported: core.isExported,
          storeIsKeptByDeclaration: core.storeIsKeptByDeclaration)
      }
    }
  }

  /// The registry's process-wide number, used by stores to remember that it registered there.
  let number: Int
  private let tables: [String: PreferenceFileTable]

  private struct State {
    /// Entries of the tables decoded so far, by the table's file ID.
    var entries: [String: [Entry]] = [:]
    /// Entries by the location the compiler reports (`#sourceLocation` may name another file).
    var byLocation: [String: [UInt64: Entry]] = [:]
    var allDecoded = false
    /// Explicit stores, evaluated once per entry.
    var stores: [String: PreferenceStore] = [:]
    /// Defaults the registry evaluated, in stored form, by key.
    var evaluatedDefaults: [String: PropertyListValue] = [:]
  }
  private let state = Locked(State())
  /// One registration at a time; no lock is held while it runs defaults, migrations and the
  /// stores.
  private let registrations = OneAtATime()

  /// Whether a thread waits for another's registration now.
  var isRegistrationAwaited: Bool { registrations.isAwaited }

  /// Calls `handler` each time a thread starts waiting for another's registration, for tests.
  func onRegistrationAwaited(_ handler: @escaping @Sendable () -> Void) {
    registrations.onWaiting.withLock { $0 = handler }
  }

  /// Whether the module's default isolation is the main actor: code generated to follow the
  /// default then runs only there.
  let mainActorIsDefaultIsolation: Bool

  /// A catalog of `tables` with a process-wide number of its own.
  init(tables: [PreferenceFileTable], mainActorIsDefaultIsolation: Bool = true) {
    self.mainActorIsDefaultIsolation = mainActorIsDefaultIsolation
    self.number = Self.numbers.withLock { number in
      defer { number += 1 }
      return number
    }
    var byFile: [String: PreferenceFileTable] = [:]
    for table in tables { byFile[Self.fileKey(Self.text(table.fileID))] = table }
    self.tables = byFile
  }

  private static let catalogs = Locked<[ObjectIdentifier: RegistryCatalog]>([:])
  private static let numbers = Locked(0)

  /// The catalog of `registry`, created on first use.
  static func of<Registry: GeneratedPreferenceRegistry>(_ registry: Registry.Type) -> RegistryCatalog {
    if let catalog = catalogs.withLock({ $0[ObjectIdentifier(registry)] }) { return catalog }
    // The generated tables are built without the lock held.
    let tables = registry._preferenceFiles().compactMap(PreferenceFileTable.init(generated:))
    let mainActorByDefault = registry._mainActorIsDefaultIsolation()
    return catalogs.withLock { catalogs in
      if let catalog = catalogs[ObjectIdentifier(registry)] { return catalog }
      let catalog = RegistryCatalog(tables: tables, mainActorIsDefaultIsolation: mainActorByDefault)
      catalogs[ObjectIdentifier(registry)] = catalog
      return catalog
    }
  }

  /// The part of a `#fileID` (`Module/File.swift`) that identifies a file within its module: the
  /// file name. Matching on it, not on the module name, resolves declarations whatever the
  /// build system named the module (Xcode's `PRODUCT_MODULE_NAME` may differ from what the
  /// plugin can see); a module cannot hold two files of the same name.
  static func fileKey(_ fileID: String) -> String {
    guard let slash = fileID.utf8.firstIndex(of: UInt8(ascii: "/")) else { return fileID }
    return String(fileID[fileID.utf8.index(after: slash)...])
  }

  static func text(_ string: StaticString) -> String {
    string.withUTF8Buffer { String(decoding: $0, as: UTF8.self) }
  }

  // MARK: Records

  /// The declaration the compiler reports at `fileID`, line `location`.
  func entry(fileID: String, location: UInt64) -> Entry? {
    let file = Self.fileKey(fileID)
    if let table = tables[file] { decode(table) }
    if let entry = state.withLock({ $0.byLocation[file]?[location] }) { return entry }
    // A `#sourceLocation` directive can name a file that has no table of its own.
    decodeAll()
    return state.withLock { $0.byLocation[file]?[location] }
  }

  /// Every declaration, in file and source order.
  func allEntries() -> [Entry] {
    decodeAll()
    return state.withLock { state in
      state.entries.keys.sorted().flatMap { state.entries[$0] ?? [] }
    }
  }

  private func decodeAll() {
    guard !state.withLock({ $0.allDecoded }) else { return }
    for table in tables.values { decode(table) }
    state.withLock { $0.allDecoded = true }
  }

  private func decode(_ table: PreferenceFileTable) {
    let fileID = Self.text(table.fileID)
    guard state.withLock({ $0.entries[fileID] == nil }) else { return }
    let tableKey = Self.fileKey(fileID)
    var entries: [Entry] = []
    // Declarations that share an entry's preference (`@Preference(\Settings.showFooter)`), found
    // at their own locations.
    var references: [(location: String, entry: Entry)] = []
    for chunk in table.records() {
      let source = Entry.Source(table: table, text: chunk)
      var read: [Entry] = []
      var referencing: [(location: String, entry: Entry)] = []
      do {
        try GeneratedRecordReader.readCores(in: chunk, tableFileID: fileID) { record in
          let entry = Entry(record, source: source)
          read.append(entry)
          for location in record.referencedAt { referencing.append((location, entry)) }
        }
        // A text that does not read is left out whole.
        if entries.isEmpty { entries = read } else { entries += read }
        references += referencing
      } catch {
        PreferenceDiagnostics.report(
          .unresolvedDeclaration(
            location: "\(fileID) (its generated records do not decode: \(error); rebuild)"))
      }
    }
    entries.sort { $0.core.index < $1.core.index }
    // A declaration is found by its file and line. The first of two on one line wins: the
    // scanner refuses such sources, so only stale generated code could hold them. Records of a
    // table name its file unless a `#sourceLocation` directive names another.
    var byLocation: [String: [UInt64: Entry]] = [:]
    // The table's own file, indexed apart from the others (the common case: every entry).
    var inTable: [UInt64: Entry] = [:]
    inTable.reserveCapacity(entries.count)
    var file = (fileID: fileID, key: tableKey, isTable: true)
    for entry in entries {
      if entry.core.fileID != file.fileID {
        let key = Self.fileKey(entry.core.fileID)
        file = (entry.core.fileID, key, key == tableKey)
      }
      let line = UInt64(truncatingIfNeeded: entry.core.line)
      if file.isTable {
        if inTable[line] == nil { inTable[line] = entry }
      } else if byLocation[file.key]?[line] == nil {
        byLocation[file.key, default: [:]][line] = entry
      }
    }
    // `byLocation` holds only other files' entries so far.
    if !inTable.isEmpty { byLocation[tableKey] = inTable }
    for (location, entry) in references {
      guard let colon = location.utf8.lastIndex(of: UInt8(ascii: ":")),
        let line = UInt64(location[location.utf8.index(after: colon)...])
      else { continue }
      let key = Self.fileKey(String(location[..<colon]))
      if byLocation[key]?[line] == nil { byLocation[key, default: [:]][line] = entry }
    }
    state.withLock { state in
      guard state.entries[fileID] == nil else { return }
      state.entries[fileID] = entries
      for (file, entries) in byLocation {
        if state.byLocation[file] == nil {
          state.byLocation[file] = entries
        } else {
          state.byLocation[file]?.merge(entries) { existing, _ in existing }
        }
      }
    }
  }

  /// The explicit store of `entry`, evaluated once; `nil` for ``PreferenceStore/default``, and
  /// for a store its declaration keeps (``PreferenceDescriptor/storeIsKeptByDeclaration``) that
  /// no value declaring it has given yet (``storeIfKnown(of:)`` tells the two apart).
  ///
  /// A store expression that needs the main actor is evaluated there: at once on the main
  /// thread; elsewhere, with `waitForMainActor`, by the main thread (a declaration's first read
  /// comes here only from code the compiler let read that expression, so in practice on the main
  /// thread already); without it, not at all (`nil`, not remembered).
  func store(of entry: Entry, waitForMainActor: Bool = true) -> PreferenceStore? {
    evaluatedStore(of: entry, waitForMainActor: waitForMainActor) ?? nil
  }

  /// The store of `entry` (`.some(nil)`: ``PreferenceStore/default``), or `nil` while its
  /// declaration keeps it and no value declaring it was created yet.
  func storeIfKnown(of entry: Entry) -> PreferenceStore?? {
    evaluatedStore(of: entry, waitForMainActor: true)
  }

  /// Takes the store that a declaration evaluated where it is declared (its `store:` names a
  /// private member), at the first creation of a value declaring it; the first store given
  /// wins. It only records the store, and never waits: creating a value may happen anywhere (in
  /// a `static let`'s initializer, inside a registration). Registrations that start later find
  /// the store with the others; in a store registered before, the declaration's own resolution
  /// registers its default (``registerKept(_:in:)``).
  func keepStore(_ store: PreferenceStore, of entry: Entry) {
    let store = PreferenceStandIns.realStore(of: store)
    state.withLock { state in
      if state.stores[entry.core.key] == nil { state.stores[entry.core.key] = store }
    }
  }

  /// Registers the default (and migrations, format and sync marks) of `entry`, a declaration
  /// that evaluates its own store, in `store` (its store, or a test's stand-in of it), where the
  /// module's registration ran before the store was known, or is running now (on this thread,
  /// a default that creates and reads such a value, or on another). Once per store, and
  /// without waiting for a registration another thread runs (a value may be read in a
  /// `static let`'s initializer that that registration waits for): should both register the
  /// declaration, the second changes nothing (migrations move a value once; the same default
  /// is registered again).
  func registerKept(_ entry: Entry, in store: PreferenceStore) {
    guard !store.hasRegisteredKept(number: KeyNumbers.number(of: entry.core.key), registry: number)
    else { return }
    register([entry], in: store, marksStore: false)
  }

  /// `.some(nil)` for the default store; `nil` when the store could not be evaluated here.
  private func evaluatedStore(of entry: Entry, waitForMainActor: Bool) -> PreferenceStore?? {
    // Remembered for the whole process, so the real store even inside stand-ins (which map it).
    if PreferenceStandIns.current != nil {
      return PreferenceStandIns.outside { evaluatedStore(of: entry, waitForMainActor: waitForMainActor) }
    }
    guard entry.core.hasStore else { return .some(nil) }
    if let store = state.withLock({ $0.stores[entry.core.key] }) { return store }
    // Known once a value declaring the preference gives it (`keepStore(_:of:)`).
    if entry.core.storeIsKeptByDeclaration { return nil }
    let evaluated: PreferenceStore?
    if let store = entry.table.store(entry.core.index) {
      evaluated = store
    } else if let isolated = entry.table.isolatedStore(entry.core.index) {
      guard waitForMainActor || !needsMainThread(followsDefaultIsolation: isolated.followsDefaultIsolation)
      else { return nil }
      evaluated = evaluateNow(isolated.evaluate, followsDefaultIsolation: isolated.followsDefaultIsolation)
    } else {
      return .some(nil)
    }
    guard let evaluated = evaluated.map(PreferenceStandIns.realStore(of:)) else { return .some(nil) }
    return state.withLock { state in
      if let existing = state.stores[entry.core.key] { return existing }
      state.stores[entry.core.key] = evaluated
      return evaluated
    }
  }

  // MARK: Defaults

  /// The default `entry` declares, in stored form: the literal the generator encoded, or what
  /// the registry evaluated when it registered. A default that registration left to the main
  /// actor's next turn is evaluated now, as a store expression is (at once on the main thread;
  /// elsewhere by the main thread, which code the compiler let read the declaration is in
  /// practice on already), and registered in `store`. `nil` when the registry cannot evaluate
  /// the default (``PreferenceDescriptor/Registration/firstRead``: the declaration keeps it), when
  /// there is none (an optional declared without one), or when it does not encode.
  func declaredDefault(of entry: Entry, in store: PreferenceStore) -> PropertyListValue? {
    if let value = entry.core.registeredValue { return value }
    let key = entry.core.key
    if let value = state.withLock({ $0.evaluatedDefaults[key] }) { return value }
    let evaluated: PropertyListValue?
    switch entry.table.registration(entry.core.index) {
    case .none:
      return nil
    case .registry(let evaluate):
      evaluated = PreferenceStandIns.outside(evaluate)
    case .mainActor(let evaluate):
      evaluated = evaluateNow(evaluate, followsDefaultIsolation: false)
    case .defaultIsolation(let evaluate):
      evaluated = evaluateNow(evaluate, followsDefaultIsolation: true)
    }
    guard let evaluated else { return nil }
    state.withLock { $0.evaluatedDefaults[key] = evaluated }
    if store.registeredDefault(forKey: key) == nil { store.register(encoded: [key: evaluated]) }
    return evaluated
  }

  /// Whether code that generated code declared `@MainActor` must run on the main thread from
  /// here: it may run here on the main actor, or where its names are isolated only as the
  /// module's default isolation makes them and that default is nonisolated.
  private func needsMainThread(followsDefaultIsolation: Bool) -> Bool {
    !MainActorContext.isCurrent && !(followsDefaultIsolation && !mainActorIsDefaultIsolation)
  }

  /// Calls `evaluate` (a default or a store expression that generated code declared
  /// `@MainActor`) now: here where ``needsMainThread(followsDefaultIsolation:)`` allows, else on
  /// the main thread, waiting for it.
  private func evaluateNow<T: Sendable>(
    _ evaluate: @escaping @MainActor @Sendable () -> T, followsDefaultIsolation: Bool
  )
    -> T
  {
    if MainActorContext.isCurrent {
      return PreferenceStandIns.outside { MainActor.assumeIsolated { evaluate() } }
    }
    if !needsMainThread(followsDefaultIsolation: followsDefaultIsolation) {
      return PreferenceStandIns.outside { callInDefaultIsolation(evaluate) }
    }
    // Outside stand-ins here too: the main thread may run the work while it waits inside a
    // test's stand-ins (``MainActorHandoff/wait(for:)``), whose task-local values it then has.
    return MainActorHandoff.run { PreferenceStandIns.outside { evaluate() } }
  }

  // MARK: Registration

  /// Registers the defaults of every declaration of the module, in `store` and in every other
  /// store the module's preferences name, after migrating renamed keys; once per store. The
  /// first read of any preference so feeds every store's `register(defaults:)` at once: code that
  /// reads another store directly (`UserDefaults(suiteName:)`) sees its defaults too. Marks the
  /// synced keys for modification times.
  ///
  /// One thread registers (for the whole module, so that two stores registering on two threads
  /// can never wait for each other); others wait for it, holding no lock. A default that reads
  /// another preference re-enters here on the registering thread, and reads on.
  func ensureRegistered(in store: PreferenceStore) {
    guard !store.hasRegistered(registry: number), registrations.claim() else { return }
    defer { registrations.release() }
    // A run this thread waited for registered the module's stores; one it did not name is
    // registered here.
    guard !store.hasRegistered(registry: number) else { return }
    for (target, entries) in entriesByStore(first: store) where !target.hasRegistered(registry: number) {
      register(entries, in: target)
    }
  }

  /// The module's declarations grouped by store, in one walk: `first`, then `.default`, then
  /// every other store the module's preferences name, each once (with no declarations, `first`
  /// still registers, so that it is marked).
  private func entriesByStore(first: PreferenceStore) -> [(store: PreferenceStore, entries: [Entry])] {
    let defaultStore = PreferenceStore.default
    let standIns = PreferenceStandIns.current
    var groups: [(store: PreferenceStore, entries: [Entry])] = [(first, [])]
    var position: [ObjectIdentifier: Int] = [ObjectIdentifier(first): 0]
    if position[ObjectIdentifier(defaultStore)] == nil {
      position[ObjectIdentifier(defaultStore)] = groups.count
      groups.append((defaultStore, []))
    }
    for entry in allEntries() {
      // A store only the main actor may create, met off the main thread, registers at its first
      // use instead (the one exception to registering every store at once).
      guard let evaluated = evaluatedStore(of: entry, waitForMainActor: false) else { continue }
      let store = evaluated.map { standIns?.store(standingInFor: $0) ?? $0 } ?? defaultStore
      let id = ObjectIdentifier(store)
      if let index = position[id] {
        groups[index].entries.append(entry)
      } else {
        position[id] = groups.count
        groups.append((store, [entry]))
      }
    }
    return groups
  }

  /// `marksStore`: whether this is the module's registration in `store` (else one kept
  /// declaration's, ``registerKept(_:in:)``).
  private func register(_ entries: [Entry], in store: PreferenceStore, marksStore: Bool = true) {
    // A declaration that keeps its store, registered here by its own resolution already.
    let entries = entries.filter { entry in
      !entry.core.storeIsKeptByDeclaration
        || !store.hasRegisteredKept(number: KeyNumbers.number(of: entry.core.key), registry: number)
    }
    let onMainActor = MainActorContext.isCurrent
    var defaults: [String: PropertyListValue] = [:]
    defaults.reserveCapacity(entries.count)
    /// The defaults evaluated here (the others are in their records).
    var evaluated: [String: PropertyListValue] = [:]
    /// Defaults evaluated before, for another store: each declaration's default is evaluated once
    /// per process, so every store (a test's stand-in included) registers the same value; and
    /// evaluated outside stand-ins, as the process's default (a default that reads another
    /// preference reads the real one).
    let known = state.withLock { $0.evaluatedDefaults }
    var synced: Set<String> = []
    var json: [String] = []
    var later: [(key: String, evaluate: @MainActor @Sendable () -> PropertyListValue?)] = []
    var owners: [PreferenceStore.KeyOwner] = []
    owners.reserveCapacity(entries.count)
    let standIns = PreferenceStandIns.current
    for entry in entries {
      let key = entry.core.key
      owners.append(PreferenceStore.KeyOwner(registry: number, entry: entry))
      // Evaluated outside stand-ins, as a declaration's store is (a `static let` it names first
      // made inside a test's stand-ins would hold that test's stand-in for the process).
      let movedFrom =
        standIns == nil
        ? entry.table.movedFrom(entry.core.index)
        : PreferenceStandIns.outside { entry.table.movedFrom(entry.core.index) }
      if var previous = movedFrom.map(PreferenceStandIns.realStore(of:)) {
        previous = standIns?.store(standingInFor: previous) ?? previous
        if previous !== store { store.migrate(key, from: previous, oldKeys: entry.core.renamedFrom) }
      }
      if !entry.core.renamedFrom.isEmpty { store.migrate(from: entry.core.renamedFrom, to: key) }
      if entry.core.syncs { synced.insert(key) }
      if entry.core.format == .json { json.append(key) }
      if let value = entry.core.registeredValue ?? known[key] {
        defaults[key] = value
        continue
      }
      let registration = entry.table.registration(entry.core.index)
      switch registration {
      case .none:
        break
      case .registry(let evaluate):
        evaluated[key] = PreferenceStandIns.outside(evaluate)
      case .mainActor(let evaluate), .defaultIsolation(let evaluate):
        // A default that follows the module's default isolation runs here unless that default
        // is the main actor.
        var followsDefault = false
        if case .defaultIsolation = registration { followsDefault = true }
        if onMainActor {
          evaluated[key] = PreferenceStandIns.outside { MainActor.assumeIsolated { evaluate() } }
        } else if followsDefault && !mainActorIsDefaultIsolation {
          evaluated[key] = PreferenceStandIns.outside { callInDefaultIsolation(evaluate) }
        } else {
          later.append((key, evaluate))
        }
      }
    }
    defaults.merge(evaluated) { _, new in new }
    // Another module's declaration of one of these keys in this store: reported, not fatal
    // (which one's default reads is the last registered; both keep working on the one value).
    for (key, declarations) in store.claim(owners) {
      PreferenceDiagnostics.report(.keyDeclaredInTwoModules(key: key, declarations: declarations))
    }
    if !evaluated.isEmpty {
      state.withLock { state in
        // The first registration's (the module's at launch) shares its storage.
        if state.evaluatedDefaults.isEmpty {
          state.evaluatedDefaults = evaluated
        } else {
          state.evaluatedDefaults.merge(evaluated) { _, new in new }
        }
      }
    }
    if !synced.isEmpty { store.trackModifications(of: synced) }
    if !json.isEmpty { store.useFormat(.json, forKeys: json) }
    store.register(encoded: defaults)
    let kept = entries.filter(\.core.storeIsKeptByDeclaration).map {
      KeyNumbers.number(of: $0.core.key)
    }
    if !kept.isEmpty { store.markRegisteredKept(numbers: kept, registry: number) }
    if marksStore { store.markRegistered(registry: number) }
    // Off the main actor, defaults that need it are registered by the main actor's next turn, or
    // by their declaration's first read if that comes sooner.
    if !later.isEmpty {
      DispatchQueue.main.async {
        MainActor.assumeIsolated {
          var values: [String: PropertyListValue] = [:]
          // Outside stand-ins: the main queue may be drained inside a test's `run`.
          PreferenceStandIns.outside {
            for (key, evaluate) in later where store.registeredDefault(forKey: key) == nil {
              if let value = evaluate() { values[key] = value }
            }
          }
          self.state.withLock { $0.evaluatedDefaults.merge(values) { _, new in new } }
          store.register(encoded: values)
        }
      }
    }
  }
}
