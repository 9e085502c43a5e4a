import Foundation
import Testing

@testable import PreferencesScannerCore

/// The registry rendered from `Tests/RegistryIntegrationTests/Showcase.swift` must equal the
/// checked-in `PreferenceRegistry.generated.swift`, which that test target compiles and runs.
/// Re-record with `RECORD_SNAPSHOTS=1 swift test --filter RegistrySnapshotTests`.
@Suite struct RegistrySnapshotTests {
  @Test func showcaseRegistryMatchesTheGoldenFile() throws {
    let directory = packageRoot.appendingPathComponent("Tests/RegistryIntegrationTests")
    let fixture = directory.appendingPathComponent("Showcase.swift")
    let golden = directory.appendingPathComponent(RegistryRenderer.outputFileName)
    let scanner = PreferenceScanner(module: "RegistryIntegrationTests")
    let result = try scanner.scan(paths: [fixture.path])
    #expect(!result.hasErrors, "\(result.diagnostics)")
    let rendered = RegistryRenderer.render(
      result.preferences, module: "RegistryIntegrationTests", imports: result.imports)
    if ProcessInfo.processInfo.environment["RECORD_SNAPSHOTS"] == "1" {
      try Data(rendered.utf8).write(to: golden)
    }
    let expected = try String(contentsOf: golden, encoding: .utf8)
    #expect(
      rendered == expected, "the generated registry changed; re-record with RECORD_SNAPSHOTS=1 if intended")
  }

  @Test func anEmptyModuleStillGetsARegistry() {
    let rendered = RegistryRenderer.render([], module: "Empty")
    #expect(
      rendered.contains(
        "typealias Preference<Value: PreferenceValue> = DerivedPreference<Value, PreferenceRegistry>"))
    #expect(rendered.contains("enum PreferenceRegistry: GeneratedPreferenceRegistry"))
  }
}
