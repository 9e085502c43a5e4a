// swift-tools-version: 6.2
import PackageDescription

// The scanner runs for milliseconds in a build, so it is compiled without optimization in every
// configuration: optimizing its module cost a clean Release build of a user's app about 30 s of
// one core (twice under `swift build`, which compiles a plugin's tool once for the plugin and
// again in the build), to save a fraction of a second in the plugin step, which Debug builds
// already run unoptimized (`Benchmarks/README.md`, "What the package adds to a clean build").
// Only `-Onone`: the module stays whole-module in Release, as Swift Build (Xcode's engine)
// expects its outputs to be (`-no-whole-module-optimization` failed its build).
// `PREFERENCES_OPTIMIZED_SCANNER=1` builds it optimized: the benchmarks set it to measure the
// scanner's code rather than the compiler's mode.
// `unsafeFlags` no longer keep a package from being a versioned dependency when its manifest says
// swift-tools-version 6.2 or later (swiftlang/swift-package-manager#8951, in Swift 6.2 and Xcode
// 26); Scripts/clean-build-benchmark.sh builds the package as a tagged dependency to hold that.
let scannerSettings: [SwiftSetting] =
  Context.environment["PREFERENCES_OPTIMIZED_SCANNER"] == "1"
  ? [] : [.unsafeFlags(["-Onone"], .when(configuration: .release))]

let package = Package(
  name: "swift-preferences",
  platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10), .visionOS(.v1)],
  products: [
    .library(name: "Preferences", targets: ["Preferences"]),
    .library(name: "PreferencesTesting", targets: ["PreferencesTesting"]),
    .executable(name: "preferences-scanner", targets: ["preferences-scanner"]),
    .plugin(name: "PreferenceRegistryPlugin", targets: ["PreferenceRegistryPlugin"]),
    .plugin(name: "PreferencesCommand", targets: ["PreferencesCommand"]),
  ],
  targets: [
    // Runtime: runs in the user's app. The privacy manifest declares its required-reason API use.
    .target(name: "Preferences", resources: [.copy("PrivacyInfo.xcprivacy")]),

    // Test support: a Swift Testing trait that gives each test fresh stores. Its own product, so
    // that an app never links Testing.
    .target(name: "PreferencesTesting", dependencies: ["Preferences"]),

    // Scanner: lexer, declaration finder, validation and registry rendering. Never links the runtime.
    .target(name: "PreferencesScannerCore", swiftSettings: scannerSettings),
    .executableTarget(
      name: "preferences-scanner", dependencies: ["PreferencesScannerCore"], swiftSettings: scannerSettings),
    // The scanner's fuzzer, shared by its tests and a long-run command
    // (PREFERENCES_OPTIMIZED_SCANNER=1 swift run -c release preferences-fuzz).
    .target(name: "ScannerFuzzing", dependencies: ["PreferencesScannerCore"]),
    .executableTarget(name: "preferences-fuzz", dependencies: ["ScannerFuzzing", "PreferencesScannerCore"]),

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
          verb: "preferences",
          description:
            "List, lock (Preferences.lock) and export the @Preference declarations of the package's targets; export, import and reset a user's values in a preferences file."
        ),
        permissions: [
          .writeToPackageDirectory(
            reason:
              "'lock' writes each target's Preferences.lock; 'export --output' and 'export-values --output' write the export; 'import-values' and 'reset-values' write the preferences file."
          )
        ]
      ),
      dependencies: ["preferences-scanner"]
    ),

    // Demo: a small app that uses @Preference through the build plugin.
    .executableTarget(
      name: "PreferencesDemo",
      dependencies: ["Preferences"],
      exclude: ["preferences-config.json", "Preferences.lock"],
      plugins: ["PreferenceRegistryPlugin"]
    ),

    // A child process the tests start to check behaviour across processes and at exit.
    .executableTarget(
      name: "PreferencesTestHelper", dependencies: ["Preferences"], exclude: ["preferences-config.json"],
      plugins: ["PreferenceRegistryPlugin"]),
    // Benchmarks: PREFERENCES_OPTIMIZED_SCANNER=1 swift run -c release PreferencesBenchmarks
    .executableTarget(
      name: "PreferencesBenchmarks",
      dependencies: ["Preferences", "PreferencesScannerCore", "preferences-scanner"],
      path: "Benchmarks/PreferencesBenchmarks",
      exclude: ["preferences-config.json"],
      plugins: ["PreferenceRegistryPlugin"]
    ),
    .testTarget(
      name: "PreferencesTests",
      dependencies: ["Preferences", "PreferencesTestHelper"],
      exclude: ["preferences-config.json"],
      plugins: ["PreferenceRegistryPlugin"]
    ),
    .testTarget(
      name: "PreferencesTestingTests",
      dependencies: ["Preferences", "PreferencesTesting"],
      exclude: ["preferences-config.json"],
      plugins: ["PreferenceRegistryPlugin"]
    ),
    .testTarget(
      name: "PreferencesScannerCoreTests", dependencies: ["PreferencesScannerCore", "ScannerFuzzing"],
      exclude: ["Fixtures", "Snapshots"]),
    // Compiles the scanner's golden registry (checked in, not generated by the plugin) together
    // with its fixture, and checks that every declaration resolves at run time.
    .testTarget(name: "RegistryIntegrationTests", dependencies: ["Preferences"]),
  ],
  swiftLanguageModes: [.v6]
)
