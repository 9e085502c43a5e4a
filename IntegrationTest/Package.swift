// swift-tools-version: 6.1
// A user's package: depends on swift-preferences by path and applies the build plugin.
// `.ci/run` builds and runs it (Scripts/integration-test.sh).
import PackageDescription

let package = Package(
  name: "IntegrationTest",
  platforms: [.macOS(.v13), .iOS(.v16)],
  dependencies: [.package(name: "swift-preferences", path: "..")],
  targets: [
    .executableTarget(
      name: "IntegrationApp",
      dependencies: [.product(name: "Preferences", package: "swift-preferences")],
      plugins: [.plugin(name: "PreferenceRegistryPlugin", package: "swift-preferences")]
    )
  ],
  swiftLanguageModes: [.v6]
)
