import Foundation
import Observation
import Testing

@testable import Preferences

/// Pollers a test creates and fires by hand: the UserDefaults store's comparison of the keys in
/// use, with the interval it asked for.
final class ManualPollers: Sendable {
  final class Poller: Sendable {
    let interval: DispatchTimeInterval
    let tick: @Sendable () -> Void
    init(_ interval: DispatchTimeInterval, _ tick: @escaping @Sendable () -> Void) {
      self.interval = interval
      self.tick = tick
    }
  }
  private struct Weak: @unchecked Sendable {
    // @unchecked: a weak reference to a Sendable class, read and written under the lock only.
    weak var poller: Poller?
  }
  private let made = Locked<[Weak]>([])

  var factory: UserDefaultsBackend.PollerFactory {
    { interval, tick in
      let poller = Poller(interval, tick)
      self.made.withLock { $0.append(Weak(poller: poller)) }
      return poller
    }
  }

  /// The pollers the backend still holds (a released one stopped).
  var running: [Poller] { made.withLock { $0.compactMap(\.poller) } }

  /// One tick of every running poller.
  func tick() { for poller in running { poller.tick() } }
}

/// A view model as SwiftUI sees one: a computed property that reads a preference.
@Observable final class GreetingModel {
  @ObservationIgnored let store: PreferenceStore
  init(store: PreferenceStore) { self.store = store }
  var greeting: String { store.value(forKey: "Widget.greeting", default: "Hello") }
}

/// Other processes (a widget, a share extension, an App Intent) and other `UserDefaults` objects
/// write the suite the app reads; what reaches the app, and when, against the stand-in of
/// Apple's UserDefaults and the app's activity.
@Suite(.deadlockWatchdog) struct LiveUpdatesTests {
  struct App {
    let daemon = SimulatedPreferencesDaemon()
    let process: SimulatedProcess
    let defaults: SimulatedUserDefaults
    let activity = NotifiedAppActivity(initiallyActive: true, becameActive: [], leftForeground: [])
    let pollers = ManualPollers()
    /// Announcements the backend scheduled and the test has not run yet.
    let announcements = Locked<[@Sendable () -> Void]>([])
    let backend: UserDefaultsBackend
    let store: PreferenceStore

    init(active: Bool = true) {
      process = SimulatedProcess(daemon: daemon)
      defaults = SimulatedUserDefaults(process: process, name: "group.com.example.app")
      if !active { activity.set(false) }
      backend = UserDefaultsBackend(
        suiteName: "group.com.example.app", domain: defaults, activity: activity, makePoller: pollers.factory,
        scheduleAnnouncement: { [announcements] post in announcements.withLock { $0.append(post) } })
      store = PreferenceStore(backend: backend, arguments: [])
    }

    /// Posts the announcements scheduled so far, as the background queue would.
    func postAnnouncements() {
      let scheduled = announcements.withLock { list in
        defer { list = [] }
        return list
      }
      for post in scheduled { post() }
    }

    /// Whether `read` was invalidated by what `change` did, as SwiftUI would re-render.
    func invalidates(_ read: @escaping () -> Void, _ change: () -> Void) -> Bool {
      let invalidated = Locked(false)
      withObservationTracking(read) { invalidated.withLock { $0 = true } }
      change()
      return invalidated.withLock { $0 }
    }
  }

  /// The widget writes while the app is in the background: nothing runs then; when the app
  /// becomes active, the view model that read the preference is invalidated and reads the
  /// widget's value.
  @Test func anotherProcessesWriteReachesATrackedModelWhenTheAppBecomesActive() {
    let app = App(active: false)
    let model = GreetingModel(store: app.store)
    #expect(model.greeting == "Hello")
    #expect(app.pollers.running.isEmpty, "nothing runs in the background")
    let invalidated = app.invalidates({ _ = model.greeting }) {
      app.daemon.writeFromAnotherProcess(
        .string("Hi from the widget"), forKey: "Widget.greeting", in: app.defaults.name)
      #expect(app.pollers.running.isEmpty)
      app.activity.set(true)
    }
    #expect(invalidated)
    #expect(model.greeting == "Hi from the widget")
  }

  /// While the app is active and uses the preference, another process's write (one that does
  /// not announce it: plain UserDefaults, `@AppStorage`) arrives at the next comparison, which
  /// runs at least once a second.
  @Test func whileActiveAnotherProcessesWriteReachesATrackedModelWithinASecond() throws {
    let app = App()
    let model = GreetingModel(store: app.store)
    #expect(model.greeting == "Hello")
    let poller = try #require(app.pollers.running.first, "an active app that uses a preference compares it")
    #expect(app.pollers.running.count == 1)
    guard case .seconds(let seconds) = poller.interval else {
      Issue.record("interval \(poller.interval)")
      return
    }
    #expect(seconds <= 1)
    let invalidated = app.invalidates({ _ = model.greeting }) {
      app.daemon.writeFromAnotherProcess(.string("Updated"), forKey: "Widget.greeting", in: app.defaults.name)
      app.pollers.tick()
    }
    #expect(invalidated)
    #expect(model.greeting == "Updated")
  }

  /// A process that writes through this library announces it: the write arrives at once, with
  /// no comparison (a Darwin notification on Apple platforms). Announced before it propagated
  /// (propagation is asynchronous), it arrives at the next comparison.
  @Test func anAnnouncedWriteArrivesAtOnceOrAtTheNextComparison() {
    let app = App()
    let model = GreetingModel(store: app.store)
    #expect(model.greeting == "Hello")
    #expect(
      app.invalidates({ _ = model.greeting }) {
        app.daemon.writeFromAnotherProcess(
          .string("Announced"), forKey: "Widget.greeting", in: app.defaults.name, announced: true)
      })
    #expect(model.greeting == "Announced")
    let late = app.invalidates({ _ = model.greeting }) {
      app.daemon.writeFromAnotherProcess(
        .string("Late"), forKey: "Widget.greeting", in: app.defaults.name, announced: true, propagated: false)
    }
    #expect(!late, "nothing to see yet")
    #expect(
      app.invalidates({ _ = model.greeting }) {
        app.daemon.propagate()
        app.pollers.tick()
      })
    #expect(model.greeting == "Late")
  }

  /// The app's own writes are announced to other processes of the library, once for a burst of
  /// writes, from the background queue; a write after the announcement started is announced
  /// again.
  @Test func theLibrarysWritesAreAnnouncedOncePerBurst() {
    let app = App()
    let name = SimulatedPreferencesDaemon.announcement(for: app.defaults.name)
    let posts = { app.daemon.darwinPosts.withLock { $0[name] ?? 0 } }
    for value in 0..<10 { app.store.set(value, forKey: "Widget.volume") }
    #expect(posts() == 0, "posted from the queue, not by the writing thread")
    #expect(app.announcements.withLock { $0.count } == 1, "one announcement for ten writes")
    app.postAnnouncements()
    #expect(posts() == 1)
    app.store.set("Mine", forKey: "Widget.greeting")
    #expect(app.announcements.withLock { $0.count } == 1, "a later write is announced again")
    app.postAnnouncements()
    #expect(posts() == 2)
    #expect(app.defaults.storedValue(forKey: "Widget.greeting") == .string("Mine"))
  }

  /// By default the announcement is posted from a background queue, after the write returned.
  @Test func theDefaultAnnouncementIsPostedFromAnotherThread() {
    let daemon = SimulatedPreferencesDaemon()
    let defaults = SimulatedUserDefaults(
      process: SimulatedProcess(daemon: daemon), name: "group.com.example.app")
    let store = PreferenceStore(
      backend: UserDefaultsBackend(suiteName: "group.com.example.app", domain: defaults, activity: nil),
      arguments: [])
    let posted = DispatchSemaphore(value: 0)
    let postingThread = Locked<Thread?>(nil)
    let observer = daemon.observeDarwin(SimulatedPreferencesDaemon.announcement(for: defaults.name)) {
      postingThread.withLock { $0 = Thread.current }
      posted.signal()
    }
    defer {
      daemon.removeDarwinObserver(observer, SimulatedPreferencesDaemon.announcement(for: defaults.name))
    }
    store.set("Mine", forKey: "Widget.greeting")
    #expect(posted.wait(timeout: .now() + 30) == .success, "the announcement was posted")
    #expect(postingThread.withLock { $0 } != Thread.current)
  }

  /// No comparison runs in the background, nor while the app uses no preference of the store; it
  /// starts with the first read or write (a value written is then read from the cache) and stops
  /// when the app leaves the foreground.
  @Test func zeroWakeupsInTheBackgroundOrBeforeAnyUse() {
    let app = App()
    #expect(app.pollers.running.isEmpty, "no preference used: nothing to compare")
    app.store.set("written", forKey: "Widget.greeting")
    #expect(app.pollers.running.count == 1)
    _ = app.store.value(forKey: "Widget.greeting", default: "")
    #expect(app.pollers.running.count == 1)
    app.activity.set(false)
    #expect(app.pollers.running.isEmpty, "the background stops it")
    app.activity.set(true)
    #expect(app.pollers.running.count == 1)
  }

  /// Without an app lifecycle (a tool, a server), the store compares only while observed.
  @Test func withoutAnAppLifecycleOnlyAnObservedStoreCompares() {
    let pollers = ManualPollers()
    let defaults = SimulatedUserDefaults()
    let store = PreferenceStore(
      backend: UserDefaultsBackend(
        suiteName: nil, domain: defaults, activity: nil, makePoller: pollers.factory),
      arguments: [])
    _ = store.value(forKey: "k", default: 0)
    #expect(pollers.running.isEmpty)
    let observation = store.observe("k", default: 0) { _ in }
    #expect(waitUntil { pollers.running.count == 1 })
    observation.cancel()
    #expect(waitUntil { pollers.running.isEmpty })
  }

  /// Other code in the app writes the same suite through a `UserDefaults` object of its own: the
  /// next read sees it, and tracked reads are invalidated, at once.
  @Test func aWriteThroughAnotherUserDefaultsObjectReachesReadsAtOnce() {
    let app = App()
    let other = SimulatedUserDefaults(process: app.process, name: app.defaults.name)
    let model = GreetingModel(store: app.store)
    #expect(model.greeting == "Hello")
    #expect(
      app.invalidates({ _ = model.greeting }) {
        other.set(.string("From other code"), forKey: "Widget.greeting")
      })
    #expect(app.store.value(forKey: "Widget.greeting", default: "") == "From other code")
  }

  /// The registration domain is the process's: defaults the library registers through its
  /// object are seen through every other object, of any suite.
  @Test func registeredDefaultsAreSeenThroughEveryObjectOfTheProcess() {
    let app = App()
    app.store.register(defaults: ["Widget.greeting": "Hello"])
    let other = SimulatedUserDefaults(process: app.process, name: "another.suite")
    #expect(other.object(forKey: "Widget.greeting") == .string("Hello"))
  }
}
