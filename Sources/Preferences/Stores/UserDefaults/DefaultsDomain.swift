import Foundation

/// One `UserDefaults` domain as ``UserDefaultsBackend`` uses it: the persistent domain of
/// `.standard` or of a suite, beside the search list that `UserDefaults.object(forKey:)` reads.
///
/// The backend's logic is portable and runs against this protocol; each platform supplies a
/// thin adapter (`FoundationDefaultsDomain` on Apple platforms, `CorelibsDefaultsDomain` on
/// Linux), and the tests a stand-in (`SimulatedUserDefaults`) that reproduces what Apple
/// documents, so that the logic Apple users run is the logic `swift test` drives on Linux:
///
/// - ``storedValue(forKey:)`` and ``storedValues()`` read the persistent domain only, never the
///   argument domain, `NSGlobalDomain` or the registration domain that `object(forKey:)` also
///   searches (`persistentDomain(forName:)`: "retrieves only the keys and values from the
///   specified domain").
/// - ``setStoredValue(_:forKey:)`` and ``register(defaults:)`` may call the handler given to
///   ``startEvents(_:)`` synchronously, on the calling thread, before they return
///   (`UserDefaults.didChangeNotification` "is posted on the same thread you used to make the
///   change").
/// - Another process's write posts nothing, unless that process writes through this library,
///   which announces its writes (``announceChange()``); ``poll(known:)`` finds the rest, and is
///   called when the app becomes active and while it is (or while the store is observed).
/// - Writes through any `UserDefaults` object of the domain in this process call the handler
///   (``hearsWritesInProcess``; not on Linux, where corelibs posts nothing).
protocol DefaultsDomain: AnyObject, Sendable {
  /// The value stored in the persistent domain under `key`. O(1).
  func storedValue(forKey key: String) -> PropertyListValue?
  /// Every value stored in the persistent domain.
  func storedValues() -> [String: PropertyListValue]
  /// Stores `value` (removes the key when `nil`) in the persistent domain.
  func setStoredValue(_ value: PropertyListValue?, forKey key: String)
  /// Stores `value` only if the persistent domain holds `expected` under `key`; whether it did.
  /// One step where the platform allows (Linux: under the file's lock); on Apple platforms a
  /// read and a write, which another process's write can slip between (cfprefsd offers no
  /// compare-and-set).
  func replaceStoredValue(
    forKey key: String, ifEqualTo expected: PropertyListValue?, with value: PropertyListValue?
  )
    -> Bool
  /// Adds `defaults` to the registration domain, where code reading `UserDefaults` directly
  /// sees them.
  func register(defaults: [String: PropertyListValue])
  /// Makes pending writes durable; a no-op where the system persists by itself.
  func flush() throws
  /// The value the domain reads back after storing `value`.
  func storedForm(of value: PropertyListValue) -> PropertyListValue
  /// Starts the change events the platform has. `onChange` receives the keys that may have
  /// changed, or `nil` when the event does not say which (`didChangeNotification` carries none).
  func startEvents(_ onChange: @escaping @Sendable (Set<String>?) -> Void)
  /// Stops the events.
  func stopEvents()
  /// Looks for changes that no event reports (another process's writes on Apple platforms, other
  /// code's writes to corelibs' `UserDefaults` on Linux). `known` are the keys the backend reads.
  /// Returns the keys that may have changed, or `nil` for "any of `known`".
  func poll(known: Set<String>) -> Set<String>?
  /// A description for diagnostics.
  var location: String { get }
  /// The `UserDefaults` object the domain reads, writes and observes.
  var userDefaults: UserDefaults { get }
  /// Tells other processes that use this library that the domain changed, so that theirs look
  /// at once (on Apple platforms, a Darwin notification named for the domain; on Linux, where
  /// file events already tell them, nothing).
  func announceChange()
  /// Whether ``announceChange()`` does anything: where it does not, writes schedule nothing.
  var announcesChanges: Bool { get }
  /// The most the domain may hold on this platform (``DomainSizeLimit/platform``), or `nil`.
  var sizeLimit: DomainSizeLimit? { get }
  /// Where values kept outside the domain go (``KeptValues``): a folder the domain's other
  /// processes share (an app group's container for its suite), or `nil` where there is no limit.
  var keptValuesDirectory: URL? { get }
  /// Calls `handler` when the system says the domain passed its size limit
  /// (`UserDefaults.sizeLimitExceededNotification`, posted on tvOS), until ``stopEvents()``.
  func observeSizeLimitExceeded(_ handler: @escaping @Sendable () -> Void)
  /// Whether every write other code in this process makes through a `UserDefaults` object of the
  /// domain calls the handler given to ``startEvents(_:)``. Apple's UserDefaults posts
  /// `didChangeNotification` for each; swift-corelibs-foundation posts nothing, so there the
  /// backend polls a key (``poll(known:)``) before each read of it.
  var hearsWritesInProcess: Bool { get }
}

extension DefaultsDomain {
  var hearsWritesInProcess: Bool { true }
  var sizeLimit: DomainSizeLimit? { nil }
  var keptValuesDirectory: URL? { nil }
  func observeSizeLimitExceeded(_ handler: @escaping @Sendable () -> Void) {}
}
