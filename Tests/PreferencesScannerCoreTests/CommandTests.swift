import Foundation
import Testing

@testable import PreferencesScannerCore

/// The command line the plugins run.
@Suite struct CommandTests {
  final class Directory {
    let url: URL
    init(
      url: URL = FileManager.default.temporaryDirectory.appendingPathComponent("scanner-\(UUID().uuidString)")
    ) {
      self.url = url
      try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }
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
    func contents() -> [String] { (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? [] }
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

  /// A line-shifting edit rewrites only the table file that holds its file's table; the index
  /// and the other table files keep their bytes (and dates), so nothing else recompiles. Run
  /// with the build plugin's arguments, parse cache included: only the edited file is parsed
  /// again, and its new contents reach the output.
  @Test func generateRewritesOnlyWhatAnEditChanged() throws {
    let sources = Directory()
    let work = Directory()
    let names = (1...40).map { "Screen\($0).swift" }
    for (number, name) in names.enumerated() {
      sources.write(name, "struct Screen\(number) {\n  @Preference var value = \(number)\n}\n")
    }
    sources.write("Plain.swift", "struct Plain {}\n")
    let urls = (names + ["Plain.swift"]).map { sources.url.appendingPathComponent($0) }
    let paths = urls.map(\.path)
    let arguments = PluginShared.generateArguments(
      module: "App", workDirectory: work.url, files: PluginShared.TargetFiles(in: sources.url), sources: urls,
      planned: urls)
    #expect(arguments.contains(PluginShared.outputDirectory(in: work.url).path))
    let output = Directory(url: PluginShared.outputDirectory(in: work.url))
    #expect(run(arguments).0 == 0)
    let cache = ParseCache(directory: work.url.appendingPathComponent(PluginShared.parseCacheName).path)
    #expect(try PreferenceScanner(module: "App").scan(paths: paths, cache: cache).reusedFiles == 41)
    // 41 planned sources share 4 table files; every planned output exists.
    let count = PluginShared.tableFileCount(planned: 41)
    #expect(count == 4)
    let outputs =
      ["PreferenceRegistry.generated.swift", "PreferenceRegistry+Unplanned.generated.swift"]
      + (0..<count).map(PluginShared.tableFileName)
    #expect(Set(output.contents()) == Set(outputs))
    let holding = PluginShared.tableFileName(forSource: "Screen7.swift", count: count)
    #expect(output.read(holding)?.contains("func _Preferences_Screen7() -> ") == true)
    #expect(
      (0..<count).map(PluginShared.tableFileName).filter { output.read($0)?.contains("Screen") == true }.count
        > 1)
    // A file of an older layout is removed by the next run.
    output.write("Screen7+Preferences.generated.swift", "// stale\n")
    #expect(run(arguments).0 == 0)
    #expect(output.read("Screen7+Preferences.generated.swift") == nil)
    let before = outputs.map(output.modified)
    // Not synchronization: a file system's modification times have a granularity; the edit must
    // land in a later tick for the comparison below to mean anything.
    Thread.sleep(forTimeInterval: 0.01)
    sources.write("Screen7.swift", "// a new first line\nstruct Screen6 {\n  @Preference var value = 6\n}\n")
    #expect(run(arguments).0 == 0)
    let after = outputs.map(output.modified)
    for (index, name) in outputs.enumerated() {
      #expect((before[index] != after[index]) == (name == holding), "\(name)")
    }
    #expect(output.read(holding)?.contains(#""key":"Screen6.value""#) == true)
    #expect(try PreferenceScanner(module: "App").scan(paths: paths, cache: cache).reusedFiles == 41)
  }

  @Test func tableFilesStayPutAsSourcesAreAdded() {
    #expect(PluginShared.tableFileCount(planned: 0) == 1)
    #expect(PluginShared.tableFileCount(planned: 16) == 1)
    #expect(PluginShared.tableFileCount(planned: 17) == 2)
    #expect(PluginShared.tableFileCount(planned: 300) == 32)
    // The same name lands in the same file in every process and every version: a fixed hash
    // (FNV-1a of the name: 985019698 for ContentView.swift), not Hasher's per-process seed.
    #expect(
      PluginShared.tableFileName(forSource: "ContentView.swift", count: 32) == PluginShared.tableFileName(18))
    let spread = Set((1...300).map { PluginShared.tableFileName(forSource: "Screen\($0).swift", count: 32) })
    #expect(spread.count == 32, "300 names fill every table file")
  }

  @Test func aFileThatGainsItsFirstDeclarationGoesToTheUnplannedFile() throws {
    let sources = Directory()
    let output = Directory()
    sources.write("A.swift", "struct A { @Preference var a = 1 }\n")
    let path = sources.url.appendingPathComponent("A.swift").path
    #expect(run(["generate", "--module", "App", "--output-directory", output.url.path, "--", path]).0 == 0)
    #expect(
      output.read("PreferenceRegistry+Unplanned.generated.swift")?.contains(
        "func _Preferences_A() -> ") == true)
  }

  /// A source is matched to its planned path even when the two are spelled differently
  /// (`a/./b`, `a//b`): such a path takes the standardized comparison.
  @Test func aPlannedPathSpelledOtherwiseStillNamesItsTableFile() throws {
    let sources = Directory()
    let output = Directory()
    sources.write("A.swift", "struct A { @Preference var a = 1 }\n")
    let path = sources.url.appendingPathComponent("A.swift").path
    let spelledOtherwise = sources.url.path + "/./A.swift"
    #expect(
      run([
        "generate", "--module", "App", "--output-directory", output.url.path, "--planned", spelledOtherwise,
        "--", path,
      ]).0 == 0)
    #expect(
      output.read(PluginShared.tableFileName(0))?.contains("func _Preferences_A() -> ")
        == true)
    #expect(output.read("PreferenceRegistry+Unplanned.generated.swift")?.contains("_Preferences_A") == false)
  }

  @Test func scanSkipsFoldersNamedLikeSwiftFiles() throws {
    let sources = Directory()
    sources.write("Models.swift/Inner.swift", "struct Inner { @Preference var x = 1 }\n")
    sources.write("Real.swift", "struct Real { @Preference var y = 1 }\n")
    let (status, output, _) = run(["scan", "--format", "text", sources.url.path])
    #expect(status == 0)
    #expect(output.contains("Inner.x") && output.contains("Real.y"))
  }

  /// The build plugin's arguments for a SwiftPM target name the package manifest, and the
  /// scanner reads the target's default isolation there; the configuration's
  /// `"defaultIsolation"` wins over it.
  @Test func theDefaultIsolationIsReadFromTheManifestTheArgumentsName() throws {
    let package = Directory()
    package.write(
      "Package.swift",
      """
      let package = Package(name: "P", targets: [
        .executableTarget(name: "App", swiftSettings: [.defaultIsolation(MainActor.self)]),
        .target(name: "Kit"),
      ])
      """)
    for target in ["App", "Kit"] {
      package.write(
        "Sources/\(target)/Model.swift",
        "struct Layout: Codable { var columns = 2 }\nstruct S {\n  @Preference var layout = Layout()\n}\n")
    }
    func generate(_ target: String) -> (Int32, String, String) {
      let directory = package.url.appendingPathComponent("Sources/\(target)")
      let files = PluginShared.TargetFiles(in: directory, packageDirectory: package.url, targetName: target)
      #expect(files.inputs.map(\.lastPathComponent).contains("Package.swift"))
      let work = Directory()
      return run(
        PluginShared.generateArguments(
          module: target, workDirectory: work.url, files: files,
          sources: [directory.appendingPathComponent("Model.swift")], planned: []))
    }
    let (status, _, errors) = generate("App")
    #expect(status == 1)
    #expect(
      errors.contains(
        "Model.swift:3:4: error: @Preference 'layout' stores Layout, but 'Layout' does not conform to PreferenceValue, and the registry cannot add the conformance: this target's default isolation is MainActor"
      ), "\(errors)")
    #expect(errors.contains("declare it 'nonisolated struct Layout: …'"))
    #expect(generate("Kit").0 == 0)
    package.write("Sources/App/preferences-config.json", #"{"defaultIsolation": "nonisolated"}"#)
    #expect(generate("App").0 == 0)
    package.write("Sources/App/preferences-config.json", #"{"defaultIsolation": "main"}"#)
    #expect(generate("App").2.contains(#""defaultIsolation" must be "MainActor" or "nonisolated""#))
    #expect(run(["scan", "--target-name", "App", "x.swift"]).2.contains("go together"))
  }

  /// An Xcode target's arguments name its project, and the scanner reads the target's settings
  /// there and in the `.xcconfig` file its configurations are based on; an edit to that file is
  /// read at the next run, and the plugin's next plan names the file as an input.
  @Test func theDefaultIsolationIsReadFromAnXcodeProjectsConfigurationFile() throws {
    let project = Directory()
    project.write(
      "App.xcodeproj/project.pbxproj",
      """
      // !$*UTF8*$!
      { objects = {
        G = { isa = PBXGroup; children = ( F, ); sourceTree = "<group>"; };
        F = { isa = PBXFileReference; path = Config/App.xcconfig; sourceTree = "<group>"; };
        T = { isa = PBXNativeTarget; buildConfigurationList = L; name = App; };
        P = { isa = PBXProject; mainGroup = G; };
        L = { isa = XCConfigurationList; buildConfigurations = ( C, ); };
        C = { isa = XCBuildConfiguration; baseConfigurationReference = F; buildSettings = { }; name = Debug; };
      }; rootObject = P; }
      """)
    project.write("Config/App.xcconfig", "#include \"Shared.xcconfig\"\n")
    project.write("Config/Shared.xcconfig", "SWIFT_DEFAULT_ACTOR_ISOLATION = MainActor\n")
    let source = project.url.appendingPathComponent("App/Model.swift")
    project.write(
      "App/Model.swift",
      "struct Layout: Codable { var columns = 2 }\nstruct S {\n  @Preference var layout = Layout()\n}\n")
    let files = PluginShared.TargetFiles(
      xcodeFiles: [source], sources: [source], projectDirectory: project.url, projectName: "App",
      targetName: "App")
    let work = Directory()
    func generate() -> (Int32, String, String) {
      run(
        PluginShared.generateArguments(
          module: "App", workDirectory: work.url, files: files, sources: [source], planned: []))
    }
    let (status, _, errors) = generate()
    #expect(status == 1)
    #expect(errors.contains("this target's default isolation is MainActor"), "\(errors)")
    #expect(
      PluginShared.recordedSettingsFiles(in: work.url).map(\.lastPathComponent) == [
        "App.xcconfig", "Shared.xcconfig",
      ])
    project.write("Config/Shared.xcconfig", "SWIFT_DEFAULT_ACTOR_ISOLATION = nonisolated\n")
    #expect(generate().0 == 0)
  }

  /// The settings are read from the manifest SwiftPM loaded: the one whose tools version the
  /// plugin context reports, a version-specific one first.
  @Test func theManifestSwiftPMLoadedIsTheOneRead() {
    let package = Directory()
    package.write("Package.swift", "// swift-tools-version:6.0\nlet package = Package(name: \"P\")\n")
    package.write(
      "Package@swift-6.2.swift", "// swift-tools-version: 6.2\nlet package = Package(name: \"P\")\n")
    package.write("Package@swift-5.9.swift", "// swift-tools-version:5.9;(experimentalFeatures)\n")
    func loaded(_ version: [Int]?) -> String? {
      PluginShared.loadedManifest(in: package.url, toolsVersion: version)?.lastPathComponent
    }
    #expect(loaded([6, 2, 0]) == "Package@swift-6.2.swift")
    #expect(loaded([6, 0, 0]) == "Package.swift")
    #expect(loaded([5, 9, 0]) == "Package@swift-5.9.swift")
    #expect(loaded([6, 3, 0]) == "Package.swift")
    #expect(loaded(nil) == "Package.swift")
    #expect(PluginShared.declaredToolsVersion(Data("// swift-tools-version:6.2.1\n".utf8)) == [6, 2, 1])
    #expect(PluginShared.declaredToolsVersion(Data("import PackageDescription\n".utf8)) == nil)
    let files = PluginShared.TargetFiles(
      in: package.url, packageDirectory: package.url, toolsVersion: [6, 2, 0], targetName: "App")
    #expect(files.settings?.lastPathComponent == "Package@swift-6.2.swift")
  }

  @Test func helpAndBadArgumentsAreAnswered() {
    #expect(run(["--help"]).0 == 0)
    // A subcommand's `--help` too, but not a path named so after `--`.
    for arguments in [["scan", "--help"], ["export", "-h"], ["help"]] {
      let (status, output, errors) = run(arguments)
      #expect(status == 0 && output.hasPrefix("USAGE: ") && errors.isEmpty, "\(arguments)")
    }
    #expect(run(["scan", "--", "--help"]).2.contains("--help"))
    #expect(run(["scan"]).0 == 2)
    #expect(run(["frobnicate", "x"]).2.contains("unknown command 'frobnicate'"))
  }

  /// Each subcommand is parsed once into the values it needs, and what it lacks or cannot take is
  /// a usage error that says so.
  @Test func theCommandLineIsParsedIntoTypedSubcommands() throws {
    func parse(_ arguments: [String]) -> Result<ScannerCommand.Options, ScannerCommand.UsageError> {
      Result { () throws(ScannerCommand.UsageError) in try ScannerCommand.parse(arguments) }
    }
    func message(_ arguments: [String]) -> String? {
      if case .failure(let error) = parse(arguments) { return error.message }
      return nil
    }
    guard case .success(let scan) = parse(["scan", "--format", "text", "Sources"]),
      case .scan(format: .text) = scan.subcommand
    else { Issue.record("scan --format text"); return }
    guard
      case .success(let generate) = parse([
        "generate", "--module", "App", "--output-directory", "out", "--planned", "A.swift", "src",
      ]),
      case .generate(module: "App", destination: .directory("out", planned: ["A.swift"])) = generate
        .subcommand
    else { Issue.record("generate --output-directory"); return }
    guard
      case .success(let lock) = parse([
        "lock", "--lock", "P.lock", "--retire", "a", "--accept-move", "b", "src",
      ]),
      case .lock(let request) = lock.subcommand, request.path == "P.lock", request.retire == ["a"],
      request.acceptMove == ["b"]
    else { Issue.record("lock"); return }
    guard case .success(let export) = parse(["export", "--format", "settings-plist", "src"]),
      case .export(format: .settingsPlist, output: nil) = export.subcommand
    else { Issue.record("export"); return }
    #expect(message(["scan", "--format", "yaml", "src"]) == "--format must be one of json, text, not 'yaml'")
    #expect(message(["export", "src"]) == "export needs --format json, markdown or settings-plist")
    #expect(
      message(["generate", "--module", "App", "src"])
        == "generate needs --output-directory DIR or --output FILE")
    #expect(message(["generate", "--module", "A", "--output", "x", "--output-directory", "y", "src"]) != nil)
    #expect(message(["lock", "src"]) == "lock needs --lock FILE")
    #expect(message(["scan", "--module"]) == "--module needs a value")
  }

  @Test func scanPrintsTheOneRecordTheRuntimeDecodes() throws {
    let sources = Directory()
    sources.write(
      "A.swift",
      "struct A {\n  /// Doc.\n  @Preference(sync: true) var a = 1\n  @Preference(key: \"B\") var b = 2\n}\n")
    let (status, output, _) = run([
      "scan", "--module", "App", sources.url.appendingPathComponent("A.swift").path,
    ])
    #expect(status == 0)
    let json = try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any]
    let records = json?["preferences"] as? [[String: Any]]
    let record = records?.first
    #expect(record?["key"] as? String == "A.a")
    #expect(record?["isKeyDerived"] as? Bool == true)
    #expect(records?.last?["isKeyDerived"] as? Bool == false, "a key written with key: is not derived")
    #expect(record?["syncs"] as? Bool == true)
    #expect(record?["documentation"] as? String == "Doc.")
    #expect(record?["registration"] as? String == "registry")
  }
}
