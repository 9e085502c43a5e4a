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
/// defaults), writes are held in memory and read back from there, and nothing is written to
/// the store. When protected data becomes available, the held writes are applied (they are
/// newer than what the store holds), the sentinel is written, and every key read or written
/// meanwhile is reported as changed, so that caches, observers and views read the real values.
///
/// ``PreferenceStore/standard`` and ``PreferenceStore/suite(_:)`` use it on the platforms that
/// lock data away; the logic is the same everywhere and is tested with a stand-in signal.
public final class ProtectedDataBackend: PreferenceBackend {
  /// The key of the sentinel the library keeps in each store it writes.
  public static let sentinelKey = "_Preferences.readable"

  /// The guarded backend.
  public let base: any PreferenceBackend
  private let signal: any ProtectedDataSignal

  private struct State {
    var locked: Bool
    /// Writes made while locked, applied when protected data becomes available.
    var held: [String: PropertyListValue?] = [:]
    /// Keys read while locked: reported as changed at unlock.
    var touched: Set<String> = []
    var onChange: (@Sendable (Set<String>) -> Void)?
    var availability: PreferenceObservation?
  }
  private let state: Locked<State>

  /// Guards `base` with `signal`.
  public init(_ base: any PreferenceBackend, signal: any ProtectedDataSignal) {
    self.base = base
    self.signal = signal
    let available = signal.isAvailable
    let locked = !available && base.value(forKey: Self.sentinelKey) == nil
    state = Locked(State(locked: locked))
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
  public var isLocked: Bool { state.withLock { $0.locked } }

  private func markReadable() {
    if base.value(forKey: Self.sentinelKey) == nil { base.setValue(.bool(true), forKey: Self.sentinelKey) }
  }

  /// Protected data became available: apply held writes, mark the store, report what changed.
  private func unlock() {
    let taken = state.withLock { state -> (held: [String: PropertyListValue?], touched: Set<String>)? in
      guard state.locked else { return nil }
      state.locked = false
      defer {
        state.held = [:]
        state.touched = []
      }
      return (state.held, state.touched)
    }
    guard let taken else { return }
    for (key, value) in taken.held { base.setValue(value, forKey: key) }
    markReadable()
    let keys = taken.touched.union(taken.held.keys).union(base.allValues().keys).subtracting([
      Self.sentinelKey
    ])
    let (onChange, observation) = state.withLock { state in
      defer { state.availability = nil }
      return (state.onChange, state.availability)
    }
    withExtendedLifetime(observation) {}
    if !keys.isEmpty { onChange?(keys) }
  }

  // MARK: PreferenceBackend

  /// The value stored under `key`, if any.
  public func value(forKey key: String) -> PropertyListValue? {
    let overlay = state.withLock { state -> PropertyListValue?? in
      guard state.locked else { return nil }
      state.touched.insert(key)
      return .some(state.held[key] ?? nil)
    }
    if let overlay { return overlay }
    return key == Self.sentinelKey ? nil : base.value(forKey: key)
  }

  /// Stores `value` under `key`; `nil` removes it.
  public func setValue(_ value: PropertyListValue?, forKey key: String) {
    let held = state.withLock { state -> Bool in
      guard state.locked else { return false }
      state.held[key] = .some(value)
      return true
    }
    if !held { base.setValue(value, forKey: key) }
  }

  /// Every stored value, by key.
  public func allValues() -> [String: PropertyListValue] {
    let held = state.withLock { $0.locked ? $0.held : nil }
    if let held { return held.compactMapValues { $0 } }
    var values = base.allValues()
    values[Self.sentinelKey] = nil
    return values
  }

  /// Removes every stored value.
  public func removeAll() {
    let locked = state.withLock { state -> Bool in
      guard state.locked else { return false }
      for key in state.held.keys { state.held[key] = .some(nil) }
      return true
    }
    guard !locked else { return }
    for key in allValues().keys { base.setValue(nil, forKey: key) }
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
