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

  /// Every stored key and value.
  func allValues() -> [String: PropertyListValue]

  /// Removes every value this backend owns.
  func removeAll()

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
