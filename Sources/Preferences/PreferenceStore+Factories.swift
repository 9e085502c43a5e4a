import Foundation

extension PreferenceStore {
  private static let shared = Locked<[String: PreferenceStore]>([:])

  /// The store shared under `id`, made on first use. `make` runs without the lock held (a
  /// backend's initializer reads UserDefaults or the disk); if two threads race, the first store
  /// registered wins and the other is dropped before anything used it.
  private static func shared(_ id: String, _ make: () -> PreferenceStore) -> PreferenceStore {
    if let store = shared.withLock({ $0[id] }) { return store }
    let made = make()
    return shared.withLock { stores in
      if let store = stores[id] { return store }
      stores[id] = made
      return made
    }
  }

  /// The store over `UserDefaults.standard`.
  ///
  /// On iOS, tvOS, watchOS and visionOS it is guarded by ``ProtectedDataBackend``: launched
  /// before the device's first unlock (a push, a background task, prewarming), it never takes
  /// the unreadable store for an empty one or writes over it.
  public static var standard: PreferenceStore {
    shared("defaults:") { PreferenceStore(backend: guarded(UserDefaultsBackend())) }
  }

  /// The store over the UserDefaults suite `name`, for example an app group
  /// (`"group.com.example.app"`). The same name always returns the same store. Guarded like
  /// ``standard``.
  ///
  /// The app's own domain (its bundle identifier, or on Linux its process name) is not a suite:
  /// Apple's `UserDefaults(suiteName:)` refuses it. `suite` then reports it through
  /// ``PreferenceDiagnostics`` and returns ``standard``, the store of that domain, rather than a
  /// second store over the same values.
  public static func suite(_ name: String) -> PreferenceStore {
    if name == UserDefaultsBackend.applicationDomain {
      PreferenceDiagnostics.report(
        .suiteIsTheAppsDomain(name: name))
      return standard
    }
    return shared("defaults:" + name) {
      PreferenceStore(backend: guarded(UserDefaultsBackend(suiteName: name)))
    }
  }

  /// `backend`, guarded against protected data on the platforms that lock it away.
  private static func guarded(_ backend: any PreferenceBackend) -> any PreferenceBackend {
    #if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
      ProtectedDataBackend(backend, signal: SystemProtectedDataSignal.shared)
    #else
      backend
    #endif
  }

  /// The store over the property-list file at `url`. The same file always returns the same store.
  ///
  /// - Parameters:
  ///   - url: The file; it and its directory are created on the first write.
  ///   - format: The format written; reading accepts either.
  /// - Returns: The store of that file.
  public static func propertyList(
    at url: URL, format: PropertyListFileBackend.Format = .binary
  ) -> PreferenceStore {
    shared("file:" + url.standardizedFileURL.path) {
      PreferenceStore(backend: PropertyListFileBackend(url: url, format: format))
    }
  }

  /// A new store that keeps values in memory only, for tests and previews. Launch arguments are
  /// ignored.
  public static func inMemory(_ values: [String: any PreferenceValue] = [:]) -> PreferenceStore {
    let store = PreferenceStore(backend: InMemoryBackend(), arguments: [])
    for (key, value) in values {
      if let plist = try? value.propertyListValue() { store.backend.setValue(plist, forKey: key) }
    }
    return store
  }

  /// The store that `@Preference` declarations without an explicit store use:
  /// ``standard`` unless you set another one.
  ///
  /// Set it once at launch, before the first preference is read:
  ///
  /// ```swift
  /// PreferenceStore.default = .suite("group.com.example.app")
  /// ```
  public static var `default`: PreferenceStore {
    get { DeclarationTable.defaultStore(else: { Self.standard }) }
    set { DeclarationTable.setDefaultStore(newValue) }
  }
}
