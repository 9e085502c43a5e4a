import Foundation
import Testing

@testable import PreferencesScannerCore

/// A dependency's enum case, read from the dependency's sources, is evaluated off the main actor
/// (no actor isolates an enum case); anything else of another module keeps an unknown isolation,
/// and so does a case wherever the compiler could take the name for something else.
@Suite struct DependencyEnumsTests {
  /// The dependency's files, written to a fresh directory; the directory goes with the value.
  final class Dependency {
    let directory: URL
    /// `MODULE=PATH`, as the build plugin passes them.
    let arguments: [String]

    init(module: String = "Kit", _ files: [String: String]) throws {
      directory = FileManager.default.temporaryDirectory.appendingPathComponent(
        "dependency-enums-\(UUID().uuidString)")
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
      var arguments: [String] = []
      for (name, text) in files.sorted(by: { $0.key < $1.key }) {
        let url = directory.appendingPathComponent(name)
        try text.write(to: url, atomically: true, encoding: .utf8)
        arguments.append("\(module)=\(url.path)")
      }
      self.arguments = arguments
    }

    deinit { try? FileManager.default.removeItem(at: directory) }
  }

  static let kit = [
    "Unit.swift": """
    @MainActor public enum CharacterUnit: String, Sendable {
      case graphemeCluster, word
      case tagged(Int)
      #if os(Linux)
        case linuxOnly
      #endif
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
    // which one a default names only the compiler knows. The struct's name is on the next line.
    "ModeA.swift": "public enum Mode { case fast }",
    "ModeB.swift": "@MainActor public struct\n  Mode { public static let fast = Mode() }",
    // `Kind` is an enum, and an actor whose name is on the line after `actor`, which the parser
    // does not read (a variable named `actor` may end a statement): not known to be an enum.
    "KindA.swift": "public enum Kind { case plain }",
    "KindB.swift": "public actor\n  Kind { public static let plain = 1 }",
    "Alias.swift": "public typealias Shade = Palette",
    "Internal.swift": "enum Hidden { case shown }",
    "Calls.swift": """
    @MainActor public enum Signal {
      case on
      case off
    }
    @MainActor extension Signal {
      public static func on(_ level: Int) -> Signal { .on }
    }
    """,
  ]

  func how(_ source: String, dependency: Dependency?) -> [String: String] {
    var scanner = PreferenceScanner(module: "App")
    scanner.dependencySources = dependency?.arguments ?? []
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
      @Preference var o = CharacterUnit.linuxOnly
      @Preference var p = Hidden.shown
      @Preference var q = Signal.on(3)
      @Preference var r = Signal.off
      @Preference var s = CharacterUnit.word == .word
      @Preference var t = CharacterUnit.tagged(1) { 2 }
      @Preference var u = [CharacterUnit.word: 1]
      @Preference var v = Kind.plain
    }
    """

  @Test func aDependencysEnumCaseNeedsNoActor() throws {
    let found = how(Self.source, dependency: try Dependency(Self.kit))
    for key in ["S.a", "S.b", "S.c", "S.d", "S.e", "S.f", "S.g", "S.n", "S.r"] {
      #expect(found[key] == "registry", "\(key): a case of a dependency's enum")
    }
    #expect(found["S.h"] == "mainActor", "a static property of a main-actor enum")
    #expect(found["S.i"] == "mainActor", "a member of the case, which the enum's isolation isolates")
    #expect(found["S.j"] == "mainActor", "a main-actor struct's static property")
    #expect(found["S.k"] == "mainActor", "'Mode' is a struct in one of the dependencies")
    #expect(found["S.l"] == "mainActor", "not a case of the enum")
    #expect(found["S.m"] == "mainActor", "'Density' is nested: other modules name it 'Layout.Density'")
    #expect(found["S.o"] == "mainActor", "a case under #if may be something else where another branch builds")
    #expect(found["S.p"] == "mainActor", "an internal enum is not the dependency's to show")
    #expect(found["S.q"] == "mainActor", "'on' has no payload: 'Signal.on(3)' calls the static function")
    #expect(found["S.s"] == "mainActor", "an operator of a main-actor enum may be isolated")
    #expect(found["S.t"] == "mainActor", "a trailing closure: more than the case")
    #expect(found["S.u"] == "mainActor", "a dictionary key is hashed, which the enum's isolation may isolate")
    #expect(found["S.v"] == "mainActor", "'Kind' is also declared where the parser does not read it")
  }

  /// With no dependency sources (an Xcode target, `scan` without them), every name of another
  /// module keeps an unknown isolation, as before.
  @Test func withoutTheSourcesAnotherModulesNameNeedsTheMainActor() {
    let found = how(Self.source, dependency: nil)
    for key in ["S.a", "S.b", "S.d", "S.e", "S.h", "S.n"] {
      #expect(found[key] == "mainActor", "\(key)")
    }
  }

  /// A name the module declares, aliases or extends with a member of the case's name is the
  /// module's, whatever a dependency declares.
  @Test func theModulesOwnNamesComeFirst() throws {
    let kit = try Dependency(Self.kit)
    let own = how(
      """
      import Kit
      @MainActor struct CharacterUnit { static let word = CharacterUnit() }
      struct S { @Preference var a = CharacterUnit.word }
      """, dependency: kit)
    #expect(own["S.a"] == "mainActor")
    let aliased = how(
      """
      import Kit
      typealias Mode = AppMode
      @MainActor enum AppMode { case fast; static let fast2 = AppMode.fast }
      struct S {
        @Preference var a: Layout.Density = .compact
        typealias Density = AppMode
      }
      struct T { @Preference var b: CharacterUnit = .word }
      """, dependency: kit)
    #expect(aliased["S.a"] == "mainActor", "the module declares a type alias named 'Layout'… 'Density'")
    #expect(aliased["T.b"] == "registry")
    let extended = how(
      """
      import Kit
      extension CharacterUnit { static var word: CharacterUnit { .graphemeCluster } }
      extension Layout.Density { var label: String { rawValue } }
      struct S {
        @Preference var a = CharacterUnit.word
        @Preference var b: CharacterUnit = .word
        @Preference var c = CharacterUnit.graphemeCluster
        @Preference var d = Layout.Density.compact
      }
      """, dependency: kit)
    #expect(extended["S.a"] == "mainActor", "the module's extension adds a 'word'")
    #expect(extended["S.b"] == "mainActor", "the module's extension adds a 'word'")
    #expect(extended["S.c"] == "registry", "an extension that adds nothing of that name")
    #expect(extended["S.d"] == "registry")
  }

  /// A dependency's enum counts only in a file that imports its module.
  @Test func onlyAnImportedModulesEnum() throws {
    let found = how(
      "struct S { @Preference var a = CharacterUnit.word }", dependency: try Dependency(Self.kit))
    #expect(found["S.a"] == "mainActor")
  }

  /// Only files where a name a default uses follows a type keyword are parsed; each such
  /// declaration is counted, so that one the parser does not read makes the name unknown.
  @Test func aFileIsReadOnlyWhereItDeclaresAName() {
    func declarations(_ text: String, _ word: String = "Mode") -> Int {
      DependencyEnums.declarations(in: Array(text.utf8), of: Array(word.utf8))
    }
    #expect(declarations("enum Mode { case a }") == 1)
    #expect(declarations("struct\n  Mode {}") == 1, "across a line break")
    #expect(declarations("actor\n  Mode {}") == 1, "which the parser does not read after `actor`")
    #expect(declarations("struct /* a type */ Mode {}") == 1)
    #expect(declarations("enum `Mode` {}") == 1)
    #expect(declarations("public typealias Mode = X; indirect enum Mode {}") == 2)
    #expect(declarations("let x = Mode.a; func f(_ m: Mode)") == 0)
    #expect(declarations("enum Modes {}; enum XMode {}") == 0, "not a whole word")
    #expect(declarations("extension Mode {}") == 0, "an extension declares no type")
    #expect(declarations("Mode") == 0)
  }

  @Test func aSourceArgumentNamesItsModule() {
    func read(_ argument: String) -> [String?] {
      let source = DependencyEnums.Source(argument: argument)
      return [source.module, source.path]
    }
    #expect(read("Kit=/a/B.swift") == ["Kit", "/a/B.swift"])
    #expect(read("/a=b/B.swift") == [nil, "/a=b/B.swift"])
    #expect(read("B.swift") == [nil, "B.swift"])
  }

  /// The command line passes the plugin's `--dependency-source` files to the scanner, and the
  /// build plugin writes them so.
  @Test func theCommandReadsTheDependencySources() throws {
    let dependency = try Dependency(Self.kit)
    let app = try Dependency(module: "App", ["App.swift": Self.source])
    let appPaths = app.arguments.map { DependencyEnums.Source(argument: $0).path }
    var output = ""
    let command = ScannerCommand(standardOutput: { output += $0 }, standardError: { _ in })
    let status = command.run(
      ["scan", "--module", "App"] + dependency.arguments.flatMap { ["--dependency-source", $0] } + ["--"]
        + appPaths)
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

    let arguments = PluginShared.generateArguments(
      module: "App", workDirectory: URL(fileURLWithPath: "/work"),
      files: PluginShared.TargetFiles(in: URL(fileURLWithPath: "/nonexistent-target")),
      sources: [URL(fileURLWithPath: "/s/A.swift")], planned: [], dependencySources: ["Kit=/k/B.swift"])
    #expect(arguments.contains("--dependency-source"))
    #expect(arguments[arguments.firstIndex(of: "--dependency-source")! + 1] == "Kit=/k/B.swift")
    #expect(arguments.firstIndex(of: "--dependency-source")! < arguments.firstIndex(of: "--")!)
    #expect(PluginShared.dependencyPaths(["Kit=/k/B.swift"]) == [URL(fileURLWithPath: "/k/B.swift")])
  }
}
