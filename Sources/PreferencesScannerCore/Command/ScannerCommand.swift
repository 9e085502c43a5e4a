import Foundation

/// The `preferences-scanner` command line, parsed by hand.
///
/// ```
/// preferences-scanner scan [--module NAME] [--format json|text] [--config FILE] PATH…
/// preferences-scanner generate --module NAME --output FILE [--config FILE] PATH…
/// ```
public struct ScannerCommand {
  public static let usage = """
    USAGE: preferences-scanner scan [--module NAME] [--format json|text] [options] PATH...
           preferences-scanner generate --module NAME --output FILE [options] PATH...
           preferences-scanner lock --lock FILE [--retire KEY]... [--drop KEY]... [options] PATH...
           preferences-scanner export --format json|markdown|settings-plist [--output FILE] [options] PATH...

    scan      Prints every @Preference declaration and diagnostic (JSON or text).
    generate  Writes the registry file for a module (only when its contents change);
              diagnostics go to standard error as file:line:column: severity: message.
    lock      Writes or updates the manifest of shipped keys (Preferences.lock): adds new
              keys, records renames, marks --retire keys retired, removes --drop keys.
    export    Describes every preference as JSON, a Markdown table, or a Settings.bundle
              Root.plist (preferences declared with settings: true).

    Options: --config FILE (default: preferences-config.json in a directory PATH) and
    --lock FILE (the manifest the sources are checked against).

    PATH is a .swift file or a directory searched recursively. Without --config, a
    \(ScannerConfiguration.fileName) in a directory PATH is used. Exit status: 0 on success,
    1 when an error diagnostic was reported, 2 for invalid arguments.

    """

  public var standardOutput: (String) -> Void
  public var standardError: (String) -> Void

  public init(
    standardOutput: @escaping (String) -> Void = { FileHandle.standardOutput.write(Data($0.utf8)) },
    standardError: @escaping (String) -> Void = { FileHandle.standardError.write(Data($0.utf8)) }
  ) {
    self.standardOutput = standardOutput
    self.standardError = standardError
  }

  struct Options {
    var command = ""
    var module: String?
    var format = "json"
    var output: String?
    var config: String?
    var lock: String?
    var retire: [String] = []
    var drop: [String] = []
    var paths: [String] = []
  }

  struct UsageError: Error { var message: String }

  static func parse(_ arguments: [String]) throws(UsageError) -> Options {
    var options = Options()
    var remaining = arguments[...]
    guard let command = remaining.popFirst() else { throw UsageError(message: "missing command") }
    guard ["scan", "generate", "lock", "export"].contains(command) else {
      throw UsageError(message: "unknown command '\(command)'; expected scan, generate, lock or export")
    }
    options.command = command
    if command == "export" { options.format = "" }
    while let argument = remaining.popFirst() {
      func value() throws(UsageError) -> String {
        guard let value = remaining.popFirst(), !value.hasPrefix("--") else {
          throw UsageError(message: "\(argument) needs a value")
        }
        return value
      }
      switch argument {
      case "--module": options.module = try value()
      case "--format":
        options.format = try value()
        let formats = command == "export" ? Exporter.Format.allCases.map(\.rawValue) : ["json", "text"]
        guard formats.contains(options.format) else {
          throw UsageError(
            message: "--format must be one of \(formats.joined(separator: ", ")), not '\(options.format)'")
        }
      case "--lock": options.lock = try value()
      case "--retire": options.retire.append(try value())
      case "--drop": options.drop.append(try value())
      case "--output": options.output = try value()
      case "--config": options.config = try value()
      case "--": options.paths += remaining; remaining = []
      default:
        if argument.hasPrefix("-") && argument != "-" {
          throw UsageError(message: "unknown option '\(argument)'")
        }
        options.paths.append(argument)
      }
    }
    if options.paths.isEmpty { throw UsageError(message: "no PATH given") }
    if command == "generate" {
      if options.module == nil { throw UsageError(message: "generate needs --module NAME") }
      if options.output == nil { throw UsageError(message: "generate needs --output FILE") }
    }
    if command == "lock" && options.lock == nil { throw UsageError(message: "lock needs --lock FILE") }
    if command == "export" && options.format.isEmpty {
      throw UsageError(message: "export needs --format json, markdown or settings-plist")
    }
    return options
  }

  /// Runs the command and returns the exit status.
  public func run(_ arguments: [String]) -> Int32 {
    if arguments.first == "--help" || arguments.first == "-h" || arguments.first == "help" {
      standardOutput(Self.usage)
      return 0
    }
    let options: Options
    do {
      options = try Self.parse(arguments)
    } catch {
      standardError("error: \(error.message)\n\n\(Self.usage)")
      return 2
    }
    do {
      var configuration = ScannerConfiguration()
      if let path = options.config ?? defaultConfig(options.paths) {
        configuration = try ScannerConfiguration.load(from: path)
      }
      let module = options.module ?? defaultModule(options.paths)
      var manifest: (PreferenceManifest, String)?
      if let lock = options.lock, FileManager.default.fileExists(atPath: lock) {
        manifest = (try PreferenceManifest.load(from: lock), lock)
      }
      if options.command == "lock" {
        return try updateLock(options, module: module, configuration: configuration, existing: manifest?.0)
      }
      let scanner = PreferenceScanner(module: module, configuration: configuration, manifest: manifest)
      let result = try scanner.scan(paths: options.paths)
      if options.command == "export" {
        var diagnostics = result.diagnostics
        let text = Exporter.export(
          result.preferences, format: Exporter.Format(rawValue: options.format)!, diagnostics: &diagnostics)
        for diagnostic in diagnostics { standardError("\(diagnostic)\n") }
        if let output = options.output { try writeIfChanged(text, to: output) } else { standardOutput(text) }
        return result.hasErrors ? 1 : 0
      }
      if options.command == "scan" {
        if options.format == "json" {
          standardOutput(ScanOutput.json(result))
        } else {
          standardOutput(ScanOutput.text(result))
          for diagnostic in result.diagnostics { standardError("\(diagnostic)\n") }
        }
      } else {
        for diagnostic in result.diagnostics { standardError("\(diagnostic)\n") }
        if !result.hasErrors {
          try writeIfChanged(
            RegistryRenderer.render(
              result.preferences, module: module, retiredKeys: result.retiredKeys, imports: result.imports),
            to: options.output!)
        }
      }
      return result.hasErrors ? 1 : 0
    } catch let diagnostic as Diagnostic {
      standardError("\(diagnostic)\n")
      return 1
    } catch {
      standardError("error: \(error)\n")
      return 1
    }
  }

  /// `lock`: adds the sources' keys to the manifest, records renames, retires and drops keys.
  private func updateLock(
    _ options: Options, module: String, configuration: ScannerConfiguration, existing: PreferenceManifest?
  ) throws -> Int32 {
    let result = try PreferenceScanner(module: module, configuration: configuration).scan(
      paths: options.paths)
    for diagnostic in result.diagnostics { standardError("\(diagnostic)\n") }
    if result.hasErrors { return 1 }
    let manifest = (existing ?? PreferenceManifest()).updated(
      with: result.preferences, migrations: configuration.migrations, retire: Set(options.retire),
      drop: Set(options.drop))
    try writeIfChanged(manifest.render(), to: options.lock!)
    let declared = Set(result.preferences.map(\.key))
    let renamed = Set(manifest.entries.values.flatMap(\.renamedFrom))
    let missing = manifest.entries.values.filter {
      !$0.isRetired && !declared.contains($0.key) && !renamed.contains($0.key)
    }
    for entry in missing.sorted(by: { $0.key < $1.key }) {
      standardError(
        "\(options.lock!):\(max(entry.line, 1)):1: warning: '\(entry.key)' is in the manifest but no declaration uses it; rename (renamedFrom:), migrate, or --retire it\n"
      )
    }
    standardOutput(
      "\(options.lock!): \(manifest.entries.count) keys (\(manifest.entries.values.filter(\.isRetired).count) retired)\n"
    )
    return 0
  }

  private func defaultConfig(_ paths: [String]) -> String? {
    for path in paths {
      let candidate = (path.hasSuffix("/") ? path : path + "/") + ScannerConfiguration.fileName
      if FileManager.default.fileExists(atPath: candidate) { return candidate }
    }
    return nil
  }

  private func defaultModule(_ paths: [String]) -> String {
    guard paths.count == 1 else { return "Module" }
    var isDirectory: ObjCBool = false
    if FileManager.default.fileExists(atPath: paths[0], isDirectory: &isDirectory), isDirectory.boolValue {
      return URL(fileURLWithPath: paths[0]).lastPathComponent
    }
    return "Module"
  }

  /// Writes `text` to `path` unless the file already holds exactly these bytes, so that an
  /// unchanged registry recompiles nothing.
  func writeIfChanged(_ text: String, to path: String) throws {
    let data = Data(text.utf8)
    if FileManager.default.contents(atPath: path) == data { return }
    let url = URL(fileURLWithPath: path)
    try FileManager.default.createDirectory(
      at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try data.write(to: url, options: .atomic)
  }
}
