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
  /// `didChangeNotification`, `NotificationCenter.addObserver(forName:object:queue:using:)`, and
  /// the Darwin notify center (`CFNotificationCenterGetDarwinNotifyCenter`, iOS 2 / macOS 10.5,
  /// which carries notifications between processes: their names only, delivered on the main
  /// thread's run loop).
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
    /// The Darwin notification this library posts after writing the domain.
    private let announcement: String
    private let darwinObserver = Locked<DarwinObserver?>(nil)
    private let sizeObserver = Locked<(any NSObjectProtocol)?>(nil)

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
      announcement = "swift-preferences.changed." + domainName
    }

    var userDefaults: UserDefaults { defaults }

    var announcesChanges: Bool { true }

    var sizeLimit: DomainSizeLimit? { .platform }

    /// Beside the store, where every process of the domain finds it: an app group's container
    /// for a suite that names one (`containerURL(forSecurityApplicationGroupIdentifier:)`, iOS 7,
    /// macOS 10.8, tvOS 9, watchOS 2, visionOS 1; `nil` on iOS for a name that is not one of the
    /// app's groups), else the app's Application Support folder; on tvOS, where an app may keep
    /// files only in its caches, the caches folder (which the system may purge).
    var keptValuesDirectory: URL? {
      let folder = "swift-preferences/kept-values/" + StableName.of(domainName)
      #if os(tvOS)
        let base = FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask).first
      #else
        let base =
          suiteName.flatMap {
            FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: $0)?
              .appendingPathComponent("Library/Application Support")
          } ?? FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask).first
      #endif
      return base?.appendingPathComponent(folder)
    }

    /// `UserDefaults.sizeLimitExceededNotification`: iOS 9.3, Mac Catalyst 13.1, tvOS 9,
    /// visionOS 1, watchOS 2, not macOS; posted on the main thread, on tvOS only ("The system
    /// doesn't post size exceeded notifications for other platforms").
    func observeSizeLimitExceeded(_ handler: @escaping @Sendable () -> Void) {
      #if !os(macOS)
        let token = NotificationCenter.default.addObserver(
          forName: UserDefaults.sizeLimitExceededNotification, object: nil, queue: nil
        ) { _ in handler() }
        let previous = sizeObserver.withLock { observer in
          defer { observer = token }
          return observer
        }
        if let previous { NotificationCenter.default.removeObserver(previous) }
      #endif
    }

    /// Posts the Darwin notification that other processes of this library observe for this
    /// domain (an app and its extensions share an app group's suite name).
    func announceChange() {
      CFNotificationCenterPostNotification(
        CFNotificationCenterGetDarwinNotifyCenter(), CFNotificationName(announcement as CFString), nil, nil,
        true)
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
      // Every `UserDefaults` object's changes (`object: nil`): other code may write the same
      // suite through an object of its own, and nothing tells which suite an object belongs to,
      // so the keys in use are compared. `queue: nil` runs the block on the posting thread,
      // synchronously, as the notification is posted: the backend holds no lock there.
      let token = NotificationCenter.default.addObserver(
        forName: UserDefaults.didChangeNotification, object: nil, queue: nil
      ) { _ in onChange(nil) }
      let previous = observer.withLock { observer in
        defer { observer = token }
        return observer
      }
      if let previous { NotificationCenter.default.removeObserver(previous) }
      // Other processes of this library announce their writes.
      let darwin = DarwinObserver(name: announcement) { onChange(nil) }
      let replaced = darwinObserver.withLock { current in
        defer { current = darwin }
        return current
      }
      replaced?.stop()
    }

    func stopEvents() {
      let token = observer.withLock { observer in
        defer { observer = nil }
        return observer
      }
      if let token { NotificationCenter.default.removeObserver(token) }
      let sizeToken = sizeObserver.withLock { observer in
        defer { observer = nil }
        return observer
      }
      if let sizeToken { NotificationCenter.default.removeObserver(sizeToken) }
      let darwin = darwinObserver.withLock { current in
        defer { current = nil }
        return current
      }
      darwin?.stop()
    }

    /// Another process's writes post no notification: compare the keys in use.
    func poll(known: Set<String>) -> Set<String>? { nil }
  }

  /// An observer of one Darwin notification: the C callback finds it through the pointer it was
  /// registered with, which the center holds until ``stop()``; the observer keeps itself alive
  /// until then.
  final class DarwinObserver: Sendable {
    private let name: String
    private let handler: @Sendable () -> Void
    private let registration = Locked<Unmanaged<DarwinObserver>?>(nil)

    init(name: String, _ handler: @escaping @Sendable () -> Void) {
      self.name = name
      self.handler = handler
      let retained = Unmanaged.passRetained(self)
      registration.withLock { $0 = retained }
      CFNotificationCenterAddObserver(
        CFNotificationCenterGetDarwinNotifyCenter(), retained.toOpaque(),
        { _, observer, _, _, _ in
          guard let observer else { return }
          Unmanaged<DarwinObserver>.fromOpaque(observer).takeUnretainedValue().handler()
        },
        name as CFString, nil, .deliverImmediately)
    }

    func stop() {
      guard
        let retained = registration.withLock({ current in
          defer { current = nil }; return current
        })
      else { return }
      CFNotificationCenterRemoveObserver(
        CFNotificationCenterGetDarwinNotifyCenter(), retained.toOpaque(),
        CFNotificationName(name as CFString), nil)
      retained.release()
    }
  }
#endif
