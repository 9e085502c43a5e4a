// Every declaration of this target persists under the key derived for it, however its file is
// written (regex literals, #sourceLocation, a byte order mark, backticked names, conditions with
// comments, strings that look like code), and whatever names of the library's the module declares too.
import Foundation
import IntegrationSupport
import Preferences

/// A declaration's key, and how to write and check a value that differs from its default.
struct Case {
  var key: String
  var write: () -> Void
  var verify: () -> Bool
}

func makeCase<Value: Preferences.PreferenceValue & Equatable>(
  _ projection: @escaping () -> PreferenceProjection<Value>, _ key: String, _ value: Value
) -> Case {
  Case(
    key: key,
    write: {
      check(projection().key == key, "key \(projection().key), expected \(key)")
      check(projection().value != value, "\(key): the written value must differ from the default")
      projection().value = value
    },
    verify: { projection().key == key && projection().value == value && projection().hasStoredValue })
}

var cases = [
  makeCase({ LogFilter().$pattern }, "LogFilter.pattern", "warning"),
  makeCase({ LogFilter().$threshold }, "LogFilter.threshold", 9),
  makeCase({ AfterRegex().$enabled }, "AfterRegex.enabled", true),
  makeCase({ Generated().$fromTemplate }, "Generated.fromTemplate", "changed"),
  makeCase({ Generated().$secondFromTemplate }, "Generated.secondFromTemplate", 3),
  makeCase({ AfterTemplate().$back }, "AfterTemplate.back", false),
  makeCase({ MarkedFile().$since }, "MarkedFile.since", Date(timeIntervalSince1970: 86_400)),
  makeCase({ MarkedFile().$homepage }, "MarkedFile.homepage", URL(string: "https://swift.org")!),
  makeCase({ `default`.`Theme Settings`().$class }, "default.Theme Settings.class", "y"),
  makeCase({ `default`.`Theme Settings`().$Type }, "default.Theme Settings.Type", 5),
  makeCase({ `default`.`Theme Settings`.Nested().$value }, "default.Theme Settings.Nested.value", 7.5),
  makeCase({ Platform().$syncedOnDesktop }, "Platform.syncedOnDesktop", "changed"),
  makeCase({ Platform().$nested }, "Platform.nested", "changed"),
  makeCase({ Texts().$greeting }, "Texts.greeting", "changed"),
  makeCase({ Texts().$template }, "Texts.template", "changed"),
  makeCase({ NamedLikeTheLibrary().$since }, "NamedLikeTheLibrary.since", Date(timeIntervalSince1970: 60)),
  makeCase({ NamedLikeTheLibrary().$pane }, "NamedLikeTheLibrary.pane", Pane.advanced),
  makeCase({ NamedLikeTheLibrary().$widths }, "NamedLikeTheLibrary.widths", [.advanced: 240]),
  makeCase({ NamedLikeTheLibrary().$count }, "NamedLikeTheLibrary.count", 2),
  makeCase({ MainActorNames().$isolated }, "MainActorNames.isolated", "y"),
  makeCase({ ConditionalConformances().$side }, "ConditionalConformances.side", Side.right),
  makeCase({ ConditionalConformances().$widths }, "ConditionalConformances.widths", [.right: 2]),
  makeCase({ ConditionalConformances().$edge }, "ConditionalConformances.edge", Edge.bottom),
  makeCase({ ConditionalConformances().$heights }, "ConditionalConformances.heights", [.bottom: 3]),
  makeCase({ StoredPropertyForms().$frame }, "StoredPropertyForms.frame", StressFrame(width: 1024)),
  makeCase({ StoredPropertyForms().$layout }, "StoredPropertyForms.layout", StressLayout.list),
  makeCase({ StoredPropertyForms().$zoom }, "StoredPropertyForms.zoom", StressRange(lower: 1, upper: 2)),
  makeCase(
    { StoredPropertyForms().$names }, "StoredPropertyForms.names", StressRange(lower: "b", upper: "y")),
  makeCase({ PackageScoped().$retries }, "PackageScoped.retries", 5),
]

// Types only available from an OS that does not exist yet: their cases run where the
// attribute does not apply (Linux); elsewhere the registry still lists them.
let futureKeys = ["FutureSettings.mode", "FutureSettings.count", "Outer.Inner.level"]
if #available(macOS 99, iOS 99, tvOS 99, watchOS 99, visionOS 99, *) {
  cases += [
    makeCase({ FutureSettings().$mode }, "FutureSettings.mode", FutureMode.wide),
    makeCase({ FutureSettings().$count }, "FutureSettings.count", 5),
    makeCase({ Outer.Inner().$level }, "Outer.Inner.level", 6),
  ]
}
let declared = Set(PreferenceRegistry.preferences.map(\.key))
check(
  declared
    == Set(cases.map(\.key)).union(futureKeys).union([
      "LegacyOptions.timeout", "LegacyStores.suiteCount", "LegacyStores.sharedCount", "PartlyLegacy.oldLimit",
      "PartlyLegacy.limit", "DesktopOnly.layout", "DesktopOnly.zoomed",
    ]),
  "the registry lists exactly these keys: \(declared.sorted())")
// A deprecated type's defaults and stores are the registry's, as any other type's: registered
// up front by generated code that names the type without a warning (the build fails on one).
PreferenceRegistry.registerDefaults()
check(
  Preferences.PreferenceStore.default.registeredDefault(forKey: "LegacyOptions.timeout") == .integer(10),
  "a deprecated type's default is registered with the others")
PreferenceRegistry.registerDefaults(in: .suite("group.legacy"))
check(
  Preferences.PreferenceStore.suite("group.legacy").registeredDefault(forKey: "LegacyStores.suiteCount")
    == .integer(1),
  "a deprecated type's preference is registered in the store it names")
check(
  PreferenceRegistry.syncedKeys == ["Platform.syncedOnDesktop"], "a condition with a comment keeps its sync")
check(Platform().$syncedOnDesktop.defaultValue == "desktop", "the macOS-or-Linux branch is compiled")
check(Generated().$fromTemplate.key == "Generated.fromTemplate", "a #sourceLocation declaration resolves")

let paneKeys = KeyedPreferences<PaneKeys>()

switch Mode.current {
case .write:
  for item in cases { item.write() }
  check(paneKeys.value(for: .lastPane) == .general, "a typed key reads its default")
  paneKeys.set(Pane.advanced, for: .lastPane)
  passed("wrote \(cases.count) values")
case .verify:
  let failed = cases.filter { !$0.verify() }.map(\.key)
  check(failed.isEmpty, "not persisted under their keys: \(failed)")
  check(paneKeys.value(for: .lastPane) == .advanced, "a typed key's value persisted")
  passed("verified \(cases.count) values persisted under their keys")
}
