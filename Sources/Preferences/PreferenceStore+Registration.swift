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
          .encodingFailed(key: key, type: String(describing: type(of: value)), reason: "\(error)"))
      }
    }
    register(encoded: encoded)
  }

  /// Registers defaults already in stored form.
  func register(encoded: [String: PropertyListValue]) {
    guard !encoded.isEmpty else { return }
    state.withLock { state in
      for (key, value) in encoded {
        state.registered[key] = value
        state.cache[key] = nil
      }
      state.version &+= 1
    }
    backend.register(defaults: encoded)
    notify(Set(encoded.keys))
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

  /// Runs `register` once per key enumeration and store.
  func registerOnce(keys: ObjectIdentifier, _ makeDefaults: () -> [String: any PreferenceValue]) {
    guard state.withLock({ !$0.registeredKeyTypes.contains(keys) }) else { return }
    // Evaluate defaults outside the lock: a default may itself read preferences.
    register(defaults: makeDefaults())
    state.withLock { _ = $0.registeredKeyTypes.insert(keys) }
  }
}
