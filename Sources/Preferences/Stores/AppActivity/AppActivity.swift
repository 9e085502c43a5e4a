import Foundation

/// Whether the app is in front, and when that changes. A UserDefaults store looks for other
/// processes' writes (a widget, an extension) when the app becomes active, and about once a
/// second while it is, and never while it is in the background.
///
/// The platform adapters (`AppActivity+UIKit.swift`, `+AppKit`, `+WatchKit`) forward the
/// system's notifications; a process with no app lifecycle (a tool, a server, Linux) has none,
/// and its stores look for outside writes only while they are observed. Tests use a stand-in.
protocol AppActivity: AnyObject, Sendable {
  /// Whether the app is active now.
  var isActive: Bool { get }
  /// Calls `handler` with the new state each time the app becomes active or leaves the
  /// foreground, on any thread, until the returned observation is released.
  func observe(_ handler: @escaping @Sendable (_ active: Bool) -> Void) -> PreferenceObservation
}

/// An ``AppActivity`` that forwards posted notifications: the platform adapters create one with
/// the names of their application's notifications.
final class NotifiedAppActivity: AppActivity {
  private struct State {
    var active: Bool
    var handlers: [Int: @Sendable (Bool) -> Void] = [:]
    var next = 0
  }
  private let state: Locked<State>
  private let tokens = Locked<[any NSObjectProtocol]>([])

  /// Follows `becameActive` and `leftForeground` notifications, starting as `initiallyActive`.
  init(initiallyActive: Bool, becameActive: [Notification.Name], leftForeground: [Notification.Name]) {
    state = Locked(State(active: initiallyActive))
    var tokens: [any NSObjectProtocol] = []
    for (names, active) in [(becameActive, true), (leftForeground, false)] {
      for name in names {
        tokens.append(
          NotificationCenter.default.addObserver(forName: name, object: nil, queue: nil) { [weak self] _ in
            self?.set(active)
          })
      }
    }
    self.tokens.withLock { $0 = tokens }
  }

  deinit {
    for token in tokens.withLock({ $0 }) { NotificationCenter.default.removeObserver(token) }
  }

  var isActive: Bool { state.withLock { $0.active } }

  /// Records the new state and tells the observers, outside the lock, if it changed.
  func set(_ active: Bool) {
    let handlers = state.withLock { state -> [@Sendable (Bool) -> Void] in
      guard state.active != active else { return [] }
      state.active = active
      return state.handlers.sorted { $0.key < $1.key }.map(\.value)
    }
    for handler in handlers { handler(active) }
  }

  func observe(_ handler: @escaping @Sendable (Bool) -> Void) -> PreferenceObservation {
    let id = state.withLock { state in
      defer { state.next += 1 }
      state.handlers[state.next] = handler
      return state.next
    }
    return PreferenceObservation { [weak self] in
      self?.state.withLock { _ = $0.handlers.removeValue(forKey: id) }
    }
  }
}
