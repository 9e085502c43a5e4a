#if canImport(Darwin) && !os(watchOS)
  import Foundation

  /// iCloud's key-value store as a ``RemoteKeyValueStore`` for ``PreferenceSync``.
  ///
  /// Requires the iCloud key-value storage entitlement. Changes from other devices arrive
  /// through `NSUbiquitousKeyValueStore.didChangeExternallyNotification`.
  public final class UbiquitousKeyValueStore: RemoteKeyValueStore {
    // `nonisolated(unsafe)` is safe: NSUbiquitousKeyValueStore is documented as thread-safe, and
    // this `let` is never reassigned.
    private nonisolated(unsafe) let store: NSUbiquitousKeyValueStore

    public init(_ store: NSUbiquitousKeyValueStore = .default) {
      self.store = store
      store.synchronize()
    }

    public var limits: RemoteStoreLimits { .ubiquitousKeyValueStore }

    public func value(forKey key: String) -> PropertyListValue? {
      store.object(forKey: key).flatMap(PropertyListValue.init(foundationObject:))
    }

    public func setValue(_ value: PropertyListValue?, forKey key: String) {
      if let value { store.set(value.foundationObject, forKey: key) } else { store.removeObject(forKey: key) }
    }

    public func usage() -> (keys: Int, bytes: Int) {
      let values = store.dictionaryRepresentation.compactMapValues(PropertyListValue.init(foundationObject:))
      return (values.count, values.reduce(0) { $0 + $1.key.utf8.count + $1.value.approximateByteCount })
    }

    public func observeExternalChanges(_ handler: @escaping @Sendable (Set<String>) -> Void)
      -> PreferenceObservation
    {
      let token = NotificationCenter.default.addObserver(
        forName: NSUbiquitousKeyValueStore.didChangeExternallyNotification, object: store, queue: nil
      ) { notification in
        let keys = notification.userInfo?[NSUbiquitousKeyValueStoreChangedKeysKey] as? [String] ?? []
        handler(Set(keys))
      }
      nonisolated(unsafe) let observer = token
      return PreferenceObservation { NotificationCenter.default.removeObserver(observer) }
    }
  }
#endif
