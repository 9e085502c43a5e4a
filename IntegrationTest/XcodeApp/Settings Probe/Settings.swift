import Preferences

/// Preferences of an Xcode app target whose product name has a space: its module is
/// `Settings_Probe`, and the keys are the same as a SwiftPM build of these sources would derive.
struct Probe {
  @Preference var username = "Anonymous"
  @Preference var launches = 0

  struct Window {
    @Preference var width = 800.0
  }
}
