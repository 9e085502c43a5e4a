#if canImport(Darwin)
  import Foundation

  /// iCloud's key-value store as a ``RemoteKeyValueStore`` for ``PreferenceSync``.
  ///
  /// Requires the iCloud key-value storage entitlement; without it ``synchronize()`` returns
  /// `false`, which ``PreferenceSync`` reports once. Changes arrive through
  /// `NSUbiquitousKeyValueStore.didChangeExternallyNotification`, with their reason
  /// (`NSUbiquitousKeyValueStoreChangeReasonKey`) and keys. `NSUbiquitousKeyValueStore` exists on
  /// iOS 5, macOS 10.7, tvOS 9, visionOS 1 and watchOS 9 (this package requires watchOS 10).
  public final class UbiquitousKeyValueStore: RemoteKeyValueStore {
    /// Held in a `Locked` so that this class is `Sendable` whether or not the SDK marks the type
    /// `Sendable`; NSUbiquitousKeyValueStore is documented as thread-safe, and the lock is held
    /// only to read the reference, never while the store runs.
    private let box: Locked<NSUbiquitousKeyValueStore>
    private var store: NSUbiquitousKeyValueStore { box.withLock { $0 } }

    /// A remote store backed by `store`.
    public init(_ store: NSUbiquitousKeyValueStore = .default) {
      self.box = Locked(store)
    }

    /// Asks the store to exchange changes with iCloud; `false` when it cannot sync.
    public func synchronize() -> Bool { store.synchronize() }

    /// The store's limits on keys and sizes.
    public var limits: RemoteStoreLimits { .ubiquitousKeyValueStore }

    /// The value stored under `key`, if any.
    public func value(forKey key: String) -> PropertyListValue? {
      store.object(forKey: key).flatMap(PropertyListValue.init(foundationObject:))
    }

    /// Stores `value` under `key`; `nil` removes it.
    public func setValue(_ value: PropertyListValue?, forKey key: String) {
      if let value { store.set(value.foundationObject, forKey: key) } else { store.removeObject(forKey: key) }
    }

    /// How many keys and bytes the store holds.
    public func usage() -> (keys: Int, bytes: Int) {
      let values = store.dictionaryRepresentation.compactMapValues(PropertyListValue.init(foundationObject:))
      return (values.count, values.reduce(0) { $0 + $1.key.utf8.count + $1.value.approximateByteCount })
    }

    /// Calls `handler` with each change another device (or iCloud) makes.
    ///
    /// Apple's documentation of `didChangeExternallyNotification` (iOS 5, macOS 10.7, tvOS 9,
    /// watchOS 2, visionOS 1) names no thread; with `queue: nil` the handler runs on whichever
    /// thread posts it, so ``PreferenceSync`` takes changes on any thread (the Linux stand-in,
    /// `InMemoryRemoteStore`, delivers them on a background queue).
    public func observeChanges(_ handler: @escaping @Sendable (RemoteChange) -> Void) -> PreferenceObservation
    {
      let token = NotificationCenter.default.addObserver(
        forName: NSUbiquitousKeyValueStore.didChangeExternallyNotification, object: store, queue: nil
      ) { notification in
        let keys = notification.userInfo?[NSUbiquitousKeyValueStoreChangedKeysKey] as? [String] ?? []
        let code = notification.userInfo?[NSUbiquitousKeyValueStoreChangeReasonKey] as? Int
        handler(RemoteChange(reason: Self.reason(code), keys: Set(keys)))
      }
      let observer = Locked<any NSObjectProtocol>(token)
      return PreferenceObservation { NotificationCenter.default.removeObserver(observer.withLock { $0 }) }
    }

    /// The documented reasons: `NSUbiquitousKeyValueStoreServerChange`,
    /// `…InitialSyncChange`, `…QuotaViolationChange`, `…AccountChange`.
    static func reason(_ code: Int?) -> RemoteChange.Reason {
      switch code {
      case NSUbiquitousKeyValueStoreInitialSyncChange: .initialSyncChange
      case NSUbiquitousKeyValueStoreQuotaViolationChange: .quotaViolation
      case NSUbiquitousKeyValueStoreAccountChange: .accountChange
      default: .serverChange
      }
    }
  }
#endif
