// Shared by both plugins (symlinked into each plugin's folder), so they cannot drift.
import Foundation

enum PluginShared {
  /// The generated registry's file name.
  static let outputFileName = "PreferenceRegistry.generated.swift"
  /// The per-target configuration file's name.
  static let configFileName = "preferences-config.json"
  /// The per-target manifest of shipped keys.
  static let lockFileName = "Preferences.lock"

  /// The scanner's options for a target in `directory`: its configuration and manifest, if any.
  static func targetOptions(in directory: URL) -> [String] {
    var arguments: [String] = []
    if let config = existingFile(configFileName, in: directory) { arguments += ["--config", config.path] }
    if let lock = existingFile(lockFileName, in: directory) { arguments += ["--lock", lock.path] }
    return arguments
  }

  /// The files besides sources that the registry depends on.
  static func extraInputs(in directory: URL) -> [URL] {
    [configFileName, lockFileName].compactMap { existingFile($0, in: directory) }
  }

  /// The scanner's arguments to generate the registry of one module.
  static func generateArguments(module: String, output: URL, directory: URL, sources: [URL]) -> [String] {
    ["generate", "--module", module, "--output", output.path] + targetOptions(in: directory) + ["--"]
      + sources.map(\.path)
  }

  static func existingFile(_ name: String, in directory: URL) -> URL? {
    let url = directory.appendingPathComponent(name)
    return FileManager.default.fileExists(atPath: url.path) ? url : nil
  }
}
