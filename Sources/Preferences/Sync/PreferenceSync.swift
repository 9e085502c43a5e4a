import Foundation

/// Mirrors chosen preferences between a local store and a remote key-value store shared by the
/// user's devices (iCloud's `NSUbiquitousKeyValueStore`, or any ``RemoteKeyValueStore``).
///
/// ```swift
/// let sync = PreferenceSync(local: .standard, remote: UbiquitousKeyValueStore(),
///                           keys: PreferenceRegistry.syncedKeys)
/// sync.start()
/// ```
///
/// - Conflicts are resolved per key: the newest write wins. Each key's modification time is kept
///   locally (under `_PreferenceSync.modified`, never synced as a key of its own) and travels to
///   the remote store inside the key's value (`{"value": …, "modified": …}`), so one stale device
///   cannot overwrite everything.
/// - A fresh install takes the remote values: only values explicitly stored on this device are
///   pushed, never registered defaults.
/// - A change applied from the remote store is not sent back (no echo loops): local changes are
///   pushed only when they differ from what the remote store holds.
/// - Writes that would exceed the remote store's quotas (keys, total size, key length) are
///   refused and reported through ``PreferenceDiagnostics``.
public final class PreferenceSync: Sendable {
  /// The local store.
  public let local: PreferenceStore
  /// The remote store.
  public let remote: any RemoteKeyValueStore
  /// The keys mirrored.
  public let keys: Set<String>

  static let metadataKey = "_PreferenceSync.modified"

  private struct State {
    var localObservation: PreferenceObservation?
    var remoteObservation: PreferenceObservation?
    var writerID: Int?
  }

  private let state = Locked(State())
  private let clock: @Sendable () -> Date
  /// Serializes reconciliation so that a local and a remote change of one key never interleave.
  /// Recursive: applying a remote value writes the local store, whose observers (this engine
  /// among them) run on the same thread.
  private let serial = NSRecursiveLock()

  /// Creates an engine; call ``start()`` to begin.
  ///
  /// - Parameters:
  ///   - keys: The keys to mirror, for example the keys of `@Preference(sync: true)`
  ///     declarations (`PreferenceRegistry.syncedKeys`).
  ///   - clock: The source of modification times; replace it in tests.
  public init(
    local: PreferenceStore, remote: any RemoteKeyValueStore, keys: Set<String>,
    clock: @escaping @Sendable () -> Date = { Date() }
  ) {
    self.local = local
    self.remote = remote
    self.keys = keys
    self.clock = clock
  }

  deinit { stop() }

  /// Reconciles every key once (newest wins; remote values win over a fresh install's
  /// defaults), then mirrors changes in both directions until ``stop()``.
  public func start() {
    let localObservation = local.addListener(for: keys) { [weak self] key in self?.localChanged(key) }
    let handler: @Sendable (Set<String>) -> Void = { [weak self] keys in self?.remoteChanged(keys) }
    let remoteObservation: PreferenceObservation
    var writerID: Int?
    if let memory = remote as? InMemoryRemoteStore {
      let (id, observation) = memory.register(handler)
      writerID = id
      remoteObservation = observation
    } else {
      remoteObservation = remote.observeExternalChanges(handler)
    }
    state.withLock {
      $0 = State(localObservation: localObservation, remoteObservation: remoteObservation, writerID: writerID)
    }
    for key in keys.sorted() { reconcile(key) }
  }

  /// Stops mirroring.
  public func stop() {
    let observations = state.withLock { state in
      defer { state = State() }
      return [state.localObservation, state.remoteObservation]
    }
    observations.forEach { $0?.cancel() }
  }

  // MARK: Changes

  private func localChanged(_ key: String) {
    serial.withLock {
      let stored = local.backend.value(forKey: key)
      let remoteEntry = Entry(remote.value(forKey: key))
      // An equal value is the echo of a change this engine applied from the remote store.
      if let remoteEntry, remoteEntry.value == stored { return }
      if remoteEntry == nil && stored == nil { return }
      // Strictly newer than what it replaces, even if clocks disagree.
      var now = clock()
      if let remoteEntry, now <= remoteEntry.modified { now = remoteEntry.modified.addingTimeInterval(0.001) }
      setModified(now, for: key)
      push(Entry(value: stored, modified: now), for: key)
    }
  }

  private func remoteChanged(_ keys: Set<String>) {
    for key in keys.intersection(self.keys).sorted() { reconcile(key) }
  }

  /// Makes `key` agree on both sides: the strictly newer side wins; on a tie, the remote value.
  private func reconcile(_ key: String) {
    serial.withLock {
      let remoteEntry = Entry(remote.value(forKey: key))
      let stored = local.backend.value(forKey: key)
      var localModified = modified(for: key)
      guard let entry = remoteEntry else {
        // Only this device has it: send values stored here, never registered defaults.
        guard let stored else { return }
        let modified = localModified ?? clock()
        setModified(modified, for: key)
        push(Entry(value: stored, modified: modified), for: key)
        return
      }
      if entry.value == stored {
        setModified(entry.modified, for: key)
        return
      }
      if localModified == entry.modified {
        // The two agreed when last synced, so this device changed the value while not syncing.
        let now = clock()
        localModified = now > entry.modified ? now : entry.modified.addingTimeInterval(0.001)
        setModified(localModified!, for: key)
      }
      if let localModified, localModified > entry.modified {
        push(Entry(value: stored, modified: localModified), for: key)
      } else {
        setModified(entry.modified, for: key)
        apply(entry.value, for: key)
      }
    }
  }

  private func apply(_ value: PropertyListValue?, for key: String) {
    if let value {
      local.set(value, forKey: key)
    } else {
      local.removeValue(forKey: key)
    }
  }

  private func push(_ entry: Entry, for key: String) {
    let encoded = entry.encoded
    let limits = remote.limits
    let usage = remote.usage()
    let existing = remote.value(forKey: key)
    let growth =
      encoded.approximateByteCount + key.utf8.count
      - (existing.map { $0.approximateByteCount + key.utf8.count } ?? 0)
    var problem: String?
    if key.utf8.count > limits.maximumKeyBytes {
      problem = "the key is \(key.utf8.count) bytes; the remote store allows \(limits.maximumKeyBytes)"
    } else if existing == nil && usage.keys + 1 > limits.maximumKeys {
      problem = "the remote store already holds its maximum of \(limits.maximumKeys) keys"
    } else if usage.bytes + growth > limits.maximumTotalBytes {
      problem = "the remote store would exceed its \(limits.maximumTotalBytes)-byte quota"
    }
    if let problem {
      PreferenceDiagnostics.report(.syncLimitExceeded(key: key, reason: problem))
      return
    }
    RemoteWriter.$current.withValue(state.withLock { $0.writerID }) {
      remote.setValue(encoded, forKey: key)
    }
  }

  // MARK: Modification times (local only)

  private func modified(for key: String) -> Date? {
    guard case .dictionary(let times)? = local.backend.value(forKey: Self.metadataKey),
      case .date(let date)? = times[key]
    else { return nil }
    return date
  }

  private func setModified(_ date: Date, for key: String) {
    var times: [String: PropertyListValue] = [:]
    if case .dictionary(let existing)? = local.backend.value(forKey: Self.metadataKey) { times = existing }
    times[key] = .date(date)
    local.backend.setValue(.dictionary(times), forKey: Self.metadataKey)
  }

  /// A value with its modification time, as stored remotely. A `nil` value is a deletion.
  struct Entry: Equatable {
    var value: PropertyListValue?
    var modified: Date

    init(value: PropertyListValue?, modified: Date) {
      self.value = value
      self.modified = modified
    }

    init?(_ stored: PropertyListValue?) {
      guard case .dictionary(let fields)? = stored, case .date(let modified)? = fields["modified"] else {
        return nil
      }
      self.value = fields["value"]
      self.modified = modified
    }

    var encoded: PropertyListValue {
      var fields: [String: PropertyListValue] = ["modified": .date(modified)]
      fields["value"] = value
      return .dictionary(fields)
    }
  }
}
