#if !canImport(Darwin)
  import Foundation

  extension UserDefaultsBackend {
    static func platformDomain(suiteName: String?) -> any DefaultsDomain {
      CorelibsDefaultsDomain(suiteName: suiteName)
    }

    /// The file swift-corelibs-foundation keeps `domain` in, found exactly as its CFPreferences
    /// finds it (`_CFXDGCreateConfigHomePath` in CFFileUtilities.c):
    /// `$XDG_CONFIG_HOME/<domain>.plist` when `XDG_CONFIG_HOME` is an absolute path longer than
    /// `/`, else `$HOME/.config/<domain>.plist`, with `$HOME` as the process sees it (a test
    /// runner's or a sandbox's home, not the account's). An empty or missing `$HOME` (a system
    /// service) is the empty string there, so the file is `/.config/<domain>.plist`, never the
    /// account's home from the password database; a relative one is taken from the working
    /// directory.
    static func domainFileURL(
      domain: String, environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> URL {
      let directory: URL
      if let config = environment["XDG_CONFIG_HOME"], config.utf8.count > 1, config.hasPrefix("/") {
        directory = URL(fileURLWithPath: config, isDirectory: true)
      } else {
        let home = environment["HOME"] ?? ""
        directory = URL(fileURLWithPath: home + "/.config", isDirectory: true)
      }
      return directory.appendingPathComponent(domain + ".plist").standardizedFileURL
    }
  }

  /// `UserDefaults` on Linux, as a ``DefaultsDomain``.
  ///
  /// swift-corelibs-foundation writes only on `synchronize()`, never at exit, and not atomically,
  /// and it posts no change notifications. So the domain's file (the one corelibs reads) is kept
  /// by a ``PropertyListFileBackend``, with its guarantees (atomic replacement, writes flushed
  /// shortly after a change and at exit, merges with other processes, file-system events), and
  /// every value is mirrored into the process's `UserDefaults`, so code reading it directly sees
  /// the library's values. Values other code writes into the process's `UserDefaults` are found
  /// by ``poll(known:)`` (for a key before each read of it, and about once a second while the store
  /// is observed) and adopted into the file.
  final class CorelibsDefaultsDomain: DefaultsDomain {
    /// `nonisolated(unsafe)` is safe: corelibs guards UserDefaults' state with internal locks
    /// (Apple documents it as thread-safe and marks it `Sendable`; corelibs does not declare the
    /// conformance), and this `let` is never reassigned.
    private nonisolated(unsafe) let defaults: UserDefaults

    var userDefaults: UserDefaults { defaults }

    /// Other processes hear the file's events: nothing to announce.
    func announceChange() {}
    var announcesChanges: Bool { false }
    /// Corelibs posts no `didChangeNotification`: other code's writes are found by ``poll(known:)``,
    /// which the backend runs for a key before each read of it.
    var hearsWritesInProcess: Bool { false }
    /// The domain's file, written atomically by this process.
    let file: PropertyListFileBackend
    /// Keys given on the command line (`-Key value`): UserDefaults shows the argument there, which
    /// is not a stored value.
    private let argumentKeys: Set<String>

    /// What the process's `UserDefaults` should show for each key, as this domain last saw or
    /// made it: a difference is a write by other code in this process.
    private struct Mirror {
      /// The value this domain stores under each key, which UserDefaults should show. Where it
      /// stores none, UserDefaults shows the default this library registered in the process, if
      /// any (`registeredInProcess`), so a registration names no key here.
      var expected: [String: PropertyListValue] = [:]
      /// Counts this domain's own changes; `changedAt` holds the count at each key's last one
      /// (counted when a change starts and again when UserDefaults shows it).
      var version: UInt64 = 0
      var changedAt: [String: UInt64] = [:]
      /// Keys whose change UserDefaults is being shown, with how many such changes are under way.
      var showing: [String: Int] = [:]

      /// Records that this domain now stores `value` under `key` (`nil`: nothing).
      mutating func expect(_ value: PropertyListValue?, forKey key: String) {
        version += 1
        changedAt[key] = version
        expected[key] = value
      }

      /// What UserDefaults should show for `key`, given the defaults registered in the process.
      func expectation(_ key: String, registered: [String: PropertyListValue]) -> PropertyListValue? {
        expected[key] ?? registered[key]
      }

      /// Marks `key` as being shown a change of this domain's, until ``shown(_:)``.
      mutating func beginShowing(_ key: String) { showing[key, default: 0] += 1 }

      /// Marks `key`'s change as shown: a poll that read UserDefaults before it skips the key.
      mutating func shown(_ key: String) {
        version += 1
        changedAt[key] = version
        if let count = showing[key], count > 1 { showing[key] = count - 1 } else { showing[key] = nil }
      }

      /// Whether what was read at change count `version` may be compared for `key` (or shown
      /// for it): no change of this domain's to it was under way or finished since.
      func mayCompare(_ key: String, readAt version: UInt64) -> Bool {
        changedAt[key, default: 0] <= version && showing[key] == nil
      }
    }
    private let mirror = Locked(Mirror())

    /// The defaults this library registered with corelibs' `UserDefaults`, by key. Its
    /// registration domain is the process's, shared by every suite: a key one domain registered
    /// shows in every other that stores no value for it, and is not another writer's value there.
    private struct Registered {
      var values: [String: PropertyListValue] = [:]
      /// Counts registrations' starts and ends, and how many are under way: a registration by any
      /// domain changes what UserDefaults shows, in every suite, for keys no domain stores.
      var version: UInt64 = 0
      var registering = 0
    }
    private static let registeredInProcess = Locked(Registered())

    /// Runs between a write's (or a registration's) bookkeeping and UserDefaults showing it, for
    /// tests that interleave a poll there.
    @TaskLocal static var beforeShowing: TestHook?
    /// Runs between ``showFileValues(of:)`` reading the file and showing its values, and between
    /// ``poll(known:)`` reading UserDefaults and comparing, for tests that interleave a write or
    /// a registration there.
    @TaskLocal static var afterReadingFileValues: TestHook?
    /// Runs between ``poll(known:)`` deciding what to adopt and storing it, for tests that
    /// interleave a write there.
    @TaskLocal static var beforeAdopting: TestHook?

    /// The domain's name: the suite, or the application's domain for `.standard`.
    private let domainName: String

    init(suiteName: String?) {
      domainName = suiteName ?? UserDefaultsBackend.applicationDomain
      if let suiteName, let suite = UserDefaults(suiteName: suiteName) {
        defaults = suite
      } else {
        defaults = .standard
      }
      argumentKeys = Set(defaults.volatileDomain(forName: UserDefaults.argumentDomain).keys)
      file = PropertyListFileBackend(
        url: UserDefaultsBackend.domainFileURL(domain: suiteName ?? UserDefaultsBackend.applicationDomain))
      // The process's UserDefaults loaded the same file. Where it shows a value the file lacks or
      // differs from, other code wrote it before this domain existed: adopt it. Where it lacks a
      // stored value, show it the file's.
      let stored = file.allValues()
      let shown = shownValues(keys: Set(stored.keys))
      var toShow: [String: PropertyListValue] = [:]
      for (key, value) in stored {
        if let current = shown[key], current != value, !libraryShowed(current, forKey: key) {
          file.setValue(current, forKey: key)
        } else if shown[key] != value {
          toShow[key] = value
        }
      }
      for (key, value) in toShow { show(value, forKey: key) }
      mirror.withLock { mirror in
        for (key, value) in stored {
          mirror.expected[key] = toShow[key] != nil ? value : (shown[key] ?? value)
        }
      }
    }

    var location: String { file.url.path }

    /// What the process's `UserDefaults` shows for `keys`, without launch arguments: every value,
    /// registered defaults included, because corelibs' `persistentDomain(forName:)` misses
    /// unsynchronized writes to `.standard`.
    private func shownValues(keys: Set<String>) -> [String: PropertyListValue] {
      var values: [String: PropertyListValue] = [:]
      for key in keys where !argumentKeys.contains(key) {
        if let value = defaults.object(forKey: key).flatMap(PropertyListValue.init(foundationObject:)) {
          values[key] = value
        }
      }
      return values
    }

    /// What this library last showed corelibs' `UserDefaults` for each key of each domain, in the
    /// whole process: a value corelibs shows that some domain of this library showed is not
    /// another writer's (two stores over one suite in one process show each other's values, and
    /// one may show a value the file has since replaced, before its event arrives).
    private static let shownByLibrary = Locked<[String: [String: PropertyListValue?]]>([:])

    /// Whether `value`, which corelibs shows for `key`, is what a domain of this library showed.
    private func libraryShowed(_ value: PropertyListValue?, forKey key: String) -> Bool {
      Self.shownByLibrary.withLock { $0[domainName]?[key] } == .some(value)
    }

    private func show(_ value: PropertyListValue?, forKey key: String) {
      Self.shownByLibrary.withLock { $0[domainName, default: [:]][key] = .some(value) }
      if let value {
        defaults.set(value.foundationObject, forKey: key)
      } else {
        defaults.removeObject(forKey: key)
      }
    }

    func storedValue(forKey key: String) -> PropertyListValue? { file.value(forKey: key) }
    func storedValues() -> [String: PropertyListValue] { file.allValues() }

    /// A poll may read UserDefaults at any moment of this: the key is marked from before
    /// UserDefaults shows the value until after, so that a poll that read the old value never
    /// takes it for another writer's (and writes it back).
    func setStoredValue(_ value: PropertyListValue?, forKey key: String) {
      file.setValue(value, forKey: key)
      mirror.withLock { mirror in
        mirror.expect(value, forKey: key)
        mirror.beginShowing(key)
      }
      Self.beforeShowing?()
      show(value, forKey: key)
      mirror.withLock { $0.shown(key) }
    }

    /// One step against every writer of the file (``PropertyListFileBackend/replaceValue(forKey:ifEqualTo:with:)``),
    /// then shown to the process's UserDefaults as a write is.
    func replaceStoredValue(
      forKey key: String, ifEqualTo expected: PropertyListValue?, with value: PropertyListValue?
    ) -> Bool {
      guard file.replaceValue(forKey: key, ifEqualTo: expected, with: value) else { return false }
      mirror.withLock { mirror in
        mirror.expect(value, forKey: key)
        mirror.beginShowing(key)
      }
      show(value, forKey: key)
      mirror.withLock { $0.shown(key) }
      return true
    }

    /// A key this domain never stored shows the new default; one it stored keeps its expected
    /// value. A poll that reads UserDefaults while this runs compares nothing (it cannot tell an
    /// old default from another writer's value), so no key is named in the mirror: a module's
    /// registration at launch costs one step for all of its keys.
    func register(defaults values: [String: PropertyListValue]) {
      Self.registeredInProcess.withLock { registered in
        registered.version += 1
        registered.registering += 1
        registered.values.overlay(values)
      }
      Self.beforeShowing?()
      defaults.register(defaults: values.mapValues(\.foundationObject))
      Self.registeredInProcess.withLock { registered in
        registered.version += 1
        registered.registering -= 1
      }
    }

    func flush() throws { try file.flush() }

    func storedForm(of value: PropertyListValue) -> PropertyListValue { file.storedForm(of: value) }

    /// Other processes' writes arrive through the file's events: they are shown to this
    /// process's UserDefaults, then reported.
    func startEvents(_ onChange: @escaping @Sendable (Set<String>?) -> Void) {
      file.startWatching { [weak self] keys in
        guard let self else { return }
        self.showFileValues(of: keys)
        onChange(keys)
      }
    }

    /// Shows the process's UserDefaults the file's values of `keys`, which another process
    /// changed.
    ///
    /// The file is read without the mirror's lock held, so this domain may change a key between
    /// the read and the showing: a write (whose own showing is of the file's newer value) or a
    /// registration. Such a key is read again. Showing the value read before the change would
    /// leave UserDefaults behind the file until the key next changed; skipping the key would
    /// leave it showing an older value than the mirror expects after a registration, which a
    /// poll would take for another writer's and store. After a few tries under constant writes
    /// a key is left to the writes, which show their own values.
    func showFileValues(of keys: Set<String>) {
      var pending = keys
      for attempt in 1...4 where !pending.isEmpty {
        let version = mirror.withLock { $0.version }
        let read = pending.map { ($0, file.value(forKey: $0)) }
        if attempt == 1 { Self.afterReadingFileValues?() }
        let (values, changed) = mirror.withLock { mirror in
          var values: [(String, PropertyListValue?)] = []
          var changed: Set<String> = []
          for (key, value) in read {
            guard mirror.mayCompare(key, readAt: version) else {
              changed.insert(key)
              continue
            }
            mirror.expect(value, forKey: key)
            mirror.beginShowing(key)
            values.append((key, value))
          }
          return (values, changed)
        }
        for (key, value) in values { show(value, forKey: key) }
        mirror.withLock { mirror in for (key, _) in values { mirror.shown(key) } }
        pending = changed
      }
    }

    func stopEvents() { file.stopWatching() }

    /// Compares what the process's UserDefaults shows for `known` with what this domain expects,
    /// and adopts each difference as a write by other code. A value equal to a default registered
    /// in the process (by this library for any domain, or by other code: corelibs keeps one
    /// registration domain for every suite), or to a value of `NSGlobalDomain`, counts as no
    /// stored value: it is never stored. UserDefaults is read without the lock held; keys this
    /// domain changes meanwhile are skipped and compared at the next poll. A value is adopted only
    /// where the file still holds what the domain expected, so a write of this domain's that
    /// lands meanwhile is never replaced.
    func poll(known: Set<String>) -> Set<String>? {
      // A registration (by any domain) under way or finished while UserDefaults was read: what
      // was read may be an old default, not another writer's value. Read again (a read waits for
      // this comparison); after a few tries under constant registrations, compared next time.
      var attempt = 0
      var read:
        (version: UInt64, shown: [String: PropertyListValue], registered: [String: PropertyListValue])?
      while read == nil, attempt < 4 {
        attempt += 1
        let version = mirror.withLock { $0.version }
        let registrations = Self.registeredInProcess.withLock { $0.version }
        let shown = shownValues(keys: known)
        if attempt == 1 { Self.afterReadingFileValues?() }
        let registered = Self.registeredInProcess.withLock { registered in
          registered.version == registrations && registered.registering == 0 ? registered.values : nil
        }
        if let registered { read = (version, shown, registered) }
      }
      guard let (version, shown, registered) = read else { return [] }
      let candidates = mirror.withLock { mirror in
        known.filter { key in
          shown[key] != mirror.expectation(key, registered: registered)
            && mirror.mayCompare(key, readAt: version)
            // Shown by this library (another store over the suite): not another writer's.
            && !libraryShowed(shown[key], forKey: key)
        }
      }
      guard !candidates.isEmpty else { return [] }
      // What UserDefaults shows where nothing is stored: defaults registered in the process and
      // `NSGlobalDomain` (read through a suite that stores nothing).
      let unstored = Dictionary(
        uniqueKeysWithValues: candidates.map { key in
          (key, Self.registrationProbe.object(forKey: key).flatMap(PropertyListValue.init(foundationObject:)))
        })
      let adopted = mirror.withLock {
        mirror -> [(key: String, previous: PropertyListValue?, value: PropertyListValue?)] in
        var adopted: [(key: String, previous: PropertyListValue?, value: PropertyListValue?)] = []
        for key in candidates where mirror.mayCompare(key, readAt: version) {
          let value = shown[key]
          let stored =
            value == registered[key] || (value != nil && value == unstored[key] ?? nil) ? nil : value
          guard stored != mirror.expected[key] else { continue }
          adopted.append((key, mirror.expected[key], stored))
          mirror.expected[key] = stored
        }
        return adopted
      }
      Self.beforeAdopting?()
      var changed: Set<String> = []
      for (key, previous, value) in adopted
      where file.replaceValue(forKey: key, ifEqualTo: previous, with: value) {
        changed.insert(key)
      }
      return changed
    }

    /// A suite that nothing stores in: what it shows is what any domain shows where nothing is
    /// stored. `nonisolated(unsafe)` is safe for the reason ``defaults`` is.
    private nonisolated(unsafe) static let registrationProbe = UserDefaults(
      suiteName: "swift-preferences.registration-probe")!
  }
#endif
