#if canImport(Darwin)
  import CoreFoundation
  import Foundation

  extension UserDefaultsBackend {
    static func platformDomain(suiteName: String?) -> any DefaultsDomain {
      FoundationDefaultsDomain(suiteName: suiteName)
    }
  }

  /// `UserDefaults` on Apple platforms, as a ``DefaultsDomain``: the thin adapter whose logic
  /// (``UserDefaultsBackend``) Linux tests drive through a stand-in.
  ///
  /// Every API used here exists on iOS, iPadOS, Mac Catalyst, macOS, tvOS, visionOS and watchOS
  /// (Apple's documentation lists each from iOS 2 / macOS 10.0 / tvOS 9 / watchOS 2 /
  /// visionOS 1): `CFPreferencesCopyValue`, `UserDefaults.set(_:forKey:)`,
  /// `removeObject(forKey:)`, `register(defaults:)`, `persistentDomain(forName:)`,
  /// `didChangeNotification` and `NotificationCenter.addObserver(forName:object:queue:using:)`.
  final class FoundationDefaultsDomain: DefaultsDomain {
    /// `nonisolated(unsafe)` is safe: Apple documents `UserDefaults` as thread-safe ("you can use
    /// the same object in multiple threads or tasks simultaneously",
    /// developer.apple.com/documentation/foundation/userdefaults), and this `let` is never
    /// reassigned. The SDKs do not mark the class `Sendable` (Xcode 16's explicitly not), so a
    /// plain `let` of a `Sendable` class does not compile there.
    nonisolated(unsafe) let defaults: UserDefaults
    /// The suite name, or `nil` for `.standard` (the current application). Kept as a `String`:
    /// `CFString` is not `Sendable` either; the CFPreferences application ID is made per call.
    private let suiteName: String?
    /// The name `persistentDomain(forName:)` takes.
    private let domainName: String
    private let observer = Locked<(any NSObjectProtocol)?>(nil)

    init(suiteName: String?) {
      if let suiteName, let suite = UserDefaults(suiteName: suiteName) {
        defaults = suite
        self.suiteName = suiteName
        domainName = suiteName
      } else {
        defaults = .standard
        self.suiteName = nil
        domainName = UserDefaultsBackend.applicationDomain
      }
    }

    var location: String { "UserDefaults(\(domainName))" }

    func storedValue(forKey key: String) -> PropertyListValue? {
      // One domain (current user, any host: where UserDefaults writes), not the search list that
      // `object(forKey:)` reads, so registered defaults, launch arguments and NSGlobalDomain are
      // never taken for stored values. O(1), unlike `persistentDomain(forName:)`, which copies the
      // whole domain. "If you need to specify an exact domain … use the low-level preferences
      // functions CFPreferencesSetValue, and CFPreferencesCopyValue" (Preferences Programming
      // Topics for Core Foundation, Preference Domains).
      let applicationID = suiteName.map { $0 as CFString } ?? kCFPreferencesCurrentApplication
      return CFPreferencesCopyValue(
        key as CFString, applicationID, kCFPreferencesCurrentUser, kCFPreferencesAnyHost
      )
      .flatMap { PropertyListValue(foundationObject: $0) }
    }

    func storedValues() -> [String: PropertyListValue] {
      (defaults.persistentDomain(forName: domainName) ?? [:]).compactMapValues(
        PropertyListValue.init(foundationObject:))
    }

    func setStoredValue(_ value: PropertyListValue?, forKey key: String) {
      // Posts didChangeNotification synchronously on this thread.
      if let value {
        defaults.set(value.foundationObject, forKey: key)
      } else {
        defaults.removeObject(forKey: key)
      }
    }

    /// A read and a write: cfprefsd has no compare-and-set, so another process's write can land
    /// between them (this process's own writers are ordered by ``UserDefaultsBackend``).
    func replaceStoredValue(
      forKey key: String, ifEqualTo expected: PropertyListValue?, with value: PropertyListValue?
    ) -> Bool {
      guard storedValue(forKey: key) == expected else { return false }
      setStoredValue(value, forKey: key)
      return true
    }

    func register(defaults values: [String: PropertyListValue]) {
      defaults.register(defaults: values.mapValues(\.foundationObject))
    }

    func flush() throws {}

    func storedForm(of value: PropertyListValue) -> PropertyListValue { value }

    func startEvents(_ onChange: @escaping @Sendable (Set<String>?) -> Void) {
      // Only this object's changes (`object: defaults`), not every defaults write in the process.
      // `queue: nil` runs the block on the posting thread, synchronously, as the notification
      // is posted: the backend holds no lock there.
      let token = NotificationCenter.default.addObserver(
        forName: UserDefaults.didChangeNotification, object: defaults, queue: nil
      ) { _ in onChange(nil) }
      let previous = observer.withLock { observer in
        defer { observer = token }
        return observer
      }
      if let previous { NotificationCenter.default.removeObserver(previous) }
    }

    func stopEvents() {
      let token = observer.withLock { observer in
        defer { observer = nil }
        return observer
      }
      if let token { NotificationCenter.default.removeObserver(token) }
    }

    /// Another process's writes post no notification: compare the keys in use.
    func poll(known: Set<String>) -> Set<String>? { nil }
  }
#endif
