import Foundation
import IntegrationSupport
import Preferences

// A deadlock fails the run instead of hanging it.
Thread.detachNewThread {
  Thread.sleep(forTimeInterval: 60)
  check(false, "the main thread and the registering thread waited for each other")
}

switch Mode.current {
case .write:
  // The module's first read, off the main thread, registers its defaults. That registration
  // evaluates `Banner.defaultTitle()`, which reads `Appearance.accent`, whose default only the
  // main actor may evaluate; meanwhile the main thread reads too, and so waits for it.
  let registered = DispatchSemaphore(value: 0)
  Thread.detachNewThread {
    _ = Appearance().$accent.key
    registered.signal()
  }
  Banner.evaluating.wait()
  check(Appearance().accent == "teal", "the main thread reads the main-actor default")
  registered.wait()
  check(
    UserDefaults.standard.string(forKey: "Banner.title") == "Accent: teal",
    "the registration registered the default that read the main-actor one")
  Appearance().accent = "coral"
case .verify:
  check(Appearance().accent == "coral", "the main-actor preference persisted")
  check(
    Banner().title == "Accent: coral",
    "the default, evaluated as this run registered, reads the stored accent")
}
passed("a registration off the main thread runs a main-actor default on the waiting main thread")
