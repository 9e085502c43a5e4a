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
/// - `export-values --plist FILE [--output PATH]`, `import-values --plist FILE --document PATH`
///   and `reset-values --plist FILE` (each with `--store EXPR` for another store's file) move a user's values between a preferences file and a
///   values document, as the registry's `exportValues()`, `importValues(_:)` and
///   `resetAllValues()` do in the app.
///
/// `lock` and `export --output` write into the package: run them as
/// `swift package --allow-writing-to-package-directory preferences lock`. In an Xcode project,
/// the same subcommands run from the project navigator's context menu (the `preferences`
/// command, with the arguments in its sheet); `lock` writes each target's `Preferences.lock`
/// beside its configuration, else in the folder that holds its Swift sources.
@main
struct PreferencesCommand: CommandPlugin {
  /// A target to act on, from a package or an Xcode project.
  struct CommandTarget {
    var name: String
    var module: String
    var sources: [URL]
    var files: PluginShared.TargetFiles
    /// The Swift sources of the modules it depends on, as the build plugin passes them
    /// (`MODULE=PATH`).
    var dependencySources: [String] = []
  }

  func performCommand(context: PluginContext, arguments: [String]) async throws {
    let targets = context.package.targets.compactMap { $0 as? SourceModuleTarget }.map {
      CommandTarget(
        name: $0.name, module: $0.moduleName, sources: $0.sourceFiles(withSuffix: "swift").map(\.url),
        files: PluginShared.TargetFiles(
          in: $0.directoryURL, packageDirectory: context.package.directoryURL,
          toolsVersion: [
            context.package.toolsVersion.major, context.package.toolsVersion.minor,
            context.package.toolsVersion.patch,
          ], targetName: $0.name),
        dependencySources: $0.dependencySourceArguments)
    }
    try perform(
      arguments: arguments, targets: targets, container: "package '\(context.package.displayName)'",
      scanner: context.tool(named: "preferences-scanner").url, workDirectory: context.pluginWorkDirectoryURL,
      baseDirectory: context.package.directoryURL)
  }

  /// The one implementation of every subcommand, for packages and Xcode projects.
  func perform(
    arguments: [String], targets allTargets: [CommandTarget], container: String, scanner: URL,
    workDirectory: URL, baseDirectory: URL
  ) throws {
    let request: PreferencesCommandRequest
    do {
      guard let parsed = try PreferencesCommandRequest.parse(arguments) else {
        print(PreferencesCommandRequest.help)
        return
      }
      request = parsed
    } catch {
      throw CommandError(error.description)
    }
    let targetNames = request.targets
    let targets = allTargets.filter {
      (targetNames.isEmpty || targetNames.contains($0.name)) && !$0.sources.isEmpty
    }
    if let missing = targetNames.first(where: { name in !targets.contains { $0.name == name } }) {
      throw CommandError("no Swift target named '\(missing)' in \(container)")
    }

    func scannerArguments(_ command: [String], for target: CommandTarget) -> [String] {
      command + ["--module", target.module] + target.files.options
        + target.dependencySources.flatMap { ["--dependency-source", $0] } + ["--"]
        + target.sources.map(\.path)
    }

    switch request.verb {
    case .list:
      let format = request.format ?? "text"
      for target in targets {
        let command =
          format == "markdown" ? ["export", "--format", "markdown"] : ["scan", "--format", format]
        let text = try run(scanner, workDirectory: workDirectory, scannerArguments(command, for: target))
        if text.isEmpty || text.contains("\"preferences\": []") { continue }
        print(
          format == "json"
            ? text
            : "\(format == "markdown" ? "## " : "")\(target.name)\(format == "markdown" ? "\n" : ":")\n\(text)"
        )
      }
    case .lock:
      for target in targets {
        var command = ["lock", "--lock", target.files.expectedLock.path]
        for (flag, keys) in [
          ("--retire", request.retire), ("--drop", request.drop), ("--accept-retype", request.acceptRetype),
          ("--accept-move", request.acceptMove),
        ] {
          for key in keys { command += [flag, key] }
        }
        print(
          try run(scanner, workDirectory: workDirectory, scannerArguments(command, for: target)),
          terminator: "")
      }
    case .exportValues, .importValues, .resetValues:
      // One target: the one named, else the one whose sources declare preferences.
      let candidates =
        targets.count <= 1 || !targetNames.isEmpty
        ? targets
        : targets.filter { target in
          target.sources.contains { (try? Data(contentsOf: $0)).map(PluginShared.mentionsPreference) == true }
        }
      guard candidates.count == 1, let target = candidates.first else {
        throw CommandError(
          "\(request.verb.rawValue) acts on one target; name it with --target (\((candidates.isEmpty ? targets : candidates).map(\.name).joined(separator: ", ")))"
        )
      }
      /// A path as the shell would have read it: `~/` is the home folder (an `--option=~/x`
      /// reaches here unexpanded), and a relative path is the package's. Plugins run on the
      /// build host: `homeDirectoryForCurrentUser` is macOS 10.12+ in Apple's documentation,
      /// and corelibs Foundation has it on Linux.
      func resolved(_ path: String) -> String {
        let expanded =
          path == "~" || path.hasPrefix("~/")
          ? FileManager.default.homeDirectoryForCurrentUser.path + path.dropFirst() : path
        return URL(fileURLWithPath: expanded, relativeTo: baseDirectory).path
      }
      var command = [request.verb.rawValue, "--plist", resolved(request.plist ?? "")]
      if let store = request.store { command += ["--store", store] }
      if let document = request.document { command += ["--document", resolved(document)] }
      if let output = request.output { command += ["--output", resolved(output)] }
      print(
        try run(scanner, workDirectory: workDirectory, scannerArguments(command, for: target)),
        terminator: "")
    case .export:
      guard let format = request.format else { throw CommandError(PreferencesCommandRequest.help) }
      for target in targets {
        var command = ["export", "--format", format]
        if let output = request.output {
          let path =
            targets.count == 1
            ? output : (output as NSString).appendingPathComponent("\(target.name)-\(format)")
          command += ["--output", URL(fileURLWithPath: path, relativeTo: baseDirectory).path]
        }
        print(
          try run(scanner, workDirectory: workDirectory, scannerArguments(command, for: target)),
          terminator: "")
      }
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

#if canImport(XcodeProjectPlugin)
  import XcodeProjectPlugin

  // Xcode calls this once per run of the command, from its menu, and waits for it; nothing of
  // ours is called back. `XcodeProject.displayName` and `targets`, `XcodeTarget.displayName`,
  // `inputFiles` and `product` are XcodeProjectPlugin's since Xcode 14; `directoryURL` and
  // `pluginWorkDirectoryURL` since Xcode 16. The targets it describes go to `perform`, the
  // code SwiftPM packages run too, and `PluginShared.TargetFiles(xcodeFiles:…)` is tested on
  // Linux (`XcodeTargetTests`, and `CommandTests` for an Xcode project's settings).
  extension PreferencesCommand: XcodeCommandPlugin {
    func performCommand(context: XcodePluginContext, arguments: [String]) throws {
      let project = context.xcodeProject
      let targets = project.targets.map { target in
        let sources = target.inputFiles.filter { $0.type == .source && $0.url.pathExtension == "swift" }.map(
          \.url)
        return CommandTarget(
          name: target.displayName,
          module: PluginShared.xcodeModuleName(productName: target.product?.name ?? target.displayName),
          sources: sources,
          files: PluginShared.TargetFiles(
            xcodeFiles: target.inputFiles.map(\.url), sources: sources,
            projectDirectory: project.directoryURL,
            projectName: project.displayName, targetName: target.displayName))
      }
      try perform(
        arguments: arguments, targets: targets, container: "project '\(project.displayName)'",
        scanner: context.tool(named: "preferences-scanner").url,
        workDirectory: context.pluginWorkDirectoryURL,
        baseDirectory: project.directoryURL)
    }
  }
#endif
