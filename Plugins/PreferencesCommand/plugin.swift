import Foundation
import PackagePlugin

/// `swift package preferences list [--target T] [--format text|json|markdown]`: prints every
/// `@Preference` of the package's targets, as the build plugin sees them.
@main
struct PreferencesCommand: CommandPlugin {
  func performCommand(context: PluginContext, arguments: [String]) async throws {
    var extractor = ArgumentExtractor(arguments)
    let targetNames = extractor.extractOption(named: "target")
    let format = extractor.extractOption(named: "format").last ?? "text"
    let verb = extractor.remainingArguments.first ?? "list"
    guard verb == "list" else {
      throw CommandError(
        "unknown subcommand '\(verb)'; usage: swift package preferences list [--target T] [--format text|json|markdown]"
      )
    }
    guard ["text", "json", "markdown"].contains(format) else {
      throw CommandError("--format must be text, json or markdown, not '\(format)'")
    }
    let targets = context.package.targets.compactMap { $0 as? SourceModuleTarget }
      .filter { targetNames.isEmpty || targetNames.contains($0.name) }
    if let missing = targetNames.first(where: { name in !targets.contains { $0.name == name } }) {
      throw CommandError("no Swift target named '\(missing)' in package '\(context.package.displayName)'")
    }
    let scanner = try context.tool(named: "preferences-scanner").url
    var reports: [(target: String, preferences: [[String: Any]])] = []
    var failed = false
    for target in targets {
      let sources = target.sourceFiles(withSuffix: "swift").map(\.url)
      if sources.isEmpty { continue }
      var arguments = ["scan", "--format", "json", "--module", target.moduleName]
      if let config = PluginShared.configFile(in: target.directoryURL) {
        arguments += ["--config", config.path]
      }
      arguments += ["--"] + sources.map(\.path)
      let (status, output) = try run(scanner, arguments)
      guard let data = output.data(using: .utf8),
        let object = try JSONSerialization.jsonObject(with: data) as? [String: Any],
        let preferences = object["preferences"] as? [[String: Any]]
      else {
        throw CommandError("preferences-scanner printed no JSON for target '\(target.name)'")
      }
      for diagnostic in object["diagnostics"] as? [[String: Any]] ?? [] {
        let location = "\(diagnostic["file"] ?? ""):\(diagnostic["line"] ?? 0):\(diagnostic["column"] ?? 0)"
        FileHandle.standardError.write(
          Data("\(location): \(diagnostic["severity"] ?? "error"): \(diagnostic["message"] ?? "")\n".utf8))
      }
      failed = failed || status != 0
      if !preferences.isEmpty { reports.append((target.name, preferences)) }
    }
    print(render(reports, format: format), terminator: "")
    if failed { throw CommandError("the scanner reported errors (see above)") }
  }

  private func run(_ tool: URL, _ arguments: [String]) throws -> (Int32, String) {
    let process = Process()
    process.executableURL = tool
    process.arguments = arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
  }

  private func render(_ reports: [(target: String, preferences: [[String: Any]])], format: String) -> String {
    func field(_ preference: [String: Any], _ name: String) -> String {
      guard let value = preference[name], !(value is NSNull) else { return "" }
      return "\(value)"
    }
    switch format {
    case "json":
      let object = reports.map { ["target": $0.target, "preferences": $0.preferences] as [String: Any] }
      let data =
        (try? JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys]))
        ?? Data()
      return String(decoding: data, as: UTF8.self) + "\n"
    case "markdown":
      var out = ""
      for report in reports {
        out +=
          "## \(report.target)\n\n| Key | Type | Default | Declared in | Description |\n| --- | --- | --- | --- | --- |\n"
        for preference in report.preferences {
          let cells = [
            "`\(field(preference, "key"))`", field(preference, "type"),
            "`\(field(preference, "defaultValue"))`",
            "`\(field(preference, "enclosingType"))`", field(preference, "documentation"),
          ].map { $0.replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "\n", with: " ") }
          out += "| " + cells.joined(separator: " | ") + " |\n"
        }
        out += "\n"
      }
      return out
    default:
      var out = ""
      for report in reports {
        out += "\(report.target):\n"
        for preference in report.preferences {
          let type = field(preference, "type")
          out +=
            "  \(field(preference, "key")): \(type.isEmpty ? "?" : type) = \(field(preference, "defaultValue").replacingOccurrences(of: "\n", with: " "))\n"
        }
      }
      return out
    }
  }
}

struct CommandError: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}
