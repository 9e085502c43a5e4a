#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The `preferences-scanner` command line, parsed by hand.
package struct ScannerCommand {
  package static let usage = """
    USAGE: preferences-scanner scan [--module NAME] [--format json|text] [options] PATH...
           preferences-scanner generate --module NAME (--output-directory DIR [--planned FILE]... | --output FILE) [options] PATH...
           preferences-scanner lock --lock FILE [--retire KEY]... [--drop KEY]... [--accept-retype KEY]... [--accept-move KEY]... [options] PATH...
           preferences-scanner export --format json|markdown|settings-plist [--output FILE] [options] PATH...
           preferences-scanner export-values --plist FILE [--store EXPR] [--output FILE] [options] PATH...
           preferences-scanner import-values --plist FILE [--store EXPR] --document FILE [options] PATH...
           preferences-scanner reset-values --plist FILE [--store EXPR] [options] PATH...

    scan      Prints every @Preference declaration and diagnostic (JSON or text).
    generate  Writes the generated registry: with --output-directory, the module index, table
              files shared by about 16 --planned sources each, and one for the other sources'
              tables (what the build plugin uses; other *.generated.swift files in DIR are
              removed); with --output, everything in one file. Files are written only when
              their contents change. Diagnostics go to standard error as
              file:line:column: severity: message.
    lock      Writes or updates the lock of shipped keys (Preferences.lock): adds new keys,
              records renames, marks --retire keys retired, removes --drop keys. It refuses to
              record an incompatible type (or store) of a shipped key unless --accept-retype
              (or --accept-move) names it.
    export    Describes every preference as JSON, a Markdown table, or a Settings.bundle
              Root.plist (preferences declared with settings: true).
    export-values
              Writes the values a preferences file (a UserDefaults domain's property list, or a
              file store's file) holds for the declared preferences as a values document, the
              JSON the app's PreferenceRegistry.exportValues() writes; exported: false
              preferences are left out.
    import-values
              Stores a values document's values in the file, each checked against its
              preference's kind, as PreferenceRegistry.importValues(_:) does; a value under a
              renamed key goes to its key now. Unknown, retired, not exported and wrongly typed
              values are reported and change nothing. A missing file is created.
    reset-values
              Removes the value of every exported preference from the file, so that each reads
              its default, as PreferenceRegistry.resetAllValues() does.
              The file is one store's: the default store's, or with --store EXPR the store the
              declarations name store: EXPR (as written, e.g. '.suite("group.example")').

    Options: --config FILE (default: \(ScannerConfiguration.fileName) in a directory PATH),
    --lock FILE (the lock the sources are checked against), --expected-lock FILE (where the
    lock belongs, for the warning when there is none), --cache DIR (where to keep what was parsed,
    so that a later run parses only the files whose contents changed; the build plugin keeps one),
    --settings-from FILE --target-name NAME (the Package.swift, or the project.pbxproj and the
    .xcconfig files it names, that declares target NAME's default actor isolation and whether it
    infers isolated conformances, unless the configuration states them), --dependency-source
    MODULE=FILE (a .swift file of a module this one depends on, read for the public enums whose
    cases a default names, which evaluate off the main actor; the build plugin passes them for
    SwiftPM targets).

    PATH is a .swift file or a directory searched recursively. Exit status: 0 on success, 1 when
    an error diagnostic was reported, 2 for invalid arguments.

    """

  package var standardOutput: (String) -> Void
  package var standardError: (String) -> Void

  package init(
    standardOutput: @escaping (String) -> Void = { FileSystem.write($0, toDescriptor: 1) },
    standardError: @escaping (String) -> Void = { FileSystem.write($0, toDescriptor: 2) }
  ) {
    self.standardOutput = standardOutput
    self.standardError = standardError
  }

  /// What the command line asks for, parsed once and checked: each subcommand carries exactly
  /// the values it needs.
  struct Options {
    enum Subcommand {
      case scan(format: ScanFormat)
      case generate(module: String, destination: Destination)
      case lock(LockRequest)
      case export(format: Exporter.Format, output: String?)
      case values(ValuesRequest)
    }

    /// `export-values`, `import-values`, `reset-values`: the preferences file, and the document
    /// to read or write.
    struct ValuesRequest {
      enum Action: String {
        case export = "export-values", `import` = "import-values", reset = "reset-values"
      }
      var action: Action
      var plist: String
      /// `import-values`: the document to read.
      var document: String?
      /// `export-values`: where to write the document, else standard output.
      var output: String?
      /// The store the file holds, as declarations write their `store:` argument; `nil`: the
      /// default store.
      var store: String?
    }

    enum ScanFormat: String, CaseIterable { case json, text }

    /// Where `generate` writes.
    enum Destination {
      /// The plugin's layout: the index, table files for the `planned` sources, and the rest.
      case directory(String, planned: [String])
      /// Everything in one file.
      case file(String)
    }

    /// `lock`: the lock to write, and the keys to retire, drop, or accept as retyped or moved.
    struct LockRequest {
      var path: String
      var retire: [String] = []
      var drop: [String] = []
      var acceptRetype: [String] = []
      var acceptMove: [String] = []
    }

    var subcommand: Subcommand
    var module: String?
    var config: String?
    var cache: String?
    /// The lock the sources are checked against (for `lock`, the one it writes).
    var lock: String?
    var expectedLock: String?
    /// The manifest or Xcode project that declares the target's build settings, and the
    /// target's name there.
    var settingsSource: (file: String, target: String)?
    /// The `.swift` files of the modules this one depends on (`--dependency-source`).
    var dependencySources: [String] = []
    var paths: [String]
  }

  struct UsageError: Error { var message: String }

  static let commands = [
    "scan", "generate", "lock", "export", "export-values", "import-values", "reset-values",
  ]

  static func parse(_ arguments: [String]) throws(UsageError) -> Options {
    var remaining = arguments[...]
    guard let command = remaining.popFirst() else { throw UsageError(message: "missing command") }
    guard commands.contains(command) else {
      throw UsageError(message: "unknown command '\(command)'; expected \(commands.joined(separator: ", "))")
    }
    // The flags as given; checked against the subcommand below.
    var module: String?
    var format: String?
    var output: String?
    var outputDirectory: String?
    var planned: [String] = []
    var config: String?
    var cache: String?
    var lock: String?
    var expectedLock: String?
    var settingsFile: String?
    var targetName: String?
    var request = Options.LockRequest(path: "")
    var plist: String?
    var document: String?
    var store: String?
    var paths: [String] = []
    var dependencySources: [String] = []
    while let argument = remaining.popFirst() {
      func value() throws(UsageError) -> String {
        guard let value = remaining.popFirst(), !value.hasPrefix("--") else {
          throw UsageError(message: "\(argument) needs a value")
        }
        return value
      }
      switch argument {
      case "--module": module = try value()
      case "--format": format = try value()
      case "--lock": lock = try value()
      case "--expected-lock": expectedLock = try value()
      case "--retire": request.retire.append(try value())
      case "--drop": request.drop.append(try value())
      case "--accept-retype": request.acceptRetype.append(try value())
      case "--accept-move": request.acceptMove.append(try value())
      case "--output": output = try value()
      case "--plist": plist = try value()
      case "--document": document = try value()
      case "--store": store = try value()
      case "--output-directory": outputDirectory = try value()
      case "--planned": planned.append(try value())
      case "--config": config = try value()
      case "--cache": cache = try value()
      case "--settings-from": settingsFile = try value()
      case "--target-name": targetName = try value()
      case "--dependency-source": dependencySources.append(try value())
      case "--":
        paths += remaining
        remaining = []
      default:
        if argument.hasPrefix("-") && argument != "-" {
          throw UsageError(message: "unknown option '\(argument)'")
        }
        paths.append(argument)
      }
    }
    if paths.isEmpty { throw UsageError(message: "no PATH given") }
    if (settingsFile == nil) != (targetName == nil) {
      throw UsageError(message: "--settings-from and --target-name go together")
    }
    func checkedFormat<Format: RawRepresentable & CaseIterable>(_ type: Format.Type) throws(UsageError)
      -> Format?
    where Format.RawValue == String {
      guard let format else { return nil }
      guard let parsed = Format(rawValue: format) else {
        throw UsageError(
          message:
            "--format must be one of \(Format.allCases.map(\.rawValue).joined(separator: ", ")), not '\(format)'"
        )
      }
      return parsed
    }
    let subcommand: Options.Subcommand
    switch command {
    case "scan":
      subcommand = .scan(format: try checkedFormat(Options.ScanFormat.self) ?? .json)
    case "generate":
      guard let module else { throw UsageError(message: "generate needs --module NAME") }
      switch (outputDirectory, output) {
      case (let directory?, nil):
        subcommand = .generate(module: module, destination: .directory(directory, planned: planned))
      case (nil, let file?): subcommand = .generate(module: module, destination: .file(file))
      default: throw UsageError(message: "generate needs --output-directory DIR or --output FILE")
      }
    case "lock":
      guard let lock else { throw UsageError(message: "lock needs --lock FILE") }
      request.path = lock
      subcommand = .lock(request)
    case "export-values", "import-values", "reset-values":
      let action = Options.ValuesRequest.Action(rawValue: command)!
      guard let plist else { throw UsageError(message: "\(command) needs --plist FILE") }
      if action == .import, document == nil {
        throw UsageError(message: "import-values needs --document FILE")
      }
      if action != .import, document != nil {
        throw UsageError(message: "--document is an option of import-values only")
      }
      if action != .export, output != nil { throw UsageError(message: "\(command) takes no --output") }
      subcommand = .values(
        .init(action: action, plist: plist, document: document, output: output, store: store))
    default:
      guard let exportFormat = try checkedFormat(Exporter.Format.self) else {
        throw UsageError(message: "export needs --format json, markdown or settings-plist")
      }
      subcommand = .export(format: exportFormat, output: output)
    }
    return Options(
      subcommand: subcommand, module: module, config: config, cache: cache, lock: lock,
      expectedLock: expectedLock,
      settingsSource: settingsFile.flatMap { file in targetName.map { (file, $0) } },
      dependencySources: dependencySources, paths: paths)
  }

  /// Runs the command and returns the exit status.
  package func run(_ arguments: [String]) -> Int32 {
    // `--help` anywhere before `--` (after it, every argument is a path): `scan --help` too.
    let beforePaths = arguments.prefix { $0 != "--" }
    if arguments.isEmpty || arguments[0] == "help" || beforePaths.contains("--help")
      || beforePaths.contains("-h")
    {
      standardOutput(Self.usage)
      return arguments.isEmpty ? 2 : 0
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
      if let (file, target) = options.settingsSource,
        configuration.defaultIsolation == nil || configuration.infersIsolatedConformances == nil
      {
        let declared = TargetSettings.read(from: file, target: target, cacheDirectory: options.cache)
        configuration.defaultIsolation = configuration.defaultIsolation ?? declared.defaultIsolation
        configuration.infersIsolatedConformances =
          configuration.infersIsolatedConformances ?? declared.infersIsolatedConformances
      }
      let module = options.module ?? defaultModule(options.paths)
      var lock: PreferenceLock.Committed?
      if let path = options.lock, FileManager.default.fileExists(atPath: path) {
        lock = PreferenceLock.Committed(try PreferenceLock.load(from: path), path: path)
      }
      if case .lock(let request) = options.subcommand {
        return try updateLock(
          request, options: options, module: module, configuration: configuration, existing: lock?.contents)
      }
      var scanner = PreferenceScanner(
        module: module, configuration: configuration, lock: lock, expectedLockPath: options.expectedLock)
      scanner.dependencySources = options.dependencySources
      let result = try scanner.scan(paths: options.paths, cache: cache(options))
      switch options.subcommand {
      case .export(let format, let output):
        var diagnostics = result.diagnostics
        let text = Exporter.export(result.plans, format: format, diagnostics: &diagnostics)
        report(diagnostics)
        if let output { try writeIfChanged(text, to: output) } else { standardOutput(text) }
      case .scan(let format):
        if format == .json {
          var buffer = ""
          ScanOutput.json(result) { piece in
            buffer += piece
            if buffer.utf8.count > 1 << 16 {
              standardOutput(buffer)
              buffer = ""
            }
          }
          standardOutput(buffer)
        } else {
          standardOutput(ScanOutput.text(result))
          report(result.diagnostics)
        }
      case .generate(_, let destination):
        report(result.diagnostics)
        if !result.hasErrors {
          try generate(result, module: module, destination: destination, cache: cache(options))
        }
      case .values(let request):
        report(result.diagnostics)
        if !result.hasErrors { try transferValues(request, result) }
      case .lock:
        break  // handled above
      }
      return result.hasErrors ? 1 : 0
    } catch let diagnostic as Diagnostic {
      report([diagnostic])
      return 1
    } catch {
      standardError("error: \(error)\n")
      return 1
    }
  }

  /// `export-values`, `import-values`, `reset-values`. A file that cannot be read is never
  /// written over; the file is replaced whole (written beside it, then renamed).
  private func transferValues(_ request: Options.ValuesRequest, _ result: PreferenceScanner.Result) throws {
    let transfer = ValuesTransfer(result, store: request.store)
    func failure(_ message: String) -> Diagnostic {
      Diagnostic(.error, message, file: request.plist, line: 1, column: 1)
    }
    var stored: [String: StoredValue] = [:]
    if FileManager.default.fileExists(atPath: request.plist) {
      // A file that exists but cannot be read is never taken for a missing one.
      let data: Data
      do {
        data = try Data(contentsOf: URL(fileURLWithPath: request.plist))
      } catch {
        throw failure("cannot read the file (\(error)); it is left as it is")
      }
      do {
        stored = try PropertyListCoding.readDictionary([UInt8](data))
      } catch {
        throw failure("\(error.message); the file is left as it is")
      }
    } else if request.action != .import {
      throw failure("there is no preferences file here")
    }
    func write() throws {
      try Data(PropertyListCoding.binary(.dictionary(stored))).write(
        to: URL(fileURLWithPath: request.plist), options: .atomic)
    }
    switch request.action {
    case .export:
      let (values, keptInFile) = transfer.export(from: stored)
      for key in keptInFile {
        standardError(
          "\(request.plist): warning: '\(key)': the app keeps this value in a file beside its store (too large for the domain); export it from the app (PreferenceRegistry.exportValues)\n"
        )
      }
      let text = ValuesTransfer.document(values)
      if let output = request.output { try writeIfChanged(text, to: output) } else { standardOutput(text) }
    case .import:
      guard let path = request.document, let data = FileManager.default.contents(atPath: path) else {
        throw Diagnostic(.error, "cannot read the document", file: request.document ?? "", line: 1, column: 1)
      }
      let document: [String: StoredValue]
      do {
        document = try ValuesTransfer.values(ofDocument: [UInt8](data))
      } catch {
        throw Diagnostic(
          .error, "not a document of preference values: \(error.message)", file: path, line: 1, column: 1)
      }
      let outcome = transfer.importValues(document, into: &stored)
      if !outcome.imported.isEmpty { try write() }
      for problem in outcome.problems { standardError("\(path): warning: \(problem)\n") }
      let renamed = outcome.renamed.keys.sorted().map { "\($0) → \(outcome.renamed[$0]!)" }
      standardOutput(
        "\(request.plist): imported \(outcome.imported.count) of \(document.count) values"
          + (renamed.isEmpty ? "" : " (renamed: \(renamed.joined(separator: ", ")))") + "\n")
    case .reset:
      let removed = transfer.reset(&stored)
      if !removed.isEmpty { try write() }
      standardOutput(
        "\(request.plist): removed \(removed.count) values\(removed.isEmpty ? "" : ": " + removed.joined(separator: ", "))\n"
      )
    }
  }

  private func report(_ diagnostics: [Diagnostic]) {
    for diagnostic in diagnostics { standardError("\(diagnostic)\n") }
  }

  // MARK: generate

  private func generate(
    _ result: PreferenceScanner.Result, module: String, destination: Options.Destination, cache: ParseCache?
  ) throws {
    let directoryPath: String
    let plannedPaths: [String]
    switch destination {
    case .file(let output):
      try writeIfChanged(RegistryRenderer.singleFile(result, module: module), to: output)
      return
    case .directory(let path, let planned):
      directoryPath = path
      plannedPaths = planned
    }
    let directory = URL(fileURLWithPath: directoryPath)
    // The plugin passes each source as it passes the planned paths, so a path is looked up as
    // given first; only one spelled otherwise (`a/./b`, `a//b`) costs a standardized URL, which
    // checks the file system (at 300 files, 6 ms of every edit's plugin step).
    let planned = Set(plannedPaths)
    let count = PluginShared.tableFileCount(planned: planned.count)
    var standardizedPlanned: Set<String>?
    let memo = cache.map { TableMemo(cache: $0, outputDirectory: directory.path) }
    let files = try RegistryRenderer.files(
      result, module: module, tableFiles: (0..<count).map(PluginShared.tableFileName),
      plannedName: { path in
        if !planned.contains(path) {
          if standardizedPlanned == nil { standardizedPlanned = Set(plannedPaths.map(Self.standardized)) }
          guard standardizedPlanned?.contains(Self.standardized(path)) == true else { return nil }
        }
        return PluginShared.tableFileName(forSource: FileSystem.fileName(of: path), count: count)
      },
      memo: memo,
      emit: { name, text in try writeIfChanged(text, to: directory.appendingPathComponent(name).path) })
    try writeIfChanged(files.index, to: directory.appendingPathComponent(PluginShared.indexFileName).path)
    try writeIfChanged(
      files.unplanned, to: directory.appendingPathComponent(PluginShared.unplannedFileName).path)
    // Generated files this run did not write (an older layout, fewer table files) are removed,
    // so that nothing stale is left beside the outputs.
    let written = Set(
      (0..<count).map(PluginShared.tableFileName) + [
        PluginShared.indexFileName, PluginShared.unplannedFileName,
      ])
    for name in (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
    where name.hasSuffix(".generated.swift") && !written.contains(name) {
      try? FileManager.default.removeItem(at: directory.appendingPathComponent(name))
    }
    // Last, once every output is written: a run cut short leaves the previous memo, whose
    // records a changed output no longer matches.
    memo?.save()
  }

  // MARK: lock

  /// `lock`: adds the sources' keys to the lock, records renames, retires and drops keys, and
  /// refuses changes that would orphan stored values unless told explicitly.
  private func updateLock(
    _ request: Options.LockRequest, options: Options, module: String, configuration: ScannerConfiguration,
    existing: PreferenceLock?
  ) throws -> Int32 {
    let lockPath = request.path
    let lockFile = existing ?? PreferenceLock()
    var problems: [Diagnostic] = []
    for (finding, line) in LockRules.malformedLines(in: lockFile) {
      problems.append(Diagnostic(.warning, finding.refusal, file: lockPath, line: line, column: 1))
    }
    for (finding, line) in LockRules.disagreements(in: lockFile) {
      problems.append(Diagnostic(.error, finding.refusal, file: lockPath, line: line, column: 1))
    }
    var scanner = PreferenceScanner(
      module: module, configuration: configuration, lock: PreferenceLock.Committed(lockFile, path: lockPath))
    scanner.dependencySources = options.dependencySources
    let result = try scanner.scan(paths: options.paths, cache: cache(options))
    // The scanner's own errors, except the lock's: those are what this command settles.
    let settled = Set(result.lockDiagnostics.map(\.description))
    problems += result.diagnostics.filter {
      $0.severity != .error || $0.file != lockPath && !settled.contains($0.description)
    }
    let acceptRetype = Set(request.acceptRetype)
    let acceptMove = Set(request.acceptMove)
    var updated = lockFile
    updated.conflictMarkers = []
    updated.disagreements = [:]
    updated.malformed = []
    for plan in result.plans {
      var entry = updated.entries[plan.key] ?? PreferenceLock.Entry(key: plan.key, type: nil)
      // The type as the lock records it: the scanner's, or else the default as generated code
      // evaluates it, whose type the compiler checks in later builds.
      let evaluated: String? =
        switch plan.registration {
        case .registry(let evaluation), .mainActor(let evaluation), .defaultIsolation(let evaluation):
          evaluation.expression
        case .none, .literal, .firstRead: nil
        }
      // Only where the build can place the check (a declaration a key path reaches).
      let shippedDefault =
        plan.lockCheck == nil ? nil : evaluated.flatMap(PreferenceLock.Entry.type(ofDefault:))
      let accepted = acceptRetype.contains(plan.key)
      if let retyped = LockRules.retype(of: entry, by: plan) {
        if accepted {
          entry.type = plan.valueType
        } else {
          problems.append(
            Diagnostic(.error, retyped.refusal, file: plan.file, line: plan.line, column: plan.column))
        }
      } else if let new = plan.valueType {
        // A type recorded as a shipped default stays, for the build's compiler to compare.
        if entry.shippedDefault == nil || accepted { entry.type = new }
      } else if entry.type != nil, !accepted {
        // A shipped type (or default) is never replaced by what the scanner cannot type: the
        // build compares them, and --accept-retype records the change.
      } else if let shippedDefault {
        entry.type = shippedDefault
      } else {
        entry.type = nil
        problems.append(
          Diagnostic(
            .warning,
            "the scanner cannot tell the type of '\(plan.key)' from its default (\(plan.defaultText ?? "")), so later builds cannot check it; write the type: @Preference var \(plan.property): T = …",
            file: plan.file, line: plan.line, column: plan.column))
      }
      if existing?.entries[plan.key] != nil, let moved = LockRules.move(of: entry, by: plan),
        !acceptMove.contains(plan.key)
      {
        problems.append(
          Diagnostic(.error, moved.refusal, file: plan.file, line: plan.line, column: plan.column))
      } else {
        entry.store = plan.storeText.flatMap { normalizedStore($0) == nil ? nil : $0 }
      }
      entry.renamedFrom = PreferenceLock.unique(entry.renamedFrom + plan.renamedFrom)
      entry.isRetired = false
      updated.entries[plan.key] = entry
    }
    for key in request.retire {
      var entry = updated.entries[key] ?? PreferenceLock.Entry(key: key, type: nil)
      entry.isRetired = true
      updated.entries[key] = entry
    }
    for key in request.drop { updated.entries[key] = nil }
    let declared = Set(result.plans.map(\.key))
    let renamed = Set(updated.entries.values.flatMap(\.renamedFrom)).union(configuration.migrations.keys)
    for entry in updated.entries.values.sorted(by: { $0.key < $1.key }) {
      guard let unused = LockRules.unused(entry, declared: declared, renamedAway: renamed) else { continue }
      problems.append(
        Diagnostic(.warning, unused.refusal, file: lockPath, line: max(entry.line, 1), column: 1))
    }
    report(problems.sorted { ($0.file, $0.line, $0.column) < ($1.file, $1.line, $1.column) })
    if problems.contains(where: { $0.severity == .error }) {
      standardError("\(lockPath): not written; fix the errors above\n")
      return 1
    }
    try writeIfChanged(updated.render(), to: lockPath)
    standardOutput(
      "\(lockPath): \(updated.entries.count) keys (\(updated.entries.values.filter(\.isRetired).count) retired)\n"
    )
    return 0
  }

  private func cache(_ options: Options) -> ParseCache? {
    options.cache.flatMap { ParseCache(directory: $0) }
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
    if FileSystem.status(paths[0])?.isDirectory == true {
      return URL(fileURLWithPath: paths[0]).lastPathComponent
    }
    return "Module"
  }

  private static func standardized(_ path: String) -> String {
    URL(fileURLWithPath: path).standardizedFileURL.path
  }

  /// Writes `text` to `path` unless the file already holds exactly these bytes, so that an
  /// unchanged file recompiles nothing.
  func writeIfChanged(_ text: String, to path: String) throws {
    let data = Data(text.utf8)
    if FileManager.default.contents(atPath: path) == data { return }
    let url = URL(fileURLWithPath: path)
    try FileManager.default.createDirectory(
      at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try data.write(to: url, options: .atomic)
  }
}
