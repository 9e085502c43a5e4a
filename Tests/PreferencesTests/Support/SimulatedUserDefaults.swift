import Foundation
import Testing

@testable import Preferences

/// The preferences daemon of a simulated machine: the persistent domains every process's
/// UserDefaults shares (`cfprefsd` on Apple platforms), plus `NSGlobalDomain`, and the machine's
/// Darwin notify center, which carries notification names between processes.
///
/// Another process's write reaches this process's reads only once it has propagated (Apple
/// documents propagation to other processes as asynchronous): ``writeFromAnotherProcess(_:forKey:in:announced:propagated:)``
/// can hold it back until ``propagate()``.
final class SimulatedPreferencesDaemon: Sendable {
  static let globalDomain = "NSGlobalDomain"
  private let domains = Locked<[String: [String: PropertyListValue]]>([:])
  /// Writes of other processes not yet visible here.
  private let unpropagated = Locked<[(name: String, key: String, value: PropertyListValue?)]>([])
  private let darwinObservers = Locked<[String: [Int: @Sendable () -> Void]]>([:])
  private let nextDarwinObserver = Locked(0)
  /// Darwin notifications posted, by name.
  let darwinPosts = Locked<[String: Int]>([:])
  /// The platform's limit on one domain's size, enforced as CFPreferences does: a write that
  /// would bring a domain to it is refused, and not persisted.
  let sizeLimit: DomainSizeLimit?
  /// Writes refused for the limit, by key.
  let refusedWrites = Locked<[String]>([])
  private let sizeObservers = Locked<[Int: @Sendable () -> Void]>([:])

  init(sizeLimit: DomainSizeLimit? = nil) { self.sizeLimit = sizeLimit }

  func persistentDomain(_ name: String) -> [String: PropertyListValue] {
    domains.withLock { $0[name] ?? [:] }
  }
  func value(_ key: String, in name: String) -> PropertyListValue? { domains.withLock { $0[name]?[key] } }
  func set(_ value: PropertyListValue?, forKey key: String, in name: String) {
    _ = replace(key, in: name, ifEqualTo: nil, with: value, comparing: false)
  }
  /// Stores `value` if `expected` is stored, in one step.
  func replace(
    _ key: String, in name: String, ifEqualTo expected: PropertyListValue?, with value: PropertyListValue?,
    comparing: Bool = true
  ) -> Bool {
    let (replaced, refused) = domains.withLock { domains -> (Bool, Bool) in
      guard !comparing || domains[name]?[key] == expected else { return (false, false) }
      var domain = domains[name] ?? [:]
      domain[key] = value
      if let sizeLimit, value != nil,
        domain.reduce(0, { $0 + DomainSizes.size($1.value, $1.key) }) >= sizeLimit.bytes
      {
        return (false, true)
      }
      domains[name] = domain
      return (true, false)
    }
    if refused {
      refusedWrites.withLock { $0.append(key) }
      for handler in sizeObservers.withLock({ Array($0.values) }) { handler() }
    }
    return replaced
  }

  /// `sizeLimitExceededNotification`'s observers.
  func observeSizeLimit(_ handler: @escaping @Sendable () -> Void) -> Int {
    let id = nextDarwinObserver.withLock { next in
      defer { next += 1 }
      return next
    }
    sizeObservers.withLock { $0[id] = handler }
    return id
  }

  func removeSizeObserver(_ id: Int) { sizeObservers.withLock { _ = $0.removeValue(forKey: id) } }

  /// Another process (an app extension, a widget) writes the suite `name`: nothing is posted to
  /// this process's notification center. `announced`: the writer uses this library, which posts
  /// the domain's Darwin notification. `propagated: false` holds the value back from this process
  /// until ``propagate()``.
  func writeFromAnotherProcess(
    _ value: PropertyListValue?, forKey key: String, in name: String, announced: Bool = false,
    propagated: Bool = true
  ) {
    if propagated {
      set(value, forKey: key, in: name)
    } else {
      unpropagated.withLock { $0.append((name, key, value)) }
    }
    if announced { postDarwin(Self.announcement(for: name)) }
  }

  /// Makes every write of other processes visible here.
  func propagate() {
    let writes = unpropagated.withLock { writes in
      defer { writes = [] }
      return writes
    }
    for write in writes { set(write.value, forKey: write.key, in: write.name) }
  }

  /// The Darwin notification the library posts for the domain `name`.
  static func announcement(for name: String) -> String { "swift-preferences.changed." + name }

  func postDarwin(_ name: String) {
    darwinPosts.withLock { $0[name, default: 0] += 1 }
    let handlers = darwinObservers.withLock { $0[name].map { Array($0.values) } ?? [] }
    for handler in handlers { handler() }
  }

  func observeDarwin(_ name: String, _ handler: @escaping @Sendable () -> Void) -> Int {
    let id = nextDarwinObserver.withLock { next in
      defer { next += 1 }
      return next
    }
    darwinObservers.withLock { $0[name, default: [:]][id] = handler }
    return id
  }

  func removeDarwinObserver(_ id: Int, _ name: String) {
    darwinObservers.withLock { _ = $0[name]?.removeValue(forKey: id) }
  }
}

/// One simulated process: its `UserDefaults` objects share one registration domain (Apple's is
/// per process: "the registration domain … is volatile" and "the search list … for the current
/// process"; an object registers for every object, as the Xcode fixture relies on) and one
/// notification center, where each object posts `didChangeNotification` with itself as the
/// object.
final class SimulatedProcess: Sendable {
  let daemon: SimulatedPreferencesDaemon
  let registration = Locked<[String: PropertyListValue]>([:])
  private let observers = Locked<[Int: (object: ObjectIdentifier?, handler: @Sendable () -> Void)]>([:])
  private let nextObserver = Locked(0)

  init(daemon: SimulatedPreferencesDaemon = SimulatedPreferencesDaemon()) { self.daemon = daemon }

  /// `didChangeNotification`, posted by `object`, synchronously on this thread, to the observers
  /// of that object and of every object.
  func postDidChange(from object: ObjectIdentifier) {
    let handlers = observers.withLock { observers in
      observers.sorted { $0.key < $1.key }.filter { $0.value.object == nil || $0.value.object == object }
        .map(\.value.handler)
    }
    for handler in handlers { handler() }
  }

  func addObserver(object: ObjectIdentifier?, _ handler: @escaping @Sendable () -> Void) -> Int {
    let id = nextObserver.withLock { next in
      defer { next += 1 }
      return next
    }
    observers.withLock { $0[id] = (object, handler) }
    return id
  }

  func removeObserver(_ id: Int) { observers.withLock { _ = $0.removeValue(forKey: id) } }
}

/// A `UserDefaults` object of one simulated process, reproducing what Apple documents, so that
/// the logic Apple users run (``UserDefaultsBackend``) is tested on Linux:
///
/// - `object(forKey:)` searches the argument domain, the persistent domain, `NSGlobalDomain` and
///   the registration domain, in that order; ``storedValue(forKey:)`` and
///   `persistentDomain(forName:)` read the persistent domain only.
/// - `set` and `removeObject` post `didChangeNotification` synchronously, on the writing thread,
///   with this object as the notification's object, before they return; so does
///   `register(defaults:)` (Apple does not document it either way; posting is the harder case).
///   Several objects of one suite in one process share its values and the process's
///   registration domain.
/// - Another process's write (``SimulatedPreferencesDaemon/writeFromAnotherProcess(_:forKey:in:announced:propagated:)``)
///   posts nothing here, and may propagate late.
///
/// ``reentry``, when set, is called at the start of every call the library makes: tests make it
/// call back into the store, which deadlocks if any lock is held while UserDefaults runs.
final class SimulatedUserDefaults: DefaultsDomain {
  let process: SimulatedProcess
  var daemon: SimulatedPreferencesDaemon { process.daemon }
  let name: String
  private let arguments: [String: PropertyListValue]
  private let subscriptions = Locked<(notifications: [Int], darwin: [Int])>(([], []))
  let reentry = Locked<(@Sendable (String) -> Void)?>(nil)
  /// How many times the library polled, and stored values it read.
  let polls = Locked(0)
  let reads = Locked(0)
  /// Where the library keeps values outside the domain (the platform adapter's folder).
  let keptValuesDirectory: URL?
  private let sizeSubscriptions = Locked<[Int]>([])

  init(
    daemon: SimulatedPreferencesDaemon = SimulatedPreferencesDaemon(), name: String = "com.example.app",
    arguments: [String: PropertyListValue] = [:], keptValuesDirectory: URL? = nil
  ) {
    self.process = SimulatedProcess(daemon: daemon)
    self.name = name
    self.arguments = arguments
    self.keptValuesDirectory = keptValuesDirectory
  }

  /// Another object of `name` in `process` (other code's `UserDefaults(suiteName:)`).
  init(
    process: SimulatedProcess, name: String, arguments: [String: PropertyListValue] = [:],
    keptValuesDirectory: URL? = nil
  ) {
    self.process = process
    self.name = name
    self.arguments = arguments
    self.keptValuesDirectory = keptValuesDirectory
  }

  var sizeLimit: DomainSizeLimit? { daemon.sizeLimit }

  func observeSizeLimitExceeded(_ handler: @escaping @Sendable () -> Void) {
    let id = daemon.observeSizeLimit(handler)
    sizeSubscriptions.withLock { $0.append(id) }
  }

  private func reenter(_ call: String) { reentry.withLock { $0 }?(call) }

  private func post() { process.postDidChange(from: ObjectIdentifier(self)) }

  // MARK: UserDefaults as other code in the process sees it

  /// `UserDefaults.object(forKey:)`: the search list.
  func object(forKey key: String) -> PropertyListValue? {
    arguments[key] ?? daemon.value(key, in: name) ?? daemon.value(
      key, in: SimulatedPreferencesDaemon.globalDomain)
      ?? process.registration.withLock { $0[key] }
  }

  /// `set(_:forKey:)` / `removeObject(forKey:)` by other code in this process, through this object.
  func set(_ value: PropertyListValue?, forKey key: String) {
    daemon.set(value, forKey: key, in: name)
    post()
  }

  /// `register(defaults:)` by other code in this process.
  func registerDirectly(_ values: [String: PropertyListValue]) {
    process.registration.withLock { $0.merge(values) { $1 } }
    post()
  }

  /// Another process (an app extension, a widget) writing the same suite: nothing is posted here.
  func writeFromAnotherProcess(_ value: PropertyListValue?, forKey key: String) {
    daemon.writeFromAnotherProcess(value, forKey: key, in: name)
  }

  // MARK: DefaultsDomain

  var location: String { "SimulatedUserDefaults(\(name))" }

  /// A real object stands in for `UserDefaultsBackend.defaults`; the simulation is in this type.
  var userDefaults: UserDefaults { UserDefaults(suiteName: name) ?? .standard }

  var announcesChanges: Bool { true }
  func announceChange() { daemon.postDarwin(SimulatedPreferencesDaemon.announcement(for: name)) }

  func storedValue(forKey key: String) -> PropertyListValue? {
    reenter("storedValue")
    reads.withLock { $0 += 1 }
    return daemon.value(key, in: name)
  }

  func storedValues() -> [String: PropertyListValue] {
    reenter("storedValues")
    return daemon.persistentDomain(name)
  }

  func setStoredValue(_ value: PropertyListValue?, forKey key: String) {
    reenter("setStoredValue")
    set(value, forKey: key)
  }

  func replaceStoredValue(
    forKey key: String, ifEqualTo expected: PropertyListValue?, with value: PropertyListValue?
  ) -> Bool {
    reenter("replaceStoredValue")
    guard daemon.replace(key, in: name, ifEqualTo: expected, with: value) else { return false }
    post()
    return true
  }

  func register(defaults values: [String: PropertyListValue]) {
    reenter("register")
    registerDirectly(values)
  }

  func flush() throws { reenter("flush") }

  func storedForm(of value: PropertyListValue) -> PropertyListValue { value }

  /// As the Apple adapter does: every object's `didChangeNotification` in this process, and the
  /// Darwin notification other processes of the library post for this domain.
  func startEvents(_ onChange: @escaping @Sendable (Set<String>?) -> Void) {
    reenter("startEvents")
    let notification = process.addObserver(object: nil) { onChange(nil) }
    let darwin = daemon.observeDarwin(SimulatedPreferencesDaemon.announcement(for: name)) { onChange(nil) }
    subscriptions.withLock {
      $0.notifications.append(notification)
      $0.darwin.append(darwin)
    }
  }

  func stopEvents() {
    let (notifications, darwin) = subscriptions.withLock { current in
      defer { current = ([], []) }
      return current
    }
    notifications.forEach(process.removeObserver)
    sizeSubscriptions.withLock { ids in
      defer { ids = [] }
      return ids
    }.forEach(daemon.removeSizeObserver)
    for id in darwin { daemon.removeDarwinObserver(id, SimulatedPreferencesDaemon.announcement(for: name)) }
  }

  func poll(known: Set<String>) -> Set<String>? {
    reenter("poll")
    polls.withLock { $0 += 1 }
    return nil
  }
}

/// Runs `body`, and aborts the test run with `what` if it has not finished after `seconds`: a
/// deadlock (a lock held while calling out, re-entered by the callee) fails loudly instead of
/// hanging the run.
func withDeadlockWatchdog<T>(_ what: String, seconds: Double = 60, _ body: () throws -> T) rethrows -> T {
  let done = DispatchSemaphore(value: 0)
  Thread.detachNewThread {
    if done.wait(timeout: .now() + seconds) == .timedOut {
      FileHandle.standardError.write(Data("error: deadlock: \(what) did not finish in \(seconds) s\n".utf8))
      abort()
    }
  }
  defer { done.signal() }
  return try body()
}

/// Runs every test of a suite under ``withDeadlockWatchdog(_:seconds:_:)``.
struct DeadlockWatchdog: SuiteTrait, TestTrait, TestScoping {
  var isRecursive: Bool { true }

  func provideScope(
    for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
  ) async throws {
    let done = DispatchSemaphore(value: 0)
    let name = test.name
    Thread.detachNewThread {
      if done.wait(timeout: .now() + 120) == .timedOut {
        FileHandle.standardError.write(Data("error: deadlock: \(name) did not finish in 120 s\n".utf8))
        abort()
      }
    }
    defer { done.signal() }
    try await function()
  }
}

extension Trait where Self == DeadlockWatchdog {
  /// Aborts the run, naming the test, if a test deadlocks instead of hanging the run.
  static var deadlockWatchdog: Self { Self() }
}
