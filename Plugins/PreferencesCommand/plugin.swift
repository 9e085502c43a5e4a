import Foundation
import PackagePlugin

/// `swift package preferences`:
///
/// - `list [--target T] [--format text|json|markdown]` prints every `@Preference`.
/// - `lock [--target T] [--retire KEY]... [--drop KEY]... [--accept-retype KEY]... [--accept-move KEY]...`
///   writes or updates each target's `Preferences.lock`, the keys the build checks renames,
///   retypes and store moves against.
/// - `export [--target T] --format json|markdown|settings-plist [--output PATH]` describes the
///   preferences for documentation, or as a `Settings.bundle` `Root.plist`.
///
/// `lock` and `export --output` write into the package: run them as
/// `swift package --allow-writing-to-package-directory preferences lock`.
@main
struct PreferencesCommand: CommandPlugin {
  static let usage =
    "usage: swift package preferences list|lock|export [--target T] [--format F] [--retire KEY] [--drop KEY] [--accept-retype KEY] [--accept-move KEY] [--output PATH]"

  func performCommand(context: PluginContext, arguments: [String]) async throws {
    var extractor = ArgumentExtractor(arguments)
    let targetNames = extractor.extractOption(named: "target")
    let format = extractor.extractOption(named: "format").last
    let retire = extractor.extractOption(named: "retire")
    let drop = extractor.extractOption(named: "drop")
    let acceptRetype = extractor.extractOption(named: "accept-retype")
    let acceptMove = extractor.extractOption(named: "accept-move")
    let output = extractor.extractOption(named: "output").last
    let verb = extractor.remainingArguments.first ?? "list"
    let targets = context.package.targets.compactMap { $0 as? SourceModuleTarget }
      .filter { targetNames.isEmpty || targetNames.contains($0.name) }
      .filter { !$0.sourceFiles(withSuffix: "swift").map(\.url).isEmpty }
    if let missing = targetNames.first(where: { name in !targets.contains { $0.name == name } }) {
      throw CommandError("no Swift target named '\(missing)' in package '\(context.package.displayName)'")
    }
    let scanner = try context.tool(named: "preferences-scanner").url

    func scannerArguments(_ command: [String], for target: SourceModuleTarget) -> [String] {
      command + ["--module", target.moduleName] + PluginShared.targetOptions(in: target.directoryURL) + ["--"]
        + target.sourceFiles(withSuffix: "swift").map(\.url.path)
    }

    switch verb {
    case "list":
      let format = format ?? "text"
      guard ["text", "json", "markdown"].contains(format) else {
        throw CommandError("--format must be text, json or markdown, not '\(format)'")
      }
      for target in targets {
        let scanFormat = format == "markdown" ? "markdown" : format
        let command =
          scanFormat == "markdown" ? ["export", "--format", "markdown"] : ["scan", "--format", scanFormat]
        let text = try run(
          scanner, workDirectory: context.pluginWorkDirectoryURL, scannerArguments(command, for: target))
        if text.isEmpty || text.contains("\"preferences\": []") { continue }
        print(
          format == "json"
            ? text
            : "\(format == "markdown" ? "## " : "")\(target.name)\(format == "markdown" ? "\n" : ":")\n\(text)"
        )
      }
    case "lock":
      for target in targets {
        let lock = target.directoryURL.appendingPathComponent(PluginShared.lockFileName)
        var command = ["lock", "--lock", lock.path]
        for (flag, keys) in [
          ("--retire", retire), ("--drop", drop), ("--accept-retype", acceptRetype),
          ("--accept-move", acceptMove),
        ] {
          for key in keys { command += [flag, key] }
        }
        let text = try run(
          scanner, workDirectory: context.pluginWorkDirectoryURL, scannerArguments(command, for: target))
        print(text, terminator: "")
      }
    case "export":
      guard let format else { throw CommandError("export needs --format json, markdown or settings-plist") }
      for target in targets {
        var command = ["export", "--format", format]
        if let output {
          let path =
            targets.count == 1
            ? output : (output as NSString).appendingPathComponent("\(target.name)-\(format)")
          command += ["--output", URL(fileURLWithPath: path, relativeTo: context.package.directoryURL).path]
        }
        print(
          try run(
            scanner, workDirectory: context.pluginWorkDirectoryURL, scannerArguments(command, for: target)),
          terminator: "")
      }
    default:
      throw CommandError("unknown subcommand '\(verb)'; \(Self.usage)")
    }
  }

  /// Runs the scanner; its diagnostics (collected in a file, so that no pipe can fill up) are
  /// printed before anything else is said about them.
  private func run(_ tool: URL, workDirectory: URL, _ arguments: [String]) throws -> String {
    let process = Process()
    process.executableURL = tool
    process.arguments = arguments
    let output = Pipe()
    let errorsURL = workDirectory.appendingPathComponent("scanner-diagnostics.txt")
    try? FileManager.default.createDirectory(at: workDirectory, withIntermediateDirectories: true)
    _ = FileManager.default.createFile(atPath: errorsURL.path, contents: nil)
    let errors = try FileHandle(forWritingTo: errorsURL)
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    try? errors.close()
    let diagnostics = (try? String(contentsOf: errorsURL, encoding: .utf8)) ?? ""
    if !diagnostics.isEmpty { FileHandle.standardError.write(Data(diagnostics.utf8)) }
    guard process.terminationStatus == 0 else {
      throw CommandError(
        "preferences-scanner reported \(diagnostics.contains(": error: ") ? "the errors" : "the problems") printed above"
      )
    }
    return String(decoding: data, as: UTF8.self)
  }
}

struct CommandError: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}
