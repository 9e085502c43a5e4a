import Foundation

extension PreferenceStore {
  private static let shared = Locked<[String: PreferenceStore]>([:])

  /// The store shared under `id`, made on first use. `make` runs without the lock held (a
  /// backend's initializer reads UserDefaults or the disk); if two threads race, the first store
  /// registered wins and the other is dropped before anything used it.
  ///
  /// Inside ``PreferenceStandIns/run(_:)``, the stand-in of that store; `factory` makes the real
  /// one again, outside, should a stand-in outlive its run.
  private static func shared(_ id: String, _ factory: Factory, _ make: () -> PreferenceStore)
    -> PreferenceStore
  {
    if let standIns = PreferenceStandIns.current {
      return standIns.standIn(identifier: id) { PreferenceStandIns.outside { factory.store } }
    }
    if let store = shared.withLock({ $0[id] }) { return store }
    let made = make()
    return shared.withLock { stores in
      if let store = stores[id] { return store }
      stores[id] = made
      return made
    }
  }

  /// A factory call, to make its store again.
  private enum Factory: Sendable {
    case standard
    case suite(String)
    case propertyList(URL, PropertyListFileBackend.Format)

    var store: PreferenceStore {
      switch self {
      case .standard: PreferenceStore.standard
      case .suite(let name): PreferenceStore.suite(name)
      case .propertyList(let url, let format): PreferenceStore.propertyList(at: url, format: format)
      }
    }
  }

  /// The identifier `store` is shared under, if a factory made it.
  static func sharedIdentifier(of store: PreferenceStore) -> String? {
    shared.withLock { stores in stores.first { $0.value === store }?.key }
  }

  /// The store over `UserDefaults.standard`.
  ///
  /// On iOS, tvOS, watchOS and visionOS it is guarded by ``ProtectedDataBackend``: launched
  /// before the device's first unlock (a push, a background task, prewarming), it never takes
  /// the unreadable store for an empty one or writes over it.
  public static var standard: PreferenceStore {
    shared("defaults:", .standard) {
      PreferenceStore(backend: guarded(UserDefaultsBackend(), id: "defaults:"))
    }
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
    return shared("defaults:" + name, .suite(name)) {
      PreferenceStore(backend: guarded(UserDefaultsBackend(suiteName: name), id: "defaults:" + name))
    }
  }

  /// `backend` (a UserDefaults store), guarded against protected data on the platforms that
  /// lock it away.
  private static func guarded(_ backend: any PreferenceBackend, id: String) -> any PreferenceBackend {
    #if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
      ProtectedDataBackend(
        backend, signal: SystemProtectedDataSignal.shared, usesSentinel: true,
        heldWritesRecord: heldWritesRecord(for: id))
    #else
      backend
    #endif
  }

  /// A file store, guarded on the platforms that lock data away by its own file's readability
  /// (before the first unlock, or while the device is locked with complete protection).
  private static func guardedFile(_ backend: PropertyListFileBackend, id: String) -> any PreferenceBackend {
    #if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
      ProtectedDataBackend(
        backend, signal: FileReadableSignal(file: backend.file), usesSentinel: false,
        heldWritesRecord: heldWritesRecord(for: id))
    #else
      backend
    #endif
  }

  /// Where the keys of writes held before the first unlock are listed, per store: the app's
  /// Application Support folder (see ``ProtectedDataBackend``).
  static func heldWritesRecord(for id: String) -> URL? {
    FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask).first?
      .appendingPathComponent("swift-preferences/held-writes/" + StableName.of(id))
  }

  /// The store over the property-list file at `url`. The same file always returns the same store.
  ///
  /// On iOS, tvOS, watchOS and visionOS it is guarded by its file's readability, as ``standard``
  /// is by protected data: a file that data protection keeps locked when the store opens (before
  /// the first unlock, or with complete protection while the device is locked) is never taken
  /// for an empty one or written over (its ``backend`` is then a ``ProtectedDataBackend`` over
  /// the file store).
  ///
  /// - Parameters:
  ///   - url: The file; it and its directory are created on the first write.
  ///   - format: The format written; reading accepts either.
  /// - Returns: The store of that file.
  public static func propertyList(
    at url: URL, format: PropertyListFileBackend.Format = .binary
  ) -> PreferenceStore {
    let id = "file:" + url.standardizedFileURL.path
    return shared(id, .propertyList(url, format)) {
      PreferenceStore(backend: guardedFile(PropertyListFileBackend(url: url, format: format), id: id))
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
  ///
  /// Inside ``PreferenceStandIns/run(_:)`` it is the stand-in of the store that was the default
  /// when code inside first used it, and setting it changes it for that code only.
  public static var `default`: PreferenceStore {
    get {
      if let standIns = PreferenceStandIns.current { return standIns.defaultStore }
      return DeclarationTable.defaultStore(else: { Self.standard })
    }
    set {
      if let standIns = PreferenceStandIns.current { return standIns.setDefaultStore(newValue) }
      // A stand-in that outlived its test (a `static let` first evaluated there) is not kept.
      DeclarationTable.setDefaultStore(PreferenceStandIns.realStore(of: newValue))
    }
  }
}
