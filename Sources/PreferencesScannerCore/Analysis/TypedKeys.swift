/// The typed keys of the module's `PreferenceKeys` enums: for each case, the type of the default
/// its `defaultValue` switch returns, so that generated code can declare
/// `TypedPreferenceKey<AppKeys, String>.name` and a read or write of another type does not compile.
///
/// A case's type is read from its default as a reader would: a literal's (`"x"` `String`, `0`
/// `Int`, `0.5` `Double`, `[1]` `[Int]`), `T?.none` or `Optional<T>.none` (`T?`), the type after a
/// final `as` (`0 as Double`), or what ``Planner/inferType(_:context:declaringType:)`` reads
/// (`T(…)`, `T.case`, a static member of known type). Any other default the compiler types:
/// generated code declares it in a type nested in the enum (``TypedKeyGroup/Witness``) and names
/// the type the compiler infers. Only a default generated code cannot evaluate outside its file
/// (one that reads the case, or a private name) is one warning at the clause that asks for `as`.
struct TypedKeys {
  let index: ModuleIndex
  let files: [FileSyntax]
  let planner: Planner

  /// The module's typed keys, one group per enum, what could not be typed, and what the keys ask
  /// of conformance synthesis: a module type a key holds gets its conformances as a
  /// `@Preference` of that type does.
  func analyze() -> (
    groups: [TypedKeyGroup], diagnostics: [Diagnostic], requests: ConformanceSynthesis.Requests
  ) {
    var groups: [TypedKeyGroup] = []
    var diagnostics: [Diagnostic] = []
    var requests = ConformanceSynthesis.Requests()
    var seen: Set<ModuleIndex.TypeID> = []
    let own = files.lazy.flatMap(\.imports).filter { $0.module == "Preferences" && $0.kind == nil }
    let importsPublicly = own.isEmpty || own.contains { $0.accessLevel == nil || $0.accessLevel == "public" }
    for (fileIndex, file) in files.enumerated() {
      for defaults in file.keyDefaults {
        let type = index.scopeTypes[fileIndex][defaults.scope]
        let info = index[type]
        guard info.kind == .enum, index.inherits(type, anyOf: ["PreferenceKeys"]), seen.insert(type).inserted
        else { continue }
        let name = index.qualifiedName(type)
        func error(_ message: String, line: Int, column: Int) {
          diagnostics.append(Diagnostic(.error, message, file: file.path, line: line, column: column))
        }
        if let reason = info.genericType.map({ "'\(index.qualifiedName($0))' is generic" })
          ?? info.unreachable
        {
          error(
            "the build plugin cannot declare typed keys for '\(name)': \(reason); declare the keys in a non-generic internal or public enum",
            line: defaults.line, column: defaults.column)
          continue
        }
        guard !defaults.clauses.isEmpty else {
          error(
            "the build plugin reads each key's type from '\(name).defaultValue', which must be 'switch self { case .key: default … }' with one expression per case",
            line: defaults.line, column: defaults.column)
          continue
        }
        let context = index.lexicalContext(scope: defaults.scope, in: file, fileIndex: fileIndex)
        let analyzer = ExpressionAnalyzer(
          index: index, context: context, declaringType: type, file: file.path)
        let caseMembers = info.members.values.flatMap { $0 }.filter { $0.syntax.kind == .enumCase }
        // A case declared under `#if` has its key declared under the same condition.
        var conditions: [String: String] = [:]
        for member in caseMembers {
          guard let branch = member.syntax.branch,
            let declaring = files.first(where: { $0.path == member.file })
          else { continue }
          conditions[member.syntax.name] = BranchSyntax.condition(
            of: branch, in: declaring.branches, limit: Self.conditionLimit)
        }
        var typed: [String: (type: String, clause: KeyDefaultsSyntax.Clause)] = [:]
        var unread: [(String, KeyDefaultsSyntax.Clause)] = []
        var witnesses: [TypedKeyGroup.Witness] = []
        let fallback = defaults.clauses.first { $0.isDefault }
        for caseName in Set(caseMembers.map(\.syntax.name)).sorted() {
          // The clauses that give the case its default somewhere: those naming it, and the
          // `default:` clause where each of those is under a condition (it applies elsewhere).
          var clauses = defaults.clauses.filter { $0.cases.contains(caseName) }
          if let fallback, conditions[caseName] == nil, !clauses.isEmpty,
            clauses.allSatisfy({ $0.condition != nil }),
            !clauses.contains(where: { Self.isElseBranch($0.condition) })
          {
            clauses.append(fallback)
          } else if clauses.isEmpty, let fallback {
            clauses = [fallback]
          }
          guard let clause = clauses.first else { continue }  // not covered: the compiler reports the switch
          // The key is declared where its case is, or where its one clause is.
          if conditions[caseName] == nil, clauses.count == 1 { conditions[caseName] = clause.condition }
          if let condition = conditions[caseName], condition.contains("…") {
            unread.append((caseName, clause))  // a condition too long to repeat
            continue
          }
          // Clauses in several `#if` branches: typed where they all agree.
          let types = clauses.dropFirst().map { other in
            other.expression.flatMap { valueType(of: $0, context: context, declaringType: type) }
          }
          guard let expression = clause.expression,
            let written = valueType(of: expression, context: context, declaringType: type),
            types.allSatisfy({ $0 == written })
          else {
            if clauses.count > 1 {
              unread.append((caseName, clause))
              continue
            }
            // The compiler types what the scanner cannot read: generated code declares the
            // default beside the enum, and the key's type is the one the compiler infers.
            if let expression = clause.expression, evaluatesOutsideItsFile(expression, keys: type) {
              let witness = TypedKeyGroup.Witness(
                caseName: caseName, expression: expression.text, file: file.path, line: clause.line,
                condition: conditions[caseName])
              witnesses.append(witness)
              planner.requestMentionedTypes(in: expression, context: context, requests: &requests)
              typed[caseName] = (
                SwiftIdentifier.escapedPath(name) + "." + witness.typeName + "._PreferenceKeyValue", clause
              )
            } else {
              unread.append((caseName, clause))
            }
            continue
          }
          let writtenType = WrittenType(parsing: written)
          let analysis = analyzer.analyze(type: writtenType)
          if let reason = analysis.unreachable {
            error(
              "the type of '\(name).\(caseName)' (\(written)) cannot be named by generated code: \(reason)",
              line: clause.line, column: clause.column)
            continue
          }
          typed[caseName] = (analysis.code, clause)
          // The module types it holds conform as a preference's do: the user's `defaultValue`
          // switch, which returns `any PreferenceValue`, needs the conformance to compile.
          if let problem = planner.storabilityProblem(writtenType, context: context) {
            requests.checks.append(
              .init(
                kind: .value(problem.type, name: problem.name),
                subject: "'\(name).\(caseName)' holds \(written)",
                file: file.path, line: clause.line, column: clause.column))
          }
          let keys = planner.dictionaryKeys(writtenType, context: context)
          if let problem = keys.problem {
            error(
              "'\(name).\(caseName)' holds \(written), a dictionary keyed by \(problem), but a stored dictionary is keyed by text (as property lists are): String, a number, Bool, Character, UUID, or your enum with a String, number or Character raw value; key it by one of those, or store a Codable type that holds it (stored as JSON text)",
              line: clause.line, column: clause.column)
          }
          for key in keys.moduleKeys {
            requests.checks.append(
              .init(
                kind: .key(key.type, name: key.name), subject: "'\(name).\(caseName)' holds \(written)",
                file: file.path, line: clause.line, column: clause.column))
          }
        }
        // A warning, not an error: the key is still registered, and a target that never reads
        // or writes it through the keyed store builds; code that does finds no such key.
        for (caseName, clause) in unread {
          let message: String
          if conditions[caseName]?.contains("…") == true {
            message =
              "the build plugin cannot declare the typed key of '\(name).\(caseName)' under its '#if' condition, which is too long to repeat, so the keyed store cannot read or write it; declare the case under a shorter condition"
          } else if defaults.clauses.filter({ $0.cases.contains(caseName) }).count > 1
            || clause.condition != nil
          {
            message =
              "the build plugin cannot read one type for '\(name).\(caseName)', whose defaults in the '#if' branches (and the 'default:' clause elsewhere) differ or cannot be read, so the key has no type and the keyed store cannot read or write it; give the defaults one type in every branch, written as a literal or with 'as' ('… as T')"
          } else if let text = clause.expression?.text {
            message =
              "the build plugin cannot read the type of '\(name).\(caseName)' from its default '\(text)', so the key has no type and the keyed store cannot read or write it; write the type with 'as' ('\(text) as T') or as a conversion ('T(\(text))')"
          } else {
            message =
              "the build plugin reads the type of '\(name).\(caseName)' from its clause, which is not one expression, so the key has no type and the keyed store cannot read or write it; write the default as one expression ('case .\(caseName): condition ? a : b', or an immediately called closure with its type: '{ () -> T in … }()')"
          }
          diagnostics.append(
            Diagnostic(.warning, message, file: file.path, line: clause.line, column: clause.column))
        }
        let access: String
        switch info.access {
        case .public?, .open?: access = importsPublicly ? "public " : ""
        case .package?: access = "package "
        default: access = ""
        }
        var condition: String?
        if !info.declarationConditions.contains(nil) {
          let declared = info.declarationConditions.compactMap { $0 }.sorted()
          condition =
            declared.count == 1
            ? declared[0] : declared.map(ConformanceSynthesis.grouped).joined(separator: " || ")
        }
        groups.append(
          TypedKeyGroup(
            keysType: name, access: access, condition: condition,
            keys: typed.map { (caseName: $0.key, valueType: $0.value.type) }.sorted {
              ($0.valueType, $0.caseName) < ($1.valueType, $1.caseName)
            },
            fileIndex: fileIndex,
            namesImportedTypes: !witnesses.isEmpty || typed.values.contains { namesImportedType($0.type) },
            availability: Availability(index.availability(of: type)),
            witnesses: witnesses.sorted { $0.caseName < $1.caseName },
            conditions: conditions.filter { typed[$0.key] != nil }))
      }
    }
    return (groups.sorted { $0.keysType < $1.keysType }, diagnostics, requests)
  }

  /// Whether generated code can evaluate a key's default where it declares the default's type:
  /// in another file, in a static context nested in the keys enum. Not when it names `self`,
  /// `Self` or an instance member of the enum (the `defaultValue` switch runs on a case), or a
  /// name that is private to its file.
  func evaluatesOutsideItsFile(_ expression: ExpressionSyntax, keys: ModuleIndex.TypeID) -> Bool {
    let info = index[keys]
    for position in expression.tokens.indices {
      guard let word = expression.word(position) else { continue }
      if word == "self" || word == "Self" || word == "super" { return false }
      // Only the first name of a path is looked up where the expression stands; an argument's
      // label (`KitTint(rawValue: "red")`) is not looked up at all.
      if expression.punct(position - 1, UInt8(ascii: ".")) { continue }
      if expression.punct(position + 1, UInt8(ascii: ":")),
        expression.punct(position - 1, UInt8(ascii: "("))
          || expression.punct(position - 1, UInt8(ascii: ",")),
        Self.innermostOpener(before: position, in: expression) == UInt8(ascii: "(")
      {
        continue
      }
      if Self.synthesizedInstanceMembers.contains(word) { return false }
      if let members = info.members[word],
        members.contains(where: { !$0.syntax.isStatic || $0.syntax.access?.isFilePrivate == true })
      {
        return false
      }
      if let globals = index.globals[word],
        globals.contains(where: { $0.syntax.access?.isFilePrivate == true })
      {
        return false
      }
      if let named = index.child(word, of: keys) ?? index.child(word, of: nil),
        index[named].privateFile != nil
      {
        return false
      }
    }
    return true
  }

  /// The bracket (`(`, `[` or `{`) that the token at `position` sits in, or `nil` at the top
  /// level: a word before `:` is an argument's label only inside `(…)` (in `[a: 1]` it is a key).
  static func innermostOpener(before position: Int, in expression: ExpressionSyntax) -> UInt8? {
    var depth = 0
    var index = position - 1
    while index >= 0 {
      if expression.tokens[index].kind == .punctuation {
        let byte = expression.firstByte(index)
        if byte == UInt8(ascii: ")") || byte == UInt8(ascii: "]") || byte == UInt8(ascii: "}") {
          depth += 1
        } else if byte == UInt8(ascii: "(") || byte == UInt8(ascii: "[") || byte == UInt8(ascii: "{") {
          if depth == 0 { return byte }
          depth -= 1
        }
      }
      index -= 1
    }
    return nil
  }

  /// The type of a key's default, as written or as a literal, initializer or case shows it;
  /// `nil` leaves it to the compiler (`Int("8080")` is an `Int?`, `Double.significandBitCount` an
  /// `Int`).
  func valueType(
    of expression: ExpressionSyntax, context: [ModuleIndex.TypeID], declaringType: ModuleIndex.TypeID
  )
    -> String?
  {
    planner.inferType(expression, context: context, declaringType: declaringType)
  }

  /// Whether a value type as generated code writes it names a type that is neither the standard
  /// library's nor the module's own (`Date`, `URL`, `Kit.Theme`), so that the file declaring it
  /// must repeat the imports of the file declaring the keys.
  func namesImportedType(_ type: String) -> Bool {
    // The first name of each path (`Kit` in `Kit.Theme`); the names after a dot are members.
    WrittenType(parsing: type).leadingNames.contains { name in
      !StandardTypes.name(name, has: .standardLibrary) && index.child(name, of: nil) == nil
    }
  }

  /// Whether a clause's condition is an `#else` branch's (every part negated: `!(A) && !(B)`),
  /// which together with the group's other branches covers every platform.
  static func isElseBranch(_ condition: String?) -> Bool {
    guard let condition else { return false }
    return condition.components(separatedBy: " && ").allSatisfy { $0.hasPrefix("!(") }
  }

  /// The longest `#if` condition a key is declared under (a longer one leaves the key untyped).
  static let conditionLimit = 4096

  /// Instance members every `PreferenceKeys` enum has without declaring them (its raw value,
  /// `Hashable`'s, the protocol's own).
  static let synthesizedInstanceMembers: Set<String> = ["rawValue", "hashValue", "defaultValue", "hash"]

}

/// One `PreferenceKeys` enum's typed keys, as generated code declares them.
package struct TypedKeyGroup: Sendable, Equatable {
  /// The enum's qualified name.
  package let keysType: String
  /// The access modifier of the generated members, with a trailing space, or empty.
  package let access: String
  /// Where the enum is declared, if under `#if`.
  package let condition: String?
  /// Each case and its value type (as generated code writes it), sorted by type, then case.
  package let keys: [(caseName: String, valueType: String)]
  /// The scanned file that declares the enum.
  package var fileIndex = 0
  /// Whether a value type names a type from another module (`Date`, `URL`): the generated file
  /// then repeats the imports of the enum's file.
  package var namesImportedTypes = false
  /// The `@available` attributes of the enum and the types around it, which each generated
  /// extension repeats: an extension that names a type available from a later OS version, or a
  /// deprecated one, must be as available (or as deprecated) as the type.
  package var availability = Availability([])
  /// The keys whose default's type the compiler infers, by case name.
  package var witnesses: [Witness] = []
  /// The `#if` condition of each key whose case is declared under one, by case name.
  package var conditions: [String: String] = [:]

  /// A key whose default's type the scanner cannot read: generated code declares the default
  /// in a type nested in the enum (`AppKeys._PreferenceKeyType_name`), whose
  /// `_PreferenceKeyValue` the compiler infers, at the user's line (`#sourceLocation`), so that an error there points at
  /// the `defaultValue` clause.
  package struct Witness: Sendable, Equatable {
    package let caseName: String
    /// The default expression's text.
    package let expression: String
    /// The file and line of the `case` clause.
    package let file: String
    package let line: Int
    /// The `#if` condition the case is declared under, if any.
    package var condition: String? = nil

    /// The nested type's name.
    package var typeName: String { "_PreferenceKeyType_" + caseName }
  }

  package static func == (a: Self, b: Self) -> Bool {
    a.keysType == b.keysType && a.access == b.access && a.condition == b.condition
      && a.keys.map(\.caseName) == b.keys.map(\.caseName)
      && a.keys.map(\.valueType) == b.keys.map(\.valueType) && a.fileIndex == b.fileIndex
      && a.namesImportedTypes == b.namesImportedTypes && a.availability == b.availability
      && a.witnesses == b.witnesses && a.conditions == b.conditions
  }
}
