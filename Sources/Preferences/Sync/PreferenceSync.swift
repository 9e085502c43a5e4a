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
/// - Conflicts are resolved per key: the newest write wins. The local store records when each
///   synced key last changed on every write, whether or not an engine is running (before
///   ``start()``, after ``stop()``, in an app extension writing the same suite), under
///   `_PreferenceSync.modified`; that time travels to the remote store inside the key's value
///   (`{"value": …, "modified": …}`), so one stale device cannot overwrite everything, and a
///   change made offline wins over an older change made elsewhere.
/// - No echo: for each key the engine remembers the value and time both sides last agreed on
///   (`_PreferenceSync.synced`). A local change equal to that value is the echo of a change the
///   engine applied, and is not sent back, whatever the remote store holds by then.
/// - A fresh install takes the remote values: only values explicitly stored on this device are
///   pushed, never registered defaults, and a value stored before anything recorded its time
///   (before the app synced that key at all) does not override the remote one.
/// - Writes that would exceed the remote store's quotas (keys, total size, key length) are
///   refused and reported through ``PreferenceDiagnostics``, and so is a quota violation the
///   remote store reports.
/// - The first download (``RemoteChange/Reason/initialSyncChange``) may replace or discard a
///   value this device wrote before it (iCloud discards such writes): every key is reconciled
///   then, the newer of the two wins by their modification times, and a local value the server
///   lacks or holds older is sent again.
/// - A write the remote store refused for its quota (``RemoteChange/Reason/quotaViolation``) is
///   reported and not taken as agreed: it is sent again at the next change or ``start()``. The
///   agreement on a value is recorded only after the remote store took it.
/// - The engine asks the remote store to synchronize when it starts and each time the app
///   becomes active, as Apple recommends for `NSUbiquitousKeyValueStore`.
/// - The remote store's use of its quota is read once, when the engine starts (and after an
///   account change or a first download), and then kept up to date with each write, not
///   recomputed from the whole store on every push.
/// - An account change (``RemoteChange/Reason/accountChange``) neither wipes nor pushes: values
///   the new account has replace the local ones; values it lacks stay on this device and are
///   sent only when they change here again.
/// - A remote store that cannot sync (``RemoteKeyValueStore/synchronize()`` returns `false`: no
///   iCloud key-value entitlement, no account) is reported once through
///   ``PreferenceDiagnostics``.
public final class PreferenceSync: Sendable {
  /// The local store.
  public let local: PreferenceStore
  /// The remote store.
  public let remote: any RemoteKeyValueStore
  /// The keys mirrored.
  public let keys: Set<String>

  private struct State {
    var localObservation: PreferenceObservation?
    var remoteObservation: PreferenceObservation?
    var activityObservation: PreferenceObservation?
    /// The remote store's use of its quota, kept up to date by this engine's writes and the
    /// changes it hears; `nil` until read.
    var usage: QuotaUse?
  }

  /// The remote store's use: every key's size as this engine last saw it (sizes of keys it does
  /// not sync are in `others`).
  struct QuotaUse {
    var sizes: [String: Int] = [:]
    var otherKeys = 0
    var otherBytes = 0
    var keys: Int { sizes.count + otherKeys }
    var bytes: Int { sizes.values.reduce(otherBytes, +) }
  }

  private let state = Locked(State())
  /// This engine's identity as a writer of the remote store (see `RemoteWriter`).
  private let writer = RemoteWriter.newToken()
  private let clock: @Sendable () -> Date
  /// The app's activity: the engine synchronizes each time the app becomes active.
  private let activity: (any AppActivity)?
  /// Serializes reconciliation so that a local and a remote change of one key never interleave,
  /// without holding a lock while the local or remote store runs: applying a remote value writes
  /// the local store, whose observers (this engine among them) submit more work, run after it.
  private let work = SerialDrain()

  /// Creates an engine; call ``start()`` to begin. From now on the local store records a
  /// modification time on every write of `keys`.
  ///
  /// - Parameters:
  ///   - local: The store on this device.
  ///   - remote: The store shared with the user's other devices.
  ///   - keys: The keys to mirror, for example the keys of `@Preference(sync: true)`
  ///     declarations (`PreferenceRegistry.syncedKeys`).
  ///   - clock: The source of modification times; replace it in tests.
  public convenience init(
    local: PreferenceStore, remote: any RemoteKeyValueStore, keys: Set<String>,
    clock: @escaping @Sendable () -> Date = { Date() }
  ) {
    self.init(local: local, remote: remote, keys: keys, clock: clock, activity: NotifiedAppActivity.system)
  }

  /// Creates an engine that follows `activity` (tests pass a stand-in).
  init(
    local: PreferenceStore, remote: any RemoteKeyValueStore, keys: Set<String>,
    clock: @escaping @Sendable () -> Date, activity: (any AppActivity)?
  ) {
    self.local = local
    self.remote = remote
    self.keys = keys
    self.clock = clock
    self.activity = activity
    local.trackModifications(of: keys, clock: clock)
  }

  deinit { stop() }

  /// Reconciles every key once (newest wins; remote values win over a fresh install's
  /// defaults), then mirrors changes in both directions until ``stop()``.
  public func start() {
    work.submit { [self] in
      let localObservation = local.addListener(for: keys) { [weak self] key in self?.localChanged(key) }
      let handler: @Sendable (RemoteChange) -> Void = { [weak self] change in self?.remoteChanged(change) }
      // Registered as this engine, so that a store standing for several devices does not tell
      // it of its own writes.
      let remoteObservation = RemoteWriter.$current.withValue(writer) { remote.observeChanges(handler) }
      // Apple: "call synchronize() … upon app launch, or upon returning to the foreground".
      let activityObservation = activity?.observe { [weak self] active in
        guard active, let self else { return }
        self.work.submit { [self] in
          if self.isRunning, !self.remote.synchronize() { Self.reportUnavailable(self.remote) }
        }
      }
      if !remote.synchronize() { Self.reportUnavailable(remote) }
      let previous = state.withLock { state in
        defer {
          state = State(
            localObservation: localObservation, remoteObservation: remoteObservation,
            activityObservation: activityObservation)
        }
        return [state.localObservation, state.remoteObservation, state.activityObservation]
      }
      previous.forEach { $0?.cancel() }
      readUsage()
      for key in keys.sorted() { reconcile(key) }
    }
  }

  /// Reads the remote store's use of its quota whole: at start, after an account change and
  /// after the first download. Between those, writes and changes keep it up to date.
  private func readUsage() {
    let (keys, bytes) = remote.usage()
    var use = QuotaUse()
    for key in self.keys {
      if let value = remote.value(forKey: key) {
        use.sizes[key] = key.utf8.count + value.approximateByteCount
      }
    }
    use.otherKeys = max(0, keys - use.sizes.count)
    use.otherBytes = max(0, bytes - use.sizes.values.reduce(0, +))
    state.withLock { $0.usage = use }
  }

  /// Updates the kept use of `key`'s size from what the remote store holds now.
  private func refreshUsage(of key: String) {
    let size = remote.value(forKey: key).map { key.utf8.count + $0.approximateByteCount }
    state.withLock { $0.usage?.sizes[key] = size }
  }

  /// Stops mirroring. Local writes keep their modification times, so they are reconciled
  /// correctly at the next ``start()``.
  public func stop() {
    let observations = state.withLock { state in
      defer { state = State() }
      return [state.localObservation, state.remoteObservation, state.activityObservation]
    }
    observations.forEach { $0?.cancel() }
  }

  private var isRunning: Bool { state.withLock { $0.localObservation != nil } }

  // MARK: Changes

  private func localChanged(_ key: String) {
    work.submit { [self] in
      guard isRunning else { return }
      let (stored, modified, agreed) = localState(of: key)
      // The value and time both sides last agreed on: the echo of a change this engine applied.
      if let agreed, !Self.changedLocally(stored, modified, since: agreed) { return }
      reconcile(key)
    }
  }

  private func remoteChanged(_ change: RemoteChange) {
    work.submit { [self] in
      guard isRunning else { return }
      let keys = change.keys.intersection(self.keys).sorted()
      switch change.reason {
      case .serverChange:
        for key in keys {
          refreshUsage(of: key)
          reconcile(key)
        }
      case .initialSyncChange:
        // The first download may have discarded a value this device wrote before it, under a
        // key it does not name: every key is reconciled, and a local value the server lacks
        // (or holds older) is sent again.
        readUsage()
        for key in self.keys.sorted() { reconcile(key, afterInitialSync: true) }
      case .accountChange:
        readUsage()
        for key in (change.keys.isEmpty ? self.keys.sorted() : keys) { accountChanged(key) }
      case .quotaViolation:
        // The store dropped the write: it is not agreed on, and goes out again with the key's
        // next change or the next start.
        readUsage()
        for key in (change.keys.isEmpty ? self.keys.sorted() : keys) {
          local.updateSyncMetadata { backend in SyncMetadata.removeAgreement(for: key, in: backend) }
          PreferenceDiagnostics.report(
            .syncLimitExceeded(key: key, reason: "the remote store reported that it is over its quota"))
        }
      }
    }
  }

  /// Remote stores already reported as unable to sync, so that each is reported once.
  private static let reportedUnavailable = Locked<Set<ObjectIdentifier>>([])

  private static func reportUnavailable(_ remote: any RemoteKeyValueStore) {
    let first = reportedUnavailable.withLock { $0.insert(ObjectIdentifier(remote)).inserted }
    guard first else { return }
    PreferenceDiagnostics.report(
      .syncUnavailable(
        store: "\(type(of: remote))",
        reason: "synchronize() returned false: check the iCloud key-value storage entitlement and the account"
      ))
  }

  /// The account changed: the new account's values replace local ones; a value it lacks stays
  /// here, held back (not sent) until it changes on this device again.
  private func accountChanged(_ key: String) {
    if let entry = Entry(remote.value(forKey: key)) {
      apply(entry, for: key)
      return
    }
    let (stored, _, _) = localState(of: key)
    let digest = SyncMetadata.digest(stored)
    local.updateSyncMetadata { backend in
      SyncMetadata.setAgreement(
        .init(digest: digest, modified: SyncMetadata.Agreement.heldBack), for: key, in: backend)
    }
  }

  /// The time of a local change: its recorded modification time if it is newer than the last
  /// agreement (a change made without a recorded time, by code that bypassed the library, is
  /// dated now), and strictly newer than the remote value it replaces, whatever the clocks say.
  private func localTime(_ modified: Date?, agreed: SyncMetadata.Agreement?, remote: Entry?) -> Date {
    var time = modified ?? clock()
    if let agreed, time <= agreed.modified { time = clock() }
    if let remote, time <= remote.modified { time = remote.modified.addingTimeInterval(0.001) }
    return time
  }

  /// Makes `key` agree on both sides: the side that changed since the last agreement wins; if
  /// both changed, the newer change wins (the remote one on a tie).
  private func reconcile(_ key: String, afterInitialSync: Bool = false) {
    let (stored, modified, agreed) = localState(of: key)
    let localDigest = SyncMetadata.digest(stored)
    // Changed here since the last agreement; before any agreement, any value (or removal) whose
    // time was recorded counts. After the first download, a value written here at a recorded
    // time counts too: iCloud may have discarded it, so the times decide.
    let localChanged =
      (afterInitialSync && modified != nil)
      || (agreed.map { Self.changedLocally(stored, modified, since: $0) }
        ?? (stored != nil || modified != nil))
    guard let entry = Entry(remote.value(forKey: key)) else {
      // Only this device has it: send values stored here, never registered defaults, and not a
      // value held back at an account change until it changes here.
      if stored != nil && (localChanged || (agreed.map { !$0.isHeldBack } ?? false)) {
        push(stored, modified: localTime(modified, agreed: agreed, remote: nil), for: key)
      }
      return
    }
    if SyncMetadata.digest(entry.value) == localDigest {
      agree(localDigest, entry.modified, key)
      return
    }
    let remoteChanged =
      agreed.map { $0.modified != entry.modified || $0.digest != SyncMetadata.digest(entry.value) } ?? true
    let localWins: Bool
    switch (localChanged, remoteChanged) {
    case (true, false): localWins = true
    case (false, _): localWins = false
    case (true, true):
      // Both changed: the newer change wins. A value stored before anything recorded its time
      // (before the app synced this key at all) does not override the remote one.
      guard let modified else {
        localWins = false
        break
      }
      localWins = modified > entry.modified
    }
    if localWins {
      push(stored, modified: localTime(modified, agreed: agreed, remote: entry), for: key)
    } else {
      apply(entry, for: key)
    }
  }

  /// Whether the local value was written since `agreement`: it differs, or it was written again
  /// (equal, but later) while the remote value may have changed.
  private static func changedLocally(
    _ stored: PropertyListValue?, _ modified: Date?, since agreement: SyncMetadata.Agreement
  ) -> Bool {
    if agreement.isHeldBack { return agreement.digest != SyncMetadata.digest(stored) }
    return agreement.digest != SyncMetadata.digest(stored)
      || (modified.map { $0 > agreement.modified } ?? false)
  }

  /// The local value of `key`, when it last changed, and the last agreement on it.
  private func localState(of key: String) -> (PropertyListValue?, Date?, SyncMetadata.Agreement?) {
    let backend = local.backend
    return (
      backend.value(forKey: key), SyncMetadata.modified(for: key, in: backend),
      SyncMetadata.agreement(for: key, in: backend)
    )
  }

  private func agree(_ digest: Int64, _ modified: Date, _ key: String) {
    local.updateSyncMetadata { backend in
      SyncMetadata.setAgreement(.init(digest: digest, modified: modified), for: key, in: backend)
    }
  }

  /// Stores the remote value locally; the agreement is recorded first, so the local change it
  /// causes is recognised as an echo.
  private func apply(_ entry: Entry, for key: String) {
    agree(SyncMetadata.digest(entry.value), entry.modified, key)
    local.applyRemote(entry.value, forKey: key, modified: entry.modified)
  }

  private func push(_ value: PropertyListValue?, modified: Date, for key: String) {
    let entry = Entry(value: value, modified: modified)
    let encoded = entry.encoded
    let limits = remote.limits
    if state.withLock({ $0.usage == nil }) { readUsage() }
    let usage = state.withLock { state in (keys: state.usage?.keys ?? 0, bytes: state.usage?.bytes ?? 0) }
    let existing = remote.value(forKey: key)
    let size = encoded.approximateByteCount + key.utf8.count
    let growth = size - (existing.map { $0.approximateByteCount + key.utf8.count } ?? 0)
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
    RemoteWriter.$current.withValue(writer) {
      remote.setValue(encoded, forKey: key)
    }
    // Agreed only once the remote store holds it: an engine stopped in between (a crash, an
    // exit) sends it again at its next start instead of taking it for sent.
    state.withLock { $0.usage?.sizes[key] = size }
    local.updateSyncMetadata { backend in
      SyncMetadata.setModified(modified, for: key, in: backend)
      SyncMetadata.setAgreement(
        .init(digest: SyncMetadata.digest(value), modified: modified), for: key, in: backend)
    }
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
