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
/// tests. Each engine is one device; a write is delivered, asynchronously and in order as iCloud
/// does, to every other device's observer. ``waitUntilDelivered()`` waits for delivery.
public final class InMemoryRemoteStore: RemoteKeyValueStore {
  private struct State {
    var values: [String: PropertyListValue] = [:]
    var observers: [Int: @Sendable (Set<String>) -> Void] = [:]
    var next = 0
    var pending = 0
    var writes = 0
  }

  private let state = Locked(State())
  private let delivery = DispatchQueue(label: "swift-preferences.remote-delivery")
  public let limits: RemoteStoreLimits

  public init(limits: RemoteStoreLimits = .ubiquitousKeyValueStore) { self.limits = limits }

  public func value(forKey key: String) -> PropertyListValue? { state.withLock { $0.values[key] } }

  /// Stores a value as the device whose sync engine calls it: every other observer hears about it.
  public func setValue(_ value: PropertyListValue?, forKey key: String) {
    setValue(value, forKey: key, from: RemoteWriter.current)
  }

  /// Stores a value written by another device (or a test), notifying every observer but `writer`'s.
  public func setValue(_ value: PropertyListValue?, forKey key: String, from writer: Int?) {
    let observers = state.withLock { state -> [@Sendable (Set<String>) -> Void] in
      state.values[key] = value
      state.writes += 1
      let observers = state.observers.filter { $0.key != writer }.sorted { $0.key < $1.key }.map(\.value)
      state.pending += observers.count
      return observers
    }
    for observer in observers {
      delivery.async {
        observer([key])
        self.state.withLock { $0.pending -= 1 }
      }
    }
  }

  /// Waits until every change written so far, and every change those deliveries caused, has
  /// been delivered.
  public func waitUntilDelivered() {
    while state.withLock({ $0.pending }) > 0 { delivery.sync {} }
  }

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
      PreferenceObservation { [weak self] in self?.state.withLock { _ = $0.observers.removeValue(forKey: id) }
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
