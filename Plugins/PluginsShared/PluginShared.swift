// Shared by both plugins and the scanner (symlinked into each), so that file names and the
// scanner's arguments are spelled once and cannot drift.
import Foundation

enum PluginShared {
  /// The module index: `Preference`, `PreferenceRegistry` and the list of file tables.
  static let indexFileName = "PreferenceRegistry.generated.swift"
  /// Tables of files that gained their first `@Preference` since the plugin last planned outputs.
  static let unplannedFileName = "PreferenceRegistry+Unplanned.generated.swift"
  /// The folder, in the plugin's work directory, that holds the generated sources.
  static let outputDirectoryName = "GeneratedPreferences"
  /// The folder, in the plugin's work directory, where the scanner keeps what it parsed, so that a
  /// build parses only the files whose contents changed since the last.
  static let parseCacheName = "ParseCache"
  /// The per-target configuration file's name.
  static let configFileName = "preferences-config.json"
  /// The per-target manifest of shipped keys.
  static let lockFileName = "Preferences.lock"

  /// How many planned source files share a generated table file, about: few enough that an edit
  /// recompiles a small file, many fewer files than sources, because each file of a module costs
  /// every compile job of a clean build.
  static let sourcesPerTableFile = 16

  /// How many table files a target with `planned` sources gets: a power of two, so that it
  /// changes (and moves sources between files) only when the number of sources doubles or halves.
  static func tableFileCount(planned: Int) -> Int {
    var count = 1
    while count * sourcesPerTableFile < planned { count *= 2 }
    return count
  }

  /// The name of table file number `number`.
  static func tableFileName(_ number: Int) -> String {
    "PreferenceRegistry+Tables\(number).generated.swift"
  }

  /// The table file that holds the tables of the source file named `name` (`File.swift`), among
  /// `count`: chosen by a hash of the name (FNV-1a, the same in every process), so that it stays
  /// put when other files are added or removed.
  static func tableFileName(forSource name: String, count: Int) -> String {
    var hash: UInt32 = 2_166_136_261
    for byte in name.utf8 { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
    return tableFileName(Int(hash % UInt32(count)))
  }

  /// The source files whose tables go to a planned table file: those that mention `@Preference`
  /// now. (SwiftPM plans outputs again only when the target's files change, so a file that gains
  /// its first declaration later goes to the unplanned file until then.)
  static func plannedSources(_ sources: [URL]) -> [URL] {
    let marker = Data("@Preference".utf8)
    return sources.filter { (try? Data(contentsOf: $0))?.range(of: marker) != nil }
  }

  /// Where the generate command writes the generated sources, in the plugin's work directory.
  static func outputDirectory(in workDirectory: URL) -> URL {
    workDirectory.appendingPathComponent(outputDirectoryName)
  }

  /// Every file the generate command writes, for a target with `planned` sources.
  static func outputs(in directory: URL, planned: [URL]) -> [URL] {
    [directory.appendingPathComponent(indexFileName), directory.appendingPathComponent(unplannedFileName)]
      + (0..<tableFileCount(planned: planned.count)).map {
        directory.appendingPathComponent(tableFileName($0))
      }
  }

  /// The scanner's options for a target in `directory`: its configuration and lock, if any, and
  /// where its lock belongs.
  static func targetOptions(in directory: URL) -> [String] {
    var arguments: [String] = []
    if let config = existingFile(configFileName, in: directory) { arguments += ["--config", config.path] }
    if let lock = existingFile(lockFileName, in: directory) { arguments += ["--lock", lock.path] }
    arguments += ["--expected-lock", directory.appendingPathComponent(lockFileName).path]
    return arguments
  }

  /// The files besides sources that the generated code depends on.
  static func extraInputs(in directory: URL) -> [URL] {
    [configFileName, lockFileName].compactMap { existingFile($0, in: directory) }
  }

  /// The scanner's arguments to generate the registry of one module, in the plugin's
  /// `workDirectory`.
  static func generateArguments(
    module: String, workDirectory: URL, directory: URL, sources: [URL], planned: [URL]
  ) -> [String] {
    ["generate", "--module", module, "--output-directory", outputDirectory(in: workDirectory).path]
      + ["--cache", workDirectory.appendingPathComponent(parseCacheName).path]
      + planned.flatMap { ["--planned", $0.path] } + targetOptions(in: directory) + ["--"]
      + sources.map(\.path)
  }

  static func existingFile(_ name: String, in directory: URL) -> URL? {
    let url = directory.appendingPathComponent(name)
    return FileManager.default.fileExists(atPath: url.path) ? url : nil
  }
}
