// A settings model ported from @AppStorage, as an app with a settings package has it: a
// main-actor @Observable class of public preferences under the snake_case keys the previous
// version stored, read by the app's other modules. Its imports carry access levels, as in a
// library that adopted them (SE-0409): the generated tables must not warn about them.
public import Foundation
public import Models
public import Observation
public import Preferences

/// Stored as its raw value, as @AppStorage stores String enums.
public enum StatusAction: String, PreferenceValue, CaseIterable {
  case reply, boost, favorite, bookmark
}

/// An Int enum, stored as its raw value; public and Sendable, so the registry writes its
/// conformance.
public enum FontSize: Int, Sendable {
  case small = 12, medium = 15, large = 18
}

/// A type from another module of the same package conforms like the module's own (`@retroactive`
/// is for types from other packages, and the compiler rejects it here).
extension Visibility: PreferenceValue {}

@MainActor @Observable public final class UserPreferences {
  public static let shared = UserPreferences()

  @ObservationIgnored @Preference(key: "preferred_browser") public var preferredBrowser = 0
  @ObservationIgnored @Preference(key: "swipe_action_leading") public var leadingSwipeAction = StatusAction
    .reply
  @ObservationIgnored @Preference(key: "swipe_action_trailing") public var trailingSwipeAction: StatusAction =
    .favorite
  @ObservationIgnored @Preference(key: "font_size") public var fontSize = FontSize.medium
  @ObservationIgnored @Preference(key: "app_default_post_visibility") public var postVisibility = Visibility
    .pub
  @ObservationIgnored @Preference(key: "show_translate_button") public var showTranslateButton = true
  @ObservationIgnored @Preference(key: "line_spacing") public var lineSpacing: Double = 1.2
  /// The previous version stored this through `extension Array: RawRepresentable`, as JSON text;
  /// `format: .json` keeps that representation, so a rollback still reads it.
  @ObservationIgnored @Preference(key: "recently_used_languages", format: .json)
  public var recentlyUsedLanguages: [String] = []
  @ObservationIgnored @Preference(key: "remote_timelines") public var remoteTimelines: [String] = []
  @ObservationIgnored @Preference(key: "last_account") public var lastAccount: String?

  public var swipeSummary: String { "\(leadingSwipeAction.rawValue)/\(trailingSwipeAction.rawValue)" }

  public init() {}
}

/// Package, open and inlinable uses of preferences compile too.
open class ThemeSettings {
  public init() {}
  @Preference open var accentName = "blue"
  @Preference package var packageOnly = 1
  @Preference @usableFromInline var inlinableCount = 3

  @inlinable public func doubledCount() -> Int { inlinableCount * 2 }
}

/// Settings a background sync shares across tasks: `Sendable`, isolated to no actor. Swift rejects
/// a property wrapper in a `Sendable` class ("stored property '_batchSize' of
/// 'Sendable'-conforming class is mutable"), so it is `@unchecked Sendable`, which is safe: a
/// preference's storage is assigned only when the object is created, and reads and writes go to
/// the store, which is thread-safe.
public final class SyncOptions: @unchecked Sendable {
  public init() {}
  @Preference public var batchSize = 100
}
