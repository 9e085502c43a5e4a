import Foundation
import PackagePlugin

/// Generates the preference registry of a target: scans its `.swift` files for `@Preference`
/// declarations and writes, in the plugin's work directory, the module index
/// (`PreferenceRegistry.generated.swift`), table files that each hold the tables of about 16
/// source files (`PreferenceRegistry+Tables<n>.generated.swift`), and one for files that gained
/// their first declaration since outputs were planned.
///
/// A `.buildCommand`: it reruns only when a source file, the configuration, the lock or the
/// build settings it read (the manifest, or the Xcode project and its `.xcconfig` files) changed;
/// the scanner then parses only the files whose contents changed (it keeps what it parsed in the
/// work directory's `ParseCache`) and rewrites only the outputs whose bytes change, so an edit
/// that shifts one file's declarations recompiles one small table file and nothing else.
@main
struct PreferenceRegistryPlugin: BuildToolPlugin {
  func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
    guard let target = target as? SourceModuleTarget else { return [] }
    return [
      try Self.command(
        tool: context.tool(named: "preferences-scanner").url, workDirectory: context.pluginWorkDirectoryURL,
        module: target.moduleName, targetName: target.name,
        files: PluginShared.TargetFiles(
          in: target.directoryURL, packageDirectory: context.package.directoryURL,
          toolsVersion: Self.version(context.package.toolsVersion), targetName: target.name),
        sources: target.sourceFiles(withSuffix: "swift").map(\.url),
        dependencySources: target.dependencySourceArguments)
    ]
  }

  /// A tools version as the shared code takes it.
  static func version(_ version: ToolsVersion) -> [Int] { [version.major, version.minor, version.patch] }

  /// One core function for SwiftPM and Xcode targets.
  static func command(
    tool: URL, workDirectory: URL, module: String, targetName: String, files: PluginShared.TargetFiles,
    sources: [URL], dependencySources: [String] = []
  ) -> Command {
    let planned = PluginShared.plannedSources(sources)
    return .buildCommand(
      displayName: "Generating the preference registry of \(targetName)",
      executable: tool,
      arguments: PluginShared.generateArguments(
        module: module, workDirectory: workDirectory, files: files, sources: sources, planned: planned,
        dependencySources: dependencySources),
      // A dependency's sources too: an enum case that becomes a static property changes where
      // its default may be evaluated.
      inputFiles: sources + PluginShared.dependencyPaths(dependencySources) + files.inputs
        + PluginShared.recordedSettingsFiles(in: workDirectory),
      outputFiles: PluginShared.outputs(in: PluginShared.outputDirectory(in: workDirectory), planned: planned)
    )
  }
}

#if canImport(XcodeProjectPlugin)
  import XcodeProjectPlugin

  // Xcode calls this once when it plans the build, on no particular thread and with no callback
  // of ours; it only names files. `XcodeProject.displayName`, `XcodeTarget.displayName`,
  // `inputFiles` and `product` are XcodeProjectPlugin's since Xcode 14; `directoryURL` (the folder
  // that holds the `.xcodeproj`) and `pluginWorkDirectoryURL` since Xcode 16. What it passes on,
  // `PluginShared.TargetFiles(xcodeFiles:…)` and the project file's settings
  // (`TargetSettings.declared(inXcodeProject:target:)`), is tested on Linux (`XcodeTargetTests`,
  // `TargetSettingsTests`, which reads this repository's Xcode fixture).
  extension PreferenceRegistryPlugin: XcodeBuildToolPlugin {
    func createBuildCommands(context: XcodePluginContext, target: XcodeTarget) throws -> [Command] {
      let sources = target.inputFiles.filter { $0.type == .source && $0.url.pathExtension == "swift" }.map(
        \.url)
      return [
        Self.command(
          tool: try context.tool(named: "preferences-scanner").url,
          workDirectory: context.pluginWorkDirectoryURL,
          module: PluginShared.xcodeModuleName(productName: target.product?.name ?? target.displayName),
          targetName: target.displayName,
          files: PluginShared.TargetFiles(
            xcodeFiles: target.inputFiles.map(\.url), sources: sources,
            projectDirectory: context.xcodeProject.directoryURL,
            projectName: context.xcodeProject.displayName,
            targetName: target.displayName),
          sources: sources)
      ]
    }
  }
#endif
