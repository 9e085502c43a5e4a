import Foundation
import Preferences
import ViewKit  // stands in for SwiftUI, whose `PreferenceKey` protocol this file names

/// An enum-keyed store's keys, in a file that imports a module declaring `PreferenceKey` (the
/// typed keys generated for them repeat this file's imports, as `lastOpened` is a `Date`).
enum LaunchKeys: String, PreferenceKeys {
  case lastOpened, nickname, lastPane, reviewedAt, retries
  // Keys of one platform, as apps declare them: each key's type is declared under its case's
  // condition, and the clauses after the `#if` block are read too.
  #if os(Linux)
    case linuxOnly, linuxComputed
  #else
    case elsewhere, elsewhereComputed
  #endif
  case afterConditional
  var defaultValue: any PreferenceValue {
    switch self {
    #if os(Linux)
      case .linuxOnly: 3
      // A type the compiler infers, declared only where the case is.
      case .linuxComputed: max(4, 5)
    #else
      case .elsewhere: "x"
      case .elsewhereComputed: max(4, 5)
    #endif
    case .afterConditional: 2.5
    case .lastOpened: Date(timeIntervalSince1970: 0)
    case .nickname: "Anonymous"
    case .lastPane: LaunchPane.library
    // Defaults whose type the compiler infers (a method's result, a function's): no `as`.
    case .reviewedAt: Date(timeIntervalSinceReferenceDate: 0).addingTimeInterval(60)
    case .retries: max(2, 3)
    }
  }
}

/// A key's type of the module's own, declared as users declare it: the registry writes its
/// conformance, as for a `@Preference` of that type.
enum LaunchPane: String {
  case library, search
}

/// A view preference declared beside the library, as SwiftUI code declares one.
struct HeightKey: PreferenceKey {
  static let defaultValue = 0.0
  static func reduce(value: inout Double, nextValue: () -> Double) { value = max(value, nextValue()) }
}
