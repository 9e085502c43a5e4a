import Foundation

/// Moving stored values to new keys and stores.
extension PreferenceStore {
  /// Moves the value of the newest of `oldKeys` that holds one to `newKey`, unless `newKey`
  /// already holds a value (the newer one, written by code that knows the new name).
  ///
  /// Used for renames (`@Preference(renamedFrom: "B", "A")`): `oldKeys` are newest first. The
  /// value is written under `newKey` before the old key is removed, so an interruption leaves it
  /// under both keys, never under neither; only the key the value moved from is removed;
  /// idempotent. The registry runs it when the store is first used, before any read of `newKey`.
  ///
  /// - Parameters:
  ///   - oldKeys: The keys the value may be stored under now, newest first (`newKey` itself is
  ///     ignored).
  ///   - newKey: The key to move it to.
  ///   - transform: Converts the old stored value to the new representation, or returns `nil` to
  ///     leave the old value in place.
  /// - Returns: ``MigrationResult/moved``; ``MigrationResult/keptExistingValue`` when `newKey`
  ///   and an old key both hold a value; ``MigrationResult/nothingToMigrate`` when no old key
  ///   holds one (or `transform` declined it).
  @discardableResult
  public func migrate(
    from oldKeys: [String], to newKey: String,
    transform: (PropertyListValue) -> PropertyListValue? = { $0 }
  ) -> MigrationResult {
    let oldKeys = oldKeys.filter { $0 != newKey }
    return migrating {
      guard let (oldKey, old) = Self.firstValue(of: oldKeys, in: backend) else {
        return (.nothingToMigrate, [])
      }
      if backend.value(forKey: newKey) != nil { return (.keptExistingValue, []) }
      guard let new = transform(old) else { return (.nothingToMigrate, []) }
      write(new, forKey: newKey)
      write(nil, forKey: oldKey)
      return (.moved, [oldKey, newKey])
    }
  }

  /// Runs `migration` once no other migration of this store is running, then tells observers of
  /// the keys it returns: two threads migrating the same keys at once answer `.moved` once, and
  /// the other finds the value moved. No lock is held while a migration runs (it calls the
  /// backend and `transform`), and observers are told after it ends; a migration started from
  /// inside another on the same thread runs at once.
  private func migrating(_ migration: () -> (MigrationResult, Set<String>)) -> MigrationResult {
    let claimed = migrations.claim()
    let (result, changed) = migration()
    if claimed { migrations.release() }
    if !changed.isEmpty { notify(changed) }
    return result
  }

  /// Moves the value of `key` (or of the newest of `oldKeys` holding one) from `previous` into
  /// this store under `key`, unless this store already holds a value for `key`: a preference
  /// whose `store:` changed (`@Preference(store: …, movedFrom: …)`).
  ///
  /// The value is written here and flushed before it is removed there, so an interruption leaves
  /// it in both stores, never in neither; if this store cannot write it durably, the old copy
  /// stays. Idempotent, like ``migrate(from:to:transform:)-(String,_,_)``, and answered the same way.
  ///
  /// ```swift
  /// PreferenceStore.suite("group.com.example.app").migrate("Settings.theme", from: .standard)
  /// ```
  ///
  /// - Parameters:
  ///   - key: The key, in this store, to move the value to.
  ///   - previous: The store that holds it now.
  ///   - oldKeys: Other keys it may be stored under in `previous`, newest first.
  /// - Returns: ``MigrationResult/moved``; ``MigrationResult/keptExistingValue`` when this store
  ///   already holds a value for `key` (the old one is left in place);
  ///   ``MigrationResult/nothingToMigrate`` when `previous` holds none (or is this store).
  @discardableResult
  public func migrate(_ key: String, from previous: PreferenceStore, oldKeys: [String] = [])
    -> MigrationResult
  {
    guard previous !== self else { return .nothingToMigrate }
    return migrating {
      guard let (oldKey, value) = Self.firstValue(of: [key] + oldKeys, in: previous.backend) else {
        return (.nothingToMigrate, [])
      }
      if hasStoredValue(forKey: key) { return (.keptExistingValue, []) }
      write(value, forKey: key)
      do {
        try flush()
      } catch {
        // Not yet durable here: keep the old copy.
        return (.moved, [key])
      }
      previous.removeValue(forKey: oldKey)
      return (.moved, [key])
    }
  }

  /// Moves the value of `key` from `previous` into this store; see ``migrate(_:from:oldKeys:)``.
  ///
  /// - Returns: Whether a value moved.
  @available(*, deprecated, message: "use migrate(_:from:oldKeys:), which answers a MigrationResult")
  @discardableResult
  public func move(_ key: String, from previous: PreferenceStore, oldKeys: [String] = []) -> Bool {
    migrate(key, from: previous, oldKeys: oldKeys) == .moved
  }

  /// The first of `keys` that holds a value in `backend`, with the value, each key read once
  /// (another thread may migrate the same keys meanwhile: a value read once is the one used;
  /// `lazy.compactMap(…).first` reads twice and trapped when the second read found nothing).
  private static func firstValue(of keys: [String], in backend: any PreferenceBackend)
    -> (key: String, value: PropertyListValue)?
  {
    for key in keys {
      if let value = backend.value(forKey: key) { return (key, value) }
    }
    return nil
  }

  /// The outcome of ``PreferenceStore/migrate(from:to:transform:)-(String,_,_)`` and
  /// ``PreferenceStore/migrate(_:from:oldKeys:)``.
  public enum MigrationResult: Equatable, Sendable {
    /// The value was moved from the old key to the new key.
    case moved
    /// Nothing is stored under the old key (never was, or already migrated).
    case nothingToMigrate
    /// Both keys hold a value: the new key's value was kept and the old one left in place.
    case keptExistingValue
  }

  /// Moves the value stored under `oldKey` to `newKey`, once.
  ///
  /// Idempotent: running it again finds nothing under `oldKey`. A value already stored under
  /// `newKey` is never overwritten. The value is written under `newKey` before it is removed
  /// from `oldKey`, so a concurrent reader, or an interruption, finds it under one key or both.
  ///
  /// ```swift
  /// store.migrate(from: "username", to: "ContentView.username")
  /// ```
  ///
  /// - Parameters:
  ///   - oldKey: The key the value is stored under now.
  ///   - newKey: The key to move it to.
  ///   - transform: Converts the old stored value to the new representation, or returns `nil` to
  ///     leave the old value in place.
  /// - Returns: Whether the value moved, stayed because `newKey` already holds one, or there was
  ///   nothing to move.
  @discardableResult
  public func migrate(
    from oldKey: String, to newKey: String,
    transform: (PropertyListValue) -> PropertyListValue? = { $0 }
  ) -> MigrationResult {
    migrate(from: [oldKey], to: newKey, transform: transform)
  }

}
