import Foundation

/// A backend over `UserDefaults`: `.standard` or a suite such as an app group.
///
/// Reads follow UserDefaults' own search order (argument domain, then the app's or suite's
/// persistent domain and the global domain). The ``PreferenceStore`` above it adds its registered
/// defaults below those, so a stored value always wins over a default.
///
/// On Apple platforms UserDefaults persists writes by itself. On Linux,
/// swift-corelibs-foundation only writes when `synchronize()` is called and never at exit, so this
/// backend coalesces writes into one `synchronize()` about 50 ms after a change and flushes again
/// at normal process exit. Each write therefore costs only UserDefaults' in-memory `set`.
public final class UserDefaultsBackend: PreferenceBackend {
  /// The underlying defaults object.
  ///
  /// `nonisolated(unsafe)` is safe: UserDefaults is documented as thread-safe (Apple marks it
  /// `Sendable`; swift-corelibs-foundation guards its state with internal locks but does not
  /// declare the conformance), and this `let` is never reassigned.
  public nonisolated(unsafe) let defaults: UserDefaults
  /// The suite name, or `nil` for `UserDefaults.standard`.
  public let suiteName: String?
  private let argumentKeys: Set<String>
  private let watch = Locked<(poller: ChangePoller?, snapshot: [String: PropertyListValue])>((nil, [:]))

  /// Creates a backend over `UserDefaults.standard` (`suiteName == nil`) or the named suite.
  public init(suiteName: String? = nil) {
    self.suiteName = suiteName
    if let suiteName, let suite = UserDefaults(suiteName: suiteName) {
      self.defaults = suite
    } else {
      self.defaults = .standard
    }
    self.argumentKeys = Set(defaults.volatileDomain(forName: UserDefaults.argumentDomain).keys)
  }

  #if !canImport(Darwin)
    /// A backend released with unsaved changes writes them first (Linux only; Apple's
    /// UserDefaults persists by itself).
    deinit { defaults.synchronize() }
  #endif

  private var domainName: String {
    suiteName ?? Bundle.main.bundleIdentifier ?? ProcessInfo.processInfo.processName
  }

  public func value(forKey key: String) -> PropertyListValue? {
    let object: Any?
    if argumentKeys.contains(key) {
      // The argument domain shadows the stored value; PreferenceStore handles overrides itself.
      object = defaults.persistentDomain(forName: domainName)?[key]
    } else {
      object = defaults.object(forKey: key)
    }
    return object.flatMap(PropertyListValue.init(foundationObject:))
  }

  public func setValue(_ value: PropertyListValue?, forKey key: String) {
    if let value {
      defaults.set(value.foundationObject, forKey: key)
    } else {
      defaults.removeObject(forKey: key)
    }
    #if !canImport(Darwin)
      PendingFlushes.schedule(self)
    #endif
  }

  public func allValues() -> [String: PropertyListValue] {
    let domain = defaults.persistentDomain(forName: domainName) ?? [:]
    return domain.compactMapValues(PropertyListValue.init(foundationObject:))
  }

  public func removeAll() {
    for key in (defaults.persistentDomain(forName: domainName) ?? [:]).keys {
      defaults.removeObject(forKey: key)
    }
    #if !canImport(Darwin)
      PendingFlushes.schedule(self)
    #endif
  }

  public func flush() throws {
    #if !canImport(Darwin)
      defaults.synchronize()
    #endif
  }

  public var location: String { "UserDefaults(\(suiteName ?? "standard"))" }

  /// Reports changes by other processes (an app-group member, a widget) by comparing the
  /// domain every 500 ms; on Linux each check first calls `synchronize()`, which is how
  /// swift-corelibs-foundation picks up other processes' writes.
  ///
  /// This deliberately does not use KVO: keys with dots (the default `Type.property` scheme)
  /// are key paths to KVO, so they cannot be observed that way.
  public func startWatching(_ onChange: @escaping @Sendable (Set<String>) -> Void) {
    let initial = allValues()
    let poller = ChangePoller(
      interval: .milliseconds(500),
      check: { [weak self] in
        guard let self else { return [] }
        #if !canImport(Darwin)
          self.defaults.synchronize()
        #endif
        let current = self.allValues()
        return self.watch.withLock { watch in
          let changed = Set(current.keys).union(watch.snapshot.keys).filter {
            current[$0] != watch.snapshot[$0]
          }
          watch.snapshot = current
          return changed
        }
      }, onChange: onChange)
    watch.withLock { $0 = (poller, initial) }
  }

  public func stopWatching() { watch.withLock { $0 = (nil, [:]) } }
}
