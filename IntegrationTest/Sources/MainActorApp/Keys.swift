import Foundation
import Preferences
import ViewKit  // stands in for SwiftUI, whose `PreferenceKey` protocol this file names

/// An enum-keyed store's keys, in a file that imports a module declaring `PreferenceKey` (the
/// typed keys generated for them repeat this file's imports, as `lastOpened` is a `Date`).
enum LaunchKeys: String, PreferenceKeys {
  case lastOpened, nickname
  var defaultValue: any PreferenceValue {
    switch self {
    case .lastOpened: Date(timeIntervalSince1970: 0)
    case .nickname: "Anonymous"
    }
  }
}

/// A view preference declared beside the library, as SwiftUI code declares one.
struct HeightKey: PreferenceKey {
  static let defaultValue = 0.0
  static func reduce(value: inout Double, nextValue: () -> Double) { value = max(value, nextValue()) }
}
