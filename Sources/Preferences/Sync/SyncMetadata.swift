import Foundation

/// What ``PreferenceSync`` keeps beside the values of synced keys, in the local store's backend
/// (so it survives restarts and is written together with the values):
///
/// - `_PreferenceSync.modified`: for each synced key, when its local value last changed. The
///   store records it on every write of a synced key, whether or not a sync engine is running.
/// - `_PreferenceSync.synced`: for each synced key, the value (as a digest) and modification time
///   both sides agreed on when this device last synced it. A local value that differs from it was
///   changed here; a remote time that differs from it was changed elsewhere.
///
/// Every write of them goes through ``PreferenceStore/updateSyncMetadata(_:)``, which orders the
/// read-modify-writes without holding a lock while the backend runs.
enum SyncMetadata {
  static let modifiedKey = "_PreferenceSync.modified"
  static let syncedKey = "_PreferenceSync.synced"
  static let keys: Set<String> = [modifiedKey, syncedKey]

  struct Agreement: Equatable {
    var digest: Int64
    var modified: Date

    /// The time of an agreement recorded at an account change for a value the new account lacks:
    /// the value stays on this device and is not sent until it changes here.
    static let heldBack = Date.distantPast
    var isHeldBack: Bool { modified == Self.heldBack }
  }

  static func modified(for key: String, in backend: any PreferenceBackend) -> Date? {
    guard case .dictionary(let times)? = backend.value(forKey: modifiedKey),
      case .date(let date)? = times[key]
    else { return nil }
    return date
  }

  static func setModified(_ date: Date, for key: String, in backend: any PreferenceBackend) {
    var times: [String: PropertyListValue] = [:]
    if case .dictionary(let existing)? = backend.value(forKey: modifiedKey) { times = existing }
    times[key] = .date(date)
    backend.setValue(.dictionary(times), forKey: modifiedKey)
  }

  static func agreement(for key: String, in backend: any PreferenceBackend) -> Agreement? {
    guard case .dictionary(let all)? = backend.value(forKey: syncedKey),
      case .dictionary(let fields)? = all[key],
      case .integer(let digest)? = fields["digest"], case .date(let modified)? = fields["modified"]
    else { return nil }
    return Agreement(digest: digest, modified: modified)
  }

  /// Forgets the agreement on `key`: the next reconciliation treats the local value as changed.
  static func removeAgreement(for key: String, in backend: any PreferenceBackend) {
    guard case .dictionary(var all)? = backend.value(forKey: syncedKey), all[key] != nil else { return }
    all[key] = nil
    backend.setValue(.dictionary(all), forKey: syncedKey)
  }

  static func setAgreement(_ agreement: Agreement, for key: String, in backend: any PreferenceBackend) {
    var all: [String: PropertyListValue] = [:]
    if case .dictionary(let existing)? = backend.value(forKey: syncedKey) { all = existing }
    all[key] = .dictionary(["digest": .integer(agreement.digest), "modified": .date(agreement.modified)])
    backend.setValue(.dictionary(all), forKey: syncedKey)
  }

  /// A digest of `value` that is the same in every process and on every device (FNV-1a over a
  /// canonical encoding; dictionary keys sorted). `nil` (no value) has a digest of its own.
  static func digest(_ value: PropertyListValue?) -> Int64 {
    var hash: UInt64 = 0xCBF2_9CE4_8422_2325
    func byte(_ byte: UInt8) {
      hash ^= UInt64(byte)
      hash &*= 0x0000_0100_0000_01B3
    }
    func word(_ word: UInt64) {
      for shift in stride(from: 0, to: 64, by: 8) { byte(UInt8(truncatingIfNeeded: word >> shift)) }
    }
    func text(_ text: String) {
      word(UInt64(text.utf8.count))
      for unit in text.utf8 { byte(unit) }
    }
    func visit(_ value: PropertyListValue) {
      switch value {
      case .bool(let bool):
        byte(1)
        byte(bool ? 1 : 0)
      case .integer(let number):
        byte(2)
        word(UInt64(bitPattern: number))
      case .unsignedInteger(let number):
        byte(2)
        word(number)
      case .double(let number):
        byte(3)
        word(number.bitPattern)
      case .string(let string):
        byte(4)
        text(string)
      case .data(let data):
        byte(5)
        word(UInt64(data.count))
        for unit in data { byte(unit) }
      case .date(let date):
        byte(6)
        word(date.timeIntervalSinceReferenceDate.bitPattern)
      case .array(let values):
        byte(7)
        word(UInt64(values.count))
        values.forEach(visit)
      case .dictionary(let values):
        byte(8)
        word(UInt64(values.count))
        for key in values.keys.sorted(by: { $0.unicodeScalars.lexicographicallyPrecedes($1.unicodeScalars) })
        {
          text(key)
          visit(values[key]!)
        }
      }
    }
    if let value { visit(value) } else { byte(0) }
    return Int64(bitPattern: hash)
  }
}

extension PreferenceStore {
  /// Records a modification time on every later write of `keys`, taken from `clock`.
  func trackModifications(of keys: Set<String>, clock: (@Sendable () -> Date)? = nil) {
    state.withLock { state in
      state.syncedKeys.formUnion(keys)
      if let clock { state.syncClock = clock }
    }
  }

  /// Runs `body`, which reads and writes sync metadata in the backend, after every update
  /// submitted before it and before every update submitted after it; on this thread unless
  /// another thread is running earlier updates, which then runs it too.
  func updateSyncMetadata(_ body: @escaping @Sendable (any PreferenceBackend) -> Void) {
    metadataWriter.submit { [backend] in body(backend) }
  }

  /// Records that the local value of `key` changed at `date`.
  func recordModification(_ date: Date, for key: String) {
    updateSyncMetadata { backend in SyncMetadata.setModified(date, for: key, in: backend) }
  }

  /// Stores a value received from another device, with that device's modification time, and
  /// notifies observers.
  func applyRemote(_ value: PropertyListValue?, forKey key: String, modified: Date) {
    write(value, forKey: key, modified: modified)
    notify([key])
  }
}
