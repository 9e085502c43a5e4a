import Preferences

/// Settings declared once, as a port from Defaults declares them: key, store and default in one
/// place. Changing one here changes it for every view below.
struct DisplaySettings {
  static let defaultScale = 1.25

  @Preference(key: "showFooter", store: .standard) var showFooter = true
  @Preference var fontScale = DisplaySettings.defaultScale
  @Preference var pinned: [String] = ["Inbox"]
}

/// Views that show those settings, one line each: no key, store or default repeated.
struct FooterBar {
  @Preference(\DisplaySettings.showFooter) var showFooter
  @Preference(\DisplaySettings.fontScale) var fontScale
}

struct ReaderPane {
  @Preference(\DisplaySettings.fontScale) var fontScale
  @Preference(\DisplaySettings.pinned) var pinned: [String]
}
