import Foundation

/// A backend over `UserDefaults`: `.standard` or a suite such as an app group.
///
/// Values are shared with every other reader and writer of the same defaults: code that reads
/// or writes `UserDefaults` directly (legacy code, `@AppStorage`, a Settings bundle) sees the
/// library's values and registered defaults, and the library sees its writes.
///
/// - A stored value is a value in the domain's persistent domain. A default registered by other
///   code, a launch argument or a value in `NSGlobalDomain` is never taken for a stored value
///   (``PreferenceStore/hasStoredValue(forKey:)``, resets, migrations and sync rely on it).
/// - Other code's writes through any `UserDefaults` object in this process reach reads and
///   observers at once, through `UserDefaults.didChangeNotification` (posted, on Apple
///   platforms, on the writing thread): the keys this store uses are compared then. On Linux,
///   where corelibs posts nothing, each read compares its key first, and observers hear such a
///   write within a second while the store is observed.
/// - Another process's writes (a widget, an app extension writing the app group) post nothing
///   to this process. A process that writes through this library announces its writes (a Darwin
///   notification, on Apple platforms), and they arrive at once. Any other writer's changes are
///   found by comparing the keys this store uses: when the app becomes active, and about once a
///   second while it is active and uses any of them; never in the background. A process with no
///   app lifecycle (a tool, a server) compares them only while the store is observed. An
///   unobserved store in the background costs nothing at rest.
/// - On Apple platforms UserDefaults persists writes by itself, atomically and across processes.
/// - On Linux, swift-corelibs-foundation only writes when `synchronize()` is called, never at
///   exit, and its `synchronize()` rewrites the file in place, so a crash can leave it empty.
///   This backend therefore stores the domain itself, in the same file UserDefaults uses
///   (`$XDG_CONFIG_HOME/<domain>.plist`, else `$HOME/.config/<domain>.plist`), with the property-list
///   file store's guarantees, and mirrors every value into the process's `UserDefaults`.
///
/// The backend never holds a lock while it calls `UserDefaults`: the change notification that a
/// write posts synchronously re-enters it on the writing thread.
public final class UserDefaultsBackend: PreferenceBackend {
  /// The suite name, or `nil` for `UserDefaults.standard`.
  public let suiteName: String?
  /// The domain, through the platform's adapter.
  let domain: any DefaultsDomain

  private struct State {
    /// The value each key this backend uses had when it last read, wrote or reported it: a
    /// difference is a write made elsewhere.
    var seen: [String: PropertyListValue?] = [:]
    /// Counts this backend's own writes; `changedAt` holds the count at each key's last one
    /// (counted when a write starts and again when it is done). A check that read the domain
    /// while a key's write was under way, or before it, skips the key: what it read may be older.
    var writes: UInt64 = 0
    var changedAt: [String: UInt64] = [:]
    /// Keys with a write under way, with how many.
    var writing: [String: Int] = [:]
    /// Keys a check skipped because of a write of this backend's: compared again when the last
    /// write to them is done, so that another writer's change that raced with it is not missed.
    var recheck: Set<String> = []
    /// Counts change events, so that a first read that overlaps one checks its key again.
    var events: UInt64 = 0
    var onChange: (@Sendable (Set<String>) -> Void)?
    var poller: AnyObject?
    /// Whether anything observes the store (`setObserved(_:)`).
    var observed = false
    var activityObservation: PreferenceObservation?
  }
  private let state = Locked(State())
  /// Whether an announcement of this backend's writes is scheduled and not yet posted.
  private let announcementScheduled = Locked(false)
  /// Runs an announcement: on a background queue (tests pass their own).
  typealias AnnouncementScheduler = @Sendable (_ post: @escaping @Sendable () -> Void) -> Void
  private let scheduleAnnouncement: AnnouncementScheduler

  /// Where the app's activity comes from: `nil` in a process with no app lifecycle.
  let activity: (any AppActivity)?
  /// Starts the comparison of the keys in use, every `interval`, until the result is released.
  typealias PollerFactory =
    @Sendable (_ interval: DispatchTimeInterval, _ tick: @escaping @Sendable () -> Void) ->
    AnyObject
  private let makePoller: PollerFactory

  /// The platform's limit on the domain's size, where it has one; values that would bring the
  /// domain near it are kept in files (``KeptValues``).
  private let limit: DomainSizeLimit?
  private let kept: KeptValues?
  /// What the domain holds, by key (only where it has a limit).
  private let sizes = Locked(DomainSizes())

  /// How often the keys in use are compared with the domain while the app is active (or, with no
  /// app lifecycle, while the store is observed).
  static let pollInterval: DispatchTimeInterval = .seconds(1)

  /// Creates a backend over `UserDefaults.standard` (`suiteName == nil`) or the named suite.
  public convenience init(suiteName: String? = nil) {
    self.init(suiteName: suiteName, domain: Self.platformDomain(suiteName: suiteName))
  }

  /// Creates a backend over `domain`: the platform's adapter, or a stand-in in tests, with the
  /// app's activity, the poll's timer and the queue announcements are posted from (tests pass
  /// their own).
  init(
    suiteName: String?, domain: any DefaultsDomain,
    activity: (any AppActivity)? = NotifiedAppActivity.system,
    makePoller: @escaping PollerFactory = { ChangePoller(interval: $0, tick: $1) },
    scheduleAnnouncement: @escaping AnnouncementScheduler = {
      DispatchQueue.global(qos: .utility).async(execute: $0)
    }
  ) {
    self.suiteName = suiteName
    self.domain = domain
    self.activity = activity
    self.makePoller = makePoller
    self.scheduleAnnouncement = scheduleAnnouncement
    kept = domain.sizeLimit == nil ? nil : domain.keptValuesDirectory.map(KeptValues.init(directory:))
    limit = kept == nil ? nil : domain.sizeLimit
  }

  /// The `UserDefaults` object this backend reads, writes and observes: `.standard`, or the suite
  /// object it made. Writes through any `UserDefaults` object of the same suite reach the store.
  public var defaults: UserDefaults { domain.userDefaults }

  /// The name of `UserDefaults.standard`'s domain: the bundle identifier, else the process name.
  static var applicationDomain: String {
    Bundle.main.bundleIdentifier ?? ProcessInfo.processInfo.processName
  }

  /// Where the values live, for diagnostics.
  public var location: String { "UserDefaults(\(suiteName ?? "standard"))" }

  /// The thread that is writing through this backend, so that the notification its own write
  /// posts synchronously is recognised and ignored (in O(1)).
  @TaskLocal private static var writer: ObjectIdentifier?

  // MARK: Values

  /// The value stored under `key`, if any (read from its file where the domain keeps only a
  /// marker of it).
  public func value(forKey key: String) -> PropertyListValue? {
    let events = state.withLock { $0.events }
    let value = domain.storedValue(forKey: key)
    if limit != nil { sizes.withLock { $0.note(value, forKey: key) } }
    let (overlapped, firstKey) = state.withLock { state -> (Bool, Bool) in
      let first = state.seen.isEmpty
      if state.seen[key] == nil { state.seen[key] = .some(value) }
      return (state.events != events, first)
    }
    // An event arrived while the key was first read: it may have compared the key before it was
    // known. Compare it now, so a change is never lost between the two.
    if overlapped { check([key]) }
    // The first key in use: an active app now looks for other processes' writes.
    if firstKey { updatePolling() }
    return resolved(value, forKey: key)
  }

  /// Stores `value` under `key`; `nil` removes it. A value that would bring the domain near its
  /// platform's limit is kept in a file, and the domain holds a marker of it.
  public func setValue(_ value: PropertyListValue?, forKey key: String) {
    var stored = domainForm(of: value, forKey: key)
    let previous = kept == nil ? nil : domain.storedValue(forKey: key)
    write(stored, forKey: key)
    // Refused: the domain holds more than this backend counted (other code's or other processes'
    // values). Keep the value in a file, whose marker is small.
    if !finishWrite(stored, replacing: previous, forKey: key), let value,
      KeptValues.fileName(of: stored) == nil
    {
      stored = domainForm(of: value, forKey: key, inFile: true)
      if KeptValues.fileName(of: stored) != nil {
        write(stored, forKey: key)
        _ = finishWrite(stored, replacing: previous, forKey: key)
      }
    }
    announceChange()
  }

  private func write(_ stored: PropertyListValue?, forKey key: String) {
    beginWrite(stored, forKey: key)
    Self.$writer.withValue(ObjectIdentifier(self)) { domain.setStoredValue(stored, forKey: key) }
    endWrite(forKey: key)
  }

  // MARK: The size limit

  /// `raw`, as the domain holds it under `key`, with a marker replaced by the value of its file
  /// (`nil`, reported, when the file is gone or cannot be read now).
  private func resolved(_ raw: PropertyListValue?, forKey key: String) -> PropertyListValue? {
    switch resolution(raw, forKey: key) {
    case .value(let value): return value
    case .missing(let path):
      PreferenceDiagnostics.report(.keptValueMissing(key: key, store: location, path: path))
      return nil
    case .unreadable(let path, let reason):
      PreferenceDiagnostics.report(.readFailed(path: path, reason: reason))
      return nil
    }
  }

  private enum Resolution {
    case value(PropertyListValue?)
    case missing(path: String)
    case unreadable(path: String, reason: String)
  }

  /// What `raw` stands for. Another process may replace the value (and remove the file its
  /// marker named) between the marker's read and the file's: a missing file is looked for again
  /// under the marker the domain holds now, while that changes (a few times).
  private func resolution(_ raw: PropertyListValue?, forKey key: String) -> Resolution {
    guard let kept, var name = KeptValues.fileName(of: raw) else { return .value(raw) }
    for _ in 0..<4 {
      switch kept.read(name) {
      case .value(let value): return .value(value)
      case .unreadable(let reason): return .unreadable(path: kept.path(of: name), reason: reason)
      case .missing: break
      }
      let again = domain.storedValue(forKey: key)
      guard let next = KeptValues.fileName(of: again) else { return .value(again) }
      if next == name { break }
      name = next
    }
    return .missing(path: kept.path(of: name))
  }

  /// What the domain stores for `value`: the value, or the marker of the file it was kept in
  /// when it is large (``DomainSizeLimit/largeValue``) or would bring the domain to
  /// ``DomainSizeLimit/ceiling``. A file that cannot be written leaves the value to the domain,
  /// as a write without the library would.
  private func domainForm(of value: PropertyListValue?, forKey key: String, inFile: Bool = false)
    -> PropertyListValue?
  {
    guard let limit, let kept, let value else { return value }
    let size = DomainSizes.size(value, key)
    var others = sizes.withLock { $0.isMeasured ? $0.total(excluding: key) : nil }
    if others == nil {
      // Measured once, at the first write: the domain is read without the lock held.
      let values = domain.storedValues()
      let (total, first) = sizes.withLock { sizes in
        let first = !sizes.isMeasured
        if first { sizes.measure(values) }
        return (sizes.total(excluding: key), first)
      }
      others = total
      if first { kept.removeOrphans(keeping: Set(values.values.compactMap(KeptValues.fileName(of:)))) }
    }
    guard inFile || size >= limit.largeValue || (others ?? 0) + size >= limit.ceiling else { return value }
    do {
      let marker = try kept.keep(value, forKey: key)
      PreferenceDiagnostics.report(
        .valueKeptInFile(key: key, store: location, bytes: size, limit: limit.bytes))
      return marker
    } catch {
      PreferenceDiagnostics.report(
        error as? PreferenceError ?? .writeFailed(path: kept.directory.path, reason: "\(error)"))
      return value
    }
  }

  /// After a write of `stored` over `previous` under `key`; whether the domain holds `stored`.
  /// Where it does, removes the file a replaced marker named; where it does not (the platform
  /// refused the write, or another writer's value came after it), removes the file `stored`
  /// named instead, and measures the domain again. Counts the domain's size, and names its
  /// largest keys when it passes the warning threshold.
  @discardableResult
  private func finishWrite(
    _ stored: PropertyListValue?, replacing previous: PropertyListValue?, forKey key: String
  ) -> Bool {
    guard let limit else { return true }
    let current = domain.storedValue(forKey: key)
    let landed = current == stored
    if landed, let old = KeptValues.fileName(of: previous), old != KeptValues.fileName(of: stored) {
      kept?.remove(old)
    }
    if !landed, let unused = KeptValues.fileName(of: stored), unused != KeptValues.fileName(of: current) {
      kept?.remove(unused)
    }
    let values = landed ? nil : domain.storedValues()
    let warning = sizes.withLock { sizes -> (Int, [String])? in
      if let values {
        sizes.measure(values)
        sizes.warned = false
      }
      sizes.note(current, forKey: key)
      guard sizes.isMeasured, sizes.total >= limit.warning else {
        sizes.warned = false
        return nil
      }
      guard !sizes.warned else { return nil }
      sizes.warned = true
      return (sizes.total, sizes.largest(3))
    }
    if let (total, largest) = warning {
      PreferenceDiagnostics.report(
        .domainNearSizeLimit(store: location, bytes: total, limit: limit.bytes, largestKeys: largest))
    }
    return landed
  }

  /// The system says the domain passed its limit (tvOS): measures it again (other code's values
  /// count too) and names its largest keys.
  private func sizeLimitExceeded() {
    guard let limit else { return }
    let values = domain.storedValues()
    let (total, largest) = sizes.withLock { sizes in
      sizes.measure(values)
      sizes.warned = true
      return (sizes.total, sizes.largest(3))
    }
    PreferenceDiagnostics.report(
      .domainNearSizeLimit(store: location, bytes: total, limit: limit.bytes, largestKeys: largest))
  }

  /// Tells other processes of this library that the domain changed: once for any number of
  /// writes in a row, posted from a background queue, so that a burst of writes (a slider being
  /// dragged) costs the writing thread no message to the system per write. A write made after
  /// the scheduled announcement starts is announced again.
  private func announceChange() {
    guard domain.announcesChanges else { return }
    let schedule = announcementScheduled.withLock { scheduled in
      defer { scheduled = true }
      return !scheduled
    }
    guard schedule else { return }
    scheduleAnnouncement { [domain, announcementScheduled] in
      announcementScheduled.withLock { $0 = false }
      domain.announceChange()
    }
  }

  /// The bookkeeping before a write of `key`: a check that reads the domain meanwhile skips it.
  private func beginWrite(_ value: PropertyListValue?, forKey key: String) {
    let firstKey = state.withLock { state -> Bool in
      let first = state.seen.isEmpty
      state.writes += 1
      state.changedAt[key] = state.writes
      state.seen[key] = .some(value)
      state.writing[key, default: 0] += 1
      return first
    }
    // The first key in use: an active app now looks for other processes' writes.
    if firstKey { updatePolling() }
  }

  /// The bookkeeping after a write of `key`; `seen`, for a write that did not happen, is what
  /// the domain holds instead.
  private func endWrite(forKey key: String, seen: PropertyListValue?? = nil) {
    let recheck = state.withLock { state -> Bool in
      state.writes += 1
      state.changedAt[key] = state.writes
      if let seen { state.seen[key] = seen }
      if let count = state.writing[key], count > 1 {
        state.writing[key] = count - 1
        return false
      }
      state.writing[key] = nil
      return state.recheck.remove(key) != nil
    }
    if recheck { check([key]) }
  }

  /// Stores `value` only if `expected` is stored: one step on Linux (under the file's lock); on
  /// Apple platforms a read and a write of the domain, which another process can slip between.
  public func replaceValue(
    forKey key: String, ifEqualTo expected: PropertyListValue?, with value: PropertyListValue?
  ) -> Bool {
    // Where values may be kept in files, the domain is compared in its own form: the marker.
    let current: PropertyListValue?? = kept == nil ? nil : .some(domain.storedValue(forKey: key))
    if let current {
      // A value that cannot be read now is never taken for absent: nothing is replaced. (A file
      // that is gone holds nothing.)
      switch resolution(current, forKey: key) {
      case .value(let value): guard value == expected else { return false }
      case .missing: guard expected == nil else { return false }
      case .unreadable: return false
      }
    }
    let stored = domainForm(of: value, forKey: key)
    beginWrite(stored, forKey: key)
    let replaced = Self.$writer.withValue(ObjectIdentifier(self)) {
      domain.replaceStoredValue(forKey: key, ifEqualTo: current ?? expected, with: stored)
    }
    endWrite(forKey: key, seen: replaced ? .none : .some(domain.storedValue(forKey: key)))
    if replaced {
      finishWrite(stored, replacing: current ?? nil, forKey: key)
      announceChange()
    } else if let unused = KeptValues.fileName(of: stored) {
      kept?.remove(unused)
    }
    return replaced
  }

  /// Every stored value, by key (values kept in files read from them).
  public func allValues() -> [String: PropertyListValue] {
    let values = domain.storedValues()
    guard kept != nil else { return values }
    var resolvedValues: [String: PropertyListValue] = [:]
    for (key, value) in values { resolvedValues[key] = resolved(value, forKey: key) }
    return resolvedValues
  }

  /// Removes every stored value (a value kept in a file with its marker, whether or not the
  /// file can be read).
  public func removeAll() { removeAll(except: []) }

  /// Removes every stored value but those of `kept`, listed from the domain itself (so a value
  /// kept in a file that is gone goes with its marker).
  public func removeAll(except kept: Set<String>) {
    for key in domain.storedValues().keys where !kept.contains(key) { setValue(nil, forKey: key) }
  }

  /// Writes pending changes to durable storage, returning when they are there.
  public func flush() throws { try domain.flush() }

  /// Registers the defaults with `UserDefaults` too, so that code reading it directly sees them.
  /// (On Linux, swift-corelibs-foundation's registration domain is shared by every suite.)
  public func register(defaults values: [String: PropertyListValue]) {
    guard !values.isEmpty else { return }
    Self.$writer.withValue(ObjectIdentifier(self)) { domain.register(defaults: values) }
  }

  /// The value as this store keeps it and reads it back.
  public func storedForm(of value: PropertyListValue) -> PropertyListValue { domain.storedForm(of: value) }

  // MARK: Changes from outside

  /// Reports writes made by other code in this process and by other processes that announce
  /// them (through the domain's events, at once), and the changes a comparison of the keys in use
  /// finds: when the app becomes active, and while it is active (or, with no app lifecycle, while
  /// the store is observed), about once a second.
  ///
  /// This deliberately does not use KVO: keys with dots (the default `Type.property` scheme) are
  /// key paths to KVO, so they cannot be observed that way.
  public func startWatching(_ onChange: @escaping @Sendable (Set<String>) -> Void) {
    state.withLock { $0.onChange = onChange }
    domain.startEvents { [weak self] keys in self?.domainChanged(keys) }
    if limit != nil { domain.observeSizeLimitExceeded { [weak self] in self?.sizeLimitExceeded() } }
    let observation = activity?.observe { [weak self] active in
      guard let self else { return }
      // Back in front: whatever other processes wrote meanwhile is read now.
      if active { self.checkForOutsideWrites() }
      self.updatePolling()
    }
    let previous = state.withLock { state in
      defer { state.activityObservation = observation }
      return state.activityObservation
    }
    withExtendedLifetime(previous) {}
  }

  /// Stops reporting changes made outside this process.
  public func stopWatching() {
    domain.stopEvents()
    let stopped = state.withLock { state in
      state.onChange = nil
      defer {
        state.poller = nil
        state.activityObservation = nil
      }
      return (state.poller, state.activityObservation)
    }
    withExtendedLifetime(stopped) {}
  }

  /// Whether anything observes the store: with no app lifecycle, outside changes are compared
  /// only then.
  public func setObserved(_ observed: Bool) {
    state.withLock { $0.observed = observed }
    updatePolling()
  }

  /// Starts or stops the comparison of the keys in use: while the app is active and uses a key
  /// or is observed; with no app lifecycle, while the store is observed.
  private func updatePolling() {
    let active = activity?.isActive
    let (start, stop) = state.withLock { state -> (Bool, AnyObject?) in
      let wanted =
        active.map { $0 && (state.observed || !state.seen.isEmpty) } ?? state.observed
      if wanted == (state.poller != nil) { return (false, nil) }
      if wanted { return (true, nil) }
      defer { state.poller = nil }
      return (false, state.poller)
    }
    // Released outside the lock: cancelling a timer calls into Dispatch.
    withExtendedLifetime(stop) {}
    guard start else { return }
    let poller = makePoller(Self.pollInterval) { [weak self] in self?.checkForOutsideWrites() }
    let unused = state.withLock { state -> AnyObject? in
      guard state.poller == nil else { return poller }
      state.poller = poller
      return nil
    }
    withExtendedLifetime(unused) {}
  }

  /// Whether the backend is polling (only while its store is observed).
  var isPolling: Bool { state.withLock { $0.poller != nil } }

  private func domainChanged(_ keys: Set<String>?) {
    // The notification this backend's own write posts, synchronously, on this thread.
    if Self.writer == ObjectIdentifier(self) { return }
    check(keys)
  }

  /// Whether other code in this process can write the domain unheard (Linux: corelibs posts no
  /// change notification), so that the store asks ``checkBeforeReading(_:)`` before each read.
  var checksBeforeReading: Bool { !domain.hearsWritesInProcess }

  /// Looks for a write of `key` by other code in this process that no event reported, before a
  /// read of it: one comparison of what `UserDefaults` shows with what the domain expects. A
  /// write found is adopted (stored, persisted) and returned, not reported: the store drops it
  /// from its cache before the read goes on, and tells observers.
  func checkBeforeReading(_ key: String) -> Set<String> {
    if let changed = domain.poll(known: [key]), changed.isEmpty { return [] }
    return check([key], reporting: false)
  }

  /// ``checkBeforeReading(_:)`` for every key the domain or its `UserDefaults` shows, before a
  /// read of every value.
  func checkBeforeReadingAll() -> Set<String> {
    var known = Set(domain.storedValues().keys)
    known.formUnion(domain.userDefaults.dictionaryRepresentation().keys)
    known.formUnion(state.withLock { $0.seen.keys })
    return check(domain.poll(known: known), reporting: false)
  }

  /// Looks for the changes no event reports: what the poll runs while the store is observed.
  func checkForOutsideWrites() {
    let known = state.withLock { Set($0.seen.keys) }
    check(domain.poll(known: known))
  }

  /// Compares `keys` (every key in use if `nil`) with the domain and reports those that differ
  /// from what this backend last saw. The domain is read without the lock held; a key this
  /// backend writes meanwhile is skipped, since what was read may predate the write, and
  /// compared again when that write is done.
  @discardableResult
  func check(_ keys: Set<String>?, retrying: Bool = true, reporting: Bool = true) -> Set<String> {
    let (candidates, writes) = state.withLock { state -> ([String], UInt64) in
      state.events &+= 1
      return (keys.map(Array.init) ?? Array(state.seen.keys), state.writes)
    }
    guard !candidates.isEmpty else { return [] }
    let current = candidates.map { ($0, domain.storedValue(forKey: $0)) }
    let (changed, finished, onChange) = state.withLock {
      state -> (Set<String>, Set<String>, (@Sendable (Set<String>) -> Void)?) in
      var changed: Set<String> = []
      var finished: Set<String> = []
      for (key, value) in current {
        guard state.changedAt[key, default: 0] <= writes, state.writing[key] == nil else {
          if state.writing[key] != nil { state.recheck.insert(key) } else { finished.insert(key) }
          continue
        }
        if let seen = state.seen[key], seen == value { continue }
        state.seen[key] = .some(value)
        changed.insert(key)
      }
      return (changed, finished, state.onChange)
    }
    if limit != nil, !changed.isEmpty {
      sizes.withLock { sizes in
        for (key, value) in current where changed.contains(key) { sizes.note(value, forKey: key) }
      }
    }
    if reporting, !changed.isEmpty { onChange?(changed) }
    // Keys whose write started and ended while the domain was read: read them again, once.
    if retrying && !finished.isEmpty {
      return changed.union(check(finished, retrying: false, reporting: reporting))
    }
    return changed
  }
}
