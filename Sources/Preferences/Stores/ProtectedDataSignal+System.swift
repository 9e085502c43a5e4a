#if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
  import Foundation

  /// The system's protected-data state, told by a probe file kept with the protection class of
  /// UserDefaults' own storage (`completeUntilFirstUserAuthentication`): it cannot be opened
  /// before the device's first unlock after a restart, exactly when UserDefaults reads as empty.
  /// Foundation only, so it works in app extensions and on watchOS alike. While data is
  /// unavailable (rare, and brief) the probe is tried every 5 seconds; never otherwise.
  /// `FileProtectionType.completeUntilFirstUserAuthentication` exists from iOS 5, tvOS 9,
  /// watchOS 2 and visionOS 1.
  final class SystemProtectedDataSignal: ProtectedDataSignal {
    static let shared = SystemProtectedDataSignal()

    /// In the app's Application Support folder, never in `Library/Preferences`, which is
    /// cfprefsd's: a file of the library's own there is a file cfprefsd does not expect.
    private let probe: URL? = FileManager.default.urls(
      for: .applicationSupportDirectory, in: .userDomainMask
    ).first?.appendingPathComponent("swift-preferences/protection-probe")

    var isAvailable: Bool {
      guard let probe else { return true }
      if FileManager.default.isReadableFile(atPath: probe.path),
        let handle = try? FileHandle(forReadingFrom: probe)
      {
        try? handle.close()
        return true
      }
      // A probe that exists but cannot be opened: the device has not been unlocked yet.
      guard !FileManager.default.fileExists(atPath: probe.path) else { return false }
      // No probe yet (the first launch after adopting): nothing tells that data is locked away.
      // Create the probe for the next launches.
      try? FileManager.default.createDirectory(
        at: probe.deletingLastPathComponent(), withIntermediateDirectories: true)
      _ = FileManager.default.createFile(
        atPath: probe.path, contents: Data(),
        attributes: [.protectionKey: FileProtectionType.completeUntilFirstUserAuthentication])
      return true
    }

    func whenAvailable(_ handler: @escaping @Sendable () -> Void) -> PreferenceObservation {
      let fired = Locked(false)
      let poller = Locked<ChangePoller?>(nil)
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
      poller.withLock { $0 = ChangePoller(interval: .seconds(5), tick: check) }
      return PreferenceObservation {
        let stopped = poller.withLock { poller in
          defer { poller = nil }
          return poller
        }
        withExtendedLifetime(stopped) {}
      }
    }
  }
#endif
