import Foundation

/// Whether a file store's file can be read: the ``ProtectedDataSignal`` of a property-list file
/// store on the platforms that lock data away. A file that data protection keeps locked (before
/// the device's first unlock after a restart; with complete protection, whenever the device is
/// locked) cannot be opened, and the store must neither start empty over it nor let a write
/// replace what it holds. While the file is unreadable (rare, and brief) it is tried every 5
/// seconds; never otherwise.
final class FileReadableSignal: ProtectedDataSignal {
  private let file: PropertyListFile
  private let makePoller: UserDefaultsBackend.PollerFactory

  init(
    file: PropertyListFile,
    makePoller: @escaping UserDefaultsBackend.PollerFactory = { ChangePoller(interval: $0, tick: $1) }
  ) {
    self.file = file
    self.makePoller = makePoller
  }

  var isAvailable: Bool { !file.isUnreadableNow }

  func whenAvailable(_ handler: @escaping @Sendable () -> Void) -> PreferenceObservation {
    let fired = Locked(false)
    let poller = Locked<AnyObject?>(nil)
    let check: @Sendable () -> Void = { [weak self] in
      guard let self, self.isAvailable else { return }
      let first = fired.withLock { fired in
        defer { fired = true }
        return !fired
      }
      guard first else { return }
      let stopped = poller.withLock { poller in
        defer { poller = nil }
        return poller
      }
      withExtendedLifetime(stopped) {}
      handler()
    }
    let made = makePoller(.seconds(5), check)
    poller.withLock { $0 = made }
    return PreferenceObservation {
      let stopped = poller.withLock { poller in
        defer { poller = nil }
        return poller
      }
      withExtendedLifetime(stopped) {}
    }
  }
}
