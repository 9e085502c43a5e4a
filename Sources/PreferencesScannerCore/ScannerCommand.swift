import Foundation

/// The `preferences-scanner` command line, parsed by hand.
///
/// ```
/// preferences-scanner scan [--module NAME] [--format json|text] [--config FILE] PATH…
/// preferences-scanner generate --module NAME --output FILE [--config FILE] PATH…
/// ```
public struct ScannerCommand {
  public static let usage = """
    USAGE: preferences-scanner scan [--module NAME] [--format json|text] [--config FILE] PATH...
           preferences-scanner generate --module NAME --output FILE [--config FILE] PATH...

    scan      Prints every @Preference declaration and diagnostic (JSON or text).
    generate  Writes the registry file for a module (only when its contents change);
              diagnostics go to standard error as file:line:column: severity: message.

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
    var paths: [String] = []
  }

  struct UsageError: Error { var message: String }

  static func parse(_ arguments: [String]) throws(UsageError) -> Options {
    var options = Options()
    var remaining = arguments[...]
    guard let command = remaining.popFirst() else { throw UsageError(message: "missing command") }
    guard command == "scan" || command == "generate" else {
      throw UsageError(message: "unknown command '\(command)'; expected 'scan' or 'generate'")
    }
    options.command = command
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
        guard ["json", "text"].contains(options.format) else {
          throw UsageError(message: "--format must be 'json' or 'text', not '\(options.format)'")
        }
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
      let scanner = PreferenceScanner(module: module, configuration: configuration)
      let result = try scanner.scan(paths: options.paths)
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
          try writeIfChanged(RegistryRenderer.render(result.preferences, module: module), to: options.output!)
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
