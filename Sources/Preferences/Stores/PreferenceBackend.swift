import Foundation

/// The storage underneath a ``PreferenceStore``: a thread-safe map from keys to
/// ``PropertyListValue``s that persists them somewhere.
///
/// A backend only stores what it is given. Registered defaults, launch-argument overrides,
/// typed decoding, caching, observation and migration live in ``PreferenceStore``, so every
/// backend gets them the same way. The library ships ``UserDefaultsBackend``,
/// ``PropertyListFileBackend`` and ``InMemoryBackend``; conform your own type to store
/// preferences elsewhere.
public protocol PreferenceBackend: AnyObject, Sendable {
  /// The value stored under `key`, or `nil` if none is stored.
  func value(forKey key: String) -> PropertyListValue?

  /// Stores `value` under `key`, or removes the stored value when `value` is `nil`.
  func setValue(_ value: PropertyListValue?, forKey key: String)

  /// Stores `value` under `key` (removes it when `nil`) only if what is stored there is
  /// `expected` (`nil`: nothing), and answers whether it did. Migrations use it so that a value
  /// written meanwhile, by another thread or another process, is never replaced.
  ///
  /// Implement it as one step against every writer the storage has (the shipped backends do,
  /// across processes for files); the default implementation reads, compares and writes, which
  /// another writer can slip between.
  func replaceValue(
    forKey key: String, ifEqualTo expected: PropertyListValue?, with value: PropertyListValue?
  ) -> Bool

  /// Every stored key and value.
  func allValues() -> [String: PropertyListValue]

  /// Removes every value this backend owns.
  func removeAll()

  /// Removes every value this backend owns except those under `kept`, including values it
  /// cannot list now (``ProtectedDataBackend`` before the device's first unlock).
  func removeAll(except kept: Set<String>)

  /// Writes pending changes to durable storage and returns when they are there.
  ///
  /// - Throws: The error that prevented writing; pending changes stay pending.
  func flush() throws

  /// A short description of where values live, used in diagnostics and debug screens.
  var location: String { get }

  /// Starts reporting changes the store did not make through this backend: another process
  /// writing the same file or suite, other code in this process writing the same `UserDefaults`,
  /// or values a flush merged in. `onChange` receives the keys whose values changed.
  ///
  /// The store calls this once, when it is created, and ``stopWatching()`` when it is released.
  /// Report what events tell you (a file-system event, a notification): a process whose stores
  /// sit unobserved must not wake up. Changes that only polling can find belong to
  /// ``setObserved(_:)``. `onChange` may be called on any thread, also from inside
  /// ``setValue(_:forKey:)``; never call it with a lock held.
  func startWatching(_ onChange: @escaping @Sendable (Set<String>) -> Void)

  /// Stops reporting outside changes.
  func stopWatching()

  /// Tells the backend whether anything observes its store (`observe`, `values`, `changes`, a
  /// sync engine). A backend that can find some outside changes only by polling polls while
  /// `observed` is `true`, and stops when it becomes `false`.
  func setObserved(_ observed: Bool)

  /// Registers defaults where code that bypasses the library can see them (`UserDefaults`'
  /// registration domain). The store keeps its own registered defaults; most backends need do
  /// nothing here.
  func register(defaults: [String: PropertyListValue])

  /// The value this backend will read back after storing `value`, in this process or the next;
  /// `value` itself unless the storage format is lossy (XML property lists keep whole seconds).
  func storedForm(of value: PropertyListValue) -> PropertyListValue
}

extension PreferenceBackend {
  /// Reads, compares and writes: not one step (see the requirement).
  public func replaceValue(
    forKey key: String, ifEqualTo expected: PropertyListValue?, with value: PropertyListValue?
  ) -> Bool {
    guard self.value(forKey: key) == expected else { return false }
    setValue(value, forKey: key)
    return true
  }
  /// Removes each listed value but those under `kept`.
  public func removeAll(except kept: Set<String>) {
    for key in allValues().keys where !kept.contains(key) { setValue(nil, forKey: key) }
  }
  /// Backends that cannot see outside changes report none.
  public func startWatching(_ onChange: @escaping @Sendable (Set<String>) -> Void) {}
  /// Stops reporting changes made outside this process.
  public func stopWatching() {}
  /// Whether anything observes the store: outside changes are watched for only then.
  public func setObserved(_ observed: Bool) {}
  /// Registers default values, read for keys nothing is stored under.
  public func register(defaults: [String: PropertyListValue]) {}
  /// The value as this store keeps it and reads it back.
  public func storedForm(of value: PropertyListValue) -> PropertyListValue { value }
}
