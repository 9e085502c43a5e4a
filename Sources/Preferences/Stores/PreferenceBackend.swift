import Foundation

/// The storage underneath a ``PreferenceStore``: a thread-safe map from keys to
/// ``PropertyListValue``s that persists them somewhere.
///
/// A backend only stores what it is given. Registered defaults, launch-argument overrides,
/// typed decoding, caching and migration live in ``PreferenceStore``, so every backend gets them
/// the same way. The library ships ``UserDefaultsBackend``, ``PropertyListFileBackend`` and
/// ``InMemoryBackend``; conform your own type to store preferences elsewhere.
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

  /// Starts reporting changes made outside this process (another process writing the same
  /// file or suite). `onChange` receives the keys whose values changed. The store calls this
  /// while it has observers.
  func startWatching(_ onChange: @escaping @Sendable (Set<String>) -> Void)

  /// Stops reporting outside changes.
  func stopWatching()
}

extension PreferenceBackend {
  /// Backends that cannot see outside changes report none.
  public func startWatching(_ onChange: @escaping @Sendable (Set<String>) -> Void) {}
  public func stopWatching() {}
}

/// Polls a backend for outside changes on a background queue; used by the file and
/// UserDefaults backends, whose platforms offer no portable change notification.
final class ChangePoller: Sendable {
  // `nonisolated(unsafe)` is safe: the timer is created and configured in `init`, and after that
  // only `cancel()` is called, which Dispatch documents as thread-safe.
  private nonisolated(unsafe) let timer: any DispatchSourceTimer

  /// Calls `check` every `interval` until the poller is released; `check` returns the changed keys.
  init(
    interval: DispatchTimeInterval, check: @escaping @Sendable () -> Set<String>,
    onChange: @escaping @Sendable (Set<String>) -> Void
  ) {
    timer = DispatchSource.makeTimerSource(
      queue: DispatchQueue(label: "swift-preferences.watch", qos: .utility))
    timer.schedule(deadline: .now() + interval, repeating: interval, leeway: .milliseconds(20))
    timer.setEventHandler {
      let changed = check()
      if !changed.isEmpty { onChange(changed) }
    }
    timer.resume()
  }

  deinit { timer.cancel() }
}

/// Flushes backends with pending writes shortly after a change, and at normal process exit.
///
/// swift-corelibs-foundation does not write `UserDefaults` on exit, and a property-list file
/// store coalesces writes; both register here so that a value set through the library is on disk
/// after a normal exit without the app calling anything.
enum PendingFlushes {
  private final class WeakBackend {
    weak var backend: (any PreferenceBackend)?
    init(_ backend: any PreferenceBackend) { self.backend = backend }
  }

  private struct State {
    var pending: [ObjectIdentifier: WeakBackend] = [:]
    var scheduled = false
  }

  private static let state = Locked(State())
  private static let queue = DispatchQueue(label: "swift-preferences.flush", qos: .utility)

  /// How long writes are coalesced before they are flushed.
  static let delay: DispatchTimeInterval = .milliseconds(50)

  private static let installExitHandler: Void = {
    atexit { PendingFlushes.flushAll() }
  }()

  /// Marks `backend` as having unsaved changes and schedules a flush.
  static func schedule(_ backend: any PreferenceBackend) {
    _ = installExitHandler
    let shouldSchedule = state.withLock { state -> Bool in
      state.pending[ObjectIdentifier(backend)] = WeakBackend(backend)
      defer { state.scheduled = true }
      return !state.scheduled
    }
    if shouldSchedule {
      queue.asyncAfter(deadline: .now() + delay) { flushAll() }
    }
  }

  /// Flushes every backend with unsaved changes now.
  static func flushAll() {
    let backends = state.withLock { state -> [any PreferenceBackend] in
      defer {
        state.pending.removeAll()
        state.scheduled = false
      }
      return state.pending.values.compactMap(\.backend)
    }
    for backend in backends {
      do {
        try backend.flush()
      } catch let error as PreferenceError {
        PreferenceDiagnostics.report(error)
      } catch {
        PreferenceDiagnostics.report(.writeFailed(path: backend.location, reason: "\(error)"))
      }
    }
  }
}
