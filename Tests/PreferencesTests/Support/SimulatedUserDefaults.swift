import Foundation
import Testing

@testable import Preferences

/// The preferences daemon of a simulated machine: the persistent domains every process's
/// UserDefaults shares (`cfprefsd` on Apple platforms), plus `NSGlobalDomain`.
final class SimulatedPreferencesDaemon: Sendable {
  static let globalDomain = "NSGlobalDomain"
  private let domains = Locked<[String: [String: PropertyListValue]]>([:])

  func persistentDomain(_ name: String) -> [String: PropertyListValue] {
    domains.withLock { $0[name] ?? [:] }
  }
  func value(_ key: String, in name: String) -> PropertyListValue? { domains.withLock { $0[name]?[key] } }
  func set(_ value: PropertyListValue?, forKey key: String, in name: String) {
    domains.withLock { $0[name, default: [:]][key] = value }
  }
  /// Stores `value` if `expected` is stored, in one step.
  func replace(
    _ key: String, in name: String, ifEqualTo expected: PropertyListValue?, with value: PropertyListValue?
  ) -> Bool {
    domains.withLock { domains in
      guard domains[name]?[key] == expected else { return false }
      domains[name, default: [:]][key] = value
      return true
    }
  }
}

/// A `UserDefaults` object of one simulated process, reproducing what Apple documents, so that
/// the logic Apple users run (``UserDefaultsBackend``) is tested on Linux:
///
/// - `object(forKey:)` searches the argument domain, the persistent domain, `NSGlobalDomain` and
///   the registration domain, in that order; ``storedValue(forKey:)`` and
///   `persistentDomain(forName:)` read the persistent domain only.
/// - `set` and `removeObject` post `didChangeNotification` synchronously, on the writing thread,
///   to the observers of this object, before they return; so does `register(defaults:)` (Apple
///   does not document it either way; posting is the harder case).
/// - Another process's write (``writeFromAnotherProcess(_:forKey:)``) posts nothing here.
///
/// ``reentry``, when set, is called at the start of every call the library makes: tests make it
/// call back into the store, which deadlocks if any lock is held while UserDefaults runs.
final class SimulatedUserDefaults: DefaultsDomain {
  let daemon: SimulatedPreferencesDaemon
  let name: String
  private let arguments: [String: PropertyListValue]
  private let registration = Locked<[String: PropertyListValue]>([:])
  private let observers = Locked<[Int: @Sendable (Set<String>?) -> Void]>([:])
  private let nextObserver = Locked(0)
  let reentry = Locked<(@Sendable (String) -> Void)?>(nil)
  /// How many times the library polled, and stored values it read.
  let polls = Locked(0)
  let reads = Locked(0)

  init(
    daemon: SimulatedPreferencesDaemon = SimulatedPreferencesDaemon(), name: String = "com.example.app",
    arguments: [String: PropertyListValue] = [:]
  ) {
    self.daemon = daemon
    self.name = name
    self.arguments = arguments
  }

  private func reenter(_ call: String) { reentry.withLock { $0 }?(call) }

  private func post() {
    let handlers = observers.withLock { Array($0.values) }
    for handler in handlers { handler(nil) }
  }

  // MARK: UserDefaults as other code in the process sees it

  /// `UserDefaults.object(forKey:)`: the search list.
  func object(forKey key: String) -> PropertyListValue? {
    arguments[key] ?? daemon.value(key, in: name) ?? daemon.value(
      key, in: SimulatedPreferencesDaemon.globalDomain)
      ?? registration.withLock { $0[key] }
  }

  /// `set(_:forKey:)` / `removeObject(forKey:)` by other code in this process, through this object.
  func set(_ value: PropertyListValue?, forKey key: String) {
    daemon.set(value, forKey: key, in: name)
    post()
  }

  /// `register(defaults:)` by other code in this process.
  func registerDirectly(_ values: [String: PropertyListValue]) {
    registration.withLock { $0.merge(values) { $1 } }
    post()
  }

  /// Another process (an app extension, a widget) writing the same suite: nothing is posted here.
  func writeFromAnotherProcess(_ value: PropertyListValue?, forKey key: String) {
    daemon.set(value, forKey: key, in: name)
  }

  // MARK: DefaultsDomain

  var location: String { "SimulatedUserDefaults(\(name))" }

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

  func startEvents(_ onChange: @escaping @Sendable (Set<String>?) -> Void) {
    reenter("startEvents")
    let id = nextObserver.withLock { next in
      defer { next += 1 }
      return next
    }
    observers.withLock { $0[id] = onChange }
  }

  func stopEvents() { observers.withLock { $0.removeAll() } }

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
