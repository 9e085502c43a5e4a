import Foundation

/// A key-value store shared between devices, such as `NSUbiquitousKeyValueStore`, that
/// ``PreferenceSync`` mirrors preferences to.
public protocol RemoteKeyValueStore: AnyObject, Sendable {
  /// The value stored under `key`.
  func value(forKey key: String) -> PropertyListValue?
  /// Stores `value` under `key`, or removes it when `value` is `nil`.
  func setValue(_ value: PropertyListValue?, forKey key: String)
  /// Calls `handler` with each change the store did not make itself (another device's write, the
  /// first download, an account change, a quota violation), until the returned observation is
  /// released.
  func observeChanges(_ handler: @escaping @Sendable (RemoteChange) -> Void) -> PreferenceObservation
  /// Asks the store to synchronize with its server; `false` when it cannot (for iCloud: no
  /// key-value entitlement, or no account).
  func synchronize() -> Bool
  /// The store's quotas.
  var limits: RemoteStoreLimits { get }
  /// The number of keys and bytes currently stored, to check quotas before a write.
  func usage() -> (keys: Int, bytes: Int)
}

extension RemoteKeyValueStore {
  /// Stores that need no synchronization report that they can sync.
  public func synchronize() -> Bool { true }
}

/// A change of a ``RemoteKeyValueStore`` that it did not make itself, with its reason
/// (`NSUbiquitousKeyValueStoreChangeReasonKey` for iCloud).
public struct RemoteChange: Sendable, Equatable {
  /// Why the store's values changed.
  public enum Reason: Sendable, Equatable {
    /// Another device wrote the keys.
    case serverChange
    /// The first download from the server: values written on this device before it may have
    /// been replaced by the server's (iCloud discards them).
    case initialSyncChange
    /// The store is over its quota; the keys' values were not all stored.
    case quotaViolation
    /// The user signed in to another account (or out): the store now holds that account's
    /// values.
    case accountChange
  }

  /// Why the values changed.
  public var reason: Reason
  /// The keys whose values changed.
  public var keys: Set<String>

  /// A change of `keys`, for `reason`.
  public init(reason: Reason, keys: Set<String>) {
    self.reason = reason
    self.keys = keys
  }
}

/// Quotas of a remote key-value store.
public struct RemoteStoreLimits: Sendable, Equatable {
  /// Most keys the store holds.
  public var maximumKeys: Int
  /// Most bytes of keys and values in total.
  public var maximumTotalBytes: Int
  /// Longest key, in UTF-8 bytes.
  public var maximumKeyBytes: Int

  /// Limits of a store holding at most `maximumKeys` keys and `maximumTotalBytes` bytes, with keys of
  /// at most `maximumKeyBytes` bytes.
  public init(maximumKeys: Int, maximumTotalBytes: Int, maximumKeyBytes: Int) {
    self.maximumKeys = maximumKeys
    self.maximumTotalBytes = maximumTotalBytes
    self.maximumKeyBytes = maximumKeyBytes
  }

  /// `NSUbiquitousKeyValueStore`: 1,024 keys, 1 MB in total, 64-byte keys.
  public static let ubiquitousKeyValueStore = RemoteStoreLimits(
    maximumKeys: 1024, maximumTotalBytes: 1_000_000, maximumKeyBytes: 64)

  /// No quotas.
  public static let unlimited = RemoteStoreLimits(
    maximumKeys: .max, maximumTotalBytes: .max, maximumKeyBytes: .max)
}

/// A remote store in memory, shared by several ``PreferenceSync`` engines to simulate devices in
/// tests. Each engine is one device; a write is delivered, in order as iCloud does, to every
/// other device's observer: asynchronously (``Delivery/automatic``, then
/// ``waitUntilDelivered()``), or one notification at a time when the test says so
/// (``Delivery/manual``, then ``deliverNext(to:)``), to explore interleavings deterministically.
///
/// It also reproduces what iCloud documents beyond plain writes: the first download replacing
/// everything written before it (``simulateInitialSync(_:)``), an account change
/// (``simulateAccountChange(_:)``), a quota violation (``simulateQuotaViolation(keys:)``, and a
/// write over the server's quota dropped, ``serverQuotaBytes``), and a missing entitlement
/// (``isAvailable``).
public final class InMemoryRemoteStore: RemoteKeyValueStore {
  /// How notifications reach observers.
  public enum Delivery: Sendable {
    /// On a background queue, in order.
    case automatic
    /// Queued until the test calls ``InMemoryRemoteStore/deliverNext(to:)``.
    case manual
  }

  private struct Observer {
    var handler: @Sendable (RemoteChange) -> Void
    /// The engine acting when it registered (see `RemoteWriter`): its writes are not reported.
    var writer: Int?
  }

  private struct Notification {
    var observer: Int
    var change: RemoteChange
  }

  private struct State {
    var values: [String: PropertyListValue] = [:]
    var observers: [Int: Observer] = [:]
    var available = true
    var next = 0
    var pending = 0
    var queued: [Notification] = []
    var writes = 0
    var serverQuotaBytes: Int?
    var synchronizations = 0
    var usageReads = 0
  }

  private let state = Locked(State())
  private let delivery = DispatchQueue(label: "swift-preferences.remote-delivery")
  /// The store's limits on keys and sizes.
  public let limits: RemoteStoreLimits
  /// How notifications are delivered.
  public let deliveryMode: Delivery

  /// An empty store with `limits`, delivering change notifications as `delivery` says.
  public init(limits: RemoteStoreLimits = .ubiquitousKeyValueStore, delivery: Delivery = .automatic) {
    self.limits = limits
    self.deliveryMode = delivery
  }

  /// The value stored under `key`, if any.
  public func value(forKey key: String) -> PropertyListValue? { state.withLock { $0.values[key] } }

  /// Stores a value as the device whose sync engine calls it: every other observer hears about it.
  public func setValue(_ value: PropertyListValue?, forKey key: String) {
    setValue(value, forKey: key, from: RemoteWriter.current)
  }

  /// Stores a value written by `writer` (another device, or a test: `nil`), notifying every
  /// observer but those `writer` registered.
  public func setValue(_ value: PropertyListValue?, forKey key: String, from writer: Int?) {
    let (observers, dropped) = state.withLock { state -> ([(Int, @Sendable (RemoteChange) -> Void)], Bool) in
      // Over the server's quota, iCloud drops the write and tells the writing app.
      if let quota = state.serverQuotaBytes {
        var values = state.values
        values[key] = value
        if Self.bytes(of: values) > quota {
          let writers = state.observers.filter { writer == nil || $0.value.writer == writer }.sorted {
            $0.key < $1.key
          }
          return (writers.map { ($0.key, $0.value.handler) }, true)
        }
      }
      state.values[key] = value
      state.writes += 1
      return (
        state.observers.filter { writer == nil || $0.value.writer != writer }.sorted { $0.key < $1.key }
          .map { ($0.key, $0.value.handler) }, false
      )
    }
    post(RemoteChange(reason: dropped ? .quotaViolation : .serverChange, keys: [key]), to: observers)
  }

  private static func bytes(of values: [String: PropertyListValue]) -> Int {
    values.reduce(0) { $0 + $1.key.utf8.count + $1.value.approximateByteCount }
  }

  /// The quota the server enforces, which may be lower than ``limits`` say (the engine checks
  /// ``limits`` first): a write that would pass it is dropped, and its writer hears a
  /// ``RemoteChange/Reason/quotaViolation``. `nil`: none.
  public var serverQuotaBytes: Int? {
    get { state.withLock { $0.serverQuotaBytes } }
    set { state.withLock { $0.serverQuotaBytes = newValue } }
  }

  /// Delivers `change` to `observers`, as the delivery mode says.
  private func post(_ change: RemoteChange, to observers: [(Int, @Sendable (RemoteChange) -> Void)]) {
    let now = state.withLock { state -> [(Int, @Sendable (RemoteChange) -> Void)] in
      if deliveryMode == .manual {
        state.queued += observers.map { Notification(observer: $0.0, change: change) }
        return []
      }
      state.pending += observers.count
      return observers
    }
    for (_, observer) in now {
      delivery.async {
        observer(change)
        self.state.withLock { $0.pending -= 1 }
      }
    }
  }

  private var allObservers: [(Int, @Sendable (RemoteChange) -> Void)] {
    state.withLock { $0.observers.sorted { $0.key < $1.key }.map { ($0.key, $0.value.handler) } }
  }

  /// The first download from the server, as iCloud does it: the server's `values` replace
  /// everything this store holds, discarding every write made before it, and every observer hears
  /// an ``RemoteChange/Reason/initialSyncChange`` naming the keys the server holds (not the
  /// discarded ones).
  public func simulateInitialSync(_ values: [String: PropertyListValue?]) {
    state.withLock { state in
      state.values = values.compactMapValues { $0 }
    }
    post(RemoteChange(reason: .initialSyncChange, keys: Set(values.keys)), to: allObservers)
  }

  /// The user switched iCloud accounts: the store holds the new account's `values` and nothing
  /// else, and every observer hears an ``RemoteChange/Reason/accountChange``.
  public func simulateAccountChange(_ values: [String: PropertyListValue]) {
    let keys = state.withLock { state -> Set<String> in
      let keys = Set(state.values.keys).union(values.keys)
      state.values = values
      return keys
    }
    post(RemoteChange(reason: .accountChange, keys: keys), to: allObservers)
  }

  /// The store is over its quota; every observer hears a ``RemoteChange/Reason/quotaViolation``.
  public func simulateQuotaViolation(keys: Set<String>) {
    post(RemoteChange(reason: .quotaViolation, keys: keys), to: allObservers)
  }

  /// Whether ``synchronize()`` succeeds; `false` simulates an app without the iCloud key-value
  /// entitlement, or a device without an account.
  public var isAvailable: Bool {
    get { state.withLock { $0.available } }
    set { state.withLock { $0.available = newValue } }
  }

  /// Asks the store to exchange changes with iCloud; `false` when it cannot sync.
  public func synchronize() -> Bool {
    state.withLock { state in
      state.synchronizations += 1
      return state.available
    }
  }

  /// How many times ``synchronize()`` was called, for tests.
  public var synchronizeCount: Int { state.withLock { $0.synchronizations } }

  /// How many times ``usage()`` was called, for tests.
  public var usageReadCount: Int { state.withLock { $0.usageReads } }

  /// Waits until every change written so far, and every change those deliveries caused, has
  /// been delivered (automatic delivery).
  public func waitUntilDelivered() {
    while state.withLock({ $0.pending }) > 0 { delivery.sync {} }
  }

  /// The observers with queued notifications, in queue order (manual delivery).
  public var queuedObservers: [Int] { state.withLock { $0.queued.map(\.observer) } }

  /// Delivers the oldest queued notification for `observer` (any observer if `nil`), on this
  /// thread; returns `false` if there was none. Notifications for cancelled observers are dropped.
  @discardableResult
  public func deliverNext(to observer: Int? = nil) -> Bool {
    let due = state.withLock { state -> (@Sendable (RemoteChange) -> Void, RemoteChange)? in
      while let index = state.queued.firstIndex(where: { observer == nil || $0.observer == observer }) {
        let notification = state.queued.remove(at: index)
        if let observer = state.observers[notification.observer] {
          return (observer.handler, notification.change)
        }
      }
      return nil
    }
    guard let (handler, change) = due else { return false }
    handler(change)
    return true
  }

  /// Delivers queued notifications until none is left (manual delivery).
  public func deliverAll() { while deliverNext() {} }

  /// Calls `handler` with each change another device (or iCloud) makes. As iCloud does not tell
  /// a device of its own writes, an observer registered while a sync engine is writing (see
  /// `RemoteWriter`) is not told of that engine's writes: each engine is a device.
  public func observeChanges(_ handler: @escaping @Sendable (RemoteChange) -> Void) -> PreferenceObservation {
    let writer = RemoteWriter.current
    let id = state.withLock { state in
      defer { state.next += 1 }
      state.observers[state.next] = Observer(handler: handler, writer: writer)
      return state.next
    }
    return PreferenceObservation { [weak self] in
      self?.state.withLock { state in
        state.observers[id] = nil
        state.queued.removeAll { $0.observer == id }
      }
    }
  }

  /// How many keys and bytes the store holds.
  public func usage() -> (keys: Int, bytes: Int) {
    state.withLock { state in
      state.usageReads += 1
      return (state.values.count, Self.bytes(of: state.values))
    }
  }

  /// How many writes the store has received, for tests.
  public var writeCount: Int { state.withLock { $0.writes } }

  /// Every value, for tests.
  public func allValues() -> [String: PropertyListValue] { state.withLock { $0.values } }
}

/// Which sync engine is acting on this thread (writing, or registering its observer): the
/// device a store simulating several devices (``InMemoryRemoteStore``) attributes the act to, so
/// that, as with iCloud, a device is not told of its own writes. A real store ignores it.
enum RemoteWriter {
  @TaskLocal static var current: Int?

  private static let tokens = Locked(0)

  /// A writer identity no other engine in the process has.
  static func newToken() -> Int {
    tokens.withLock { next in
      defer { next += 1 }
      return next
    }
  }
}

extension PropertyListValue {
  /// The bytes this value takes, roughly as a key-value store counts them.
  var approximateByteCount: Int {
    switch self {
    case .bool: 1
    case .integer, .unsignedInteger, .double, .date: 8
    case .string(let text): text.utf8.count
    case .data(let data): data.count
    case .array(let values): values.reduce(0) { $0 + $1.approximateByteCount }
    case .dictionary(let values): values.reduce(0) { $0 + $1.key.utf8.count + $1.value.approximateByteCount }
    }
  }
}
