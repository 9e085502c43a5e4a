// A type the user conforms under one condition, stored and keying a stored dictionary: the
// registry writes the value conformance where the user's is absent and the key conformance
// everywhere, each line compiling beside the other (and `Sendable` stated once where needed).
import Preferences

enum Side: String {
  case left, right
}
#if os(Linux)
  extension Side: Preferences.PreferenceValue {}
#endif

enum Edge: String {
  case top, bottom
}
#if os(macOS) || os(iOS)
  extension Edge: Preferences.PreferenceValue {}
#endif

struct ConditionalConformances {
  @Preference var side = Side.left
  @Preference var widths: [Side: Int] = [:]
  @Preference var edge = Edge.top
  @Preference var heights: [Edge: Int] = [:]
}
