import Foundation

/// A backend over `UserDefaults`: `.standard` or a suite such as an app group.
///
/// Values are shared with every other reader and writer of the same defaults: code that reads
/// or writes `UserDefaults` directly (legacy code, `@AppStorage`, a Settings bundle) sees the
/// library's values and registered defaults, and the library sees its writes, within about a
/// second, observers included.
///
/// On Apple platforms UserDefaults persists writes by itself, atomically and across processes.
///
/// On Linux, swift-corelibs-foundation only writes when `synchronize()` is called, never at exit,
/// and its `synchronize()` rewrites the file in place, so a crash can leave it empty. This
/// backend therefore stores the domain itself, in the same file UserDefaults uses
/// (`$XDG_CONFIG_HOME/<domain>.plist`, else `~/.config/<domain>.plist`), with the property-list
/// file store's guarantees: atomic replacement, writes flushed about 50 ms after a change and at
/// normal exit, merging with other processes' writes under a lock, corrupt files preserved and
/// reported. It mirrors every value into the process's `UserDefaults`, and adopts values that
/// other code writes there.
public final class UserDefaultsBackend: PreferenceBackend {
  /// The underlying defaults object.
  ///
  /// `nonisolated(unsafe)` is safe: UserDefaults is documented as thread-safe (Apple marks it
  /// `Sendable`; swift-corelibs-foundation guards its state with internal locks but does not
  /// declare the conformance), and this `let` is never reassigned.
  public nonisolated(unsafe) let defaults: UserDefaults
  /// The suite name, or `nil` for `UserDefaults.standard`.
  public let suiteName: String?

  /// What the process's `UserDefaults` should show for each key this backend knows about, as it
  /// last saw or made it: a difference is a write by other code in this process.
  private struct Mirror {
    var expected: [String: PropertyListValue] = [:]
    /// Defaults this backend registered with UserDefaults.
    var registered: [String: PropertyListValue] = [:]
    /// Keys compared with UserDefaults: stored, registered or read through this backend. Other
    /// keys may hold values registered by other code, which are not writes.
    var known: Set<String> = []
    var onChange: (@Sendable (Set<String>) -> Void)?
    var poller: ChangePoller?
    /// Counts this backend's own changes; `changedAt` holds the count at each key's last one. A
    /// check that read UserDefaults before a key's last change skips it: what it read is older.
    var version: UInt64 = 0
    var changedAt: [String: UInt64] = [:]

    mutating func expect(_ value: PropertyListValue?, forKey key: String) {
      version += 1
      changedAt[key] = version
      known.insert(key)
      expected[key] = value
    }
  }
  private let mirror = Locked(Mirror())
  /// Keys given on the command line (`-Key value`): UserDefaults shows the argument there, which
  /// is not a stored value. The store applies launch arguments itself.
  private let argumentKeys: Set<String>

  #if !canImport(Darwin)
    /// The domain's file, written atomically by this process.
    let domainFile: PropertyListFileBackend
  #endif

  /// How often the process's `UserDefaults` is compared with what this backend knows.
  static let pollInterval: DispatchTimeInterval = .milliseconds(500)

  /// Creates a backend over `UserDefaults.standard` (`suiteName == nil`) or the named suite.
  public init(suiteName: String? = nil) {
    self.suiteName = suiteName
    if let suiteName, let suite = UserDefaults(suiteName: suiteName) {
      self.defaults = suite
    } else {
      self.defaults = .standard
    }
    self.argumentKeys = Set(defaults.volatileDomain(forName: UserDefaults.argumentDomain).keys)
    #if canImport(Darwin)
      let shown = shownValues(keys: nil)
      mirror.withLock { $0.expected = shown }
    #else
      domainFile = PropertyListFileBackend(
        url: Self.domainFileURL(domain: suiteName ?? Self.applicationDomain))
      // The process's UserDefaults loaded the same file. Where it shows a value the file lacks or
      // differs from, other code wrote it before this backend existed: adopt it. Where it lacks
      // a stored value, show it the file's.
      let stored = domainFile.allValues()
      let shown = shownValues(keys: Set(stored.keys))
      mirror.withLock { mirror in
        mirror.known = Set(stored.keys)
        for (key, value) in stored {
          if let current = shown[key], current != value {
            domainFile.setValue(current, forKey: key)
            mirror.expected[key] = current
          } else {
            if shown[key] == nil { mirrorIntoDefaults(value, forKey: key) }
            mirror.expected[key] = value
          }
        }
      }
    #endif
  }

  deinit {
    #if canImport(Darwin)
      NotificationCenter.default.removeObserver(self)
    #endif
  }

  /// The name of `UserDefaults.standard`'s domain: the bundle identifier, else the process name.
  static var applicationDomain: String {
    Bundle.main.bundleIdentifier ?? ProcessInfo.processInfo.processName
  }

  private var domainName: String { suiteName ?? Self.applicationDomain }

  public var location: String { "UserDefaults(\(suiteName ?? "standard"))" }

  /// What the process's `UserDefaults` shows for this domain (for `keys` only, if given),
  /// without launch arguments. On Apple platforms: the persistent domain. On Linux: every
  /// value, registered defaults included, because corelibs' persistentDomain(forName:) misses
  /// unsynchronized writes to `.standard`.
  private func shownValues(keys: Set<String>?) -> [String: PropertyListValue] {
    #if canImport(Darwin)
      let domain = defaults.persistentDomain(forName: domainName) ?? [:]
    #else
      let domain = defaults.dictionaryRepresentation()
    #endif
    var values: [String: PropertyListValue] = [:]
    for (key, object) in domain where !argumentKeys.contains(key) && keys?.contains(key) != false {
      if let value = PropertyListValue(foundationObject: object) { values[key] = value }
    }
    return values
  }

  private func mirrorIntoDefaults(_ value: PropertyListValue?, forKey key: String) {
    if let value {
      defaults.set(value.foundationObject, forKey: key)
    } else {
      defaults.removeObject(forKey: key)
    }
  }

  // MARK: Values

  public func value(forKey key: String) -> PropertyListValue? {
    #if canImport(Darwin)
      if argumentKeys.contains(key) || mirror.withLock({ $0.registered[key] != nil }) {
        // UserDefaults would answer with the argument or the registered default.
        return defaults.persistentDomain(forName: domainName)?[key].flatMap(
          PropertyListValue.init(foundationObject:))
      }
      return defaults.object(forKey: key).flatMap(PropertyListValue.init(foundationObject:))
    #else
      mirror.withLock { mirror in
        if mirror.known.insert(key).inserted {
          mirror.expected[key] = domainFile.value(forKey: key) ?? mirror.registered[key]
        }
      }
      return domainFile.value(forKey: key)
    #endif
  }

  public func setValue(_ value: PropertyListValue?, forKey key: String) {
    #if !canImport(Darwin)
      domainFile.setValue(value, forKey: key)
    #endif
    mirror.withLock { mirror in
      mirrorIntoDefaults(value, forKey: key)
      mirror.expect(value ?? mirror.registered[key], forKey: key)
    }
  }

  public func allValues() -> [String: PropertyListValue] {
    #if canImport(Darwin)
      return shownValues(keys: nil)
    #else
      return domainFile.allValues()
    #endif
  }

  public func removeAll() {
    for key in allValues().keys { setValue(nil, forKey: key) }
  }

  public func flush() throws {
    #if !canImport(Darwin)
      try domainFile.flush()
    #endif
  }

  /// Registers the defaults with `UserDefaults` too, so that code reading it directly sees them.
  /// (On Linux, swift-corelibs-foundation's registration domain is shared by every suite.)
  public func register(defaults values: [String: PropertyListValue]) {
    guard !values.isEmpty else { return }
    mirror.withLock { mirror in
      defaults.register(defaults: values.mapValues(\.foundationObject))
      for (key, value) in values {
        mirror.registered[key] = value
        #if !canImport(Darwin)
          mirror.expect(domainFile.value(forKey: key) ?? value, forKey: key)
        #endif
      }
    }
  }

  public func storedForm(of value: PropertyListValue) -> PropertyListValue {
    #if canImport(Darwin)
      value
    #else
      domainFile.storedForm(of: value)
    #endif
  }

  // MARK: Changes from outside

  /// Reports writes made by other code in this process (compared every 500 ms, and on Apple
  /// platforms at once through `UserDefaults.didChangeNotification`) and by other processes (on
  /// Linux through the domain file, checked every 250 ms; on Apple platforms through the same
  /// comparison, since UserDefaults shows other processes' writes).
  ///
  /// This deliberately does not use KVO: keys with dots (the default `Type.property` scheme) are
  /// key paths to KVO, so they cannot be observed that way.
  public func startWatching(_ onChange: @escaping @Sendable (Set<String>) -> Void) {
    mirror.withLock { mirror in
      mirror.onChange = onChange
      if mirror.poller == nil {
        mirror.poller = ChangePoller(interval: Self.pollInterval) { [weak self] in self?.adoptOutsideWrites()
        }
      }
    }
    #if canImport(Darwin)
      NotificationCenter.default.removeObserver(self)
      NotificationCenter.default.addObserver(
        self, selector: #selector(defaultsDidChange), name: UserDefaults.didChangeNotification, object: nil)
    #else
      domainFile.startWatching { [weak self] keys in self?.fileChanged(keys) }
    #endif
  }

  public func stopWatching() {
    mirror.withLock { mirror in
      mirror.onChange = nil
      mirror.poller = nil
    }
    #if canImport(Darwin)
      NotificationCenter.default.removeObserver(self)
    #else
      domainFile.stopWatching()
    #endif
  }

  #if canImport(Darwin)
    @objc private func defaultsDidChange(_ notification: Notification) { adoptOutsideWrites() }
  #else
    /// Another process changed the domain file: show its values to this process's UserDefaults.
    private func fileChanged(_ keys: Set<String>) {
      let onChange = mirror.withLock { mirror -> (@Sendable (Set<String>) -> Void)? in
        for key in keys {
          let value = domainFile.value(forKey: key)
          mirrorIntoDefaults(value, forKey: key)
          mirror.expect(value ?? mirror.registered[key], forKey: key)
        }
        return mirror.onChange
      }
      onChange?(keys)
    }
  #endif

  /// Compares what the process's UserDefaults shows with what this backend expects, and takes
  /// each difference as a write by other code (on Linux, a value equal to the default this
  /// backend registered counts as a removal).
  func adoptOutsideWrites() {
    // UserDefaults is read without holding the lock, so this backend may change keys meanwhile;
    // those are skipped (what was read predates them) and compared at the next check.
    let (known, version) = mirror.withLock { ($0.known, $0.version) }
    #if canImport(Darwin)
      let shown = shownValues(keys: nil)
    #else
      let shown = shownValues(keys: known)
    #endif
    let (changed, onChange) = mirror.withLock { mirror -> (Set<String>, (@Sendable (Set<String>) -> Void)?) in
      var changed: Set<String> = []
      for key in Set(shown.keys).union(mirror.expected.keys) where shown[key] != mirror.expected[key] {
        guard mirror.changedAt[key, default: 0] <= version else { continue }
        #if canImport(Darwin)
          mirror.expected[key] = shown[key]
          changed.insert(key)
        #else
          guard known.contains(key) else { continue }
          mirror.expected[key] = shown[key]
          let stored = shown[key] == mirror.registered[key] ? nil : shown[key]
          if stored != domainFile.value(forKey: key) {
            domainFile.setValue(stored, forKey: key)
            changed.insert(key)
          }
        #endif
      }
      return (changed, mirror.onChange)
    }
    if !changed.isEmpty { onChange?(changed) }
  }
}

extension UserDefaultsBackend {
  /// The file swift-corelibs-foundation keeps `domain` in: `$XDG_CONFIG_HOME/<domain>.plist`, or
  /// `~/.config/<domain>.plist` when `XDG_CONFIG_HOME` is unset or not absolute.
  static func domainFileURL(domain: String) -> URL {
    let environment = ProcessInfo.processInfo.environment
    let directory: URL
    if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") {
      directory = URL(fileURLWithPath: config, isDirectory: true)
    } else {
      directory = FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(
        ".config", isDirectory: true)
    }
    return directory.appendingPathComponent(domain + ".plist")
  }
}
