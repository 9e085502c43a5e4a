import Foundation
import PackagePlugin

/// Generates the preference registry of a target: scans its `.swift` files for `@Preference`
/// declarations and writes `PreferenceRegistry.generated.swift`, which gives every declaration
/// its key and registers every default.
///
/// A `.buildCommand`: it reruns only when a source file or the configuration file changed, and
/// the scanner rewrites the output only when its bytes change.
@main
struct PreferenceRegistryPlugin: BuildToolPlugin {
  func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
    guard let target = target as? SourceModuleTarget else { return [] }
    return [
      try Self.command(
        tool: context.tool(named: "preferences-scanner").url, workDirectory: context.pluginWorkDirectoryURL,
        module: target.moduleName, targetName: target.name, directory: target.directoryURL,
        sources: target.sourceFiles(withSuffix: "swift").map(\.url))
    ]
  }

  /// One core function for SwiftPM and Xcode targets.
  static func command(
    tool: URL, workDirectory: URL, module: String, targetName: String, directory: URL, sources: [URL]
  ) -> Command {
    let output = workDirectory.appendingPathComponent(PluginShared.outputFileName)
    return .buildCommand(
      displayName: "Generating the preference registry of \(targetName)",
      executable: tool,
      arguments: PluginShared.generateArguments(
        module: module, output: output, directory: directory, sources: sources),
      inputFiles: sources + PluginShared.extraInputs(in: directory),
      outputFiles: [output])
  }
}

#if canImport(XcodeProjectPlugin)
  import XcodeProjectPlugin

  extension PreferenceRegistryPlugin: XcodeBuildToolPlugin {
    func createBuildCommands(context: XcodePluginContext, target: XcodeTarget) throws -> [Command] {
      let sources = target.inputFiles.filter { $0.type == .source && $0.url.pathExtension == "swift" }.map(
        \.url)
      let directory =
        sources.map { $0.deletingLastPathComponent() }.min { $0.path.count < $1.path.count }
        ?? context.xcodeProject.directoryURL
      let module = target.product?.name.replacingOccurrences(of: "-", with: "_") ?? target.displayName
      return [
        Self.command(
          tool: try context.tool(named: "preferences-scanner").url,
          workDirectory: context.pluginWorkDirectoryURL,
          module: module, targetName: target.displayName, directory: directory, sources: sources)
      ]
    }
  }
#endif
