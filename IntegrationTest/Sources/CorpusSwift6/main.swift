// The default corpus in Swift 6 with no default isolation: every form reads back through the
// wrapper and through its typed key.
import Foundation
import IntegrationSupport
import Preferences

// A dependency's enum case needs no actor, and the build plugin reads the dependency's sources
// (CorpusKit's), so the module's first registration, off the main thread while the main thread
// waits, registers those defaults at once, where plain UserDefaults readers see them. A default
// of unknown isolation would wait for the main actor's next turn, which cannot come before the
// checks below.
/// What the registering thread saw. `@unchecked Sendable`: the thread writes it before it
/// signals `done`, and the main thread reads it only after waiting for that signal.
final class SeenOffMain: @unchecked Sendable {
  var values: [String: String] = [:]
  let done = DispatchSemaphore(value: 0)
}
let seen = SeenOffMain()
Thread.detachNewThread {
  _ = DefaultCorpus().d000
  for key in ["d157", "d165", "d166", "d171"] {
    seen.values[key] =
      UserDefaults.standard.object(forKey: "DefaultCorpus.\(key)").map { "\($0)" } ?? "nothing"
  }
  seen.done.signal()
}
seen.done.wait()
check(
  seen.values == ["d157": "red", "d165": "green", "d166": "2", "d171": "compact"],
  "a dependency's enum cases are registered off the main actor: \(seen.values)")

checkDefaultCorpus()
