// Shared by both plugins (symlinked into each plugin's folder), so they cannot drift.
import Foundation

enum PluginShared {
  /// The generated registry's file name.
  static let outputFileName = "PreferenceRegistry.generated.swift"
  /// The per-target configuration file's name.
  static let configFileName = "preferences-config.json"

  /// The scanner's arguments to generate the registry of one module.
  static func generateArguments(module: String, output: URL, config: URL?, sources: [URL]) -> [String] {
    var arguments = ["generate", "--module", module, "--output", output.path]
    if let config { arguments += ["--config", config.path] }
    return arguments + ["--"] + sources.map(\.path)
  }

  /// The configuration file in `directory`, if there is one.
  static func configFile(in directory: URL) -> URL? {
    let url = directory.appendingPathComponent(configFileName)
    return FileManager.default.fileExists(atPath: url.path) ? url : nil
  }
}
