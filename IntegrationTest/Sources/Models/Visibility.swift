/// A type from another module of the app, stored by SettingsKit.
public enum Visibility: String, Sendable, CaseIterable {
  case pub, unlisted, priv, direct
}
