import Foundation
import Testing

@testable import PreferencesScannerCore

/// The memo that lets a run leave unchanged table files unrendered: it must never leave a table
/// that a run without it would write differently.
@Suite struct TableMemoTests {
  /// A table's inputs hold every stored property of its plans (the memo writes them one by
  /// one): a property added to plans fails here until the memo writes it too.
  @Test func everyStoredPropertyOfAPlanIsInATablesInputs() throws {
    let result = PreferenceScanner(module: "App").scan(files: [
      ("A.swift", Array("struct A { @Preference var x = 1 }".utf8))
    ])
    let plan = try #require(result.plans.first)
    #expect(Mirror(reflecting: plan).children.map(\.label) == PreferencePlan.archivedProperties)
    #expect(
      Mirror(reflecting: LockedType(type: "Int", family: .integer)).children.map(\.label) == [
        "type", "family",
      ])
  }

  /// Edits that change the tables of files that did not change (a type's isolation, a static
  /// member's type, the configuration), and generated files changed or removed by hand: after
  /// each, every generated file is byte for byte what a run without parse cache or memo writes.
  @Test func everyRunWritesWhatAFreshRunWrites() throws {
    let sources = CommandTests.Directory()
    let work = CommandTests.Directory()
    sources.write("Palette.swift", "enum Palette {\n  static let accent = 1\n}\n")
    sources.write(
      "Screen.swift",
      "struct Screen {\n  @Preference var accent = Palette.accent\n  @Preference var theme = Theme.dark\n}\n")
    sources.write("Theme.swift", "enum Theme: String {\n  case light, dark\n}\n")
    for number in 1...40 {
      sources.write(
        "Filler\(number).swift", "struct Filler\(number) {\n  @Preference var value = \(number)\n}\n")
    }
    let output = work.url.appendingPathComponent("Generated")

    func generate(into directory: URL, cache: URL?) -> Int32 {
      let names = (try? FileManager.default.contentsOfDirectory(atPath: sources.url.path)) ?? []
      let paths = names.filter { $0.hasSuffix(".swift") }.sorted().map {
        sources.url.appendingPathComponent($0).path
      }
      var arguments = ["generate", "--module", "App", "--output-directory", directory.path]
      if let cache { arguments += ["--cache", cache.path] }
      if FileManager.default.fileExists(atPath: sources.url.appendingPathComponent("config.json").path) {
        arguments += ["--config", sources.url.appendingPathComponent("config.json").path]
      }
      arguments += paths.flatMap { ["--planned", $0] } + ["--"] + paths
      return ScannerCommand(standardOutput: { _ in }, standardError: { _ in }).run(arguments)
    }
    func files(in directory: URL) -> [String: String] {
      let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
      return Dictionary(
        uniqueKeysWithValues: names.map {
          ($0, (try? String(contentsOf: directory.appendingPathComponent($0), encoding: .utf8)) ?? "")
        })
    }
    func check(_ step: String, sourceLocation: SourceLocation = #_sourceLocation) {
      #expect(generate(into: output, cache: work.url.appendingPathComponent("Cache")) == 0, "\(step)")
      let fresh = CommandTests.Directory()
      #expect(generate(into: fresh.url, cache: nil) == 0, "\(step)")
      let (memo, expected) = (files(in: output), files(in: fresh.url))
      #expect(
        memo.count > 3 && memo.keys.sorted() == expected.keys.sorted(), "\(step)",
        sourceLocation: sourceLocation)
      for (name, text) in expected where memo[name] != text {
        Issue.record("\(step): \(name) differs from a fresh run's", sourceLocation: sourceLocation)
      }
    }
    func table(holding text: String) -> String? {
      files(in: output).first { $0.value.contains(text) }?.value
    }

    check("first run")
    check("nothing changed")
    // Screen.swift is unchanged, but its default now needs the main actor.
    sources.write("Palette.swift", "@MainActor enum Palette {\n  static let accent = 1\n}\n")
    check("Palette became @MainActor")
    #expect(table(holding: "Screen.accent")?.contains(#""registration":"mainActor""#) == true)
    // ... and its type is now inferred as String.
    sources.write("Palette.swift", "enum Palette {\n  static let accent: String = \"blue\"\n}\n")
    check("Palette.accent became a String")
    #expect(table(holding: "Screen.accent")?.contains(#""valueType":"String""#) == true)
    sources.write("Theme.swift", "enum Theme: Int {\n  case light, dark\n}\n")
    check("Theme's raw values became Int")
    // A declaration in another file that shares Screen.theme: Screen's table lists its line,
    // and follows it when an edit shifts it.
    sources.write("Footer.swift", "struct Footer {\n  @Preference(\\Screen.theme) var theme\n}\n")
    check("a declaration shares Screen.theme")
    #expect(table(holding: "Screen.theme")?.contains(#""referencedAt":["App/Footer.swift:2"]"#) == true)
    sources.write("Footer.swift", "struct Footer {\n\n  @Preference(\\Screen.theme) var theme\n}\n")
    check("the sharing declaration moved")
    #expect(table(holding: "Screen.theme")?.contains(#""referencedAt":["App/Footer.swift:3"]"#) == true)
    sources.write("config.json", #"{ "prefix": "app." }"#)
    check("a key prefix configured")
    #expect(table(holding: "app.Filler7.value") != nil)
    // Generated files changed or removed by hand are written again.
    let name = try #require(files(in: output).first { $0.value.contains("Filler7.value") }?.key)
    try Data("// edited by hand\n".utf8).write(to: output.appendingPathComponent(name), options: .atomic)
    check("a table file edited by hand")
    try FileManager.default.removeItem(at: output.appendingPathComponent(name))
    check("a table file removed")
    // The memo itself damaged: every table is rendered again.
    try Data("garbage\nmore garbage 1 2 3\n".utf8).write(
      to: work.url.appendingPathComponent("Cache/tables.memo"))
    check("a damaged memo")
  }
}
