import Dispatch
import Foundation

/// Runs main-actor work for a thread that must wait for its result, even while the main actor
/// itself waits for that thread.
///
/// `DispatchQueue.main.sync` alone deadlocks when the main actor is blocked waiting for the
/// caller: a thread that holds a turn of ``OneAtATime`` (registering a module's defaults) and
/// needs a default only the main actor may evaluate, while the main actor waits in `claim()` for
/// that same turn. That happens in Swift 5 mode, where a nonisolated default may read a
/// preference whose default is main-actor isolated. So the work is both queued on the main queue
/// (for a main actor that is free) and handed to main-actor code waiting in
/// ``wait(for:)``, which runs it between its checks. Whichever comes first runs it, once.
///
/// While the work runs, ``servedThread`` names the waiting thread: the main actor then acts for
/// it, and a turn that thread holds is re-entered rather than waited for.
enum MainActorHandoff {
  private struct Job {
    var from: ObjectIdentifier
    var run: @Sendable () -> Void
  }

  private struct State {
    var jobs: [Int: Job] = [:]
    var nextJob = 0
    /// Main-actor code waiting in ``wait(for:)``, each woken when work arrives.
    var waiters: [ObjectIdentifier: DispatchSemaphore] = [:]
    /// The threads whose work runs now, innermost last.
    var serving: [ObjectIdentifier] = []
  }

  private static let state = Locked(State())

  /// Runs `work` on the main actor and returns its result, waiting for it. Call it off the main
  /// actor (on it, call `work` directly).
  static func run<T: Sendable>(_ work: @escaping @MainActor @Sendable () -> T) -> T {
    let result = Locked<T?>(nil)
    let done = DispatchSemaphore(value: 0)
    let job = Job(from: ObjectIdentifier(Thread.current)) {
      let value = MainActor.assumeIsolated { work() }
      result.withLock { $0 = value }
      done.signal()
    }
    let (number, waiters) = state.withLock { state in
      defer { state.nextJob += 1 }
      state.jobs[state.nextJob] = job
      return (state.nextJob, Array(state.waiters.values))
    }
    for waiter in waiters { waiter.signal() }
    DispatchQueue.main.async { runJobs(only: number) }
    done.wait()
    guard let value = result.withLock({ $0 }) else { preconditionFailure("handed-off work did not finish") }
    return value
  }

  /// The thread the main actor currently runs handed-off work for, if any.
  static var servedThread: ObjectIdentifier? {
    state.withLock { $0.serving.last }
  }

  /// Waits, on the main actor, until `group` is done, running work handed off meanwhile.
  static func wait(for group: DispatchGroup) {
    let wake = DispatchSemaphore(value: 0)
    let id = ObjectIdentifier(wake)
    state.withLock { $0.waiters[id] = wake }
    defer { state.withLock { _ = $0.waiters.removeValue(forKey: id) } }
    group.notify(queue: .global()) { wake.signal() }
    while true {
      runJobs(only: nil)
      if group.wait(timeout: .now()) == .success { return }
      wake.wait()
    }
  }

  /// Runs the job numbered `only`, or every pending one, on the main actor, each at most once.
  private static func runJobs(only: Int?) {
    let jobs = state.withLock { state -> [Job] in
      if let only {
        return state.jobs.removeValue(forKey: only).map { [$0] } ?? []
      }
      defer { state.jobs = [:] }
      return state.jobs.sorted { $0.key < $1.key }.map(\.value)
    }
    for job in jobs {
      state.withLock { $0.serving.append(job.from) }
      job.run()
      state.withLock { _ = $0.serving.popLast() }
    }
  }
}
