import Foundation

/// Where preferences live: a backend plus registered defaults, launch-argument overrides and a
/// cache of decoded values.
///
/// A read looks, in order, at a launch-argument override (`-Key value`), the stored value, the
/// registered default, and finally the default passed to the read. Decoded values are cached, so
/// a repeated read costs a lock and an array load, not a decode.
///
/// Every read is tracked by the Observation framework: a SwiftUI `body`, an `@Observable`
/// model's computed property or `withObservationTracking` that reads a preference is invalidated
/// once when its value changes, whatever changed it.
///
/// ```swift
/// let store = PreferenceStore.standard
/// store.register(defaults: ["HighScore": 0, "ReadingMode": "standard"])
/// store.set(42, forKey: "HighScore")
/// let score = store.value(forKey: "HighScore", default: 0)   // 42
/// ```
///
/// Stores are thread-safe, and never hold a lock while they call the backend, a decoder, a
/// default or an observer: any of them may call back into the store. Factory methods such as
/// ``suite(_:)`` and ``propertyList(at:format:)`` return the same store for the same suite or
/// file, so every part of the app shares one cache.
public final class PreferenceStore: Sendable {
  /// Where values are persisted.
  public let backend: any PreferenceBackend
  /// Launch-argument overrides: `-Key value` pairs from the process arguments.
  public let overrides: [String: String]
  /// The backend, where other code in this process can write it unheard (a UserDefaults store on
  /// Linux, where corelibs posts no change notification): each read asks it to compare the key
  /// first, and reads skip the inlined cache path.
  let checkedBeforeReads: UserDefaultsBackend?
  @usableFromInline let checksEachRead: Bool

  @usableFromInline
  struct State {
    var registered: [String: PropertyListValue] = [:]
    @usableFromInline var cache = ValueCache()
    /// Which generated registries (by ``RegistryCatalog`` number) registered their defaults here.
    @usableFromInline var registeredRegistries: ContiguousArray<Bool> = []
    var registeredKeyTypes: Set<ObjectIdentifier> = []
    /// The declaration each generated registry's key was first registered for, to tell when a
    /// second module declares it; indexed only once a second module registers here
    /// (``claim(_:)``). Before that, `unindexedOwners` holds the one module's.
    var keyOwners: [String: KeyOwner] = [:]
    var unindexedOwners: [KeyOwner] = []
    /// Declarations that evaluate their own store, registered here
    /// (``hasRegisteredKept(number:registry:)``).
    var registeredKept: Set<KeptRegistration> = []
    /// Observers by key.
    var listeners: [String: [Int: @Sendable (String) -> Void]] = [:]
    var nextListener = 0
    /// Running observations, and whether the backend was last told it is observed.
    var observations = 0
    var backendObserved = false
    /// Incremented after every change has reached the backend (a write, a registration, an
    /// outside change). A read that sees the same count before and after it reads the backend
    /// read a settled value and may cache it; observers use it to deliver values in order.
    var version: UInt64 = 0
    /// Writes started and not yet committed; a write that ran alone may cache what it wrote.
    var writesInFlight = 0
    var writesStarted: UInt64 = 0
    /// Keys mirrored by ``PreferenceSync``: every write of one records its modification time.
    var syncedKeys: Set<String> = []
    var syncClock: @Sendable () -> Date = { Date() }
    /// Keys whose values are stored as JSON text (``PreferenceFormat/json``).
    var jsonKeys: Set<String> = []
    @usableFromInline init() {}
  }

  @usableFromInline let state = Locked(State())
  /// Orders the read-modify-writes of sync metadata, and the observed/unobserved messages to the
  /// backend, without holding a lock while they call it.
  let metadataWriter = SerialDrain()
  let observedUpdates = SerialDrain()
  /// One compare-and-set of a key at a time (migrations; see `replace(_:ifEqualTo:with:)`).
  let replacements = KeyedTurns()

  /// Creates a store over `backend`.
  ///
  /// - Parameters:
  ///   - backend: Where values are persisted.
  ///   - arguments: The process arguments to read `-Key value` overrides from; pass `[]` to
  ///     ignore launch arguments.
  public init(
    backend: any PreferenceBackend,
    arguments: [String] = ProcessInfo.processInfo.arguments
  ) {
    self.backend = backend
    self.overrides = LaunchArguments.overrides(in: arguments)
    let userDefaults = backend as? UserDefaultsBackend
    checkedBeforeReads = userDefaults?.checksBeforeReading == true ? userDefaults : nil
    checksEachRead = checkedBeforeReads != nil
    // Changes the backend learns of through events (another process's write, other code's write
    // to the same UserDefaults, values a flush merged in) reach reads and observers whether or
    // not anything observes the store. Events cost nothing while nothing changes.
    backend.startWatching { [weak self] keys in self?.externalChange(keys) }
  }

  deinit { backend.stopWatching() }

  // MARK: Typed reads

  /// The value for `key`: a launch-argument override, else the stored value, else the
  /// registered default, else `defaultValue`.
  ///
  /// A stored value of the wrong type, or one that fails to decode, yields the default, is
  /// reported once through ``PreferenceDiagnostics``, and is left untouched in the store.
  ///
  /// - Complexity: O(1) after the first read of `key`: one lock and one dictionary lookup. On
  ///   Linux a UserDefaults store first compares `key` with corelibs' `UserDefaults`, which tells
  ///   nobody of other code's writes to it.
  public func value<Value: PreferenceValue>(
    forKey key: String, default defaultValue: @autoclosure () -> Value
  ) -> Value {
    let (value, cell) = load(key, default: defaultValue)
    cell.track()
    return value
  }

  /// The value of `key` if it is cached as a `Value`: the enum-keyed read path. Tracked by
  /// Observation.
  @inlinable @inline(__always)
  func cachedValue<Value>(forKey key: String, as type: Value.Type) -> Value? {
    if checksEachRead { return nil }
    let (value, cell) = state.withLock { state -> (Value?, Unmanaged<PreferenceCell>?) in
      guard let number = state.cache.numbers[key] else { return (nil, nil) }
      return state.cache.cachedValue(number, as: Value.self)
    }
    guard let cell, let value else { return nil }
    cell._withUnsafeGuaranteedRef { $0.track() }
    return value
  }

  /// The value of key `number` if it is cached as a `Value` and registry `registry` registered
  /// its defaults here: the `@Preference` read path, with no hashing. Tracked by Observation.
  @inlinable @inline(__always)
  func cachedValue<Value>(number: Int, registry: Int, as type: Value.Type) -> Value? {
    if checksEachRead { return nil }
    let (value, cell) = state.withLock { state -> (Value?, Unmanaged<PreferenceCell>?) in
      guard registry < state.registeredRegistries.count, state.registeredRegistries[registry] else {
        return (nil, nil)
      }
      return state.cache.cachedValue(number, as: Value.self)
    }
    guard let cell, let value else { return nil }
    cell._withUnsafeGuaranteedRef { $0.track() }
    return value
  }

  /// The value of key `number` (`key`), reading and caching it; the wrapper's slow path.
  /// `defaultValue` is called only when the stored value is missing or unusable.
  func value<Value: PreferenceValue>(number: Int, key: String, default defaultValue: () -> Value) -> Value {
    let (value, cell) = load(key, number: number, default: defaultValue)
    cell.track()
    return value
  }

  private enum LoadStart<Value> {
    case cached(Value, PreferenceCell)
    case undecodable(PreferenceCell)
    case miss(number: Int, version: UInt64, registered: PropertyListValue?, json: Bool, hasCell: Bool)
  }

  /// Reads `key`: the cached value, else resolved and cached. Creates the key's Observation
  /// cell, which remembers the value its reader sees.
  ///
  /// The backend, the caller's default and the value's decoder run without the lock held. The
  /// result is cached only if nothing changed while they ran; otherwise the read starts again,
  /// so the cell never remembers a value older than the store's (after a few tries under
  /// constant writes, it returns what it read, uncached).
  func load<Value: PreferenceValue>(
    _ key: String, number knownNumber: Int? = nil, default defaultValue: () -> Value
  ) -> (Value, PreferenceCell) {
    adoptWritesByOtherCode(key)
    var attempts = 0
    while true {
      attempts += 1
      let start = state.withLock { state -> LoadStart<Value> in
        let number = knownNumber ?? state.cache.number(of: key)
        if let cell = state.cache.cell(number) {
          let box = state.cache.box(number)
          if let value = ValueBox<Value>.unbox(box) { return .cached(value, cell) }
          if box is UndecodableBox<Value> { return .undecodable(cell) }
        }
        return .miss(
          number: number, version: state.version, registered: state.registered[key],
          json: state.jsonKeys.contains(key), hasCell: state.cache.cell(number) != nil)
      }
      let (number, version, registered, json, hasCell): (Int, UInt64, PropertyListValue?, Bool, Bool)
      switch start {
      case .cached(let value, let cell): return (value, cell)
      case .undecodable(let cell): return (defaultValue(), cell)
      case .miss(let n, let v, let r, let j, let c):
        (number, version, registered, json, hasCell) = (n, v, r, j, c)
      }
      let stored = backend.value(forKey: key)
      var problems: [PreferenceError] = []
      let resolution: Resolution<Value> = resolve(
        key, stored: stored, registered: registered, json: json, problems: &problems)
      // The caller's default only when the value is missing or unusable, or the key's cell is
      // still to be created (a cell, once created, is never removed, and remembers it).
      var fallback: Value?
      if case .value = resolution, hasCell {} else { fallback = defaultValue() }
      let encodedFallback = hasCell ? nil : fallback.flatMap { (try? Self.encode($0, json: json)) ?? nil }
      let lastTry = attempts >= 4
      let cell = state.withLock { state -> PreferenceCell? in
        let settled = state.version == version
        guard settled || lastTry else { return nil }
        let cell = state.cache.cell(
          creating: number, key: key, seeing: stored ?? registered, fallback: encodedFallback,
          version: version)
        if settled {
          switch resolution {
          case .value(let value): state.cache.setBox(ValueBox(value), number)
          // Reported once; until the value changes, reads return the default quietly.
          case .undecodable: state.cache.setBox(UndecodableBox<Value>(), number)
          // The caller's own default is not cached: another caller may pass another one.
          case .none: break
          }
        }
        return cell
      }
      guard let cell else { continue }
      problems.forEach(PreferenceDiagnostics.report)
      if case .value(let value) = resolution { return (value, cell) }
      return (fallback ?? defaultValue(), cell)
    }
  }

  /// The typed value of `key`, that value in stored form, and the store's change count before it
  /// was read: what observers compare, so that the value they deliver and the value they compare
  /// are one (a write landing between two separate reads could make them differ).
  func snapshot<Value: PreferenceValue>(_ key: String, default defaultValue: () -> Value) -> (
    Value, PropertyListValue?, UInt64
  ) {
    let (version, json) = state.withLock { ($0.version, $0.jsonKeys.contains(key)) }
    let (value, _) = load(key, default: defaultValue)
    return (value, (try? Self.encode(value, json: json)) ?? nil, version)
  }

  /// The value a reader sees for `key` with no default of its own: a launch-argument override
  /// never changes, so it is not considered.
  func effectiveValue(forKey key: String) -> PropertyListValue? {
    let registered = state.withLock { $0.registered[key] }
    return backend.value(forKey: key) ?? registered
  }

  private enum Resolution<Value> {
    case value(Value)
    /// A stored value or override exists but is not a `Value` (reported).
    case undecodable
    case none
  }

  /// The launch-argument override, else the stored value, else the registered default.
  private func resolve<Value: PreferenceValue>(
    _ key: String, stored: PropertyListValue?, registered: PropertyListValue?, json: Bool,
    problems: inout [PreferenceError]
  ) -> Resolution<Value> {
    var undecodable = false
    if let text = overrides[key] {
      if let value = Value(launchArgument: text) { return .value(value) }
      problems.append(
        .typeMismatch(
          key: key, expected: String(describing: Value.self),
          found: "a launch argument (\(text.count) characters) that does not read as one"))
      undecodable = true
    }
    if let stored {
      do {
        return .value(try Self.decode(stored, json: json))
      } catch {
        problems.append(Self.decodingError(error, key: key, type: Value.self))
        undecodable = true
      }
    }
    if let registered, let value: Value = try? Self.decode(registered, json: json) { return .value(value) }
    return undecodable ? .undecodable : .none
  }

  /// `value` in the form stored under `key`: JSON text for a ``PreferenceFormat/json`` key.
  func encode<Value: PreferenceValue>(_ value: Value, forKey key: String) throws -> PropertyListValue? {
    try Self.encode(value, json: state.withLock { $0.jsonKeys.contains(key) })
  }

  static func encode<Value: PreferenceValue>(_ value: Value, json: Bool) throws -> PropertyListValue? {
    // `nil` removes the value in every format.
    guard let plist = try value.propertyListValue() else { return nil }
    guard json else { return plist }
    return try JSONForm.encode(value) ?? plist
  }

  /// A stored value as a `Value`, whichever representation it is in: a JSON key reads JSON text
  /// first; any key whose property-list form does not decode reads JSON text too (data stored by
  /// `@AppStorage`'s `RawRepresentable` idiom).
  static func decode<Value: PreferenceValue>(_ stored: PropertyListValue, json: Bool) throws -> Value {
    if json, case .string(let text) = stored, let value = JSONForm.decode(text, as: Value.self) {
      return value
    }
    do {
      return try Value(propertyListValue: stored)
    } catch {
      if !json, case .string(let text) = stored, let value = JSONForm.decode(text, as: Value.self) {
        return value
      }
      throw error
    }
  }

  /// Stores the values of `keys` in `format` from now on: ``PreferenceFormat/json`` writes JSON
  /// text, as code that stored these keys before may expect. Reads accept either form.
  ///
  /// `@Preference(format: .json)` declarations do this through the generated registry.
  public func useFormat(_ format: PreferenceFormat, forKeys keys: some Sequence<String>) {
    state.withLock { state in
      for key in keys {
        let changed =
          format == .json ? state.jsonKeys.insert(key).inserted : state.jsonKeys.remove(key) != nil
        if changed {
          state.cache.setBox(nil, state.cache.number(of: key))
          state.version &+= 1
        }
      }
    }
  }

  /// Rewrites the value stored under `key` in `format` if it is stored in the other
  /// representation: the same-key conversion of data other code stored, for example arrays that
  /// `@AppStorage` code stored as JSON text. Safe to run on every launch: a value already in
  /// `format`, or one that does not read as a `Value`, is left as it is.
  ///
  /// ```swift
  /// // Once the previous app version (which wrote JSON text) no longer needs to read it:
  /// store.convertStoredValue(forKey: "recently_used_languages", as: [String].self, to: .propertyList)
  /// ```
  ///
  /// - Returns: Whether the stored value was rewritten.
  @discardableResult
  public func convertStoredValue<Value: PreferenceValue>(
    forKey key: String, as type: Value.Type, to format: PreferenceFormat
  ) -> Bool {
    adoptWritesByOtherCode(key)
    guard let stored = backend.value(forKey: key),
      let value: Value = try? Self.decode(stored, json: true),
      let rewritten = try? Self.encode(value, json: format == .json),
      rewritten != stored
    else { return false }
    write(rewritten, forKey: key)
    notify([key])
    return true
  }

  static func decodingError(_ error: any Error, key: String, type: Any.Type) -> PreferenceError {
    if let error = error as? PreferenceError { return error.withKey(key) }
    return .decodingFailed(
      key: key, type: String(describing: type), reason: PreferenceError.valueFreeReason(error))
  }

  // MARK: Writes

  /// Stores `value` under `key`; `nil` (for optional values) removes the stored value.
  ///
  /// If the value cannot be encoded, nothing is stored and the error is reported through
  /// ``PreferenceDiagnostics``.
  public func set<Value: PreferenceValue>(_ value: Value, forKey key: String) {
    let encoded: PropertyListValue?
    let json = state.withLock { $0.jsonKeys.contains(key) }
    do {
      encoded = try Self.encode(value, json: json)
    } catch {
      PreferenceDiagnostics.report(
        .encodingFailed(
          key: key, type: String(describing: Value.self), reason: PreferenceError.valueFreeReason(error)))
      return
    }
    // Cache the written value only if reading it back would give the same value: otherwise the
    // next read decodes what the backend holds, exactly as the next launch will.
    let exact =
      !json && overrides[key] == nil
      && (encoded.map { backend.storedForm(of: $0) == $0 && Value.self is any LosslessPreferenceValue.Type }
        ?? false)
    write(encoded, forKey: key, caching: exact ? ValueBox(value) : nil)
    notify([key])
  }

  /// Removes the stored value for `key`, so that reads return the registered default again.
  public func removeValue(forKey key: String) {
    write(nil, forKey: key)
    notify([key])
  }

  /// Writes `value` to the backend: the one place a stored value changes. The lock is not held
  /// while the backend runs; the cache is cleared (or, for a write that ran alone, set to
  /// `box`) after the backend holds the value, so a read never caches an older one. A write of
  /// a synced key records its modification time.
  func write(
    _ value: PropertyListValue?, forKey key: String, caching box: CachedBox? = nil, modified: Date? = nil
  ) {
    let (version, started, synced, clock) = state.withLock { state in
      state.writesInFlight += 1
      state.writesStarted &+= 1
      return (state.version, state.writesStarted, state.syncedKeys.contains(key), state.syncClock)
    }
    PreferenceStandIns.current?.noteWrite(key, to: self)
    backend.setValue(value, forKey: key)
    Self.afterBackendWrite?()
    state.withLock { state in
      // No other write or change overlapped this one: the backend holds exactly `value`.
      let alone = state.writesInFlight == 1 && state.writesStarted == started && state.version == version
      state.writesInFlight -= 1
      state.version &+= 1
      state.cache.setBox(alone ? box : nil, state.cache.number(of: key))
    }
    if synced { recordModification(modified ?? clock(), for: key) }
  }

  /// Whether the backend is read for the store's own bookkeeping (which values observers and
  /// tracked reads must hear of), not for a read the app could base a write on.
  @TaskLocal static var readingForBookkeeping = false

  /// Runs in a write between the backend taking the value and the store's bookkeeping, for tests
  /// that make another write land there.
  @TaskLocal static var afterBackendWrite: TestHook?

  /// Removes every value this store's backend holds. Registered defaults stay registered.
  public func removeAllValues() {
    adoptWritesByOtherCode()
    let keys = Set(backend.allValues().keys).subtracting(SyncMetadata.keys)
    for key in keys { write(nil, forKey: key) }
    // What the backend holds but could not list (a store unreadable until the device's first
    // unlock) is removed too, when it can be.
    PreferenceStandIns.current?.noteWrite(nil, to: self)
    backend.removeAll(except: SyncMetadata.keys)
    state.withLock { state in
      state.cache.removeAll()
      state.version &+= 1
    }
    notify(keys)
  }

  /// Before a read of `key` (`nil`: of every value), where other code in this process can write
  /// the backend unheard: a write found there is dropped from the cache now, so the read sees
  /// it, and observers hear it on a background queue, as of any outside change.
  func adoptWritesByOtherCode(_ key: String? = nil) {
    guard let checked = checkedBeforeReads else { return }
    let changed = key.map(checked.checkBeforeReading) ?? checked.checkBeforeReadingAll()
    if !changed.isEmpty { externalChange(changed, listenersAsync: true) }
  }

  /// Whether a value is explicitly stored for `key` (as opposed to a default being used).
  public func hasStoredValue(forKey key: String) -> Bool {
    adoptWritesByOtherCode(key)
    return backend.value(forKey: key) != nil
  }

  /// The stored property-list value for `key`, or the registered default, or `nil`.
  public func propertyListValue(forKey key: String) -> PropertyListValue? {
    adoptWritesByOtherCode(key)
    return effectiveValue(forKey: key)
  }

  /// Every stored value, with registered defaults for keys that have no stored value.
  public func dictionaryRepresentation() -> [String: PropertyListValue] {
    adoptWritesByOtherCode()
    let registered = state.withLock { $0.registered }
    return registered.merging(backend.allValues().filter { !SyncMetadata.keys.contains($0.key) }) { $1 }
  }

  /// Writes pending changes to disk now.
  ///
  /// You rarely need this: writes reach disk shortly after they are made and at normal exit.
  public func flush() throws { try backend.flush() }

}
