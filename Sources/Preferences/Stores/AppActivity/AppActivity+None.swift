#if !canImport(UIKit) && !canImport(AppKit) && !os(watchOS)
  extension NotifiedAppActivity {
    /// No app lifecycle on this platform (Linux, a server): stores look for outside writes only
    /// while they are observed.
    static let system: NotifiedAppActivity? = nil
  }
#endif
