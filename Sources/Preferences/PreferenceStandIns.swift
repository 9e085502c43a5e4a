import Foundation

/// Fresh in-memory stores that stand in for every store while a test runs: the default store,
/// the stores that declarations name (`@Preference(store: .suite("group.com.example"))`), and
/// whatever ``PreferenceStore/standard``, ``PreferenceStore/suite(_:)`` and
/// ``PreferenceStore/propertyList(at:format:)`` return, in the task that calls ``run(_:)`` and
/// in the tasks it creates.
///
/// Two tests that each run in their own stand-ins never see each other's values, even when they
/// run in parallel and write the same preference, and neither touches the user's real
/// preferences. Code outside ``run(_:)`` (another test without stand-ins, the app) sees the real
/// stores as before.
///
/// ```swift
/// @Test func signingOutClearsTheName() {
///   PreferenceStandIns().run {
///     let settings = Settings()
///     settings.username = "Paul"
///     settings.signOut()
///     #expect(settings.username == "Anonymous")
///   }
/// }
/// ```
///
/// With Swift Testing, the `PreferencesTesting` product's `.isolatedPreferences` trait does this
/// for every test of a suite and fails a test that wrote to a real store.
///
/// Stand-ins follow task-local values: tasks created with `Task { }`, `async let` and task groups
/// inside ``run(_:)`` use them; `Task.detached` and work sent to a dispatch queue do not. A store
/// made directly from a backend (`PreferenceStore(backend:)`) is used as it is, and a write to it
/// that is not in memory is listed in ``writesOutside``. So is a write to a stand-in of stand-ins
/// that are gone: a `static let` store first evaluated inside another test's stand-ins holds
/// one for the rest of the process (declare such a store as a computed `static var`; the
/// registry itself finds the real store of a declaration and of ``PreferenceStore/default``).
public final class PreferenceStandIns: Sendable {
  /// A write that reached a real store, or the stand-in of stand-ins that are gone, while these
  /// stand-ins were in use.
  public struct Write: Sendable, Hashable, CustomStringConvertible {
    /// The key written, or `nil` when every value of the store was removed.
    public let key: String?
    /// The store, described: its backend's type, and its suite or file where it has one (for a
    /// stand-in, the store it stands in for).
    public let store: String
    /// Whether the store is a stand-in that other stand-ins, now gone, made: a `static let`
    /// first evaluated inside another test's stand-ins holds it (make it a computed
    /// `static var`, which a factory answers from its cache).
    public let isOtherStandIn: Bool

    init(key: String?, store: String, isOtherStandIn: Bool = false) {
      (self.key, self.store, self.isOtherStandIn) = (key, store, isOtherStandIn)
    }

    /// The write, as a sentence.
    public var description: String {
      (key.map { "'\($0)'" } ?? "every value") + " was written to "
        + (isOtherStandIn
          ? "the stand-in of \(store) that another test's stand-ins made (a `static let` first evaluated there holds it)"
          : "\(store), a real store")
    }
  }

  /// The stand-ins in use in the current task, if any.
  @TaskLocal static var current: PreferenceStandIns?

  private struct State {
    /// Stand-ins of the stores the factories share, by the factory's identifier.
    var byIdentifier: [String: PreferenceStore] = [:]
    /// Stand-ins of other stores a declaration names, with the real store (kept so that its
    /// identifier is never reused).
    var byObject: [ObjectIdentifier: (real: PreferenceStore, standIn: PreferenceStore)] = [:]
    /// What ``PreferenceStore/default`` was set to inside ``run(_:)``, the latest last; kept, so
    /// that their identifiers are never reused while these stand-ins live.
    var chosenDefaults: [PreferenceStore] = []
    /// The stand-in of the default store, fixed when code inside ``run(_:)`` first uses it, so
    /// that the app or another test setting the real default meanwhile changes nothing inside.
    var defaultStandIn: PreferenceStore?
    /// Every stand-in made.
    var owned: Set<ObjectIdentifier> = []
    var writesOutside: [Write] = []
  }

  private let state = Locked(State())

  /// What every stand-in made in the process stands in for (by the stand-in's identity), with
  /// the stand-ins that made it: a stand-in can outlive its run in a `static let` first
  /// evaluated inside it.
  private static let origins = Locked(Origins())

  private struct Origins {
    var entries: [ObjectIdentifier: Origin] = [:]
    /// The count past which entries of stand-ins that are gone are forgotten.
    var pruneAt = 256
  }

  private struct Origin {
    weak var standIn: PreferenceStore?
    weak var owner: PreferenceStandIns?
    /// The real store, evaluated outside stand-ins; `nil` once it is gone.
    let real: @Sendable () -> PreferenceStore?
    /// The real store, described for ``Write``.
    let description: String
  }

  /// Notes what `standIn` stands in for, before anyone else can be handed it.
  private func noteOrigin(
    of standIn: PreferenceStore, description: String, real: @escaping @Sendable () -> PreferenceStore?
  ) {
    let origin = Origin(standIn: standIn, owner: self, real: real, description: description)
    // What the table lets go of is released after the lock: a store's deinit calls out.
    let released = Self.origins.withLock { origins -> ([ObjectIdentifier: Origin], Origin?) in
      var pruned: [ObjectIdentifier: Origin] = [:]
      if origins.entries.count >= origins.pruneAt {
        pruned = origins.entries
        origins.entries = pruned.filter { $0.value.standIn != nil }
        origins.pruneAt = max(256, 2 * origins.entries.count)
      }
      return (pruned, origins.entries.updateValue(origin, forKey: ObjectIdentifier(standIn)))
    }
    _ = released
  }

  /// The origin of `store` if it is a stand-in (made by any stand-ins) still alive.
  private static func origin(of store: PreferenceStore) -> Origin? {
    // Stand-ins are in memory: a real store needs no lookup.
    guard store.backend is InMemoryBackend else { return nil }
    return origins.withLock { origins in
      origins.entries[ObjectIdentifier(store)].flatMap { $0.standIn === store ? $0 : nil }
    }
  }

  /// The real store `store` stands in for, when it is a stand-in; else `store`. The registry
  /// keeps the real store of a declaration for the process, even when a `static let` the
  /// declaration names was first evaluated inside a test's stand-ins and holds one.
  static func realStore(of store: PreferenceStore) -> PreferenceStore {
    origin(of: store)?.real() ?? store
  }

  /// The real default store, read outside the stand-ins.
  private let realDefault: @Sendable () -> PreferenceStore

  /// Creates stand-ins; each store gets its stand-in, empty, when it is first used.
  public convenience init() {
    self.init(realDefault: { PreferenceStandIns.$current.withValue(nil) { PreferenceStore.default } })
  }

  /// Creates stand-ins that read the real default store with `realDefault` (tests set it).
  init(realDefault: @escaping @Sendable () -> PreferenceStore) {
    self.realDefault = realDefault
  }

  /// Runs `body` with these stand-ins in place of every store.
  public func run<Result>(_ body: () throws -> Result) rethrows -> Result {
    DeclarationTable.standInsStarted()
    return try Self.$current.withValue(self, operation: body)
  }

  /// Runs `body` with these stand-ins in place of every store, in the caller's isolation.
  public func run<Result>(
    _ body: () async throws -> Result, isolation: isolated (any Actor)? = #isolation
  ) async rethrows -> Result {
    DeclarationTable.standInsStarted()
    return try await Self.$current.withValue(self, operation: body, isolation: isolation)
  }

  /// The store that reads and writes of `store` use inside ``run(_:)``: its stand-in, made
  /// empty on first use (one per suite, file or store, in-memory stores included, which a
  /// `static let` would otherwise share between tests), or `store` itself when it is a stand-in
  /// or was chosen as the default inside ``run(_:)``.
  public func store(standingInFor store: PreferenceStore) -> PreferenceStore {
    if let identifier = PreferenceStore.sharedIdentifier(of: store) {
      return standIn(identifier: identifier) { store }
    }
    let object = ObjectIdentifier(store)
    let kept = state.withLock { state -> PreferenceStore? in
      if state.owned.contains(object) || state.chosenDefaults.contains(where: { $0 === store }) {
        return store
      }
      return state.byObject[object]?.standIn
    }
    if let kept { return kept }
    let candidate = PreferenceStore.inMemory()
    noteOrigin(of: candidate, description: "\(type(of: store.backend))") { [weak store] in
      store.map(Self.realStore(of:))
    }
    return state.withLock { state in
      if let existing = state.byObject[object] { return existing.standIn }
      state.byObject[object] = (store, candidate)
      state.owned.insert(ObjectIdentifier(candidate))
      return candidate
    }
  }

  /// The stand-in of the store a factory shares under `identifier`; `real` makes the real one.
  func standIn(identifier: String, real: @escaping @Sendable () -> PreferenceStore) -> PreferenceStore {
    if let existing = state.withLock({ $0.byIdentifier[identifier] }) { return existing }
    let candidate = PreferenceStore.inMemory()
    noteOrigin(of: candidate, description: identifier, real: real)
    return state.withLock { state in
      if let existing = state.byIdentifier[identifier] { return existing }
      state.byIdentifier[identifier] = candidate
      state.owned.insert(ObjectIdentifier(candidate))
      return candidate
    }
  }

  /// ``PreferenceStore/default`` inside ``run(_:)``: the store set there, else the stand-in of
  /// the store that was the real default when code inside first used it.
  var defaultStore: PreferenceStore {
    if let store = state.withLock({ $0.chosenDefaults.last ?? $0.defaultStandIn }) { return store }
    // Read outside the lock: the real default may call out (the registry's default store).
    let candidate = store(standingInFor: realDefault())
    return state.withLock { state in
      if let store = state.chosenDefaults.last ?? state.defaultStandIn { return store }
      state.defaultStandIn = candidate
      return candidate
    }
  }

  /// Sets ``PreferenceStore/default`` for code inside ``run(_:)`` only. A store made directly
  /// from a backend is used as it is, and its writes are listed in ``writesOutside``.
  func setDefaultStore(_ store: PreferenceStore) {
    // A factory's real store (kept from before the run) becomes its stand-in.
    let store = PreferenceStore.sharedIdentifier(of: store).map { standIn(identifier: $0) { store } } ?? store
    state.withLock { $0.chosenDefaults.append(store) }
  }

  /// Writes inside ``run(_:)`` that reached a real store (not in memory) or the stand-in of
  /// stand-ins that are gone, in the order they happened.
  public var writesOutside: [Write] { state.withLock { $0.writesOutside } }

  /// Notes a write of `key` (`nil`: every key) to `store`, if it is a real one or the stand-in
  /// of stand-ins that are gone.
  func noteWrite(_ key: String?, to store: PreferenceStore) {
    let object = ObjectIdentifier(store)
    if store.backend is InMemoryBackend {
      // A stand-in whose stand-ins are gone (their test ended): a `static let` first evaluated
      // in that test holds it. Another run's live stand-in (a run inside this one, or around it)
      // is left alone.
      guard !state.withLock({ $0.owned.contains(object) }), let origin = Self.origin(of: store),
        origin.owner == nil
      else { return }
      let write = Write(key: key, store: origin.description, isOtherStandIn: true)
      state.withLock { $0.writesOutside.append(write) }
      return
    }
    let description =
      "\(type(of: store.backend))" + (PreferenceStore.sharedIdentifier(of: store).map { " (\($0))" } ?? "")
    state.withLock { state in
      guard !state.owned.contains(object) else { return }
      state.writesOutside.append(Write(key: key, store: description))
    }
  }

  /// `body`, run with no stand-ins: what the registry evaluates once for the whole process (a
  /// declaration's store) must be the real one.
  static func outside<Result>(_ body: () throws -> Result) rethrows -> Result {
    guard current != nil else { return try body() }
    return try $current.withValue(nil, operation: body)
  }
}
