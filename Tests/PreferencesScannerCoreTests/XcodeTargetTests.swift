import Foundation
import Testing

@testable import PreferencesScannerCore

/// How the build plugin reads an Xcode target: its module name by Xcode's rules, and its
/// configuration and lock found the way a SwiftPM build of the same sources finds them.
@Suite struct XcodeTargetTests {
  @Test(arguments: [
    ("My App", "My_App"), ("My App.app", "My_App"), ("Settings-Widget", "Settings_Widget"),
    ("2048", "_2048"), ("Café Ünïcode", "Café_Ünïcode"), ("a.b+c", "a_b_c"), ("Kit.framework", "Kit"),
  ])
  func moduleNamesFollowXcodesC99ExtendedIdentifierRule(product: String, module: String) {
    #expect(PluginShared.xcodeModuleName(productName: product) == module)
  }

  @Test func theSourcesCommonFolderIsTheTargetsFolder() {
    let urls = ["/p/App/Views/A.swift", "/p/App/Models/Deep/B.swift", "/p/App/C.swift"].map(
      URL.init(fileURLWithPath:))
    #expect(PluginShared.commonDirectory(of: urls)?.path == "/p/App")
    #expect(
      PluginShared.commonDirectory(of: [URL(fileURLWithPath: "/p/App/Views/A.swift")])?.path == "/p/App/Views"
    )
    #expect(PluginShared.commonDirectory(of: []) == nil)
  }

  /// A synchronized folder whose sources all sit in subfolders: the configuration at the
  /// folder's top is found (the old guess, the shortest source path, missed it).
  @Test func theConfigurationAndLockAreFoundBesideTheSourcesOrTheProject() throws {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("xcode-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: root) }
    let app = root.appendingPathComponent("My App")
    try FileManager.default.createDirectory(
      at: app.appendingPathComponent("Views"), withIntermediateDirectories: true)
    try FileManager.default.createDirectory(
      at: app.appendingPathComponent("Models"), withIntermediateDirectories: true)
    let sources = [app.appendingPathComponent("Views/A.swift"), app.appendingPathComponent("Models/B.swift")]
    let config = app.appendingPathComponent(PluginShared.configFileName)
    try Data("{}".utf8).write(to: config)

    // Excluded from the target's membership (not among its files), found on disk.
    var files = PluginShared.TargetFiles(xcodeFiles: sources, sources: sources, projectDirectory: root)
    #expect(files.config?.standardizedFileURL == config.standardizedFileURL)
    #expect(files.lock == nil)
    #expect(
      files.expectedLock.standardizedFileURL
        == app.appendingPathComponent("Preferences.lock").standardizedFileURL)
    #expect(files.options.contains("--config"))

    // Beside the project, outside the synchronized folder.
    try FileManager.default.removeItem(at: config)
    let projectConfig = root.appendingPathComponent(PluginShared.configFileName)
    try Data("{}".utf8).write(to: projectConfig)
    let lock = root.appendingPathComponent(PluginShared.lockFileName)
    try Data("{}".utf8).write(to: lock)
    files = PluginShared.TargetFiles(xcodeFiles: sources, sources: sources, projectDirectory: root)
    #expect(files.config?.standardizedFileURL == projectConfig.standardizedFileURL)
    #expect(files.lock?.standardizedFileURL == lock.standardizedFileURL)
    #expect(Set(files.inputs.map(\.lastPathComponent)) == ["preferences-config.json", "Preferences.lock"])

    // A member of the target (classic group) wins.
    let member = root.appendingPathComponent("Elsewhere/preferences-config.json")
    files = PluginShared.TargetFiles(xcodeFiles: sources + [member], sources: sources, projectDirectory: root)
    #expect(files.config == member)

    // The project file, for the target's settings: the one named after the project, else the
    // only one beside it.
    #expect(files.settings == nil)
    func project(_ name: String) throws -> URL {
      let file = root.appendingPathComponent("\(name).xcodeproj/project.pbxproj")
      try FileManager.default.createDirectory(
        at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
      try Data("{}".utf8).write(to: file)
      return file.standardizedFileURL
    }
    func settings(_ projectName: String) -> URL? {
      files = PluginShared.TargetFiles(
        xcodeFiles: sources, sources: sources, projectDirectory: root, projectName: projectName,
        targetName: "My App")
      return files.settings?.standardizedFileURL
    }
    let other = try project("Other")
    #expect(settings("My App") == other)
    #expect(files.inputs.contains { $0.lastPathComponent == "project.pbxproj" })
    #expect(files.options.contains("--settings-from") && files.options.contains("My App"))
    let named = try project("My App")
    #expect(settings("My App") == named)
    #expect(settings("Third") == nil)
  }
}
