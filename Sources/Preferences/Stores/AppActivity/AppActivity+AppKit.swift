#if canImport(AppKit) && !targetEnvironment(macCatalyst)
  import AppKit
  import Foundation

  extension NotifiedAppActivity {
    /// The app's activity on macOS, from AppKit's `NSApplication.didBecomeActiveNotification` and
    /// `didResignActiveNotification`. A process that is not a regular app (a command-line tool, a
    /// daemon, an agent: `NSRunningApplication.current.activationPolicy != .regular`) has no
    /// lifecycle, and its stores look for outside writes only while observed.
    static let system: NotifiedAppActivity? =
      NSRunningApplication.current.activationPolicy == .regular
      ? NotifiedAppActivity(
        initiallyActive: NSRunningApplication.current.isActive,
        becameActive: [NSApplication.didBecomeActiveNotification],
        leftForeground: [NSApplication.didResignActiveNotification]) : nil
  }
#endif
