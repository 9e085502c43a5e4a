import Foundation
import Testing

@testable import PreferencesScannerCore

/// A target's default actor isolation, read from where its build settings are: a package
/// manifest or an Xcode project. Where it is `MainActor`, a `Codable` (or `RawRepresentable`
/// struct, or `LosslessStringConvertible` key) type that is not `nonisolated` cannot be stored,
/// and the scanner says so at the declaration, naming the fix, instead of the compiler rejecting
/// the generated conformance ("does not conform to protocol 'PreferenceValue'").
@Suite struct TargetSettingsTests {
  func manifest(_ text: String, _ target: String) -> DefaultIsolation? {
    TargetSettings.declared(inManifest: Array(text.utf8), target: target).defaultIsolation
  }

  @Test func aManifestDeclaresItPerTarget() {
    let text = """
      // swift-tools-version: 6.2
      import PackageDescription
      // .defaultIsolation(MainActor.self) in a comment says nothing
      let shared: [SwiftSetting] = [.enableUpcomingFeature("ExistentialAny")]
      let appSettings: [SwiftSetting] = shared + [
        .defaultIsolation(MainActor.self)
      ]
      let package = Package(
        name: "P",
        targets: [
          .executableTarget(name: "App", dependencies: ["Kit"], swiftSettings: appSettings),
          .target(name: "Direct", swiftSettings: [.defaultIsolation(MainActor.self), .swiftLanguageMode(.v6)]),
          .target(name: "Kit", swiftSettings: shared),
          .target(name: "Off", swiftSettings: [.defaultIsolation(nil)]),
          .testTarget(name: "KitTests", dependencies: ["Kit"]),
          .target(name: "Named", path: "Sources/Named", swiftSettings: [.unsafeFlags(["-DX"])]),
        ]
      )
      """
    #expect(manifest(text, "App") == .mainActor)
    #expect(manifest(text, "Direct") == .mainActor)
    #expect(manifest(text, "Kit") == nil)
    #expect(manifest(text, "Off") == .nonisolated)
    #expect(manifest(text, "KitTests") == nil)
    #expect(manifest(text, "Named") == nil)
    #expect(manifest(text, "Missing") == nil)
  }

  /// Settings applied to every target after the package is declared.
  @Test func aManifestCanDeclareItForEveryTarget() {
    let text = """
      let package = Package(name: "P", targets: [.target(name: "App"), .target(name: "Kit", swiftSettings: [.defaultIsolation(nil)])])
      for target in package.targets {
        target.swiftSettings = (target.swiftSettings ?? []) + [.defaultIsolation(MainActor.self)]
      }
      """
    #expect(manifest(text, "App") == .mainActor)
    #expect(manifest(text, "Kit") == .nonisolated)
    #expect(manifest("", "App") == nil)
    #expect(manifest("let package = Package(name: \"P\", targets: [.target(name: \"App\"", "App") == nil)
  }

  @Test func anXcodeProjectDeclaresItPerTargetOrForTheProject() throws {
    let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("../../IntegrationTest/XcodeApp/Settings Probe.xcodeproj/project.pbxproj")
    let bytes = [UInt8](try Data(contentsOf: fixture))
    #expect(
      TargetSettings.declared(inXcodeProject: bytes, target: "Settings Probe").defaultIsolation == .mainActor)
    #expect(TargetSettings.declared(inXcodeProject: bytes, target: "Other").defaultIsolation == nil)
    #expect(
      TargetSettings.declared(in: fixture.path, contents: bytes, target: "Settings Probe").defaultIsolation
        == .mainActor)

    let project = """
      // !$*UTF8*$!
      {
      	objects = {
      		T1 /* App */ = { isa = PBXNativeTarget; buildConfigurationList = L1; name = App; };
      		T2 = { isa = PBXNativeTarget; buildConfigurationList = L2; name = "Widget Extension"; };
      		P /* Project object */ = { isa = PBXProject; buildConfigurationList = L0; };
      		L0 = { isa = XCConfigurationList; buildConfigurations = ( C0 /* Debug */, ); };
      		L1 = { isa = XCConfigurationList; buildConfigurations = ( C1, C2, ); };
      		L2 = { isa = XCConfigurationList; buildConfigurations = ( C3, ); };
      		C0 = { isa = XCBuildConfiguration; buildSettings = { SWIFT_DEFAULT_ACTOR_ISOLATION = MainActor; }; name = Debug; };
      		C1 = { isa = XCBuildConfiguration; buildSettings = { OTHER = "a \\" b"; }; name = Debug; };
      		C2 = { isa = XCBuildConfiguration; buildSettings = { SWIFT_DEFAULT_ACTOR_ISOLATION = nonisolated; }; name = Release; };
      		C3 = { isa = XCBuildConfiguration; buildSettings = { }; name = Debug; };
      	};
      	rootObject = P;
      }
      """
    let xcode = Array(project.utf8)
    // Each configuration resolved on its own: the target's Release says nonisolated, and its
    // Debug sets nothing, so it takes the project's Debug setting.
    #expect(TargetSettings.declared(inXcodeProject: xcode, target: "App").defaultIsolation == .mainActor)
    #expect(
      TargetSettings.declared(
        inXcodeProject: Array(
          project.replacingOccurrences(
            of: "OTHER = ", with: "SWIFT_DEFAULT_ACTOR_ISOLATION = nonisolated; OTHER = "
          ).utf8),
        target: "App"
      ).defaultIsolation == .nonisolated)
    // Set only at the project level: the target inherits it.
    #expect(
      TargetSettings.declared(inXcodeProject: xcode, target: "Widget Extension").defaultIsolation
        == .mainActor)
    // Malformed: nothing, and no trap.
    for cut in stride(from: 0, to: xcode.count, by: 7) {
      _ = TargetSettings.declared(inXcodeProject: Array(xcode[..<cut]), target: "App")
    }
    #expect(
      TargetSettings.declared(inXcodeProject: Array(xcode.dropLast(40)), target: "App") == TargetSettings())
  }

  /// The file is parsed when it mentions the setting, and what it says is kept under the
  /// fingerprint of its contents: a changed file is read again, whatever its date.
  @Test func whatAFileSaysIsKeptUntilItChanges() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "isolation-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: directory) }
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let manifest = directory.appendingPathComponent("Package.swift")
    let cache = directory.appendingPathComponent("cache").path
    func read() -> DefaultIsolation? {
      TargetSettings.read(from: manifest.path, target: "App", cacheDirectory: cache).defaultIsolation
    }
    try Data(#"let package = Package(name: "P", targets: [.target(name: "App")])"#.utf8).write(to: manifest)
    #expect(read() == nil)
    #expect(!FileManager.default.fileExists(atPath: cache + "/TargetSettings"))  // not parsed
    let declaring =
      #"let package = Package(name: "P", targets: [.target(name: "App", swiftSettings: [.defaultIsolation(MainActor.self)])])"#
    try Data(declaring.utf8).write(to: manifest)
    #expect(read() == .mainActor)
    let record = try #require(FileManager.default.contents(atPath: cache + "/TargetSettings"))
    #expect(String(decoding: record, as: UTF8.self).contains("\nMainActor\nfalse\nfiles "))
    #expect(String(decoding: record, as: UTF8.self).hasSuffix("\nend\n"))
    #expect(read() == .mainActor)
    // A record cut short is not used.
    try Data(record.dropLast(5)).write(to: URL(fileURLWithPath: cache + "/TargetSettings"))
    #expect(read() == .mainActor)
    #expect(FileManager.default.contents(atPath: cache + "/TargetSettings") == record)
    // A record that no longer matches the contents is not used.
    try Data(declaring.replacingOccurrences(of: "MainActor.self", with: "nil").utf8).write(to: manifest)
    #expect(read() == .nonisolated)
    #expect(
      TargetSettings.read(
        from: directory.appendingPathComponent("None.swift").path, target: "App", cacheDirectory: cache
      ).defaultIsolation
        == nil)
    #expect(Array("abcabd".utf8).withUnsafeBytes { PluginShared.contains($0, Array("abd".utf8)) })
    #expect(!Array("abcab".utf8).withUnsafeBytes { PluginShared.contains($0, Array("abd".utf8)) })
  }

  /// A project folder: `project.pbxproj` in `App.xcodeproj`, and `files` beside it.
  func xcodeProject(_ pbxproj: String, files: [String: String]) throws -> URL {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "xcconfig-\(UUID().uuidString)")
    let project = directory.appendingPathComponent("App.xcodeproj")
    try FileManager.default.createDirectory(at: project, withIntermediateDirectories: true)
    try Data(pbxproj.utf8).write(to: project.appendingPathComponent("project.pbxproj"))
    for (path, text) in files {
      let url = directory.appendingPathComponent(path)
      try FileManager.default.createDirectory(
        at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try Data(text.utf8).write(to: url)
    }
    return project.appendingPathComponent("project.pbxproj")
  }

  /// A project whose targets take their settings from configuration files: `App` from
  /// `Config/App.xcconfig` (a file of group `Config`), the project from `Project.xcconfig`
  /// (relative to the project's folder), `Widget` from a file in a synchronized folder.
  let xcconfigProject = """
    // !$*UTF8*$!
    {
    	objects = {
    		G0 = { isa = PBXGroup; children = ( G1, F2, S1, ); sourceTree = "<group>"; };
    		G1 /* Config */ = { isa = PBXGroup; children = ( F1, ); path = Config; sourceTree = "<group>"; };
    		F1 /* App.xcconfig */ = { isa = PBXFileReference; lastKnownFileType = text.xcconfig; path = App.xcconfig; sourceTree = "<group>"; };
    		F2 /* Project.xcconfig */ = { isa = PBXFileReference; path = Project.xcconfig; sourceTree = SOURCE_ROOT; };
    		S1 /* Widget */ = { isa = PBXFileSystemSynchronizedRootGroup; path = Widget; sourceTree = "<group>"; };
    		T1 /* App */ = { isa = PBXNativeTarget; buildConfigurationList = L1; name = App; };
    		T2 /* Widget */ = { isa = PBXNativeTarget; buildConfigurationList = L2; name = Widget; };
    		P = { isa = PBXProject; buildConfigurationList = L0; mainGroup = G0; };
    		L0 = { isa = XCConfigurationList; buildConfigurations = ( C0, C00, ); };
    		L1 = { isa = XCConfigurationList; buildConfigurations = ( C1, C2, ); };
    		L2 = { isa = XCConfigurationList; buildConfigurations = ( C3, ); };
    		C0 = { isa = XCBuildConfiguration; baseConfigurationReference = F2 /* Project.xcconfig */; buildSettings = { }; name = Debug; };
    		C00 = { isa = XCBuildConfiguration; baseConfigurationReference = F2; buildSettings = { }; name = Release; };
    		C1 = { isa = XCBuildConfiguration; baseConfigurationReference = F1 /* App.xcconfig */; buildSettings = { TARGET_SETTING }; name = Debug; };
    		C2 = { isa = XCBuildConfiguration; baseConfigurationReference = F1; buildSettings = { TARGET_SETTING }; name = Release; };
    		C3 = { isa = XCBuildConfiguration; baseConfigurationReferenceAnchor = S1 /* Widget */; baseConfigurationReferenceRelativePath = Support/Widget.xcconfig; buildSettings = { }; name = Debug; };
    	};
    	rootObject = P;
    }
    """

  /// Xcode's levels, highest first: the target's settings, its configuration file, the
  /// project's settings, the project's configuration file; each file with its includes, a later
  /// assignment replacing an earlier one, and `$(inherited)` taking the one below.
  @Test func configurationFilesAreReadAsXcodeResolvesThem() throws {
    func settings(target: String = "App", own targetSetting: String = "", _ files: [String: String]) throws
      -> TargetSettings
    {
      let pbxproj = try xcodeProject(
        xcconfigProject.replacingOccurrences(of: "TARGET_SETTING", with: targetSetting), files: files)
      defer {
        try? FileManager.default.removeItem(
          at: pbxproj.deletingLastPathComponent().deletingLastPathComponent())
      }
      let (read, filesRead) = TargetSettings.readXcodeProject(
        [UInt8](try Data(contentsOf: pbxproj)), target: target, projectFile: pbxproj.path)
      #expect(!filesRead.isEmpty)
      return read
    }
    // In the target's file, through an include in a subfolder; a comment is not a setting.
    #expect(
      try settings([
        "Config/App.xcconfig":
          "// SWIFT_DEFAULT_ACTOR_ISOLATION = nonisolated\n#include \"Common/Base.xcconfig\"\n",
        "Config/Common/Base.xcconfig": "SWIFT_DEFAULT_ACTOR_ISOLATION = MainActor // Xcode 26\n",
      ]) == TargetSettings(defaultIsolation: .mainActor))
    // A later assignment replaces an earlier (included) one.
    #expect(
      try settings([
        "Config/App.xcconfig":
          "#include? \"Missing.xcconfig\"\n#include \"Base.xcconfig\"\nSWIFT_DEFAULT_ACTOR_ISOLATION = nonisolated\n",
        "Config/Base.xcconfig": "SWIFT_DEFAULT_ACTOR_ISOLATION = MainActor\n",
      ]).defaultIsolation == .nonisolated)
    // The target's own setting wins over its file; its file over the project's.
    #expect(
      try settings(
        own: "SWIFT_DEFAULT_ACTOR_ISOLATION = nonisolated;",
        ["Config/App.xcconfig": "SWIFT_DEFAULT_ACTOR_ISOLATION = MainActor\n"]
      ).defaultIsolation == .nonisolated)
    #expect(
      try settings([
        "Config/App.xcconfig": "SWIFT_DEFAULT_ACTOR_ISOLATION = nonisolated\n",
        "Project.xcconfig":
          "SWIFT_DEFAULT_ACTOR_ISOLATION = MainActor\nSWIFT_APPROACHABLE_CONCURRENCY = YES\n",
      ]) == TargetSettings(defaultIsolation: .nonisolated, infersIsolatedConformances: true))
    // The project's file alone.
    #expect(
      try settings(["Project.xcconfig": "SWIFT_DEFAULT_ACTOR_ISOLATION = MainActor;\n"]).defaultIsolation
        == .mainActor)
    // The feature in OTHER_SWIFT_FLAGS, kept by $(inherited) a level up, or replaced without it
    // (NetNewsWire's debug configuration replaces the project file's flags this way).
    let flags = "OTHER_SWIFT_FLAGS = $(inherited) -enable-upcoming-feature InferIsolatedConformances\n"
    #expect(try settings(["Project.xcconfig": flags]).infersIsolatedConformances)
    #expect(
      try settings(
        own: "OTHER_SWIFT_FLAGS = (\"$(inherited)\", \"-DDEBUG\",);", ["Project.xcconfig": flags]
      ).infersIsolatedConformances)
    #expect(
      try !settings(own: "OTHER_SWIFT_FLAGS = \"-DDEBUG\";", ["Project.xcconfig": flags])
        .infersIsolatedConformances)
    #expect(
      try settings([
        "Config/App.xcconfig": "#include \"../Project.xcconfig\"\nOTHER_SWIFT_FLAGS = $(inherited) -DDEBUG\n",
        "Project.xcconfig": flags,
      ]).infersIsolatedConformances)
    #expect(
      try settings(["Config/App.xcconfig": "OTHER_SWIFT_FLAGS = -default-isolation MainActor\n"])
        .defaultIsolation
        == .mainActor)
    // Conditions: another configuration's assignment does not apply; a matching one does.
    #expect(
      try settings(["Config/App.xcconfig": "SWIFT_DEFAULT_ACTOR_ISOLATION[config=Beta] = MainActor\n"])
        .defaultIsolation == nil)
    #expect(
      try settings(["Config/App.xcconfig": "SWIFT_DEFAULT_ACTOR_ISOLATION[config=Rel*][sdk=*] = MainActor\n"])
        .defaultIsolation == .mainActor)
    // Files that include each other many times over are read once each, not exponentially.
    let loop = (0..<4).map { _ in "#include \"A.xcconfig\"\n#include \"B.xcconfig\"\n" }.joined()
    #expect(
      try settings([
        "Config/App.xcconfig": loop + "SWIFT_DEFAULT_ACTOR_ISOLATION = MainActor\n",
        "Config/A.xcconfig": loop, "Config/B.xcconfig": loop,
      ]).defaultIsolation == .mainActor)
    // A file in a synchronized folder (Xcode 16), and a file that includes itself.
    #expect(
      try settings(
        target: "Widget",
        [
          "Widget/Support/Widget.xcconfig":
            "#include \"Widget.xcconfig\"\nSWIFT_DEFAULT_ACTOR_ISOLATION = MainActor\n"
        ]
      ).defaultIsolation == .mainActor)
    // Without the project's folder, its files are not read.
    #expect(
      TargetSettings.declared(inXcodeProject: Array(xcconfigProject.utf8), target: "App") == TargetSettings())
  }

  /// What a project says is kept until the project or one of its configuration files changes,
  /// and the plugin names those files as inputs of its command.
  @Test func aChangedConfigurationFileIsReadAgain() throws {
    let pbxproj = try xcodeProject(
      xcconfigProject.replacingOccurrences(of: "TARGET_SETTING", with: ""),
      files: ["Config/App.xcconfig": "#include \"Base.xcconfig\"\n", "Config/Base.xcconfig": "A = B\n"])
    let folder = pbxproj.deletingLastPathComponent().deletingLastPathComponent()
    defer { try? FileManager.default.removeItem(at: folder) }
    let work = folder.appendingPathComponent("work")
    let cache = work.appendingPathComponent(PluginShared.parseCacheName).path
    func read() -> TargetSettings {
      TargetSettings.read(from: pbxproj.path, target: "App", cacheDirectory: cache)
    }
    #expect(read() == TargetSettings())
    let named = PluginShared.recordedSettingsFiles(in: work).map(\.path)
    #expect(named.contains(folder.appendingPathComponent("Config/Base.xcconfig").path))
    #expect(named.contains(folder.appendingPathComponent("Project.xcconfig").path) == false)  // missing
    try Data("SWIFT_APPROACHABLE_CONCURRENCY = YES\n".utf8).write(
      to: folder.appendingPathComponent("Config/Base.xcconfig"))
    #expect(read() == TargetSettings(infersIsolatedConformances: true))
    // A file that did not exist, now created.
    try Data("SWIFT_DEFAULT_ACTOR_ISOLATION = MainActor\n".utf8).write(
      to: folder.appendingPathComponent("Project.xcconfig"))
    #expect(read() == TargetSettings(defaultIsolation: .mainActor, infersIsolatedConformances: true))
    #expect(read() == TargetSettings(defaultIsolation: .mainActor, infersIsolatedConformances: true))
    #expect(PluginShared.recordedSettingsFiles(in: work).count == 3)

    // Any configuration file reads as some answer, never a trap or a hang.
    let pieces = [
      "#include", "#include?", " \"", "\"", "<", ">", "[", "]", "=", "config", "*", "Debug", "$(inherited)",
      "${inherited}", "//", "\n", ";", " ", "SWIFT_DEFAULT_ACTOR_ISOLATION", "MainActor", "OTHER_SWIFT_FLAGS",
      "-default-isolation", "Base.xcconfig", "App.xcconfig", "../", "/", "é",
    ]
    var state: UInt64 = 0x2545_F491_4F6C_DD1D
    func next(_ bound: Int) -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((state >> 33) % UInt64(bound))
    }
    let bytes = [UInt8](try Data(contentsOf: pbxproj))
    for _ in 0..<300 {
      for name in ["App", "Base"] {
        let text = (0..<next(40)).map { _ in pieces[next(pieces.count)] }.joined()
        try Data(text.utf8).write(to: folder.appendingPathComponent("Config/\(name).xcconfig"))
      }
      _ = TargetSettings.readXcodeProject(bytes, target: "App", projectFile: pbxproj.path)
    }
  }

  /// Any bytes read as some answer, never a trap or a hang: pieces of both formats shuffled.
  @Test func malformedFilesAreReadWithoutTrapping() {
    let pieces = [
      "{", "}", "(", ")", "[", "]", "=", ";", ",", "\"", "/*", "*/", "//", "\n", "\\", ".target", "name:",
      "\"App\"", "defaultIsolation", "MainActor", ".self", "nil", "let", "var", "x", "isa", "PBXNativeTarget",
      "buildConfigurationList", "SWIFT_DEFAULT_ACTOR_ISOLATION", "objects", "#if", "\u{0}", "é",
    ]
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    func next(_ bound: Int) -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((state >> 33) % UInt64(bound))
    }
    for _ in 0..<2_000 {
      let text = (0..<next(60)).map { _ in pieces[next(pieces.count)] }.joined(
        separator: next(2) == 0 ? " " : "")
      _ = TargetSettings.declared(inManifest: Array(text.utf8), target: "App")
      _ = TargetSettings.declared(inXcodeProject: Array(text.utf8), target: "App")
    }
  }

  /// Whether a target infers isolated conformances: the upcoming feature in a manifest, Xcode's
  /// Approachable Concurrency (or the feature's own setting) in a project.
  @Test func inferredIsolatedConformancesAreReadToo() throws {
    let text = """
      let strict: [SwiftSetting] = [.enableUpcomingFeature("InferIsolatedConformances")]
      let package = Package(name: "P", targets: [
        .target(name: "App", swiftSettings: strict + [.defaultIsolation(MainActor.self)]),
        .target(name: "Kit", swiftSettings: [.enableUpcomingFeature("NonisolatedNonsendingByDefault")]),
        .target(name: "Tool", swiftSettings: [.enableUpcomingFeature("InferIsolatedConformances")]),
      ])
      """
    // A computed value named by some targets, declared after the package (as Vapor's is).
    let computed = """
      let package = Package(name: "P", targets: [
        .target(name: "Lib", swiftSettings: strict),
        .target(name: "Other", dependencies: [.target(name: "Lib", condition: .when(platforms: [.linux]))]),
      ])
      var strict: [SwiftSetting] { [
        .enableUpcomingFeature("InferIsolatedConformances"),
      ] }
      """
    #expect(
      TargetSettings.declared(inManifest: Array(computed.utf8), target: "Lib").infersIsolatedConformances)
    #expect(
      !TargetSettings.declared(inManifest: Array(computed.utf8), target: "Other").infersIsolatedConformances)
    let app = TargetSettings.declared(inManifest: Array(text.utf8), target: "App")
    #expect(app == TargetSettings(defaultIsolation: .mainActor, infersIsolatedConformances: true))
    #expect(TargetSettings.declared(inManifest: Array(text.utf8), target: "Kit") == TargetSettings())
    #expect(
      TargetSettings.declared(inManifest: Array(text.utf8), target: "Tool")
        == TargetSettings(infersIsolatedConformances: true))

    let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("../../IntegrationTest/XcodeApp/Settings Probe.xcodeproj/project.pbxproj")
    let probe = TargetSettings.declared(
      inXcodeProject: [UInt8](try Data(contentsOf: fixture)), target: "Settings Probe")
    #expect(probe == TargetSettings(defaultIsolation: .mainActor, infersIsolatedConformances: true))
    let project = """
      { objects = {
        T = { isa = PBXNativeTarget; buildConfigurationList = L; name = App; };
        L = { isa = XCConfigurationList; buildConfigurations = ( C, ); };
        C = { isa = XCBuildConfiguration; buildSettings = { SWIFT_UPCOMING_FEATURE_INFER_ISOLATED_CONFORMANCES = YES; }; };
      }; }
      """
    #expect(
      TargetSettings.declared(inXcodeProject: Array(project.utf8), target: "App")
        == TargetSettings(infersIsolatedConformances: true))
  }

  /// Where conformances are inferred isolated, a type isolated to a global actor has isolated
  /// conformances whatever the default isolation.
  @Test func whereConformancesAreInferredIsolatedAGlobalActorTypeIsNotStored() {
    let source = """
      @MainActor struct Pane: Codable { var width = 1 }
      @MainActor enum Side: String { case left }
      @MainActor struct Open: nonisolated Codable { var width = 1 }
      struct Plain: Codable { var width = 1 }
      struct S {
        @Preference var pane = Pane()
        @Preference var side = Side.left
        @Preference var open = Open()
        @Preference var plain = Plain()
      }
      """
    var configuration = ScannerConfiguration()
    configuration.infersIsolatedConformances = true
    let inferred = scan(source, configuration: configuration)
    #expect(
      errors(inferred) == [
        "Sources/App/File.swift:6:4: error: @Preference 'pane' stores Pane, but 'Pane' does not conform to PreferenceValue, and the registry cannot add the conformance: 'Pane' is isolated to @MainActor, and this target infers isolated conformances (Approachable Concurrency), which makes its Codable conformance isolated too, and preferences are read on any thread; declare its conformance ': nonisolated Codable', or remove '@MainActor' from 'Pane'"
      ])
    #expect(inferred.conformances.map(\.typeName) == ["Open", "Plain", "Side"])
    configuration.infersIsolatedConformances = false
    #expect(errors(scan(source, configuration: configuration)).isEmpty)
  }

  /// What the scanner does with it.
  @Test func whereTheDefaultIsMainActorATypeMustBeNonisolatedToBeStored() {
    let source = """
      enum Theme: String { case light, dark }
      enum Accent: Codable { case system, custom(Double) }
      nonisolated struct Layout: Codable { var columns = 2 }
      struct Tag: RawRepresentable { var rawValue: String }
      struct Window: Codable { var x = 0.0 }
      enum Pane: nonisolated Codable { case list, grid(Int) }
      nonisolated enum Space {
        struct Nested: Codable { var x = 1 }
        @MainActor enum Mid { struct Deep: Codable { var x = 1 } }
      }
      enum Outer {}
      nonisolated extension Outer { struct Inner: Codable { var x = 1 } }
      struct S {
        @Preference var theme = Theme.dark
        @Preference var accent = Accent.system
        @Preference var layout = Layout()
        @Preference var tag = Tag(rawValue: "a")
        @Preference var windows: [String: Window] = [:]
        @Preference var pane = Pane.grid(2)
        @Preference var nested = Space.Nested()
        @Preference var deep = Space.Mid.Deep()
        @Preference var inner = Outer.Inner()
      }
      """
    var configuration = ScannerConfiguration()
    configuration.defaultIsolation = .mainActor
    let isolated = scan(source, configuration: configuration)
    let messages = errors(isolated)
    // As Swift 6.3 decides: a type nested in a nonisolated one is nonisolated, unless a type
    // between has a global actor; one in a nonisolated extension is not.
    #expect(messages.count == 5, "\(messages)")
    #expect(messages.contains { $0.contains("'deep'") } && messages.contains { $0.contains("'inner'") })
    #expect(
      messages.contains {
        $0.hasSuffix(
          "File.swift:15:4: error: @Preference 'accent' stores Accent, but 'Accent' does not conform to PreferenceValue, and the registry cannot add the conformance: this target's default isolation is MainActor, which makes the Codable conformance of 'Accent' main-actor isolated, and preferences are read on any thread; declare it 'nonisolated enum Accent: …' (or its conformance ': nonisolated Codable')"
        )
      }, "\(messages)")
    #expect(messages.contains { $0.contains("the RawRepresentable conformance of 'Tag'") })
    #expect(messages.contains { $0.contains("'windows'") && $0.contains("'nonisolated struct Window: …'") })
    #expect(isolated.conformances.map(\.typeName) == ["Layout", "Pane", "Space.Nested", "Theme"])

    for other in [nil, DefaultIsolation.nonisolated] {
      configuration.defaultIsolation = other
      let result = scan(source, configuration: configuration)
      #expect(errors(result).isEmpty, "\(errors(result))")
      #expect(
        result.conformances.map(\.typeName) == [
          "Accent", "Layout", "Outer.Inner", "Pane", "Space.Mid.Deep", "Space.Nested", "Tag", "Theme",
          "Window",
        ])
    }
  }
}
