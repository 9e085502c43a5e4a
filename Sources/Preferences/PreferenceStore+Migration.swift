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
  /// A write wins over a migration that runs beside it: `newKey` is written only if it is still
  /// empty when the migrated value is ready (checked and written in one step, against other
  /// processes too where the backend allows: the file and Linux stores), and the old key is
  /// removed only if it still holds the value that moved. Nothing is held while `transform`
  /// runs, so it may do anything, wait for other threads included.
  ///
  /// - Parameters:
  ///   - oldKeys: The keys the value may be stored under now, newest first (`newKey` itself is
  ///     ignored).
  ///   - newKey: The key to move it to.
  ///   - transform: Converts the old stored value to the new representation, or returns `nil` to
  ///     leave the old value in place.
  /// - Returns: ``MigrationResult/moved``; ``MigrationResult/keptExistingValue`` when `newKey`
  ///   holds a value (also one written while the migration ran); ``MigrationResult/nothingToMigrate``
  ///   when no old key holds one (or `transform` declined it).
  @discardableResult
  public func migrate(
    from oldKeys: [String], to newKey: String,
    transform: (PropertyListValue) -> PropertyListValue? = { $0 }
  ) -> MigrationResult {
    let oldKeys = oldKeys.filter { $0 != newKey }
    for key in oldKeys + [newKey] { adoptWritesByOtherCode(key) }
    guard let (oldKey, old) = Self.firstValue(of: oldKeys, in: backend) else { return .nothingToMigrate }
    if backend.value(forKey: newKey) != nil { return .keptExistingValue }
    guard let new = transform(old) else { return .nothingToMigrate }
    guard replace(newKey, ifEqualTo: nil, with: new) else { return .keptExistingValue }
    _ = replace(oldKey, ifEqualTo: old, with: nil)
    notify([oldKey, newKey])
    return .moved
  }

  /// Moves the value of `key` (or of the newest of `oldKeys` holding one) from `previous` into
  /// this store under `key`, unless this store already holds a value for `key`: a preference
  /// whose `store:` changed (`@Preference(store: …, movedFrom: …)`).
  ///
  /// The value is written here and flushed before it is removed there, so an interruption leaves
  /// it in both stores, never in neither; if this store cannot write it durably, the old copy
  /// stays. A write wins over the move, as in ``migrate(from:to:transform:)-(String,_,_)``: the
  /// value is written here only if `key` is still empty, and removed there only where it still
  /// holds the value that moved (under whichever of the keys holds it, should `previous` rename
  /// it meanwhile). Idempotent, and answered the same way.
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
    let keys = [key] + oldKeys.filter { $0 != key }
    for key in keys { previous.adoptWritesByOtherCode(key) }
    adoptWritesByOtherCode(key)
    guard let (oldKey, value) = Self.firstValue(of: keys, in: previous.backend) else {
      return .nothingToMigrate
    }
    if hasStoredValue(forKey: key) { return .keptExistingValue }
    guard replace(key, ifEqualTo: nil, with: value) else { return .keptExistingValue }
    notify([key])
    do {
      try flush()
    } catch {
      // Not yet durable here: keep the old copy.
      return .moved
    }
    Self.afterMovingIn?()
    for candidate in [oldKey] + keys.filter({ $0 != oldKey })
    where previous.replace(candidate, ifEqualTo: value, with: nil) {
      previous.notify([candidate])
      break
    }
    return .moved
  }

  /// Runs in ``migrate(_:from:oldKeys:)`` between writing the value here and removing it from
  /// the previous store, for tests that change the previous store there.
  @TaskLocal static var afterMovingIn: TestHook?

  /// Stores `value` under `key` only if `expected` is stored there (one step where the backend
  /// allows; ``PreferenceBackend/replaceValue(forKey:ifEqualTo:with:)``; in this process, one
  /// replacement of a key at a time, whatever the backend), with a write's
  /// bookkeeping: the cache cleared, the change counted, a synced key's time recorded. Observers
  /// are not told; the caller tells them.
  func replace(_ key: String, ifEqualTo expected: PropertyListValue?, with value: PropertyListValue?) -> Bool
  {
    let (synced, clock) = state.withLock { state in
      state.writesInFlight += 1
      state.writesStarted &+= 1
      return (state.syncedKeys.contains(key), state.syncClock)
    }
    // Replacements of one key in this store take turns for the one backend call that decides
    // them, so that two migrations of a key never both succeed, whatever the backend.
    let replaced = replacements.run(key) {
      backend.replaceValue(forKey: key, ifEqualTo: expected, with: value)
    }
    state.withLock { state in
      state.writesInFlight -= 1
      state.version &+= 1
      state.cache.setBox(nil, state.cache.number(of: key))
    }
    if replaced && synced { recordModification(clock(), for: key) }
    return replaced
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
