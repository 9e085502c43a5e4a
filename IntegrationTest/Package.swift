// swift-tools-version: 6.2
// Users' packages in one: targets in every setting an app uses, each applying the build plugin
// and depending on swift-preferences by path. `.ci/run` builds them and runs each twice (write,
// then verify in a new process) through Scripts/integration-test.sh.
import PackageDescription

/// What a new Xcode 26 app target sets: main-actor isolation by default, and the upcoming
/// features Xcode enables.
let xcode26AppSettings: [SwiftSetting] = [
  .defaultIsolation(MainActor.self),
  .enableUpcomingFeature("NonisolatedNonsendingByDefault"),
  .enableUpcomingFeature("InferIsolatedConformances"),
]

/// What a new app created from Xcode 26's template builds with: Swift 5 language mode, main-actor
/// isolation by default, and "Approachable Concurrency" (the upcoming features below).
let xcode26TemplateSettings: [SwiftSetting] = [
  .swiftLanguageMode(.v5),
  .defaultIsolation(MainActor.self),
  .enableUpcomingFeature("NonisolatedNonsendingByDefault"),
  .enableUpcomingFeature("InferIsolatedConformances"),
  .enableUpcomingFeature("InferSendableFromCaptures"),
  .enableUpcomingFeature("GlobalActorIsolatedTypesUsability"),
  .enableUpcomingFeature("DisableOutwardActorInference"),
]

let preferences = Target.Dependency.product(name: "Preferences", package: "swift-preferences")
let testing = Target.Dependency.product(name: "PreferencesTesting", package: "swift-preferences")
let support = Target.Dependency.target(name: "IntegrationSupport")
let plugin = Target.PluginUsage.plugin(name: "PreferenceRegistryPlugin", package: "swift-preferences")

let package = Package(
  name: "IntegrationTest",
  platforms: [.macOS(.v14), .iOS(.v17)],
  dependencies: [.package(name: "swift-preferences", path: "..")],
  targets: [
    // What every program here uses to check and report; no preferences of its own.
    .target(name: "IntegrationSupport"),
    // Stands in for SwiftUI on Linux: it declares a `PreferenceKey` protocol, as SwiftUI does.
    .target(name: "ViewKit"),
    // Another module's types, constants and functions, which the default corpus names.
    .target(name: "CorpusKit", dependencies: [preferences]),
    // The default corpus (Scripts/generate-default-corpus.py) in Swift 6 with no default
    // isolation; the three targets below compile it in their settings too.
    .executableTarget(
      name: "CorpusSwift6", dependencies: [support, preferences, "CorpusKit"], plugins: [plugin]),
    // Swift 6, strict concurrency: keys, central registration, persistence, the lock.
    .executableTarget(name: "IntegrationApp", dependencies: [preferences], plugins: [plugin]),
    // A new Xcode 26 app target.
    .executableTarget(
      name: "MainActorApp", dependencies: [support, preferences, "ViewKit", "CorpusKit"],
      exclude: ["preferences-config.json"],
      swiftSettings: xcode26AppSettings, plugins: [plugin]),
    // The real default of a new Xcode 26 app: Swift 5 mode, MainActor, approachable concurrency.
    .executableTarget(
      name: "Xcode26DefaultApp", dependencies: [support, preferences, "ViewKit", "CorpusKit"],
      exclude: ["preferences-config.json"],
      swiftSettings: xcode26TemplateSettings, plugins: [plugin]),
    // The Xcode project fixture's sources, built by SwiftPM too: the same keys either way.
    .executableTarget(
      name: "SettingsProbe", dependencies: [preferences], path: "XcodeApp/Settings Probe",
      swiftSettings: xcode26TemplateSettings, plugins: [plugin]),
    // An app that has not moved to Swift 6.
    .executableTarget(
      name: "Swift5App", dependencies: [support, preferences, "ViewKit", "CorpusKit"],
      exclude: ["preferences-config.json"],
      swiftSettings: [.swiftLanguageMode(.v5)], plugins: [plugin]),
    // Swift 5 mode's nonisolated default that reads a main-actor one, in a registration off the
    // main thread that the main thread waits for.
    .executableTarget(
      name: "Swift5Handoff", dependencies: [support, preferences], exclude: ["preferences-config.json"],
      swiftSettings: [.swiftLanguageMode(.v5)], plugins: [plugin]),
    // A settings library with public preferences, used by another module; ported from
    // @AppStorage, so it reads the data the previous version stored.
    .target(name: "Models"),
    // It also builds with the upcoming features libraries adopt ahead of Swift 7.
    .target(
      name: "SettingsKit", dependencies: ["Models", preferences], exclude: ["preferences-config.json"],
      swiftSettings: [
        .enableUpcomingFeature("ExistentialAny"), .enableUpcomingFeature("MemberImportVisibility"),
        .enableUpcomingFeature("InternalImportsByDefault"),
      ],
      plugins: [plugin]),
    .executableTarget(name: "SettingsClient", dependencies: [support, "SettingsKit", preferences]),
    // Valid Swift that stresses the scanner: every declaration must persist under its key.
    .executableTarget(
      name: "ScannerStress", dependencies: [support, preferences], exclude: ["preferences-config.json"],
      plugins: [plugin]),
    // A user's tests with PreferencesTesting's trait, in a new Xcode 26 app's settings and in
    // its template's (Swift 5 mode); the package's own tests cover Swift 6 without MainActor.
    .testTarget(
      name: "StandInTests", dependencies: [preferences, testing], exclude: ["preferences-config.json"],
      swiftSettings: xcode26AppSettings, plugins: [plugin]),
    .testTarget(
      name: "StandInTestsSwift5", dependencies: [preferences, testing], exclude: ["preferences-config.json"],
      swiftSettings: xcode26TemplateSettings, plugins: [plugin]),
  ],
  swiftLanguageModes: [.v6]
)
