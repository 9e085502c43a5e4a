import Foundation
import IntegrationSupport
import Preferences

// Each form of the migration table in Documentation.docc/AdoptingInAnExistingApp.md, as the
// "after" column writes it, compiled in every setting and run by `checkMigrationForms()`.

/// `extension Defaults.Keys { static let showFooter = Key<Bool>("showFooter", default: true,
/// suite: .group) }`, and `@AppStorage("showFooter", store: UserDefaults(suiteName: …))`.
struct PortedSettings {
  @Preference(key: "ported.showFooter", store: .suite("integration-ported")) var showFooter = true
  @Preference(key: "ported.accent") var accent = PortedAccent.blue
  @Preference(key: "ported.nickname") var nickname: String?
  @Preference(key: "ported.recents", format: .json) var recents: [String] = []
  @Preference(key: "ported.location") var location = PortedLocation(latitude: 0, longitude: 0)
  @Preference(store: .app) var uiTestable = 1
  @Preference(store: Self.uiTestSuite) var draft = "empty"

  /// A store only this file sees: the declaration above evaluates it.
  private static let uiTestSuite = PreferenceStore.suite("integration-private-store")
  static var uiTestSuiteForChecks: PreferenceStore { uiTestSuite }
}

/// `@Default(.showFooter) var showFooter` in a view.
struct PortedFooter {
  @Preference(\PortedSettings.showFooter) var showFooter
}

/// A raw-value enum (`Defaults.Serializable` by its raw value, `@AppStorage`'s enum form).
enum PortedAccent: String {
  case blue, pink
}

/// `Defaults.Bridge`: a type stored in a form of its own.
nonisolated struct PortedLocation: Equatable, PreferenceValue {
  var latitude: Double
  var longitude: Double

  func propertyListValue() throws -> PropertyListValue? {
    .string("\(latitude),\(longitude)")
  }

  init(latitude: Double, longitude: Double) {
    self.latitude = latitude
    self.longitude = longitude
  }

  init(propertyListValue: PropertyListValue) throws {
    guard case .string(let text) = propertyListValue,
      let parts = Optional(text.split(separator: ",").compactMap { Double($0) }), parts.count == 2
    else {
      throw PreferenceError.typeMismatch(key: "", expected: "PortedLocation", found: "\(propertyListValue)")
    }
    self.init(latitude: parts[0], longitude: parts[1])
  }
}

/// A store chosen at run time: a separate suite under UI tests, in one line.
extension PreferenceStore {
  nonisolated static let app: PreferenceStore =
    CommandLine.arguments.contains("-ui-testing") ? .suite("integration-ui-tests") : .suite("integration-app")
}

/// Runs each form once; the three programs that compile this file share the suites, so each
/// starts from a reset.
func checkMigrationForms() {
  let settings = PortedSettings()
  PortedSettings().$showFooter.removeValue()
  // `Defaults[.showFooter]`, `Defaults[.showFooter] = false`.
  check(settings.showFooter, "a ported default")
  settings.showFooter = false
  check(!PortedFooter().showFooter, "a view's one-line reference reads the ported key")
  // `Defaults.observe(.showFooter) { … }` (called at once) and `Defaults.updates(.showFooter)`.
  let heard = Locked<[Bool]>([])
  let observation = settings.$showFooter.observe(initial: true) { value in heard.withLock { $0.append(value) }
  }
  settings.showFooter = true
  observation.cancel()
  check(heard.withLock { $0 } == [false, true], "observe(initial: true) hears the value, then each change")
  let changesOnly: AsyncStream<Bool> = settings.$showFooter.values(initial: false)
  _ = changesOnly
  // `Defaults.reset(.showFooter)`.
  settings.$showFooter.removeValue()
  check(settings.showFooter && !settings.$showFooter.hasStoredValue, "reset reads the default again")
  // `@AppStorage("ported.accent") var accent = PortedAccent.blue`: stored as its raw value.
  settings.accent = .pink
  check(
    UserDefaults.standard.string(forKey: "ported.accent") == "pink", "an enum is stored as its raw value")
  // `@AppStorage("ported.recents")` with the RawRepresentable JSON idiom.
  settings.recents = ["a", "b"]
  check(
    UserDefaults.standard.string(forKey: "ported.recents") == #"["a","b"]"#, "format: .json stores JSON text")
  // `Defaults.Bridge`: the conformance's own form.
  settings.location = PortedLocation(latitude: 1.5, longitude: 2)
  check(UserDefaults.standard.string(forKey: "ported.location") == "1.5,2.0", "a bridged type's own form")
  check(settings.location == PortedLocation(latitude: 1.5, longitude: 2), "a bridged type reads back")
  check(settings.nickname == nil, "an optional without a default")
  // The store chosen at run time.
  check(settings.$uiTestable.store === PreferenceStore.app, "a store chosen at run time")
  // A store: that names a private static.
  check(settings.$draft.store === PortedSettings.uiTestSuiteForChecks, "a private store")
  settings.draft = "kept"
  check(
    PortedSettings.uiTestSuiteForChecks.value(forKey: "PortedSettings.draft", default: "") == "kept",
    "a private store holds the value")
  settings.$draft.removeValue()
  settings.$accent.removeValue()
  settings.$recents.removeValue()
  settings.$location.removeValue()
  passed("the migration table's forms")
}

/// A value behind a lock, for handlers called on any thread.
// @unchecked Sendable: `value` is read and written only inside `withLock`, under `lock`.
nonisolated final class Locked<Value: Sendable>: @unchecked Sendable {
  private let lock = NSLock()
  private var value: Value
  init(_ value: Value) { self.value = value }
  func withLock<R>(_ body: (inout Value) -> R) -> R {
    lock.lock()
    defer { lock.unlock() }
    return body(&value)
  }
}
