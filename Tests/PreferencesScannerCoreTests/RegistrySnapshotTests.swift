import Foundation
import Testing

@testable import PreferencesScannerCore

/// Generated code and diagnostics, compared with checked-in snapshots. Re-record with
/// `RECORD_SNAPSHOTS=1 swift test --filter RegistrySnapshotTests`.
@Suite struct RegistrySnapshotTests {
  static let record = ProcessInfo.processInfo.environment["RECORD_SNAPSHOTS"] == "1"

  func compare(_ rendered: String, with golden: URL, sourceLocation: SourceLocation = #_sourceLocation) throws
  {
    if Self.record { try Data(rendered.utf8).write(to: golden) }
    let expected = try String(contentsOf: golden, encoding: .utf8)
    #expect(
      rendered == expected,
      "\(golden.lastPathComponent) changed; re-record with RECORD_SNAPSHOTS=1 if intended",
      sourceLocation: sourceLocation)
  }

  /// The registry of `Tests/RegistryIntegrationTests/Showcase.swift` and `LiteralDefaults.swift`,
  /// which that test target compiles (without the plugin) and exercises at run time.
  @Test func showcaseRegistryMatchesTheGoldenFile() throws {
    let directory = packageRoot.appendingPathComponent("Tests/RegistryIntegrationTests")
    let result = try PreferenceScanner(module: "RegistryIntegrationTests").scan(
      paths: ["Showcase.swift", "LiteralDefaults.swift"].map { directory.appendingPathComponent($0).path })
    #expect(!result.hasErrors, "\(result.diagnostics)")
    try compare(
      RegistryRenderer.singleFile(result, module: "RegistryIntegrationTests"),
      with: directory.appendingPathComponent("PreferenceRegistry.generated.swift"))
  }

  @Test func diagnosticsMatchTheSnapshot() throws {
    let directory = packageRoot.appendingPathComponent("Tests/PreferencesScannerCoreTests")
    let fixture = "Tests/PreferencesScannerCoreTests/Fixtures/Diagnostics.swift"
    let source = try Data(contentsOf: packageRoot.appendingPathComponent(fixture))
    let result = PreferenceScanner(module: "App").scan(files: [(fixture, [UInt8](source))])
    try compare(
      result.diagnostics.map(\.description).joined(separator: "\n") + "\n",
      with: directory.appendingPathComponent("Snapshots/Diagnostics.txt"))
  }

  /// A file whose declarations need no code gets its table as two static strings; one
  /// declaration that does (a default the registry evaluates, a store, an `#if`) gives the whole
  /// file a table value.
  @Test func aTableIsTwoStaticStringsWhereNoDeclarationNeedsCode() {
    func table(_ source: String) -> String {
      let result = PreferenceScanner(module: "App").scan(files: [
        ("Sources/App/We\"ird.swift", Array(source.utf8))
      ])
      #expect(!result.hasErrors, "\(result.diagnostics)")
      return RegistryRenderer.fileTable(for: result.files[0], plans: result.plans)
    }
    let literal = table(
      "struct S {\n  @Preference var a = 1\n  @Preference(key: \"K\") var b = \"x\"\n  @Preference var c: Int?\n}\n"
    )
    #expect(
      literal.hasPrefix("nonisolated func _Preferences_We_u22_ird() -> (StaticString, StaticString) {\n"))
    #expect(literal.contains(#"("App/We\"ird.swift", #"[{"key":"S.a""#), "the file ID is quoted")
    #expect(!literal.contains("_Preferences.FileTable"))
    for needsCode in [
      "struct S {\n  @Preference var a = 1\n  @Preference var d = Date()\n}\n",
      "struct S {\n  @Preference var a = 1\n  @Preference(store: .suite(\"g\")) var e = 2\n}\n",
      "struct S {\n  @Preference var a = 1\n  #if DEBUG\n  @Preference var f = 3\n  #endif\n}\n",
    ] {
      let text = table(needsCode)
      #expect(text.contains("() -> _Preferences.FileTable {"), "\(needsCode)")
      #expect(!text.contains("StaticString"), "\(needsCode)")
    }
  }

  /// The index names the lines of the declarations whose default the registry cannot evaluate
  /// (which keep the default of their first creation) and no other; moving one rewrites it.
  @Test func theIndexNamesTheLinesOfDefaultsTheRegistryCannotEvaluate() {
    func index(_ files: [(String, String)]) -> String {
      RegistryRenderer.files(scan(files), module: "App", tableFiles: []) { _ in nil }.index
    }
    let settings = (
      "Sources/App/Settings.swift",
      "struct Settings {\n  private static let limit = 3\n  @Preference var limit = Self.limit\n  @Preference var count = 1\n  @Preference var date = Date()\n}\n"
    )
    let generic = (
      "Sources/App/Box.swift",
      "struct Box<T> {\n  @Preference var made = Date()\n  @Preference var n = 2\n}\n"
    )
    #expect(index([settings, generic]).contains("case 2, 3: return true"), "\(index([settings, generic]))")
    let moved = (settings.0, "\n" + settings.1)
    #expect(index([moved, generic]).contains("case 2, 4: return true"))
    let none = index([
      (
        "Sources/App/Plain.swift",
        "struct Plain {\n  @Preference var a = 1\n  @Preference var d = Date()\n}\n"
      )
    ])
    #expect(none.contains("static func _keepsDefault(line: UInt) -> Bool {\n    false\n  }"), "\(none)")
  }

  @Test func anEmptyModuleStillGetsARegistry() {
    let rendered = RegistryRenderer.singleFile(
      PreferenceScanner(module: "Empty").scan(files: []), module: "Empty")
    #expect(
      rendered.contains(
        "typealias Preference<Value: _Preferences.Value> = DerivedPreference<Value, PreferenceRegistry>"))
    #expect(rendered.contains("enum PreferenceRegistry: _Preferences.Registry"))
  }

  /// Everything taken from input is escaped for where it lands.
  @Test func namesPathsAndTextFromInputCannotBreakTheGeneratedFile() {
    let result = PreferenceScanner(module: "App").scan(files: [
      (
        "Sources/App/We\"ird\nName.swift",
        Array(
          """
          enum `default` { enum `Theme Settings` { @Preference(key: "k") var `class` = Date() } }
          /// Doc with \"quotes\" and */ and a \u{2028} separator.
          struct S { @Preference var text = "*/ \\" \\n" }
          """.utf8)
      )
    ])
    #expect(!result.hasErrors, "\(result.diagnostics)")
    let files = RegistryRenderer.files(result, module: "App", tableFiles: ["Out.swift"]) { _ in "Out.swift" }
    let text = files.planned[0].text
    #expect(text.contains("extension `default`.`Theme Settings` {"))
    #expect(text.contains("_preferenceDefault_class()"))
    #expect(
      text.split(separator: "\n").allSatisfy { !$0.hasPrefix("Name.swift") }, "a file name cannot add a line")
  }
}
