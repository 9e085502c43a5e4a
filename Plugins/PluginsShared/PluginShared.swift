// Shared by both plugins and the scanner (symlinked into each), so that file names and the
// scanner's arguments are spelled once and cannot drift. The scanner uses Foundation's
// essentials alone where they are a module of their own (FileSystem.swift says why).
#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif
#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

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
  /// The record, in the parse cache, of what the target's build settings say and the
  /// configuration files (`.xcconfig`) they were read from.
  static let settingsRecordName = "TargetSettings"
  /// The per-target configuration file's name.
  static let configFileName = "preferences-config.json"
  /// The per-target lockFile of shipped keys.
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
    sources.filter { (try? Data(contentsOf: $0)).map(mentionsPreference) ?? false }
  }

  /// Whether `data` holds `@Preference`.
  static func mentionsPreference(_ data: Data) -> Bool {
    data.withUnsafeBytes { contains($0, Array("@Preference".utf8)) }
  }

  /// Whether `bytes` holds `marker` (not empty): the C library finds each first byte (plugins
  /// and their tools are built unoptimized in debug builds, where a loop over bytes costs a
  /// hundred times more).
  static func contains(_ bytes: UnsafeRawBufferPointer, _ marker: [UInt8]) -> Bool {
    guard var position = bytes.baseAddress, let first = marker.first else { return false }
    let end = position + bytes.count
    while end - position >= marker.count, let at = memchr(position, Int32(first), end - position) {
      if end - UnsafeRawPointer(at) >= marker.count, memcmp(at, marker, marker.count) == 0 { return true }
      position = UnsafeRawPointer(at) + 1
    }
    return false
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

  /// Where a target's configuration and lock are, and where its lock belongs.
  struct TargetFiles: Equatable {
    var config: URL?
    var lock: URL?
    var expectedLock: URL
    /// The package manifest or Xcode project that declares the target's build settings, read
    /// for the isolation of its conformances (`TargetSettings`), and the target's name there.
    var settings: URL?
    var targetName: String?

    /// A SwiftPM target's: in its directory; its settings in the manifest SwiftPM loaded (the
    /// one that declares `toolsVersion`, see ``PluginShared/loadedManifest(in:toolsVersion:)``).
    init(
      in directory: URL, packageDirectory: URL? = nil, toolsVersion: [Int]? = nil, targetName: String? = nil
    ) {
      config = PluginShared.existingFile(PluginShared.configFileName, in: directory)
      lock = PluginShared.existingFile(PluginShared.lockFileName, in: directory)
      expectedLock = directory.appendingPathComponent(PluginShared.lockFileName)
      if let packageDirectory, let targetName {
        settings = PluginShared.loadedManifest(in: packageDirectory, toolsVersion: toolsVersion)
        self.targetName = targetName
      }
    }

    /// An Xcode target's, found the way its build does, so that keys match a SwiftPM build of
    /// the same sources: among the target's own files (classic groups, or a synchronized
    /// folder's members), else in the folder that holds all its Swift sources, else beside the
    /// project. A lock that does not exist yet belongs beside the configuration, else in the
    /// sources' folder. Files kept beside the project, or excluded from the target's
    /// membership, are read without being copied into the app bundle.
    init(
      xcodeFiles files: [URL], sources: [URL], projectDirectory: URL, projectName: String? = nil,
      targetName: String? = nil
    ) {
      let sourceDirectory = PluginShared.commonDirectory(of: sources) ?? projectDirectory
      func find(_ name: String) -> URL? {
        files.first { $0.lastPathComponent == name }
          ?? PluginShared.existingFile(name, in: sourceDirectory)
          ?? PluginShared.existingFile(name, in: projectDirectory)
      }
      config = find(PluginShared.configFileName)
      lock = find(PluginShared.lockFileName)
      expectedLock =
        lock
        ?? (config?.deletingLastPathComponent() ?? sourceDirectory).appendingPathComponent(
          PluginShared.lockFileName)
      if let targetName {
        settings = PluginShared.xcodeProjectFile(in: projectDirectory, named: projectName)
        self.targetName = targetName
      }
    }

    /// The scanner's options: the configuration and lock, if any, and where the lock belongs.
    var options: [String] {
      var arguments: [String] = []
      if let config { arguments += ["--config", config.path] }
      if let lock { arguments += ["--lock", lock.path] }
      if let settings, let targetName {
        arguments += ["--settings-from", settings.path, "--target-name", targetName]
      }
      return arguments + ["--expected-lock", expectedLock.path]
    }

    /// The files besides sources that the generated code depends on.
    var inputs: [URL] { [config, lock, settings].compactMap { $0 } }
  }

  /// The deepest folder that holds every one of `files`.
  static func commonDirectory(of files: [URL]) -> URL? {
    guard let first = files.first else { return nil }
    var common = first.deletingLastPathComponent().standardizedFileURL.pathComponents
    for file in files.dropFirst() {
      let components = file.deletingLastPathComponent().standardizedFileURL.pathComponents
      common = Array(zip(common, components).prefix { $0 == $1 }.map(\.0))
    }
    guard !common.isEmpty else { return nil }
    var directory = URL(fileURLWithPath: common[0], isDirectory: true)
    for component in common.dropFirst() { directory.appendPathComponent(component, isDirectory: true) }
    return directory
  }

  /// The module name Xcode gives a target by default, `$(PRODUCT_NAME:c99extidentifier)`: the
  /// product name with every character that cannot appear in a C99 extended identifier replaced
  /// by `_`, and a `_` before a leading digit (`My App` → `My_App`, `2048` → `_2048`). A bundle
  /// extension (`.app`, `.framework`, …) is not part of it. The runtime matches declarations by
  /// file name, so a `PRODUCT_MODULE_NAME` override the plugin cannot see still resolves.
  static func xcodeModuleName(productName: String) -> String {
    var name = productName
    for suffix in [".app", ".appex", ".framework", ".xctest", ".bundle", ".dylib", ".a", ".xpc"]
    where name.hasSuffix(suffix) && name.count > suffix.count {
      name.removeLast(suffix.count)
    }
    var identifier = String(
      String.UnicodeScalarView(
        name.unicodeScalars.map { scalar in
          scalar == "_" || scalar.properties.isAlphabetic || scalar.properties.numericType == .decimal
            ? scalar : "_"
        }))
    if let first = identifier.unicodeScalars.first, first.properties.numericType == .decimal {
      identifier = "_" + identifier
    }
    return identifier.isEmpty ? "_" : identifier
  }

  /// The scanner's arguments to generate the registry of one module, in the plugin's
  /// `workDirectory`.
  /// `dependencySources`: the `.swift` files of the modules the target depends on, where the
  /// build names them (`MODULE=PATH`), which the scanner reads for the enums a default may name.
  static func generateArguments(
    module: String, workDirectory: URL, files: TargetFiles, sources: [URL], planned: [URL],
    dependencySources: [String] = []
  ) -> [String] {
    ["generate", "--module", module, "--output-directory", outputDirectory(in: workDirectory).path]
      + ["--cache", workDirectory.appendingPathComponent(parseCacheName).path]
      + planned.flatMap { ["--planned", $0.path] } + files.options
      + dependencySources.flatMap { ["--dependency-source", $0] } + ["--"]
      + sources.map(\.path)
  }

  /// A dependency source as the scanner takes it (`--dependency-source MODULE=PATH`).
  static func dependencySource(module: String, path: String) -> String { "\(module)=\(path)" }

  /// The module and path of a `--dependency-source` argument: `MODULE=PATH`, or a bare path of
  /// no known module (a path with `=` before its first `/` is read as a module's).
  static func dependencySource(_ argument: String) -> (module: String?, path: String) {
    guard let equals = argument.firstIndex(of: "="), !argument[..<equals].contains("/") else {
      return (nil, argument)
    }
    return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
  }

  /// The files of dependency sources: inputs of the build command, so that a change to one (an
  /// enum case that becomes a static property) reruns the scanner.
  static func dependencyPaths(_ sources: [String]) -> [URL] {
    sources.map { URL(fileURLWithPath: dependencySource($0).path) }
  }

  /// What the scanner keeps of a target's build settings (``settingsRecordName``), one field a
  /// line: the key of what it read, the default isolation, whether conformances are inferred
  /// isolated, the fingerprint of the configuration files, each of those files, and `end`, which
  /// marks a whole record. The scanner writes it and reads it back; the plugin reads its files.
  struct SettingsRecord: Equatable {
    var key: String
    var isolation: String
    var infersIsolatedConformances: Bool
    var filesFingerprint: String
    var files: [String]

    init(
      key: String, isolation: String, infersIsolatedConformances: Bool, filesFingerprint: String,
      files: [String]
    ) {
      self.key = key
      self.isolation = isolation
      self.infersIsolatedConformances = infersIsolatedConformances
      self.filesFingerprint = filesFingerprint
      self.files = files
    }

    /// The record `data` holds; `nil` unless it is whole (written before it was cut short, or in
    /// an older format).
    init?(_ data: Data) {
      let lines = String(decoding: data, as: UTF8.self).split(
        separator: "\n", omittingEmptySubsequences: false)
      guard lines.count >= 6, lines[lines.count - 1] == "", lines[lines.count - 2] == "end",
        lines[3].hasPrefix("files ")
      else { return nil }
      self.init(
        key: String(lines[0]), isolation: String(lines[1]), infersIsolatedConformances: lines[2] == "true",
        filesFingerprint: String(lines[3].dropFirst("files ".count)),
        files: lines[4..<(lines.count - 2)].map(String.init))
    }

    var text: String {
      "\(key)\n\(isolation)\n\(infersIsolatedConformances)\nfiles \(filesFingerprint)\n"
        + files.map { $0 + "\n" }.joined() + "end\n"
    }
  }

  /// The configuration files (`.xcconfig`) the scanner last read the target's settings from, as
  /// its record in the parse cache lists them (existing ones): inputs of the build command, so
  /// that editing one reruns it. There are none before the scanner's first run, which runs
  /// anyway.
  static func recordedSettingsFiles(in workDirectory: URL) -> [URL] {
    let record = workDirectory.appendingPathComponent(parseCacheName).appendingPathComponent(
      settingsRecordName)
    guard let data = try? Data(contentsOf: record), let saved = SettingsRecord(data) else { return [] }
    return saved.files.map { URL(fileURLWithPath: $0) }.filter {
      FileManager.default.fileExists(atPath: $0.path)
    }
  }

  /// The manifest SwiftPM loaded for the package in `directory`: of `Package.swift` and its
  /// version-specific variants (`Package@swift-6.2.swift`), the one whose
  /// `// swift-tools-version:` is `toolsVersion` (the package's, as the plugin context reports
  /// it), a variant first, as SwiftPM prefers one; else `Package.swift`.
  static func loadedManifest(in directory: URL, toolsVersion: [Int]?) -> URL? {
    let regular = existingFile("Package.swift", in: directory)
    guard let toolsVersion else { return regular }
    func padded(_ version: [Int]) -> [Int] { Array((version + [0, 0, 0]).prefix(3)) }
    let names = ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).filter {
      $0.hasPrefix("Package@swift-") && $0.hasSuffix(".swift")
    }
    for name in names.sorted().reversed() + (regular == nil ? [] : ["Package.swift"]) {
      let url = directory.appendingPathComponent(name)
      guard let data = try? Data(contentsOf: url), let declared = declaredToolsVersion(data) else { continue }
      if padded(declared) == padded(toolsVersion) { return url }
    }
    return regular
  }

  /// The version a manifest's first line declares (`// swift-tools-version: 6.2` → `[6, 2]`).
  static func declaredToolsVersion(_ manifest: Data) -> [Int]? {
    let line = String(decoding: manifest.prefix { $0 != UInt8(ascii: "\n") }, as: UTF8.self)
    guard let marker = line.firstRange(of: "swift-tools-version:") else { return nil }
    let version = line[marker.upperBound...].drop { $0 == " " }.prefix { $0.isNumber || $0 == "." }
    let parts = version.split(separator: ".").compactMap { Int($0) }
    return parts.isEmpty ? nil : parts
  }

  /// The `project.pbxproj` of the Xcode project in `directory`: the one named `name`, else the
  /// only one there.
  static func xcodeProjectFile(in directory: URL, named name: String?) -> URL? {
    if let name,
      let named = existingFile("project.pbxproj", in: directory.appendingPathComponent(name + ".xcodeproj"))
    {
      return named
    }
    let projects = ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).filter {
      $0.hasSuffix(".xcodeproj")
    }
    guard projects.count == 1 else { return nil }
    return existingFile("project.pbxproj", in: directory.appendingPathComponent(projects[0]))
  }

  static func existingFile(_ name: String, in directory: URL) -> URL? {
    let url = directory.appendingPathComponent(name)
    return FileManager.default.fileExists(atPath: url.path) ? url : nil
  }
}

/// What `swift package preferences` (or the Xcode command of that name) was asked to do, read
/// from its arguments here so that the scanner's tests check it: every argument is used or is an
/// error that says which, so that a misspelled option never runs the command without it.
struct PreferencesCommandRequest: Equatable {
  enum Verb: String, CaseIterable {
    case list, lock, export
    case exportValues = "export-values", importValues = "import-values", resetValues = "reset-values"

    /// The subcommands that read or write a user's values in a preferences file.
    var movesValues: Bool { self == .exportValues || self == .importValues || self == .resetValues }
  }

  var verb: Verb = .list
  var targets: [String] = []
  var format: String?
  var output: String?
  var retire: [String] = []
  var drop: [String] = []
  var acceptRetype: [String] = []
  var acceptMove: [String] = []
  /// The preferences file `export-values`, `import-values` and `reset-values` read or write.
  var plist: String?
  /// The values document `import-values` reads.
  var document: String?
  /// The store the preferences file holds, as declarations write `store:`; the default store's
  /// file when `nil`.
  var store: String?

  struct UsageError: Error, Equatable, CustomStringConvertible {
    var message: String
    var description: String {
      "\(message)\nUSAGE: swift package preferences [list|lock|export|export-values|import-values|reset-values] [options]; 'swift package preferences --help' lists them"
    }
  }

  /// What `--help` prints.
  static let help = """
    OVERVIEW: Lists, locks and exports the @Preference declarations of the package's targets, and
    moves a user's values between preferences files and values documents.

    USAGE: swift package preferences [list] [--target T]... [--format text|json|markdown]
           swift package preferences lock [--target T]... [--retire KEY]... [--drop KEY]...
               [--accept-retype KEY]... [--accept-move KEY]...
           swift package preferences export --format json|markdown|settings-plist [--target T]...
               [--output PATH]
           swift package preferences export-values --plist FILE [--store EXPR] [--target T]
               [--output PATH]
           swift package preferences import-values --plist FILE [--store EXPR] --document PATH
               [--target T]
           swift package preferences reset-values --plist FILE [--store EXPR] [--target T]

    SwiftPM asks for permission to write to the package directory before any of these runs
    (lock and export --output write there): answer it, or put --allow-writing-to-package-directory
    before 'preferences', as scripts and CI must.

    SUBCOMMANDS:
      list    Every preference of each target: key, type, default, declaration (the default).
      lock    Writes or updates each target's Preferences.lock, the shipped keys that later builds
              check renames, retypes and store moves against.
              --retire KEY         the key is no longer declared, on purpose; its value stays stored
              --drop KEY           forget the key altogether
              --accept-retype KEY  record the key's new type; values stored as the old one read
                                   as the default
              --accept-move KEY    record the key's new store; values in the old store stay there
      export  Describes the preferences: JSON, a Markdown table, or a Settings.bundle Root.plist
              (preferences declared with settings: true). --output writes a file (a folder when
              several targets are exported) instead of printing.
      export-values
              Writes the values FILE holds for the target's preferences as a values document,
              the JSON PreferenceRegistry.exportValues() writes. FILE is a UserDefaults domain's
              property list ('defaults export DOMAIN FILE' on a Mac) or a file store's file.
              Preferences declared exported: false are left out.
      import-values
              Stores the values of the document at PATH in FILE (created if missing), each
              checked against its preference's kind; a renamed key's value goes to its key now.
              Unknown, retired, not exported and wrongly typed values are reported, not stored.
      reset-values
              Removes every exported preference's value from FILE, so that each reads its
              default. Import and reset write FILE: quit the app first, or work on a copy and
              'defaults import DOMAIN FILE'; outside the package, SwiftPM's sandbox needs
              --allow-writing-to-directory DIR before 'preferences'.
              FILE is one store's: the default store's, or with --store EXPR the store that
              declarations name as 'store: EXPR' ('--store=.suite("group.example")').

    OPTIONS:
      --target T   Only target T (repeatable); every Swift target by default. The values
                   subcommands act on one target: by default, the one target whose sources
                   declare preferences.
      -h, --help   Shows this help.
    """

  /// The options each subcommand takes, beside `--target`.
  private static func options(of verb: Verb) -> Set<String> {
    switch verb {
    case .list: ["--format"]
    case .lock: ["--retire", "--drop", "--accept-retype", "--accept-move"]
    case .export: ["--format", "--output"]
    case .exportValues: ["--plist", "--store", "--output"]
    case .importValues: ["--plist", "--store", "--document"]
    case .resetValues: ["--plist", "--store"]
    }
  }

  private static let allOptions: Set<String> = [
    "--target", "--format", "--output", "--retire", "--drop", "--accept-retype", "--accept-move", "--plist",
    "--document", "--store",
  ]

  /// The request `arguments` make, or `nil` when they ask for help.
  static func parse(_ arguments: [String]) throws(UsageError) -> PreferencesCommandRequest? {
    // An option's value never starts with `-`, so these are never values.
    if arguments.contains(where: { $0 == "-h" || $0 == "--help" }) { return nil }
    var request = PreferencesCommandRequest()
    var verb: Verb?
    var given: [(option: String, value: String)] = []
    var index = 0
    while index < arguments.count {
      let argument = arguments[index]
      index += 1
      guard argument.hasPrefix("-") else {
        guard verb == nil else {
          throw UsageError(message: "unexpected argument '\(argument)'")
        }
        if argument == "help" { return nil }
        guard let named = Verb(rawValue: argument) else {
          throw UsageError(
            message:
              "unknown subcommand '\(argument)'; the subcommands are \(Verb.allCases.map(\.rawValue).joined(separator: ", "))"
          )
        }
        verb = named
        continue
      }
      var option = argument
      var value: String?
      if let equals = argument.firstIndex(of: "=") {
        option = String(argument[..<equals])
        value = String(argument[argument.index(after: equals)...])
      }
      guard allOptions.contains(option) else {
        throw UsageError(message: "unknown option '\(option)'")
      }
      if value == nil {
        guard index < arguments.count, !arguments[index].hasPrefix("-") else {
          throw UsageError(message: "\(option) needs a value")
        }
        value = arguments[index]
        index += 1
      }
      given.append((option, value ?? ""))
    }
    request.verb = verb ?? .list
    let allowed = options(of: request.verb).union(["--target"])
    for (option, value) in given {
      guard allowed.contains(option) else {
        throw UsageError(
          message:
            "\(option) is not an option of '\(request.verb.rawValue)'; it takes \(allowed.sorted().joined(separator: ", "))"
        )
      }
      switch option {
      case "--target": request.targets.append(value)
      case "--retire": request.retire.append(value)
      case "--drop": request.drop.append(value)
      case "--accept-retype": request.acceptRetype.append(value)
      case "--accept-move": request.acceptMove.append(value)
      case "--format", "--output", "--plist", "--document", "--store":
        let field: WritableKeyPath<PreferencesCommandRequest, String?> =
          switch option {
          case "--format": \.format
          case "--output": \.output
          case "--plist": \.plist
          case "--store": \.store
          default: \.document
          }
        if let previous = request[keyPath: field], previous != value {
          throw UsageError(message: "\(option) is given twice ('\(previous)' and '\(value)')")
        }
        request[keyPath: field] = value
      default: break
      }
    }
    let formats: [String] =
      switch request.verb {
      case .list: ["text", "json", "markdown"]
      case .export: ["json", "markdown", "settings-plist"]
      case .lock, .exportValues, .importValues, .resetValues: []
      }
    if let format = request.format, !formats.contains(format) {
      throw UsageError(
        message:
          "\(request.verb.rawValue) --format must be \(formats.joined(separator: ", ")), not '\(format)'")
    }
    if request.verb == .export, request.format == nil {
      throw UsageError(message: "export needs --format json, markdown or settings-plist")
    }
    if request.verb.movesValues, request.plist == nil {
      throw UsageError(message: "\(request.verb.rawValue) needs --plist FILE, the preferences file")
    }
    if request.verb == .importValues, request.document == nil {
      throw UsageError(message: "import-values needs --document PATH, the values document to import")
    }
    return request
  }
}
