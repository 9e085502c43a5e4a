import Foundation

/// The calls of one expiring background activity, as Apple documents
/// `ProcessInfo.performExpiringActivity(withReason:using:)`: the system calls the block once, on
/// a concurrent queue, with `expired == false` to run the work, or `true` when the process is
/// about to be suspended and the work must not start; and, while a first call still runs, a
/// second time with `true`: "stop in-progress work". The activity ends when the calls return.
///
/// Work that has not yet taken a file lock sees ``isExpiring`` (through ``current``) and leaves
/// its writes pending. The second call returns only when the work has finished, so that a flush
/// holding a file lock keeps the process running until it lets go: an app suspended while it
/// holds a lock in a shared container is terminated (0xdead10cc). Flushes are short; a lock held
/// elsewhere is waited for at most ``PropertyListFile/lockWait``.
///
/// The platform adapter (`BackgroundActivity+Suspension.swift`) only forwards the system's calls
/// to ``handle(expired:)``; the logic is tested on Linux by calling it as the system does.
final class ExpiringActivity: Sendable {
  private let work: @Sendable (_ expired: Bool) -> Void
  private struct State {
    var started = false
    var expiring = false
    var finished = false
  }
  private let state = Locked(State())
  /// Left when the work has finished.
  private let done = Locked(DispatchGroup())

  /// The activity the current thread's work runs in, if any.
  @TaskLocal static var current: ExpiringActivity?

  /// Runs in the second call before it waits for the work, for tests.
  @TaskLocal static var beforeWaitingForWork: TestHook?

  init(_ work: @escaping @Sendable (_ expired: Bool) -> Void) {
    self.work = work
    done.withLock { $0.enter() }
  }

  /// Whether the system has said the process is about to be suspended.
  var isExpiring: Bool { state.withLock { $0.expiring } }

  /// One call of the system's block.
  func handle(expired: Bool) {
    enum Role {
      case run(expired: Bool)
      case wait
      case none
    }
    let role = state.withLock { state -> Role in
      if expired { state.expiring = true }
      if !state.started {
        state.started = true
        return .run(expired: expired)
      }
      return state.finished ? .none : .wait
    }
    switch role {
    case .run(let expired):
      Self.$current.withValue(self) { work(expired) }
      state.withLock { $0.finished = true }
      done.withLock { $0 }.leave()
    case .wait:
      Self.beforeWaitingForWork?()
      done.withLock { $0 }.wait()
    case .none:
      break
    }
  }

  /// Thrown by work that found the activity expiring before it took a lock: its writes stay
  /// pending and are scheduled again, not reported as a failure.
  struct Expired: Error {}
}
