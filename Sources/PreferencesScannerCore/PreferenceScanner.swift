#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Scans a module's Swift sources for `@Preference` declarations: the pipeline's entry point.
///
/// Syntax (``FileParser``, one file at a time, each released once read) → analysis
/// (``ModuleIndex``, ``Planner``, ``Validation``, ``LockAnalysis``) → a ``Result`` that the output
/// stage renders (``RegistryRenderer``, ``ScanOutput``, ``Exporter``).
///
/// ```swift
/// let scanner = PreferenceScanner(module: "App")
/// let result = scanner.scan(files: [("Sources/App/ContentView.swift", Array(source.utf8))])
/// for plan in result.plans { print(plan.key) }
/// ```
package struct PreferenceScanner: Sendable {
  package var module: String
  package var configuration: ScannerConfiguration
  /// The committed lock of shipped keys, and its path for diagnostics.
  package var lock: PreferenceLock.Committed?
  /// Where the lock belongs, for the warning when there is none.
  package var expectedLockPath: String?
  /// The `.swift` files of the modules this one depends on, `MODULE=PATH` (or a bare path, of
  /// no known module), which the build plugin passes where the build names them (SwiftPM
  /// targets): read only for the enums a default may name (``DependencyEnums``).
  package var dependencySources: [String] = []

  /// Whether this module was compiled with optimization. Package.swift builds the scanner without
  /// it, as users' builds run it, unless `PREFERENCES_OPTIMIZED_SCANNER=1`; the benchmarks, which
  /// measure the scanner's code, refuse to check an unoptimized build.
  package static let isOptimized = !_isDebugAssertConfiguration()

  package init(
    module: String, configuration: ScannerConfiguration = ScannerConfiguration(),
    lock: PreferenceLock.Committed? = nil, expectedLockPath: String? = nil
  ) {
    self.module = module
    self.configuration = configuration
    self.lock = lock
    self.expectedLockPath = expectedLockPath
  }

  /// The result of a scan.
  package struct Result: Sendable {
    /// Every file's syntax, in the order scanned.
    package var files: [FileSyntax]
    /// Every declaration, in file and source order.
    package var plans: [PreferencePlan]
    /// Problems, sorted by file, line and column.
    package var diagnostics: [Diagnostic]
    /// Retired keys that no declaration uses.
    package var retiredKeys: [String]
    /// Conformances to `PreferenceValue` the registry writes for module types declared without
    /// one, sorted by type name.
    package var conformances: [SynthesizedConformance] = []
    /// The typed keys of the module's `PreferenceKeys` enums, by enum name.
    package var typedKeys: [TypedKeyGroup] = []
    /// Locked types that generated code checks, by key.
    package var lockedTypes: [String: LockedType]
    /// The diagnostics of the lock's rules, which the `lock` command settles.
    package var lockDiagnostics: [Diagnostic] = []
    /// How many files came from a ``ParseCache`` instead of being parsed.
    package var reusedFiles = 0
    /// The fingerprint of each file's contents (``ParseCache/fingerprint(_:)``), when the scan
    /// read files: what names a file's syntax in a ``TableMemo``.
    package var sourceFingerprints: [UInt64] = []
    /// Lines read.
    package var lineCount: Int { files.reduce(0) { $0 + $1.lineCount } }

    package var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }
  }

  /// Scans files given as paths and contents.
  package func scan(files: [(path: String, contents: [UInt8])]) -> Result {
    analyze(files.map { FileParser.parse(path: $0.path, module: module, contents: $0.contents) })
  }

  /// Reads and scans `.swift` files and directories (searched recursively). With a `cache`, files
  /// whose contents it has seen are not parsed again (see ``Result/reusedFiles``).
  package func scan(paths: [String], cache: ParseCache? = nil) throws(Diagnostic) -> Result {
    var syntax: [FileSyntax] = []
    var fingerprints: [UInt64] = []
    var reused = 0
    let files = try Self.swiftFiles(in: paths)
    for file in files {
      guard let data = FileManager.default.contents(atPath: file) else {
        throw Diagnostic(.error, "cannot read file", file: file, line: 1, column: 1)
      }
      let contents = [UInt8](data)
      let fingerprint = ParseCache.fingerprint(contents)
      let (fileSyntax, wasReused) =
        cache?.syntax(path: file, module: module, contents: contents, fingerprint: fingerprint)
        ?? (FileParser.parse(path: file, module: module, contents: contents), false)
      syntax.append(fileSyntax)
      fingerprints.append(fingerprint)
      if wasReused { reused += 1 }
    }
    cache?.removeEntries(except: files)
    var result = analyze(syntax)
    result.reusedFiles = reused
    result.sourceFingerprints = fingerprints
    return result
  }

  /// The analysis stage, over every file's syntax.
  package func analyze(_ files: [FileSyntax]) -> Result {
    let index = ModuleIndex(
      files,
      dependencyEnums: dependencySources.isEmpty
        ? DependencyEnums()
        : DependencyEnums(
          sources: dependencySources.map(DependencyEnums.Source.init(argument:)),
          names: Self.namesOfOtherModules(in: files), module: module))
    let planner = Planner(index: index, configuration: configuration)
    let (plans, planning, planRequests) = planner.plan(files)
    let (typedKeys, keyProblems, keyRequests) = TypedKeys(index: index, files: files, planner: planner)
      .analyze()
    var requests = planRequests
    requests.append(keyRequests)
    // One stage decides every conformance the analyses asked for; its result is a value.
    let synthesis = ConformanceSynthesis(
      index: index, files: files, defaultIsolation: configuration.defaultIsolation,
      infersIsolatedConformances: configuration.infersIsolatedConformances ?? false, requests: requests)
    let conformances = synthesis.conformances
    let locked = LockAnalysis(configuration: configuration, index: index).analyze(
      plans, files: files, lock: lock, expectedLockPath: expectedLockPath)
    var diagnostics =
      files.flatMap(\.diagnostics) + planning + keyProblems + synthesis.diagnostics(for: requests.checks)
      + Validation.check(locked.plans, files: files)
      + locked.diagnostics
    // In source order, each note kept after the diagnostic it explains.
    var groups: [[Diagnostic]] = []
    for diagnostic in diagnostics {
      if diagnostic.severity == .note, !groups.isEmpty {
        groups[groups.count - 1].append(diagnostic)
      } else {
        groups.append([diagnostic])
      }
    }
    groups.sort { ($0[0].file, $0[0].line, $0[0].column) < ($1[0].file, $1[0].line, $1[0].column) }
    diagnostics = groups.flatMap { $0 }
    return Result(
      files: files, plans: locked.plans, diagnostics: diagnostics, retiredKeys: locked.retiredKeys,
      conformances: conformances, typedKeys: typedKeys, lockedTypes: locked.lockedTypes,
      lockDiagnostics: locked.diagnostics)
  }

  /// The names a default or a declared type may take from another module: every name that
  /// begins with a capital in those expressions and types, but the standard ones and the names of
  /// the module's own types.
  static func namesOfOtherModules(in files: [FileSyntax]) -> Set<String> {
    var names: Set<String> = []
    func add(_ expression: ExpressionSyntax?) {
      guard let expression else { return }
      for position in expression.tokens.indices {
        if let word = expression.word(position), word.first?.isUppercase == true,
          StandardTypes.table[word] == nil
        {
          names.insert(word)
        }
      }
    }

    for file in files {
      for preference in file.preferences {
        add(preference.defaultValue)
        for name in preference.writtenType?.unwrapped.type.path ?? [] where StandardTypes.table[name] == nil {
          names.insert(name)
        }
      }
      for defaults in file.keyDefaults {
        for clause in defaults.clauses { add(clause.expression) }
      }
    }
    // The module's own types and type aliases hide another module's of the same name.
    for file in files {
      for scope in file.scopes where scope.kind != .extension {
        if let name = scope.names.last { names.remove(name) }
      }
      for member in file.members where member.kind == .typeAlias { names.remove(member.name) }
    }
    return names
  }

  /// The tokens of `source` (for tools such as the fuzzer).
  package static func tokens(of source: [UInt8]) -> [Token] { Lexer.tokenize(source).tokens }

  /// Every generated file of `result`, concatenated (for measuring and tests).
  package static func renderAll(_ result: Result, module: String) -> String {
    let files = RegistryRenderer.files(result, module: module, tableFiles: ["Tables.swift"]) { _ in
      "Tables.swift"
    }
    return files.index + files.planned.map(\.text).joined() + files.unplanned
  }

  /// The `.swift` files at `paths`: files as given, directories searched recursively (hidden
  /// files and folders such as `.build` skipped, links to folders not entered, a folder whose
  /// name ends in `.swift` searched rather than read), sorted.
  package static func swiftFiles(in paths: [String]) throws(Diagnostic) -> [String] {
    var result: [String] = []
    for path in paths {
      guard let status = FileSystem.status(path) else {
        throw Diagnostic(.error, "no such file or directory", file: path, line: 1, column: 1)
      }
      if !status.isDirectory {
        result.append(path)
        continue
      }
      let base = path.hasSuffix("/") ? String(path.dropLast()) : path
      collectSwiftFiles(in: base, into: &result)
    }
    return result.sorted()
  }

  /// Adds the `.swift` files under `directory` to `files`: hidden entries skipped, folders
  /// entered unless they are links (so that no link makes a cycle), files found through links too.
  private static func collectSwiftFiles(in directory: String, into files: inout [String]) {
    for name in (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
    where !name.hasPrefix(".") {
      let path = directory + "/" + name
      if FileSystem.status(path, followingLinks: false)?.isDirectory == true {
        collectSwiftFiles(in: path, into: &files)
      } else if name.hasSuffix(".swift"), FileSystem.status(path)?.isDirectory == false {
        files.append(path)
      }
    }
  }
}
