import Foundation

/// Registered defaults: the values a store reads for keys nothing is stored under.
extension PreferenceStore {
  /// Registers default values, with `UserDefaults.register(defaults:)` semantics.
  ///
  /// Registered defaults live in memory only: they are never written to the backend and never
  /// override a stored value. Registering again adds to (and for the same key, replaces) what was
  /// registered before. Register on every launch, before the first read. A UserDefaults store
  /// registers them with `UserDefaults` too, so that code reading it directly sees them.
  ///
  /// ```swift
  /// store.register(defaults: ["ReadingMode": "standard", "HighScore": 0])
  /// ```
  public func register(defaults: [String: any PreferenceValue]) {
    var encoded: [String: PropertyListValue] = [:]
    for (key, value) in defaults {
      do {
        if let plist = try encode(value, forKey: key) { encoded[key] = plist }
      } catch {
        PreferenceDiagnostics.report(
          .encodingFailed(
            key: key, type: String(describing: type(of: value)),
            reason: PreferenceError.valueFreeReason(error)))
      }
    }
    register(encoded: encoded)
  }

  /// Registers defaults already in stored form.
  func register(encoded: [String: PropertyListValue]) {
    guard !encoded.isEmpty else { return }
    // A key that has no number was never read, so nothing of it is cached (a registration
    // names every key of a module, most of them not read yet).
    state.withLock { state in
      state.registered.overlay(encoded)
      // Nothing cached yet (a module's registration at launch): nothing to forget.
      if !state.cache.boxes.isEmpty {
        for case let number? in KeyNumbers.existingNumbers(of: encoded.keys) {
          state.cache.setBox(nil, number)
        }
      }
      state.version &+= 1
    }
    backend.register(defaults: encoded)
    notify(encoded.keys)
  }

  /// The registered default for `key`, if any.
  public func registeredDefault(forKey key: String) -> PropertyListValue? {
    state.withLock { $0.registered[key] }
  }

  /// Every registered default.
  public var registeredDefaults: [String: PropertyListValue] { state.withLock { $0.registered } }

  /// Whether generated registry number `registry` registered its defaults with this store.
  func hasRegistered(registry: Int) -> Bool {
    state.withLock { registry < $0.registeredRegistries.count && $0.registeredRegistries[registry] }
  }

  func markRegistered(registry: Int) {
    state.withLock { state in
      if registry >= state.registeredRegistries.count {
        state.registeredRegistries.append(
          contentsOf: repeatElement(false, count: registry + 1 - state.registeredRegistries.count))
      }
      state.registeredRegistries[registry] = true
    }
  }

  /// A declaration that evaluates its own store, registered by registry number `registry`:
  /// its key's number (`KeyNumbers`), so that the check allocates nothing.
  struct KeptRegistration: Hashable, Sendable {
    var registry: Int
    var number: Int
  }

  /// Whether registry number `registry` registered the default of the key numbered `number`
  /// (a declaration that evaluates its own store) here.
  func hasRegisteredKept(number: Int, registry: Int) -> Bool {
    state.withLock { $0.registeredKept.contains(KeptRegistration(registry: registry, number: number)) }
  }

  func markRegisteredKept(numbers: [Int], registry: Int) {
    state.withLock { state in
      for number in numbers {
        state.registeredKept.insert(KeptRegistration(registry: registry, number: number))
      }
    }
  }

  /// A declaration that registered a key here, as far as telling modules apart needs.
  struct KeyOwner: Sendable {
    /// The generated registry's number (one per module).
    var registry: Int
    var entry: RegistryCatalog.Entry

    var key: String { entry.core.key }
    /// `fileID:line`.
    var declaration: String { "\(entry.core.fileID):\(entry.core.line)" }

    /// Whether this and `other`, of another module, may share their key: both name it with
    /// `key:` and agree on its type (where both are known) and default, as two declarations of
    /// one module may.
    func mayShare(with other: KeyOwner) -> Bool {
      let (this, other) = (entry.descriptor, other.entry.descriptor)
      return !this.isKeyDerived && !other.isKeyDerived && this.defaultValueSource == other.defaultValueSource
        && (this.valueType == nil || other.valueType == nil || this.valueType == other.valueType)
    }
  }

  /// Records who registered `owners`' keys here, and returns the keys another module's
  /// registry registered already for a declaration that cannot share them, with both places.
  ///
  /// While one module registers here (the common case), its declarations are only kept: the
  /// scanner already refused keys two of them cannot share, so the index by key is built when a
  /// second module registers.
  func claim(_ owners: [KeyOwner]) -> [(key: String, declarations: [String])] {
    guard let registry = owners.first?.registry else { return [] }
    return state.withLock { state in
      if state.keyOwners.isEmpty, state.unindexedOwners.first.map({ $0.registry == registry }) ?? true {
        state.unindexedOwners += owners
        return []
      }
      if !state.unindexedOwners.isEmpty {
        state.keyOwners.reserveCapacity(state.unindexedOwners.count + owners.count)
        for owner in state.unindexedOwners where state.keyOwners[owner.key] == nil {
          state.keyOwners[owner.key] = owner
        }
        state.unindexedOwners = []
      }
      var conflicts: [(key: String, declarations: [String])] = []
      for owner in owners {
        guard let existing = state.keyOwners[owner.key] else {
          state.keyOwners[owner.key] = owner
          continue
        }
        if existing.registry != owner.registry, !existing.mayShare(with: owner) {
          conflicts.append((owner.key, [existing.declaration, owner.declaration]))
        }
      }
      return conflicts
    }
  }

  /// Runs `register` once per key enumeration and store.
  func registerOnce(keys: ObjectIdentifier, _ makeDefaults: () -> [String: any PreferenceValue]) {
    guard state.withLock({ !$0.registeredKeyTypes.contains(keys) }) else { return }
    // Evaluate defaults outside the lock: a default may itself read preferences.
    register(defaults: makeDefaults())
    state.withLock { _ = $0.registeredKeyTypes.insert(keys) }
  }
}
