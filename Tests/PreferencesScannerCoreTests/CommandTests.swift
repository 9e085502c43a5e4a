import Foundation
import Testing

@testable import PreferencesScannerCore

/// The command line the plugins run.
@Suite struct CommandTests {
  final class Directory {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("scanner-\(UUID().uuidString)")
    init() { try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true) }
    deinit { try? FileManager.default.removeItem(at: url) }
    func write(_ name: String, _ text: String) {
      let file = url.appendingPathComponent(name)
      try! FileManager.default.createDirectory(
        at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
      try! Data(text.utf8).write(to: file)
    }
    func read(_ name: String) -> String? {
      try? String(contentsOf: url.appendingPathComponent(name), encoding: .utf8)
    }
    func modified(_ name: String) -> Date? {
      try? FileManager.default.attributesOfItem(atPath: url.appendingPathComponent(name).path)[
        .modificationDate] as? Date
    }
  }

  func run(_ arguments: [String]) -> (Int32, String, String) {
    var output = ""
    var errors = ""
    let status = ScannerCommand(standardOutput: { output += $0 }, standardError: { errors += $0 }).run(
      arguments)
    return (status, output, errors)
  }

  /// A line-shifting edit rewrites only its file's table; the index and the other tables keep
  /// their bytes (and dates), so nothing else recompiles.
  @Test func generateRewritesOnlyWhatAnEditChanged() throws {
    let sources = Directory()
    let output = Directory()
    sources.write("A.swift", "struct A {\n  @Preference var a = 1\n}\n")
    sources.write("B.swift", "struct B {\n  @Preference var b = 2\n}\n")
    sources.write("C.swift", "struct C {}\n")
    let paths = ["A.swift", "B.swift", "C.swift"].map { sources.url.appendingPathComponent($0).path }
    let arguments =
      ["generate", "--module", "App", "--output-directory", output.url.path]
      + ["--planned", paths[0], "--planned", paths[1], "--planned", paths[2], "--"] + paths
    #expect(run(arguments).0 == 0)
    let names = [
      "PreferenceRegistry.generated.swift", "A+Preferences.generated.swift", "B+Preferences.generated.swift",
      "C+Preferences.generated.swift", "PreferenceRegistry+Unplanned.generated.swift",
    ]
    for name in names { #expect(output.read(name) != nil, "\(name)") }
    #expect(output.read("C+Preferences.generated.swift")?.contains("declares no @Preference") == true)
    let before = names.map(output.modified)
    Thread.sleep(forTimeInterval: 0.01)
    sources.write("A.swift", "// a new first line\nstruct A {\n  @Preference var a = 1\n}\n")
    #expect(run(arguments).0 == 0)
    let after = names.map(output.modified)
    #expect(before[1] != after[1], "A's table changed")
    #expect(before[0] == after[0] && before[2] == after[2] && before[3] == after[3] && before[4] == after[4])
  }

  @Test func aFileThatGainsItsFirstDeclarationGoesToTheUnplannedFile() throws {
    let sources = Directory()
    let output = Directory()
    sources.write("A.swift", "struct A { @Preference var a = 1 }\n")
    let path = sources.url.appendingPathComponent("A.swift").path
    #expect(run(["generate", "--module", "App", "--output-directory", output.url.path, "--", path]).0 == 0)
    #expect(
      output.read("PreferenceRegistry+Unplanned.generated.swift")?.contains(
        "enum _Preferences_A: PreferenceFileTable") == true)
  }

  @Test func scanSkipsFoldersNamedLikeSwiftFiles() throws {
    let sources = Directory()
    sources.write("Models.swift/Inner.swift", "struct Inner { @Preference var x = 1 }\n")
    sources.write("Real.swift", "struct Real { @Preference var y = 1 }\n")
    let (status, output, _) = run(["scan", "--format", "text", sources.url.path])
    #expect(status == 0)
    #expect(output.contains("Inner.x") && output.contains("Real.y"))
  }

  @Test func helpAndBadArgumentsAreAnswered() {
    #expect(run(["--help"]).0 == 0)
    #expect(run(["scan"]).0 == 2)
    #expect(run(["frobnicate", "x"]).2.contains("unknown command 'frobnicate'"))
  }

  @Test func scanPrintsTheOneRecordTheRuntimeDecodes() throws {
    let sources = Directory()
    sources.write("A.swift", "struct A {\n  /// Doc.\n  @Preference(sync: true) var a = 1\n}\n")
    let (status, output, _) = run([
      "scan", "--module", "App", sources.url.appendingPathComponent("A.swift").path,
    ])
    #expect(status == 0)
    let json = try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any]
    let record = (json?["preferences"] as? [[String: Any]])?.first
    #expect(record?["key"] as? String == "A.a")
    #expect(record?["syncs"] as? Bool == true)
    #expect(record?["documentation"] as? String == "Doc.")
    #expect(record?["registration"] as? String == "registry")
  }
}
