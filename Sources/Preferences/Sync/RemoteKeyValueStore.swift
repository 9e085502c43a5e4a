import Foundation

/// A key-value store shared between devices, such as `NSUbiquitousKeyValueStore`, that
/// ``PreferenceSync`` mirrors preferences to.
public protocol RemoteKeyValueStore: AnyObject, Sendable {
  /// The value stored under `key`.
  func value(forKey key: String) -> PropertyListValue?
  /// Stores `value` under `key`, or removes it when `value` is `nil`.
  func setValue(_ value: PropertyListValue?, forKey key: String)
  /// Calls `handler` with the keys changed by other devices, until the returned observation is
  /// released.
  func observeExternalChanges(_ handler: @escaping @Sendable (Set<String>) -> Void) -> PreferenceObservation
  /// The store's quotas.
  var limits: RemoteStoreLimits { get }
  /// The number of keys and bytes currently stored, to check quotas before a write.
  func usage() -> (keys: Int, bytes: Int)
}

/// Quotas of a remote key-value store.
public struct RemoteStoreLimits: Sendable, Equatable {
  /// Most keys the store holds.
  public var maximumKeys: Int
  /// Most bytes of keys and values in total.
  public var maximumTotalBytes: Int
  /// Longest key, in UTF-8 bytes.
  public var maximumKeyBytes: Int

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
/// (``Delivery/manual``, then ``deliverNext()``), to explore interleavings deterministically.
public final class InMemoryRemoteStore: RemoteKeyValueStore {
  /// How notifications reach observers.
  public enum Delivery: Sendable {
    /// On a background queue, in order.
    case automatic
    /// Queued until the test calls ``InMemoryRemoteStore/deliverNext()``.
    case manual
  }

  private struct Notification {
    var observer: Int
    var keys: Set<String>
  }

  private struct State {
    var values: [String: PropertyListValue] = [:]
    var observers: [Int: @Sendable (Set<String>) -> Void] = [:]
    var next = 0
    var pending = 0
    var queued: [Notification] = []
    var writes = 0
  }

  private let state = Locked(State())
  private let delivery = DispatchQueue(label: "swift-preferences.remote-delivery")
  public let limits: RemoteStoreLimits
  /// How notifications are delivered.
  public let deliveryMode: Delivery

  public init(limits: RemoteStoreLimits = .ubiquitousKeyValueStore, delivery: Delivery = .automatic) {
    self.limits = limits
    self.deliveryMode = delivery
  }

  public func value(forKey key: String) -> PropertyListValue? { state.withLock { $0.values[key] } }

  /// Stores a value as the device whose sync engine calls it: every other observer hears about it.
  public func setValue(_ value: PropertyListValue?, forKey key: String) {
    setValue(value, forKey: key, from: RemoteWriter.current)
  }

  /// Stores a value written by another device (or a test), notifying every observer but `writer`'s.
  public func setValue(_ value: PropertyListValue?, forKey key: String, from writer: Int?) {
    let observers = state.withLock { state -> [(Int, @Sendable (Set<String>) -> Void)] in
      state.values[key] = value
      state.writes += 1
      let observers = state.observers.filter { $0.key != writer }.sorted { $0.key < $1.key }
      if deliveryMode == .manual {
        state.queued += observers.map { Notification(observer: $0.key, keys: [key]) }
        return []
      }
      state.pending += observers.count
      return observers.map { ($0.key, $0.value) }
    }
    for (_, observer) in observers {
      delivery.async {
        observer([key])
        self.state.withLock { $0.pending -= 1 }
      }
    }
  }

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
    let due = state.withLock { state -> (@Sendable (Set<String>) -> Void, Set<String>)? in
      while let index = state.queued.firstIndex(where: { observer == nil || $0.observer == observer }) {
        let notification = state.queued.remove(at: index)
        if let handler = state.observers[notification.observer] { return (handler, notification.keys) }
      }
      return nil
    }
    guard let (handler, keys) = due else { return false }
    handler(keys)
    return true
  }

  /// Delivers queued notifications until none is left (manual delivery).
  public func deliverAll() { while deliverNext() {} }

  public func observeExternalChanges(_ handler: @escaping @Sendable (Set<String>) -> Void)
    -> PreferenceObservation
  {
    register(handler).1
  }

  /// The observer identity of the engine currently writing, so it is not told of its own write.
  func register(_ handler: @escaping @Sendable (Set<String>) -> Void) -> (Int, PreferenceObservation) {
    let id = state.withLock { state in
      defer { state.next += 1 }
      state.observers[state.next] = handler
      return state.next
    }
    return (
      id,
      PreferenceObservation { [weak self] in
        self?.state.withLock { state in
          state.observers[id] = nil
          state.queued.removeAll { $0.observer == id }
        }
      }
    )
  }

  public func usage() -> (keys: Int, bytes: Int) {
    state.withLock { state in
      (state.values.count, state.values.reduce(0) { $0 + $1.key.utf8.count + $1.value.approximateByteCount })
    }
  }

  /// How many writes the store has received, for tests.
  public var writeCount: Int { state.withLock { $0.writes } }

  /// Every value, for tests.
  public func allValues() -> [String: PropertyListValue] { state.withLock { $0.values } }
}

/// Which engine is writing on this thread; lets ``InMemoryRemoteStore`` skip the writer's own
/// observer, as iCloud does not notify the device that made a change.
enum RemoteWriter {
  @TaskLocal static var current: Int?
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
