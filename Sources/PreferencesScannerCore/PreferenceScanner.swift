import Foundation

/// Scans Swift sources for `@Preference` declarations, derives their keys and checks them.
///
/// ```swift
/// let scanner = PreferenceScanner(module: "App")
/// let result = scanner.scan(files: [("Sources/App/ContentView.swift", Array(source.utf8))])
/// for preference in result.preferences { print(preference.key) }
/// ```
public struct PreferenceScanner: Sendable {
  public var module: String
  public var configuration: ScannerConfiguration
  /// The committed manifest of shipped keys, and its path for diagnostics.
  public var manifest: (manifest: PreferenceManifest, path: String)?

  public init(
    module: String, configuration: ScannerConfiguration = ScannerConfiguration(),
    manifest: (manifest: PreferenceManifest, path: String)? = nil
  ) {
    self.module = module
    self.configuration = configuration
    self.manifest = manifest
  }

  /// The result of a scan.
  public struct Result: Sendable {
    /// Every declaration, sorted by file, line and column.
    public var preferences: [ScannedPreference]
    /// Problems, sorted by file, line and column.
    public var diagnostics: [Diagnostic]
    /// Lines read.
    public var lineCount: Int
    /// Keys the manifest marks retired.
    public var retiredKeys: [String] = []
    /// Every file-scope `import` of the scanned files, in file order.
    public var imports: [ScannedImport] = []

    public var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }
  }

  /// Scans files given as paths and contents.
  public func scan(files: [(path: String, contents: [UInt8])]) -> Result {
    var index = 0
    return scan { () -> (String, [UInt8])? in
      defer { index += 1 }
      return index < files.count ? files[index] : nil
    }
  }

  /// Scans the files `next` returns until it returns `nil`. Each file is released once scanned,
  /// so memory stays at one file's tokens plus the declarations found.
  func scan(_ next: () throws -> (path: String, contents: [UInt8])?) rethrows -> Result {
    var preferences: [ScannedPreference] = []
    var diagnostics: [Diagnostic] = []
    var imports: [ScannedImport] = []
    var genericTypes: Set<[String]> = []
    var isolatedTypes: [String: [(path: [String], isolation: String)]] = [:]
    var nonisolatedNames: Set<String> = []
    var lines = 0
    while let (path, contents) = try next() {
      let lexed = Lexer.tokenize(contents)
      lines += lexed.lineCount
      for problem in lexed.problems {
        diagnostics.append(
          Diagnostic(
            .warning, problem.message, file: path, line: Int(problem.line), column: Int(problem.column)))
      }
      let fileID = module + "/" + (path.split(separator: "/").last.map(String.init) ?? path)
      var finder = DeclarationFinder(source: contents, lexed: lexed, file: path, fileID: fileID)
      finder.run()
      preferences += finder.preferences
      diagnostics += finder.diagnostics
      imports += finder.imports
      genericTypes.formUnion(finder.genericTypes)
      isolatedTypes.merge(finder.isolatedTypes) { $0 + $1 }
      nonisolatedNames.formUnion(finder.nonisolatedNames)
    }
    // Generic types by their outermost name, so each declaration compares only its candidates.
    var genericPaths: [String: [[String]]] = [:]
    for path in genericTypes {
      if let outermost = path.first { genericPaths[outermost, default: []].append(path) }
    }
    for index in preferences.indices {
      // Nested in a generic type declared elsewhere (`extension Box { struct Config { … } }`):
      // the registry cannot name it without generic arguments.
      let path = preferences[index].typePath
      if preferences[index].registrationBlocker == nil, let outermost = path.first,
        let generic = genericPaths[outermost]?.first(where: { path.starts(with: $0) })
      {
        preferences[index].registrationBlocker = "'\(generic.joined(separator: "."))' is generic"
      }
      // The registry evaluates defaults and creates stores off the main actor.
      let preference = preferences[index]
      if preference.contextIsolation != nil || !isolatedTypes.isEmpty {
        if let store = preference.storeExpression,
          let (reference, isolation) = Self.isolatedReference(
            in: ExpressionTokens(text: store), of: preference, isolatedTypes, nonisolatedNames)
        {
          diagnostics.append(
            Diagnostic(
              .error,
              "the store of @Preference '\(preference.property)' reads '\(reference)' of a type isolated by \(isolation), but the generated registry creates stores off the main actor; declare it 'nonisolated static let', or move it to a type without actor isolation",
              file: preference.file, line: preference.line, column: preference.column))
        }
        if preference.registrationBlocker == nil, let value = preference.defaultValue,
          let (reference, isolation) = Self.isolatedReference(
            in: preference.defaultTokens ?? ExpressionTokens(text: value), of: preference, isolatedTypes,
            nonisolatedNames)
        {
          preferences[index].registrationBlocker =
            "its default reads '\(reference)' of a type isolated by \(isolation)"
        }
      }
      preferences[index].key = key(for: preferences[index])
      // Full rename chains: declared renames, configured migrations, and what the manifest
      // remembers those keys were renamed from.
      let key = preferences[index].key
      let sources =
        preferences[index].renamedFrom
        + configuration.migrations.filter { $0.value == key }.map(\.key).sorted()
      let chain = manifest?.manifest.chain(sources) ?? sources
      preferences[index].renamedFrom = chain.filter { $0 != key }
    }
    preferences.sort { ($0.fileID, $0.line, $0.column) < ($1.fileID, $1.line, $1.column) }
    diagnostics += validate(preferences)
    diagnostics += checkManifest(preferences)
    diagnostics.sort { ($0.file, $0.line, $0.column) < ($1.file, $1.line, $1.column) }
    let retired = manifest?.manifest.entries.values.filter(\.isRetired).map(\.key).sorted() ?? []
    return Result(
      preferences: preferences, diagnostics: diagnostics, lineCount: lines, retiredKeys: retired,
      imports: imports)
  }

  /// The first reference in `expression` to something isolated to a global actor, and what
  /// isolates it: `Type.member` or `Type(…)` of an isolated type declared anywhere in the
  /// module; and, when the declaration's own type is isolated, `Self.member`, an enclosing type's
  /// member, or (in a static declaration) an unqualified lowercase name. Members declared
  /// `nonisolated`, and enum cases, are not references.
  static func isolatedReference(
    in expression: ExpressionTokens, of preference: ScannedPreference,
    _ isolatedTypes: [String: [(path: [String], isolation: String)]], _ nonisolatedNames: Set<String>
  ) -> (reference: String, isolation: String)? {
    let path = preference.typePath
    // The qualified name of `member` of the type `owner` names (`Self` or one on the path).
    func qualified(_ owner: String, _ member: String) -> String {
      guard owner != "Self", let position = path.lastIndex(of: owner) else {
        return (path + [member]).joined(separator: ".")
      }
      return (path[...position] + [member]).joined(separator: ".")
    }
    let owners = Set(path + ["Self"])
    for index in expression.tokens.indices {
      guard let name = expression.word(index), !expression.punct(index - 1, UInt8(ascii: ".")) else {
        continue
      }
      let member = expression.punct(index + 1, UInt8(ascii: ".")) ? expression.word(index + 2) : nil
      if let isolation = preference.contextIsolation {
        if owners.contains(name), let member {
          if nonisolatedNames.contains(qualified(name, member)) { continue }
          return ("\(name).\(member)", isolation)
        }
        if preference.isStatic, let first = name.unicodeScalars.first, first.properties.isLowercase,
          !expression.punct(index + 1, UInt8(ascii: ":")), !expressionKeywords.contains(name),
          !nonisolatedNames.contains(qualified("Self", name))
        {
          return (name, isolation)
        }
      }
      guard let candidates = isolatedTypes[name], let type = candidates.first else { continue }
      if expression.punct(index + 1, UInt8(ascii: "(")) { return (name + "(…)", type.isolation) }
      guard let member,
        !candidates.contains(where: { nonisolatedNames.contains(($0.path + [member]).joined(separator: ".")) }
        )
      else { continue }
      return ("\(name).\(member)", type.isolation)
    }
    return nil
  }

  private static let expressionKeywords: Set<String> = [
    "true", "false", "nil", "try", "await", "as", "is", "in", "if", "else", "switch", "case", "default",
    "let", "var", "return", "some", "any",
  ]

  /// The tokens of `source` (for tools such as the fuzzer).
  public static func tokens(of source: [UInt8]) -> [Token] { Lexer.tokenize(source).tokens }

  /// Reads and scans `.swift` files and directories (searched recursively).
  public func scan(paths: [String]) throws -> Result {
    let files = try Self.swiftFiles(in: paths)
    var index = 0
    return try scan { () throws -> (String, [UInt8])? in
      guard index < files.count else { return nil }
      let file = files[index]
      index += 1
      guard let data = FileManager.default.contents(atPath: file) else {
        throw Diagnostic(.error, "cannot read file", file: file, line: 1, column: 1)
      }
      return (file, [UInt8](data))
    }
  }

  /// The `.swift` files at `paths`: files as given, directories searched recursively (hidden
  /// files and `.build` folders skipped), sorted.
  public static func swiftFiles(in paths: [String]) throws -> [String] {
    var result: [String] = []
    for path in paths {
      var isDirectory: ObjCBool = false
      guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
        throw Diagnostic(.error, "no such file or directory", file: path, line: 1, column: 1)
      }
      if !isDirectory.boolValue {
        result.append(path)
        continue
      }
      let base = path.hasSuffix("/") ? String(path.dropLast()) : path
      guard let enumerator = FileManager.default.enumerator(atPath: base) else { continue }
      while let relative = enumerator.nextObject() as? String {
        let name = relative.split(separator: "/").last.map(String.init) ?? relative
        if name.hasPrefix(".") || name == ".build" {
          enumerator.skipDescendants()
          continue
        }
        if relative.hasSuffix(".swift") { result.append(base + "/" + relative) }
      }
    }
    return result.sorted()
  }

  /// The key of a declaration: its explicit key, or prefix + type names + property name.
  public func key(for preference: ScannedPreference) -> String {
    if let explicit = preference.explicitKey { return explicit }
    return configuration.prefix
      + (preference.typePath + [preference.property]).joined(separator: configuration.separator)
  }

  // MARK: Validation

  private func validate(_ preferences: [ScannedPreference]) -> [Diagnostic] {
    var diagnostics: [Diagnostic] = []
    var byKey: [String: [ScannedPreference]] = [:]
    for preference in preferences {
      if let problem = Self.keyProblem(preference.key) {
        let fix =
          preference.explicitKey != nil
          ? "change the key: argument"
          : "rename the property or type, or give an explicit key with @Preference(key: …)"
        diagnostics.append(
          Diagnostic(
            .error, "invalid preference key '\(preference.key)': \(problem); \(fix)", file: preference.file,
            line: preference.line, column: preference.column))
      } else if preference.explicitKey != nil,
        ["NS", "Apple", "com.apple."].contains(where: { preference.key.hasPrefix($0) })
      {
        diagnostics.append(
          Diagnostic(
            .warning,
            "preference key '\(preference.key)' uses a prefix reserved by the system; prefer a key of your own",
            file: preference.file, line: preference.line, column: preference.column))
      }
      byKey[preference.key, default: []].append(preference)
    }
    let synced = preferences.filter(\.syncs)
    for preference in synced where preference.key.utf8.count > Self.syncedKeyLimit {
      diagnostics.append(
        Diagnostic(
          .error,
          "synced preference key '\(preference.key)' is \(preference.key.utf8.count) bytes; iCloud's key-value store allows \(Self.syncedKeyLimit); give it a shorter explicit key with @Preference(key: …, sync: true)",
          file: preference.file, line: preference.line, column: preference.column))
    }
    if Set(synced.map(\.key)).count > Self.syncedKeyCountLimit, let first = synced.first {
      diagnostics.append(
        Diagnostic(
          .error,
          "\(Set(synced.map(\.key)).count) preferences are marked sync: true; iCloud's key-value store holds at most \(Self.syncedKeyCountLimit) keys; sync fewer, or group them in one Codable value",
          file: first.file, line: first.line, column: first.column))
    }
    for (key, declarations) in byKey where declarations.count > 1 {
      for (offset, later) in declarations.enumerated() {
        guard let earlier = declarations[..<offset].first(where: { $0.canCoexist(with: later) }) else {
          continue
        }
        diagnostics.append(
          Diagnostic(
            .error,
            "duplicate preference key '\(key)': also declared at \(earlier.file):\(earlier.line):\(earlier.column); rename one property, or give one an explicit key with @Preference(key: \"…\")",
            file: later.file, line: later.line, column: later.column))
        diagnostics.append(
          Diagnostic(
            .note, "'\(key)' first declared here", file: earlier.file, line: earlier.line,
            column: earlier.column))
      }
    }
    return diagnostics
  }

  /// Compares the sources with the manifest: a shipped key must still be declared, renamed,
  /// migrated or retired, and keep a compatible type.
  private func checkManifest(_ preferences: [ScannedPreference]) -> [Diagnostic] {
    guard let (manifest, path) = manifest else { return [] }
    var diagnostics: [Diagnostic] = []
    let declared = Dictionary(preferences.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
    let renamed = Set(preferences.flatMap(\.renamedFrom)).union(configuration.migrations.keys)
    for entry in manifest.entries.values.sorted(by: { $0.key < $1.key }) where !entry.isRetired {
      if let preference = declared[entry.key] {
        if let old = entry.type, let new = preference.type, !typesAreCompatible(old, new) {
          diagnostics.append(
            Diagnostic(
              .error,
              "preference '\(entry.key)' was shipped as \(old) (\(PreferenceManifest.fileName)) and is now declared as \(new); values users already stored would no longer read. Keep the type \(old), or store the new type under a new key and retire this one with 'swift package preferences lock --retire \(entry.key)'",
              file: preference.file, line: preference.line, column: preference.column))
        }
      } else if !renamed.contains(entry.key) {
        diagnostics.append(
          Diagnostic(
            .error,
            "preference key '\(entry.key)' (\(entry.type ?? "type unknown")) was shipped but no declaration uses it any more, so users' stored values would be lost. If you renamed it, add @Preference(renamedFrom: \"\(entry.key)\") to the new declaration; to move it elsewhere, add it to \"migrations\" in \(ScannerConfiguration.fileName); to drop it on purpose, run 'swift package preferences lock --retire \(entry.key)'",
            file: path, line: max(entry.line, 1), column: 1))
      }
    }
    return diagnostics
  }

  /// `NSUbiquitousKeyValueStore`'s limits, checked for `sync: true` declarations.
  public static let syncedKeyLimit = 64
  public static let syncedKeyCountLimit = 1024

  /// Why `key` cannot be used as a store key, or `nil` if it can.
  public static func keyProblem(_ key: String) -> String? {
    if key.isEmpty { return "a key cannot be empty" }
    if key.unicodeScalars.contains(where: {
      $0.properties.isWhitespace || $0.value < 0x20 || $0.value == 0x7F
    }) {
      return "a key cannot contain spaces, line breaks or control characters"
    }
    if key.hasPrefix("-") {
      return "a key cannot start with '-' (it could not be overridden by a launch argument)"
    }
    if key.utf8.count > 1024 { return "a key cannot be longer than 1,024 bytes" }
    return nil
  }
}
