import Foundation
import Testing

@testable import PreferencesScannerCore

@Suite struct ManifestTests {
  func scan(_ source: String, manifest: String, migrations: [String: String] = [:]) throws
    -> PreferenceScanner.Result
  {
    let parsed = try PreferenceManifest.parse(manifest, path: "Sources/App/Preferences.lock")
    let scanner = PreferenceScanner(
      module: "App", configuration: ScannerConfiguration(migrations: migrations),
      manifest: (parsed, "Sources/App/Preferences.lock"))
    return scanner.scan(files: [("Sources/App/File.swift", Array(source.utf8))])
  }

  @Test func aShippedKeyThatDisappearsFailsTheBuildWithBothFixes() throws {
    let result = try scan(
      "struct ContentView {\n  @Preference var displayName = \"\"\n}\n",
      manifest: "# header\nContentView.userName: String\nContentView.displayName: String\n")
    let messages = errors(result)
    #expect(messages.count == 1)
    let message = try #require(messages.first)
    #expect(
      message.hasPrefix(
        "Sources/App/Preferences.lock:2:1: error: preference key 'ContentView.userName' (String) was shipped")
    )
    #expect(message.contains(#"add @Preference(renamedFrom: "ContentView.userName") to the new declaration"#))
    #expect(message.contains("\"migrations\""))
    #expect(message.contains("swift package preferences lock --retire ContentView.userName"))
  }

  @Test func renamesMigrationsAndRetiredKeysSatisfyTheManifest() throws {
    let source = """
      struct ContentView {
        @Preference(renamedFrom: "ContentView.userName") var displayName = ""
        @Preference var theme = "light"
      }
      """
    let manifest = """
      ContentView.userName: String renamed-from: userName
      oldTheme: String
      retired Legacy.flag: Bool
      """
    let result = try scan(source, manifest: manifest, migrations: ["oldTheme": "ContentView.theme"])
    #expect(errors(result).isEmpty, "\(result.diagnostics)")
    // The chain continues through what the manifest remembers.
    #expect(result.preferences[0].renamedFrom == ["ContentView.userName", "userName"])
    #expect(result.preferences[1].renamedFrom == ["oldTheme"])
    #expect(result.retiredKeys == ["Legacy.flag"])
  }

  @Test func incompatibleTypeChangesFailAndCompatibleOnesPass() throws {
    let source = """
      struct S {
        @Preference var count = "ten"
        @Preference var limit: Int? = nil
        @Preference var ratio: Float = 0.5
      }
      """
    let result = try scan(source, manifest: "S.count: Int\nS.limit: Int\nS.ratio: Double\n")
    let messages = errors(result)
    #expect(messages.count == 1)
    #expect(
      messages.first?.contains("File.swift:2:4: error: preference 'S.count' was shipped as Int") == true)
    #expect(messages.first?.contains("is now declared as String") == true)
  }

  @Test func theManifestRoundTripsSortedAndUpdates() throws {
    let scanned = PreferenceScanner(module: "App").scan(files: [
      (
        "File.swift",
        Array(
          """
          struct B { @Preference var z = 1; @Preference(renamedFrom: "B.y") var x = "" }
          struct A { @Preference var a = true }
          """.utf8)
      )
    ]).preferences
    let existing = PreferenceManifest(entries: [
      "B.y": .init(key: "B.y", type: "String", renamedFrom: ["oldY"]),
      "Gone": .init(key: "Gone", type: "Int"),
      "Dropped": .init(key: "Dropped", type: nil),
    ])
    let updated = existing.updated(with: scanned, retire: ["Gone"], drop: ["Dropped"])
    let text = updated.render()
    let lines = text.split(separator: "\n").filter { !$0.hasPrefix("#") }
    #expect(
      lines == [
        "A.a: Bool", "B.x: String renamed-from: B.y, oldY", "B.y: String renamed-from: oldY", "B.z: Int",
        "retired Gone: Int",
      ])
    let reparsed = try PreferenceManifest.parse(text, path: "x")
    #expect(reparsed.entries.mapValues(\.type) == updated.entries.mapValues(\.type))
    #expect(reparsed.entries["B.x"]?.renamedFrom == ["B.y", "oldY"])
    #expect(reparsed.entries["Gone"]?.isRetired == true)
    #expect(throws: Diagnostic.self) { try PreferenceManifest.parse("no colon here", path: "x") }
  }

  @Test func theLockCommandWritesTheManifestAndGenerateChecksIt() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let source = directory.appendingPathComponent("Settings.swift")
    let lock = directory.appendingPathComponent("Preferences.lock").path
    let output = directory.appendingPathComponent("out/Registry.swift").path
    try Data("struct Settings { @Preference var userName = \"\" }\n".utf8).write(to: source)
    var out = ""
    var err = ""
    let command = ScannerCommand(standardOutput: { out += $0 }, standardError: { err += $0 })
    #expect(command.run(["lock", "--lock", lock, source.path]) == 0)
    #expect(try String(contentsOfFile: lock, encoding: .utf8).contains("Settings.userName: String\n"))
    // Rename without saying so: the build fails.
    try Data("struct Settings { @Preference var displayName = \"\" }\n".utf8).write(to: source)
    #expect(
      command.run(["generate", "--module", "App", "--output", output, "--lock", lock, source.path]) == 1)
    #expect(
      err.contains("Preferences.lock:5:1: error: preference key 'Settings.userName' (String) was shipped"))
    #expect(!FileManager.default.fileExists(atPath: output))
    // Declare the rename: it builds, and the registry migrates the value.
    try Data(
      "struct Settings { @Preference(renamedFrom: \"Settings.userName\") var displayName = \"\" }\n".utf8
    )
    .write(to: source)
    #expect(
      command.run(["generate", "--module", "App", "--output", output, "--lock", lock, source.path]) == 0)
    #expect(
      try String(contentsOfFile: output, encoding: .utf8).contains(
        #"renames["Settings.displayName"] = ["Settings.userName"]"#))
    // Retire instead: also fine, and listed for cleanup.
    #expect(command.run(["lock", "--lock", lock, "--retire", "Settings.userName", source.path]) == 0)
    #expect(try String(contentsOfFile: lock, encoding: .utf8).contains("retired Settings.userName: String"))
    #expect(
      command.run(["generate", "--module", "App", "--output", output, "--lock", lock, source.path]) == 0)
    #expect(
      try String(contentsOfFile: output, encoding: .utf8).contains(
        #"static let retiredKeys: [String] = ["Settings.userName"]"#))
  }

  @Test func exportFormats() throws {
    let source = #"""
      struct Settings {
        /// Play sounds
        /// when something happens.
        @Preference(settings: true) var sounds = true
        /// Your name.
        @Preference(settings: true) var name = "Anonymous"
        @Preference(settings: true) var volume = 0.5
        @Preference(settings: true) var theme = Theme.dark
        @Preference var hidden = 1
      }
      """#
    let result = PreferenceScanner(module: "App").scan(files: [("Settings.swift", Array(source.utf8))])
    var diagnostics: [Diagnostic] = []
    let plist = Exporter.export(result.preferences, format: .settingsPlist, diagnostics: &diagnostics)
    let root = try #require(
      try PropertyListSerialization.propertyList(from: Data(plist.utf8), format: nil) as? [String: Any])
    let specifiers = try #require(root["PreferenceSpecifiers"] as? [[String: Any]])
    #expect(
      specifiers.map { $0["Key"] as? String } == ["Settings.sounds", "Settings.name", "Settings.volume"])
    #expect(specifiers[0]["Type"] as? String == "PSToggleSwitchSpecifier")
    #expect(specifiers[0]["Title"] as? String == "Play sounds")
    #expect(specifiers[0]["DefaultValue"] as? Bool == true)
    #expect(specifiers[1]["DefaultValue"] as? String == "Anonymous")
    #expect(specifiers[2]["KeyboardType"] as? String == "DecimalPad")
    #expect(diagnostics.count == 1 && diagnostics[0].message.contains("'Settings.theme'"))

    let json = Exporter.export(result.preferences, format: .json, diagnostics: &diagnostics)
    let objects = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]])
    #expect(objects.count == 5)
    #expect(objects[0]["documentation"] as? String == "Play sounds\nwhen something happens.")
    #expect(objects[0]["declaringType"] as? String == "Settings")
    #expect(objects[4]["type"] as? String == "Int")

    let markdown = Exporter.export(result.preferences, format: .markdown, diagnostics: &diagnostics)
    #expect(markdown.contains("| `Settings.name` | String | `\"Anonymous\"` | `Settings` | Your name. |"))
  }
}
