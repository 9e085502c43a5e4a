/// Renders the generated registry of a module as several files, so that an edit to one source
/// file regenerates and recompiles only a small file:
///
/// - a table per source file (``fileTable(for:plans:locks:)``): a function returning its
///   declarations as JSON records and closures that evaluate their defaults and stores (in an
///   extension of the declaring type), or, where no declaration needs code, its file ID and
///   records as two static strings; and compile-time checks of locked types. Line numbers live
///   only here, in function bodies, which the module-wide `emit-module` job of every build skips:
///   it sees one signature per source file. The tables of about 16 source files share a generated file
///   (a file per source would make every compile job of a clean build parse hundreds more files).
/// - the module index (``index(module:tables:retiredKeys:keptLines:imports:access:)``): the
///   `Preference` alias, `PreferenceRegistry`, the list of tables, and the lines of the few
///   declarations whose default the registry cannot evaluate, which change only when the set of
///   files with preferences does, or one of those few declarations moves. Its lists are in
///   function bodies too, so that a change recompiles no other file.
package enum RegistryRenderer {
  static let header = "// swift-format-ignore-file\n"

  /// The name of the function that returns the table of the file with `fileID`.
  package static func tableName(forFileID fileID: String) -> String {
    let name = FileSystem.fileName(of: fileID)
    return "_Preferences_"
      + SwiftIdentifier.mangled(name.hasSuffix(".swift") ? String(name.dropLast(6)) : name)
  }

  // MARK: Files

  /// The generated files of a scan: the index, each of `tableFiles` (even one without
  /// declarations: every planned output must exist) holding the tables of the sources that
  /// `plannedName` assigns to it, and one holding the tables of every other source with
  /// declarations.
  package static func files(
    _ result: PreferenceScanner.Result, module: String, tableFiles: [String], plannedName: (String) -> String?
  ) -> (index: String, planned: [(name: String, text: String)], unplanned: String) {
    var planned: [(name: String, text: String)] = []
    let (index, unplanned) = files(result, module: module, tableFiles: tableFiles, plannedName: plannedName) {
      planned.append(($0, $1))
    }
    return (index, planned, unplanned)
  }

  /// The same, handing each table file to `emit` as soon as it is rendered, so that a module of
  /// any size never holds all of its generated code in memory.
  ///
  /// With a `memo`, a table file whose inputs are those it was last written from (and which
  /// still holds what was written) is neither rendered nor emitted.
  package static func files(
    _ result: PreferenceScanner.Result, module: String, tableFiles: [String],
    plannedName: (String) -> String?, memo: TableMemo? = nil,
    emit: (_ name: String, _ text: String) throws -> Void
  ) rethrows -> (index: String, unplanned: String) {
    let preferencesImport = PreferencesImport(result.files.flatMap(\.imports))
    let access = IndexAccess(result.plans, sharing: result.files, preferencesImport: preferencesImport)
    let byFile = Dictionary(grouping: result.plans, by: \.fileIndex)
    let withPreferences = result.files.indices.filter { byFile[$0] != nil }
    let index =
      self.index(
        module: module, tables: withPreferences.map { tableName(forFileID: result.files[$0].fileID) },
        retiredKeys: result.retiredKeys, keptLines: keptLines(result.plans),
        keptStoreLines: keptStoreLines(result.plans),
        callsDeprecatedTables: byFile.values.contains(where: namesDeprecatedTypes),
        imports: keyFileImports(result, preferences: preferencesImport.index), access: access)
      + initializers(result.files, access: access)
      + conformances(result.conformances) + typedKeys(result.typedKeys)
    func tables(_ files: [Int]) -> String {
      importLines(files.map { result.files[$0] }, preferences: preferencesImport.table) { _ in true }
        + "\n"
        + files.map { fileTable(for: result.files[$0], plans: byFile[$0] ?? [], locks: result.lockedTypes) }
        .joined(separator: "\n")
    }
    var unplanned: [Int] = []
    var assigned: [String: [Int]] = [:]
    for fileIndex in withPreferences {
      if let name = plannedName(result.files[fileIndex].path) {
        assigned[name, default: []].append(fileIndex)
      } else {
        unplanned.append(fileIndex)
      }
    }
    for name in tableFiles {
      let files = assigned[name] ?? []
      let inputs = memo?.inputs(
        of: result, sources: files, plans: byFile, module: module, preferencesImport: preferencesImport.table)
      if let memo, let inputs, memo.isCurrent(name, inputs: inputs) { continue }
      let text =
        files.isEmpty
        ? header + "// No source file with @Preference declarations is assigned to this file.\n"
        : header + "// Generated by preferences-scanner from "
          + files.map {
            SwiftIdentifier.comment(FileSystem.fileName(of: result.files[$0].path))
          }
          .joined(separator: ", ") + ". Do not edit.\n" + tables(files)
      try emit(name, text)
      if let inputs { memo?.record(name, inputs: inputs) }
    }
    let unplannedText =
      unplanned.isEmpty
      ? header + "// Every file with @Preference declarations has a planned table file.\n"
      : header
        + "// Tables of files that gained @Preference declarations since the plugin planned its outputs.\n"
        + tables(unplanned)
    return (index, unplannedText)
  }

  /// Everything in one file: the index and every table (for tools and for compiling a fixture
  /// without the plugin).
  package static func singleFile(_ result: PreferenceScanner.Result, module: String) -> String {
    let preferencesImport = PreferencesImport(result.files.flatMap(\.imports))
    let access = IndexAccess(result.plans, sharing: result.files, preferencesImport: preferencesImport)
    let byFile = Dictionary(grouping: result.plans, by: \.fileIndex)
    let withPreferences = result.files.indices.filter { byFile[$0] != nil }
    return header
      + "// Generated by preferences-scanner for module \(SwiftIdentifier.comment(module)). Do not edit.\n"
      + importLines(
        (withPreferences + keyFiles(result).filter { !withPreferences.contains($0) }).map {
          result.files[$0]
        },
        preferences: preferencesImport.index)
      + indexDeclarations(
        tables: withPreferences.map { tableName(forFileID: result.files[$0].fileID) },
        retiredKeys: result.retiredKeys, keptLines: keptLines(result.plans),
        keptStoreLines: keptStoreLines(result.plans),
        callsDeprecatedTables: byFile.values.contains(where: namesDeprecatedTypes), access: access)
      + initializers(result.files, access: access)
      + conformances(result.conformances) + typedKeys(result.typedKeys)
      + "\n"
      + withPreferences.map {
        fileTable(for: result.files[$0], plans: byFile[$0] ?? [], locks: result.lockedTypes)
      }
      .joined(separator: "\n")
  }

  // MARK: Module index

  /// How the generated files import `Preferences`, following the module's own imports: a module
  /// whose files import it implicitly (or publicly) gets a public import in the index, so that
  /// `public` preferences compile; one that imports it only with a lower explicit level keeps
  /// that level (and cannot have public preferences).
  package struct PreferencesImport: Sendable, Equatable {
    /// The index file's import and whether its declarations are `@usableFromInline`.
    package var index: String
    package var usableFromInline: Bool
    /// The import in per-file tables.
    package var table: String

    package init(_ imports: [ImportSyntax]) {
      let own = imports.filter { $0.module == "Preferences" && $0.kind == nil }
      let explicit = own.compactMap(\.accessLevel)
      if own.isEmpty || own.contains(where: { $0.accessLevel == nil }) || explicit.contains("public") {
        index = "@_spi(Generated) public import Preferences"
        usableFromInline = true
        table =
          own.contains(where: { $0.accessLevel == nil }) || own.isEmpty
          ? "@_spi(Generated) import Preferences" : "@_spi(Generated) internal import Preferences"
      } else {
        let level = explicit.contains("package") ? "package" : "internal"
        index = "@_spi(Generated) \(level) import Preferences"
        usableFromInline = false
        table = index
      }
    }
  }

  /// The module index file.
  ///
  /// `imports` is its import block (`Preferences`, and the imports of files whose typed keys name
  /// another module's types), one line each.
  package static func index(
    module: String, tables: [String], retiredKeys: [String], keptLines: [Int], keptStoreLines: [Int] = [],
    callsDeprecatedTables: Bool = false, imports: String, access: IndexAccess
  ) -> String {
    header + """
      // Generated by preferences-scanner for module \(SwiftIdentifier.comment(module)). Do not edit: it
      // is rewritten by PreferenceRegistryPlugin when the set of files with preferences changes,
      // or a declaration whose line it names moves.

      """ + imports
      + indexDeclarations(
        tables: tables, retiredKeys: retiredKeys, keptLines: keptLines, keptStoreLines: keptStoreLines,
        callsDeprecatedTables: callsDeprecatedTables, access: access)
  }

  /// Whether the table of `plans` names a deprecated type (or a type in one): it evaluates
  /// defaults or stores in the type's own extension, which repeats its attributes. The table
  /// function is then deprecated too, and so is the index function that calls it, so that
  /// neither draws the compiler's deprecation warning; the library calls the index function
  /// through `GeneratedPreferenceRegistry`, which draws none.
  static func namesDeprecatedTypes(_ plans: [PreferencePlan]) -> Bool {
    !plans.allSatisfy(\.needsNoEvaluation) && plans.contains { $0.availability.isDeprecated }
  }

  /// The attribute of generated functions that name deprecated types.
  static let deprecatedCaller =
    "@available(*, deprecated, message: \"generated: it names deprecated types, and is called through GeneratedPreferenceRegistry\")\n"

  /// The lines (as the compiler reports them) of the declarations whose default the registry
  /// cannot evaluate: each keeps its default when it is first created.
  static func keptLines(_ plans: [PreferencePlan]) -> [Int] {
    Set(
      plans.compactMap { plan -> Int? in
        guard case .firstRead = plan.registration else { return nil }
        return plan.reportedLocation.line
      }
    ).sorted()
  }

  /// The lines of the declarations that evaluate their own `store:` (it names a private member):
  /// each hands its store to the registry when it is first created.
  static func keptStoreLines(_ plans: [PreferencePlan]) -> [Int] {
    Set(plans.filter(\.storeKeptByDeclaration).map(\.reportedLocation.line)).sorted()
  }

  /// The files declaring `PreferenceKeys` enums whose typed keys name another module's types
  /// (`TypedPreferenceKey<AppKeys, Date>`): the file declaring those keys repeats their imports.
  static func keyFiles(_ result: PreferenceScanner.Result) -> [Int] {
    var seen: Set<Int> = []
    return result.typedKeys.filter(\.namesImportedTypes).map(\.fileIndex).filter { seen.insert($0).inserted }
  }

  /// The index's import block: `Preferences`, then the imports of ``keyFiles(_:)``. A file's
  /// explicit levels are kept where its keys are public (their types must be imported publicly)
  /// and written `internal` otherwise, for the reason ``importLines(_:preferences:internalOnly:)``
  /// gives.
  static func keyFileImports(_ result: PreferenceScanner.Result, preferences: String) -> String {
    let publicPaths = Set(
      result.typedKeys.filter { $0.namesImportedTypes && $0.access == "public " }.map {
        result.files[$0.fileIndex].path
      })
    return importLines(keyFiles(result).map { result.files[$0] }, preferences: preferences) {
      !publicPaths.contains($0.path)
    }
  }

  /// The access of `Preference` and `PreferenceRegistry`: as wide as the widest declaration
  /// that uses them, because the compiler requires a property's wrapper type to be as visible as
  /// the property (when its type is written). A module with `public` or `open` preferences gets
  /// them `public` (hidden from documentation), one with `package` preferences `package`; any
  /// other keeps them internal. Internal and `package` ones are `@usableFromInline`, for
  /// `@inlinable` code, and because the index imports `Preferences` publicly: a public import
  /// that no public or inlinable-usable declaration uses draws the compiler's warning.
  package enum IndexAccess: Sendable, Equatable {
    case `internal`, usableFromInline, package, `public`

    /// The access of `plans` and of the declarations in `files` that share one of them.
    package init(
      _ plans: [PreferencePlan], sharing files: [FileSyntax] = [], preferencesImport: PreferencesImport
    ) {
      guard preferencesImport.usableFromInline else {
        self = .internal
        return
      }
      var levels = Set(plans.compactMap(\.syntax.access))
      for file in files {
        for declaration in file.preferences where declaration.arguments.reference != nil {
          if let access = declaration.access { levels.insert(access) }
        }
      }
      if levels.contains(.public) || levels.contains(.open) {
        self = .public
      } else if levels.contains(.package) {
        self = .package
      } else {
        self = .usableFromInline
      }
    }

    /// What the declarations are prefixed with.
    var declaration: String {
      switch self {
      case .internal: ""
      case .usableFromInline: "@usableFromInline "
      case .package: "@_documentation(visibility: internal) @usableFromInline package "
      case .public: "@_documentation(visibility: internal) public "
      }
    }

    /// What the registry's members are prefixed with.
    var member: String {
      switch self {
      case .internal: ""
      case .usableFromInline: "@usableFromInline "
      case .package: "@usableFromInline package "
      case .public: "public "
      }
    }
  }

  /// `Preference` and `PreferenceRegistry`, listing `tables`.
  package static func indexDeclarations(
    tables: [String], retiredKeys: [String], keptLines: [Int], keptStoreLines: [Int] = [],
    callsDeprecatedTables: Bool = false, access: IndexAccess
  ) -> String {
    let keepsStore =
      keptStoreLines.isEmpty
      ? ""
      : """


        /// Whether the declaration on `line` evaluates its own store: one that names a private member.
        \(access.member)nonisolated static func _keepsStore(line: UInt) -> Bool {
          switch line {
          case \(keptStoreLines.map(String.init).joined(separator: ", ")): return true
          default: return false
          }
        }
      """
    let keeps =
      keptLines.isEmpty
      ? "false"
      : """
      switch line {
          case \(keptLines.map(String.init).joined(separator: ", ")): return true
          default: return false
          }
      """
    return """

      /// `@Preference` in this module: a property wrapper whose key `PreferenceRegistry` derives
      /// from the enclosing type and property names.
      \(access.declaration)typealias Preference<Value: _Preferences.Value> = DerivedPreference<Value, PreferenceRegistry>

      /// Every `@Preference` declared in this module.
      \(access.declaration)enum PreferenceRegistry: _Preferences.Registry {
        \(callsDeprecatedTables ? deprecatedCaller + "  " : "")\(access.member)nonisolated static func _preferenceFiles() -> [Any] {
          [\(tables.map { $0 + "()" }.joined(separator: ", "))]
        }

        \(access.member)nonisolated static func _retiredKeys() -> [String] {
          [\(retiredKeys.map(StringLiteral.quote).joined(separator: ", "))]
        }

        \(access.member)nonisolated static func _mainActorIsDefaultIsolation() -> Bool {
          // A function declared with no isolation takes the module's default; its dynamic
          // isolation says which that is.
          let probe: @isolated(any) () -> Void = _preferencesDefaultIsolationProbe
          return probe.isolation != nil
        }

        /// Whether the declaration on `line` keeps its default: one the registry cannot evaluate.
        \(access.member)nonisolated static func _keepsDefault(line: UInt) -> Bool {
          \(keeps)
        }\(keepsStore)
      }

      /// Declared with no isolation, so that it has the module's default isolation.
      private func _preferencesDefaultIsolationProbe() {}

      """
  }

  /// The initializers of the option combinations the module's declarations write: one for each
  /// list of labels (as written; the parser holds them to the declared order) with a default, and
  /// one for each without (an optional, which defaults to nil). The library declares only the two
  /// without options: the compiler matches every declaration of the module against every
  /// initializer it can see, in every build, and the ten option initializers the library
  /// declared before cost each declaration about 0.6 M compiler instructions, options or not
  /// (Benchmarks/README.md). Declarations in every `#if` branch count, so that the initializers
  /// do not depend on the build's conditions.
  package static func initializers(_ files: [FileSyntax], access: IndexAccess) -> String {
    struct Form: Hashable {
      var labels: [String]
      var hasDefault: Bool
    }
    let order = PreferenceArguments.labels.map(\.label)
    let parameterTypes = Dictionary(
      uniqueKeysWithValues: PreferenceArguments.labels.map { ($0.label, $0.parameter) })
    var forms = Set<Form>()
    var shares = false
    for file in files {
      for declaration in file.preferences {
        if declaration.arguments.reference != nil {
          shares = true
          continue
        }
        let labels = declaration.arguments.written.filter { $0 != "wrappedValue" }
        if !labels.isEmpty { forms.insert(Form(labels: labels, hasDefault: declaration.defaultValue != nil)) }
      }
    }
    guard !forms.isEmpty || shares else { return "" }
    let sorted = forms.sorted {
      let (left, right) = (
        $0.labels.map { order.firstIndex(of: $0) ?? 0 }, $1.labels.map { order.firstIndex(of: $0) ?? 0 }
      )
      return left != right ? left.lexicographicallyPrecedes(right) : $0.hasDefault && !$1.hasDefault
    }
    var out = """

      // The initializers of the options this module's declarations write (the library declares
      // only those without options; see DerivedPreference.init(wrappedValue:fileID:line:)).
      extension DerivedPreference where Registry == PreferenceRegistry {

      """
    if shares {
      // The key path is not kept: the compiler checks that it names a property of the value's
      // type, and the scanner found the declaration, whose record lists this one's location.
      out += """
          /// `@Preference(\\Settings.showFooter) var showFooter`: the preference that declaration
          /// declares, with its key, store, options and default.
          \(access.member)nonisolated init<Root>(_ preference: Swift.KeyPath<Root, Value>, fileID: Swift.StaticString = #fileID, line: Swift.UInt = #line) {
            self = Self._sharing(fileID: fileID, line: line)
          }

        """
    }
    for form in sorted {
      // The parser keeps only the table's labels.
      let labels = (form.hasDefault ? ["wrappedValue"] : []) + form.labels
      var parameters = labels.map { "\($0): \(parameterTypes[$0]!)" }
      parameters += ["fileID: Swift.StaticString = #fileID", "line: Swift.UInt = #line"]
      let attribute = "@Preference(\(form.labels.map { $0 + ":" }.joined()))"
      out += """
          /// \(form.hasDefault ? "`\(attribute) var name = default`" : "`\(attribute) var name: Value?`, which defaults to nil").
          \(access.member)nonisolated init(\(parameters.joined(separator: ", ")))\(form.hasDefault ? "" : " where Value: Swift.ExpressibleByNilLiteral") {
            self = Self._declared(fileID: fileID, line: line, default: \(form.hasDefault ? "wrappedValue" : "nil")\(form.labels.contains("store") ? ", store: store()" : ""))
          }

        """
    }
    return out + "}\n"
  }

  /// The conformances to `PreferenceValue` (and `PreferenceDictionaryKey`) the module's types
  /// are declared without: what a user would write (`extension Theme: PreferenceValue {}`), under
  /// the `#if` where the type exists and the user's own conformance does not. The protocols'
  /// default implementations store a raw-value enum or `RawRepresentable` struct as its raw
  /// value, a `Codable` type as JSON text, and a `LosslessStringConvertible` key as its
  /// description. Both protocols refine `Sendable`, which Swift lets only the declaring file
  /// infer: where the type does not declare it, the conformance states it, as the scanner proved
  /// it (see ``ConformanceSynthesis``).
  package static func conformances(_ conformances: [SynthesizedConformance]) -> String {
    guard !conformances.isEmpty else { return "" }
    var out =
      "\n// Module types stored by @Preference and declared without a conformance to PreferenceValue.\n"
    for conformance in conformances {
      let name = SwiftIdentifier.escapedPath(conformance.typeName)
      let rawValueEnum =
        conformance.storage.map { $0 == .rawValue } ?? (conformance.keyStorage == .rawValue)
      var text = ""
      if conformance.statesSendable {
        text +=
          rawValueEnum
          ? "// Sendable: a raw-value enum has no payloads; each value is one of its cases.\n"
          : "// Sendable: every stored property is of a standard value type or a type proven Sendable.\n"
      }
      // The comment is what the compiler prints under a rejected conformance: for a type whose
      // conformance uses its own members (Codable, a raw value it declares, a description), it
      // names the fix for the one way this line fails.
      var protocols: [String] = []
      var comments: [String] = []
      switch conformance.storage {
      case .rawValue?, .rawRepresentable?: comments.append("stored as its raw value")
      case .json?: comments.append("stored as JSON text")
      case nil: break
      }
      if conformance.storage != nil { protocols.append("_Preferences.Value") }
      switch conformance.keyStorage {
      case .rawValue?, .rawRepresentable?: comments.append("a dictionary key as its raw value")
      case .description?: comments.append("a dictionary key as its description")
      case nil: break
      }
      if conformance.keyStorage != nil { protocols.append("_Preferences.DictionaryKey") }
      let isolated =
        [.rawRepresentable, .json].contains(conformance.storage)
        || [.rawRepresentable, .description].contains(conformance.keyStorage)
      var comment = comments.joined(separator: "; ")
      if isolated {
        comment +=
          ". Not conforming? Where the default isolation is MainActor, or conformances are inferred isolated, declare the type or its conformance nonisolated (nonisolated struct …, : nonisolated Codable)"
      }
      let line =
        conformance.availability.attributes.map { $0 + " " }.joined()
        + "extension \(name): \(conformance.statesSendable ? "@unchecked Sendable, " : "")\(protocols.joined(separator: ", ")) {}  // \(comment)\n"
      if isolated, let site = conformance.site {
        // Where the default isolation is MainActor, such a conformance is main-actor isolated
        // unless the type is `nonisolated` (an enum's synthesized raw value is not), and this
        // line cannot compile: the compiler then reports it at the type's declaration, where the
        // fix (`nonisolated`) goes.
        text += "#sourceLocation(file: \(StringLiteral.quote(site.file)), line: \(site.line))\n" + line
        text += "#sourceLocation()\n"
      } else {
        text += line
      }
      out += conformance.condition.map { "#if \($0)\n" + text + "#endif\n" } ?? text
    }
    return out
  }

  /// The typed keys of each `PreferenceKeys` enum: one static member of `TypedPreferenceKey` per case,
  /// in an extension per value type, so that `.name` is a `TypedPreferenceKey<AppKeys, String>` and a
  /// value of another type does not compile. Each extension repeats the enum's `@available`
  /// attributes. `nonisolated`, so that a target whose default
  /// isolation is MainActor can use them on any thread.
  package static func typedKeys(_ groups: [TypedKeyGroup]) -> String {
    guard !groups.isEmpty else { return "" }
    var out = "\n// The typed keys of each PreferenceKeys enum, read from its defaultValue switch.\n"
    for group in groups {
      let keysType = SwiftIdentifier.escapedPath(group.keysType)
      var text = ""
      if !group.witnesses.isEmpty {
        // The defaults whose type the compiler infers, each at the line of its clause, so that
        // an error there (a default that is not a preference value) points at it. A closure
        // that is never called: the type is all that is used.
        text += group.availability.attributes.map { $0 + "\n" }.joined()
        text += "extension \(keysType) {\n"
        for witness in group.witnesses {
          if let condition = witness.condition { text += "#if \(condition)\n" }
          text += "#sourceLocation(file: \(StringLiteral.quote(witness.file)), line: \(witness.line))\n"
          text +=
            "  \(group.access)nonisolated enum \(witness.typeName): _Preferences.KeyDefaultType { \(group.access)static let _preferenceKeyDefault = { @MainActor @Sendable in \(witness.expression) } }\n"
          if witness.condition != nil { text += "#endif\n" }
        }
        text += "#sourceLocation()\n}\n"
      }
      // Keys declared everywhere, one extension per value type; a key under `#if` in an
      // extension of its own under the condition, whose value type may exist only there (a
      // type of that platform's, or the type the compiler infers from its default).
      let everywhere = group.keys.filter { group.conditions[$0.caseName] == nil }
      var start = 0
      while start < everywhere.count {
        let valueType = everywhere[start].valueType
        var end = start
        while end < everywhere.count, everywhere[end].valueType == valueType { end += 1 }
        text += group.availability.attributes.map { $0 + "\n" }.joined()
        text += "extension _Preferences.TypedKey where Keys == \(keysType), Value == \(valueType) {\n"
        for key in everywhere[start..<end] {
          let name = SwiftIdentifier.escaped(key.caseName)
          text += "  \(group.access)nonisolated static var \(name): Self { Self(\(keysType).\(name)) }\n"
        }
        text += "}\n"
        start = end
      }
      for key in group.keys {
        guard let condition = group.conditions[key.caseName] else { continue }
        let name = SwiftIdentifier.escaped(key.caseName)
        text += "#if \(condition)\n"
        text += group.availability.attributes.map { $0 + "\n" }.joined()
        text += "extension _Preferences.TypedKey where Keys == \(keysType), Value == \(key.valueType) {\n"
        text += "  \(group.access)nonisolated static var \(name): Self { Self(\(keysType).\(name)) }\n"
        text += "}\n#endif\n"
      }
      out += group.condition.map { "#if \($0)\n" + text + "#endif\n" } ?? text
    }
    return out
  }

  // MARK: Imports

  /// The import lines of a generated file holding the tables of `files`: `Preferences` as
  /// `preferencesImport` says, then every other module the files import, with their conditions
  /// and attributes (`@_exported` dropped), merged per module and path.
  ///
  /// The imports of a file for which `internalOnly` holds (all of a table file's, which declares
  /// nothing public) are written `internal` where they give a level: a `public import X` copied
  /// there would draw the compiler's warning that the public import is not used in public
  /// declarations, in a file the user cannot edit, and two levels of one module in one file
  /// another. An implicit import stays implicit, as Swift rejects one module imported implicitly
  /// in one file and explicitly in another. A module that one file imports with a wider level
  /// and another `internal` is imported once, at the wider level.
  package static func importLines(
    _ files: [FileSyntax], preferences: String, internalOnly: (FileSyntax) -> Bool = { _ in false }
  ) -> String {
    var out = preferences + "\n"
    struct Line: Hashable {
      var path: String
      var kind: String?
      var attributes: [String]
      var accessLevel: String?
    }
    var wanted: [Line: [String?]] = [:]
    var order: [Line] = []
    for file in files {
      let demoted = internalOnly(file)
      for scanned in file.imports where scanned.module != "Preferences" {
        let line = Line(
          path: scanned.path, kind: scanned.kind,
          attributes: scanned.attributes.filter { $0 != "@_exported" },
          accessLevel: demoted ? scanned.accessLevel.map { _ in "internal" } : scanned.accessLevel)
        if wanted[line] == nil { order.append(line) }
        wanted[line, default: []].append(scanned.condition)
      }
    }
    order.removeAll { line in
      line.accessLevel == "internal"
        && ["public", "package"].contains {
          var wider = line
          wider.accessLevel = $0
          return wanted[wider] != nil
        }
    }
    for line in order {
      let text =
        (line.attributes + [line.accessLevel].compactMap { $0 } + ["import"] + [line.kind].compactMap { $0 }
        + [line.path]).joined(separator: " ")
      let conditions = wanted[line] ?? []
      if conditions.contains(where: { $0 == nil }) {
        out += text + "\n"
      } else {
        for condition in Set(conditions.compactMap { $0 }).sorted() {
          out += "#if \(condition)\n\(text)\n#endif\n"
        }
      }
    }
    return out
  }
}
