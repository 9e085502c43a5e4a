// swift-tools-version: 6.1
import PackageDescription

let package = Package(
  name: "swift-preferences",
  platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
  products: [
    .library(name: "Preferences", targets: ["Preferences"]),
    .executable(name: "preferences-scanner", targets: ["preferences-scanner"]),
    .plugin(name: "PreferenceRegistryPlugin", targets: ["PreferenceRegistryPlugin"]),
    .plugin(name: "PreferencesCommand", targets: ["PreferencesCommand"]),
  ],
  targets: [
    // Runtime: runs in the user's app.
    .target(name: "Preferences"),

    // Scanner: lexer, declaration finder, validation and registry rendering. Never links the runtime.
    .target(name: "PreferencesScannerCore"),
    .executableTarget(name: "preferences-scanner", dependencies: ["PreferencesScannerCore"]),

    // Plugins.
    .plugin(
      name: "PreferenceRegistryPlugin",
      capability: .buildTool(),
      dependencies: ["preferences-scanner"]
    ),
    .plugin(
      name: "PreferencesCommand",
      capability: .command(
        intent: .custom(
          verb: "preferences", description: "List, lock and export the preferences of the package's targets."),
        permissions: [
          .writeToPackageDirectory(reason: "Writes the Preferences.lock manifest and exported files.")
        ]
      ),
      dependencies: ["preferences-scanner"]
    ),

    // Demo: a small app that uses @Preference through the build plugin.
    .executableTarget(
      name: "PreferencesDemo",
      dependencies: ["Preferences"],
      exclude: ["preferences-config.json"],
      plugins: ["PreferenceRegistryPlugin"]
    ),

    // A child process the tests start to check behaviour across processes and at exit.
    .executableTarget(name: "PreferencesTestHelper", dependencies: ["Preferences"]),
    .testTarget(name: "PreferencesTests", dependencies: ["Preferences", "PreferencesTestHelper"]),
    .testTarget(
      name: "PreferencesScannerCoreTests",
      dependencies: ["PreferencesScannerCore"],
      exclude: ["Fixtures", "Snapshots"]
    ),
  ],
  swiftLanguageModes: [.v6]
)
