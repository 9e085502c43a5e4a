import Foundation

/// Whether the device's protected data can be read: on iOS, data protected until first unlock
/// (UserDefaults among it) reads as absent in an app launched in the background before the
/// user first unlocks the device after a restart, or prewarmed.
///
/// Where a platform never locks data away, data is always available.
public protocol ProtectedDataSignal: AnyObject, Sendable {
  /// Whether protected data can be read now.
  var isAvailable: Bool { get }
  /// Calls `handler` once protected data has become available, on any thread, until the
  /// returned observation is released.
  func whenAvailable(_ handler: @escaping @Sendable () -> Void) -> PreferenceObservation
}

/// A backend that guards another one against the first-unlock and prewarm loss.
///
/// The library keeps a sentinel key in every store it writes. A store that shows no sentinel
/// while protected data is unavailable may be unreadable rather than empty: until protected
/// data becomes available, reads of it return nothing stored (so reads see registered
/// defaults), writes are held in memory and read back from there, a removal of every value is
/// remembered, and nothing is written to the store. When protected data becomes available, the
/// removal and then the held writes are applied (they are newer than what the store holds), the
/// sentinel is written, and every key read or written meanwhile is reported as changed, so that
/// caches, observers and views read the real values.
///
/// Writes made while the held ones are being applied are held too, and applied after them: the
/// newest write of a key is always the one that stays.
///
/// A write of a key that was read while the store was unreadable may be a read-modify-write of
/// the default the read returned (`launches += 1`): at unlock it is applied only where the store
/// holds no value for the key, and otherwise dropped and reported
/// (``PreferenceError/heldWriteConflicted(key:store:)``), so that it never replaces the real
/// value. A write of a key not read first is applied (it is the newest).
///
/// Held writes live in memory. A process ended before the unlock (suspended, then terminated)
/// loses them; so that this is never silent, the keys with held writes are listed in a small
/// record (`heldWritesRecord`, readable before the first unlock: it holds key names only, never
/// values), removed once they are applied, and a record found at the next start is reported
/// (``PreferenceError/heldWritesLost(keys:store:)``).
///
/// ``PreferenceStore/standard``, ``PreferenceStore/suite(_:)`` and
/// ``PreferenceStore/propertyList(at:format:)`` use it on the platforms that lock data away (a
/// file store's signal is its own file's readability, and it keeps no sentinel); the logic is the
/// same everywhere and is tested with stand-in signals.
public final class ProtectedDataBackend: PreferenceBackend {
  /// The key of the sentinel the library keeps in each store it writes.
  public static let sentinelKey = "_Preferences.readable"

  /// The guarded backend.
  public let base: any PreferenceBackend
  private let signal: any ProtectedDataSignal
  /// Whether the store keeps the sentinel (a UserDefaults store, whose emptiness cannot be told
  /// from unreadability) or its signal says it all (a file store, whose file fails to open).
  private let usesSentinel: Bool
  /// Where the keys of held writes are recorded while they are held.
  private let heldWritesRecord: URL?

  private enum Phase {
    /// The store may be unreadable: reads see only held writes.
    case locked
    /// Protected data is available and held writes are being applied: reads see the store with
    /// the held writes on top; writes are held and applied after those before them.
    case applying
    case open
  }

  private struct State {
    var phase: Phase
    /// Writes made while locked or applying, in effect on top of the store.
    var held: [String: PropertyListValue?] = [:]
    /// The keys a removal of every value kept, if one was made while locked or applying: the
    /// store is cleared of the rest before the held writes are applied.
    var removedAll: Set<String>?
    /// Keys read while locked: reported as changed at unlock.
    var touched: Set<String> = []
    /// Keys the app read while locked (not the store's own comparisons).
    var readByApp: Set<String> = []
    /// Keys first written after the app read them while locked: their held writes are applied
    /// only where the store holds nothing.
    var conditional: Set<String> = []
    var onChange: (@Sendable (Set<String>) -> Void)?
    var availability: PreferenceObservation?
  }
  private let state: Locked<State>

  /// Guards `base` with `signal`: a store that keeps the library's sentinel.
  public convenience init(_ base: any PreferenceBackend, signal: any ProtectedDataSignal) {
    self.init(base, signal: signal, usesSentinel: true, heldWritesRecord: nil)
  }

  /// Guards `base` with `signal`; `usesSentinel: false` when the signal tells whether the store
  /// itself is readable (a file store's); `heldWritesRecord`: where the keys of held writes are
  /// listed while held (see the type's description).
  init(
    _ base: any PreferenceBackend, signal: any ProtectedDataSignal, usesSentinel: Bool,
    heldWritesRecord: URL?
  ) {
    self.base = base
    self.signal = signal
    self.usesSentinel = usesSentinel
    self.heldWritesRecord = heldWritesRecord
    if let record = heldWritesRecord, let keys = Self.readRecord(record) {
      PreferenceDiagnostics.report(.heldWritesLost(keys: keys, store: base.location))
      try? FileManager.default.removeItem(at: record)
    }
    let available = signal.isAvailable
    let locked = !available && (!usesSentinel || base.value(forKey: Self.sentinelKey) == nil)
    state = Locked(State(phase: locked ? .locked : .open))
    if locked {
      let observation = signal.whenAvailable { [weak self] in self?.unlock() }
      state.withLock { $0.availability = observation }
      // Available between the check and the subscription.
      if signal.isAvailable { unlock() }
    } else if available {
      markReadable()
    }
  }

  /// Whether the store is treated as unreadable until protected data becomes available.
  public var isLocked: Bool { state.withLock { $0.phase == .locked } }

  /// Runs between applying one held write and the next, for tests that write there.
  @TaskLocal static var whileApplying: TestHook?

  private func markReadable() {
    guard usesSentinel else { return }
    if base.value(forKey: Self.sentinelKey) == nil { base.setValue(.bool(true), forKey: Self.sentinelKey) }
  }

  /// The keys a record lists, if there is one.
  private static func readRecord(_ record: URL) -> [String]? {
    guard let data = try? Data(contentsOf: record) else { return nil }
    let keys = String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
    return keys.isEmpty ? nil : keys.sorted()
  }

  /// Lists `keys` in the record (key names only), readable before the first unlock.
  private func writeRecord(_ keys: Set<String>) {
    guard let record = heldWritesRecord else { return }
    try? FileManager.default.createDirectory(
      at: record.deletingLastPathComponent(), withIntermediateDirectories: true)
    _ = FileManager.default.createFile(
      atPath: record.path, contents: Data(keys.sorted().joined(separator: "\n").utf8),
      attributes: Self.unprotected)
  }

  /// The file attributes of the record: no data protection, so that it can be written before
  /// the first unlock (on the platforms that lock data away; nothing elsewhere).
  /// `FileProtectionType.none` exists from iOS 4, tvOS 9, watchOS 2 and visionOS 1.
  static var unprotected: [FileAttributeKey: Any]? {
    #if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
      [.protectionKey: FileProtectionType.none]
    #else
      nil
    #endif
  }

  /// Protected data became available: apply the held removal and writes (and those made while
  /// they are applied), mark the store, report what changed. No lock is held while the store
  /// runs; the phase ends, under the lock, only when nothing is left to apply.
  private func unlock() {
    let touched = state.withLock { state -> Set<String>? in
      guard state.phase == .locked else { return nil }
      state.phase = .applying
      defer { state.touched = [] }
      return state.touched
    }
    guard let touched else { return }
    // A store that could not be read when it was opened (a file store) reads itself now.
    (base as? any ReloadsAfterUnlock)?.reloadAfterUnlock()
    var changed = touched
    while true {
      let batch = state.withLock {
        state -> (removedAll: Set<String>?, held: [String: PropertyListValue?], conditional: Set<String>)? in
        if state.held.isEmpty && state.removedAll == nil {
          state.phase = .open
          return nil
        }
        defer {
          state.held = [:]
          state.removedAll = nil
          state.conditional = []
        }
        return (state.removedAll, state.held, state.conditional)
      }
      guard let batch else { break }
      if let kept = batch.removedAll {
        let removed = Set(base.allValues().keys).subtracting(kept).subtracting([Self.sentinelKey])
        base.removeAll(except: kept.union([Self.sentinelKey]))
        changed.formUnion(removed)
      }
      for (key, value) in batch.held.sorted(by: { $0.key < $1.key }) {
        if batch.conditional.contains(key) {
          // Written after reading a default: never over a value the store holds.
          if !base.replaceValue(forKey: key, ifEqualTo: nil, with: value) {
            PreferenceDiagnostics.report(.heldWriteConflicted(key: key, store: base.location))
          }
        } else {
          base.setValue(value, forKey: key)
        }
        changed.insert(key)
        Self.whileApplying?()
      }
    }
    if let record = heldWritesRecord { try? FileManager.default.removeItem(at: record) }
    markReadable()
    changed.formUnion(base.allValues().keys)
    changed.remove(Self.sentinelKey)
    let (onChange, observation) = state.withLock { state in
      defer { state.availability = nil }
      return (state.onChange, state.availability)
    }
    withExtendedLifetime(observation) {}
    if !changed.isEmpty { onChange?(changed) }
  }

  /// What the held writes say `key` is, if they say anything; `.some(nil)` for "not stored".
  /// Call with the lock held.
  private static func overlay(_ state: inout State, _ key: String) -> PropertyListValue?? {
    switch state.phase {
    case .open:
      return nil
    case .locked:
      state.touched.insert(key)
      if !PreferenceStore.readingForBookkeeping { state.readByApp.insert(key) }
      return .some(state.held[key] ?? nil)
    case .applying:
      if let held = state.held[key] { return .some(held) }
      if let kept = state.removedAll, !kept.contains(key) { return .some(nil) }
      return nil
    }
  }

  // MARK: PreferenceBackend

  /// The value stored under `key`, if any.
  public func value(forKey key: String) -> PropertyListValue? {
    let overlay = state.withLock { Self.overlay(&$0, key) }
    if let overlay { return overlay }
    return key == Self.sentinelKey ? nil : base.value(forKey: key)
  }

  /// Stores `value` under `key`; `nil` removes it.
  public func setValue(_ value: PropertyListValue?, forKey key: String) {
    let (held, record) = state.withLock { state -> (Bool, Set<String>?) in
      guard state.phase != .open else { return (false, nil) }
      let new = state.held[key] == nil
      if new && state.phase == .locked && state.readByApp.contains(key) { state.conditional.insert(key) }
      state.held[key] = .some(value)
      return (true, new ? Set(state.held.keys) : nil)
    }
    if let record { writeRecord(record) }
    if !held { base.setValue(value, forKey: key) }
  }

  /// Stores `value` only if `expected` is stored: on the held writes while they are in effect,
  /// in the guarded store otherwise.
  public func replaceValue(
    forKey key: String, ifEqualTo expected: PropertyListValue?, with value: PropertyListValue?
  ) -> Bool {
    let decided = state.withLock { state -> Bool? in
      guard state.phase != .open else { return nil }
      let current: PropertyListValue?
      switch Self.overlay(&state, key) {
      case .some(let overlaid): current = overlaid
      // Applying, and nothing held for the key: the store's value counts; decided below.
      case .none: return nil
      }
      guard current == expected else { return false }
      state.held[key] = .some(value)
      return true
    }
    if let decided { return decided }
    return base.replaceValue(forKey: key, ifEqualTo: expected, with: value)
  }

  /// Every stored value, by key.
  public func allValues() -> [String: PropertyListValue] {
    let overlay = state.withLock {
      state -> (held: [String: PropertyListValue?], removedAll: Set<String>?, locked: Bool)? in
      state.phase == .open ? nil : (state.held, state.removedAll, state.phase == .locked)
    }
    var values: [String: PropertyListValue] = [:]
    if let overlay, overlay.locked {
      values = overlay.held.compactMapValues { $0 }
    } else {
      values = base.allValues()
      if let overlay {
        if let kept = overlay.removedAll { values = values.filter { kept.contains($0.key) } }
        for (key, value) in overlay.held { values[key] = value }
      }
    }
    values[Self.sentinelKey] = nil
    return values
  }

  /// Removes every stored value.
  public func removeAll() { removeAll(except: []) }

  /// Removes every stored value but those under `kept`: while the store may be unreadable, the
  /// removal is remembered and made, before the writes held after it, once it is readable.
  public func removeAll(except kept: Set<String>) {
    let held = state.withLock { state -> Bool in
      guard state.phase != .open else { return false }
      state.removedAll = state.removedAll.map { $0.intersection(kept) } ?? kept
      state.held = state.held.filter { kept.contains($0.key) }
      return true
    }
    guard !held else { return }
    base.removeAll(except: kept.union([Self.sentinelKey]))
  }
  /// Writes pending changes to durable storage, returning when they are there.
  public func flush() throws { try base.flush() }
  /// Where the values live, for diagnostics.
  public var location: String { base.location }

  /// Reports changes made outside this process to `handler`.
  public func startWatching(_ onChange: @escaping @Sendable (Set<String>) -> Void) {
    state.withLock { $0.onChange = onChange }
    base.startWatching(onChange)
  }

  /// Stops reporting changes made outside this process.
  public func stopWatching() {
    state.withLock { $0.onChange = nil }
    base.stopWatching()
  }

  /// Whether anything observes the store: outside changes are watched for only then.
  public func setObserved(_ observed: Bool) { base.setObserved(observed) }
  /// Registers default values, read for keys nothing is stored under.
  public func register(defaults: [String: PropertyListValue]) { base.register(defaults: defaults) }
  /// The value as this store keeps it and reads it back.
  public func storedForm(of value: PropertyListValue) -> PropertyListValue { base.storedForm(of: value) }
}

/// A backend that may have failed to read its storage while it was locked away, and reads it
/// again when ``ProtectedDataBackend`` learns that it is readable.
protocol ReloadsAfterUnlock: PreferenceBackend {
  func reloadAfterUnlock()
}
