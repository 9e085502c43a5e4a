import Foundation
import Testing

@testable import PreferencesScannerCore

/// A dependency's enum case, read from the dependency's sources, is evaluated off the main actor
/// (no actor isolates an enum case); anything else of another module keeps an unknown isolation.
@Suite struct DependencyEnumsTests {
  /// The dependency's files, written to a fresh directory; the directory goes with the value.
  final class Dependency {
    let directory: URL
    let paths: [String]

    init(_ files: [String: String]) throws {
      directory = FileManager.default.temporaryDirectory.appendingPathComponent(
        "dependency-enums-\(UUID().uuidString)")
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
      var paths: [String] = []
      for (name, text) in files.sorted(by: { $0.key < $1.key }) {
        let url = directory.appendingPathComponent(name)
        try text.write(to: url, atomically: true, encoding: .utf8)
        paths.append(url.path)
      }
      self.paths = paths
    }

    deinit { try? FileManager.default.removeItem(at: directory) }
  }

  static let kit = [
    "Unit.swift": """
    @MainActor public enum CharacterUnit: String, Sendable {
      case graphemeCluster, word
      case tagged(Int)
      public static let standard = CharacterUnit.word
    }
    """,
    "Layout.swift": """
    public enum Layout {
      public enum Density: String { case compact, regular }
    }
    extension Layout { public enum Spacing { case tight } }
    """,
    "Palette.swift": """
    @MainActor public struct Palette { public static let accent = 1 }
    """,
    // `Mode` is an enum in one file and a struct in another (two modules of the dependencies):
    // which one a default names only the compiler knows.
    "ModeA.swift": "public enum Mode { case fast }",
    "ModeB.swift": "@MainActor public struct Mode { public static let fast = Mode() }",
    "Alias.swift": "public typealias Shade = Palette",
  ]

  func how(_ source: String, dependency: Dependency?) -> [String: String] {
    var scanner = PreferenceScanner(module: "App")
    scanner.dependencySources = dependency?.paths ?? []
    let result = scanner.scan(files: [("Sources/App/File.swift", Array(source.utf8))])
    return Dictionary(uniqueKeysWithValues: result.plans.map { ($0.key, $0.how) })
  }

  static let source = """
    import Kit
    struct S {
      @Preference var a = CharacterUnit.graphemeCluster
      @Preference var b: CharacterUnit = .word
      @Preference var c: CharacterUnit? = .graphemeCluster
      @Preference var d = CharacterUnit.tagged(2)
      @Preference var e = Layout.Density.compact
      @Preference var f: Layout.Density = .regular
      @Preference var g = Layout.Spacing.tight
      @Preference var h = CharacterUnit.standard
      @Preference var i = CharacterUnit.graphemeCluster.rawValue
      @Preference var j = Palette.accent
      @Preference var k = Mode.fast
      @Preference var l = CharacterUnit.missing
      @Preference var m = Density.compact
      @Preference var n = [CharacterUnit.word]
    }
    """

  @Test func aDependencysEnumCaseNeedsNoActor() throws {
    let found = how(Self.source, dependency: try Dependency(Self.kit))
    for key in ["S.a", "S.b", "S.c", "S.d", "S.e", "S.f", "S.g", "S.n"] {
      #expect(found[key] == "registry", "\(key): a case of a dependency's enum")
    }
    #expect(found["S.h"] == "mainActor", "a static property of a main-actor enum")
    #expect(found["S.i"] == "mainActor", "a member of the case, which the enum's isolation isolates")
    #expect(found["S.j"] == "mainActor", "a main-actor struct's static property")
    #expect(found["S.k"] == "mainActor", "'Mode' is a struct in one of the dependencies")
    #expect(found["S.l"] == "mainActor", "not a case of the enum")
    #expect(found["S.m"] == "mainActor", "'Density' is nested: other modules name it 'Layout.Density'")
  }

  /// With no dependency sources (an Xcode target, `scan` without them), every name of another
  /// module keeps an unknown isolation, as before.
  @Test func withoutTheSourcesAnotherModulesNameNeedsTheMainActor() {
    let found = how(Self.source, dependency: nil)
    for key in ["S.a", "S.b", "S.d", "S.e", "S.h", "S.n"] {
      #expect(found[key] == "mainActor", "\(key)")
    }
  }

  /// The module's own type of the same name is the one a default names.
  @Test func theModulesOwnTypeComesFirst() throws {
    let found = how(
      """
      @MainActor struct CharacterUnit { static let word = CharacterUnit() }
      struct S { @Preference var a = CharacterUnit.word }
      """, dependency: try Dependency(Self.kit))
    #expect(found["S.a"] == "mainActor")
  }

  /// Only files with a declaration of a name a default uses are parsed.
  @Test func aFileIsReadOnlyWhereItDeclaresAName() {
    let text = Array("struct A {}\nenum  Unit { case a }\nlet x = Unitless\n".utf8)
    #expect(DependencyEnums.declares(text, Array("Unit".utf8)))
    #expect(DependencyEnums.declares(text, Array("A".utf8)))
    #expect(!DependencyEnums.declares(text, Array("Unitless".utf8)), "not after a declaring keyword")
    #expect(!DependencyEnums.declares(text, Array("Uni".utf8)), "not a whole word")
    #expect(!DependencyEnums.declares(Array("enum Unit2 {}".utf8), Array("Unit".utf8)))
    #expect(!DependencyEnums.declares(Array("Unit".utf8), Array("Unit".utf8)))
  }

  /// The command line passes the plugin's `--dependency-source` files to the scanner.
  @Test func theCommandReadsTheDependencySources() throws {
    let dependency = try Dependency(Self.kit)
    let app = try Dependency(["App.swift": Self.source])
    var output = ""
    let command = ScannerCommand(standardOutput: { output += $0 }, standardError: { _ in })
    let status = command.run(
      ["scan", "--module", "App"] + dependency.paths.flatMap { ["--dependency-source", $0] } + ["--"]
        + app.paths)
    #expect(status == 0)
    let plans = try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any]
    let declarations = plans?["preferences"] as? [[String: Any]] ?? []
    #expect(!declarations.isEmpty)
    let isolation = Dictionary(
      uniqueKeysWithValues: declarations.compactMap { entry -> (String, String)? in
        guard let key = entry["key"] as? String, let registration = entry["registration"] as? String else {
          return nil
        }
        return (key, registration)
      })
    #expect(isolation["S.a"] == "registry")
    #expect(isolation["S.h"] == "mainActor")
  }
}
