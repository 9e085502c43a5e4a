/// Decides, for each declaration, everything the output needs: its key, its value type, where
/// its store and default are evaluated, and what in it is wrong.
///
/// The generated code evaluates defaults in an extension of the declaring type, in another file
/// and possibly off the main actor. What it may evaluate there is decided by an allow-list of
/// what the module index can prove resolves exactly as it does at the declaration: a default is
///
/// - encoded by the scanner, when it is a literal of a standard type;
/// - evaluated wherever registration runs, when every name in it is a literal, an enum case, a
///   member declared `nonisolated`, or a standard value type (`Date`, `URL`, `UUID`, …);
/// - evaluated on the main actor, when it reads other members of the module's types (which
///   Xcode's default isolation makes main-actor isolated), or names from other modules;
/// - registered at the preference's first read, when it names anything the generated code cannot
///   reach: a private name, a generic parameter, a type in a function, a member isolated to
///   another global actor.
///
/// Names that only resolve from where the declaration sits (an enclosing type's member) are
/// written qualified.
package struct Planner: Sendable {
  package let index: ModuleIndex
  package let configuration: ScannerConfiguration

  package init(index: ModuleIndex, configuration: ScannerConfiguration) {
    self.index = index
    self.configuration = configuration
  }

  // MARK: Plans

  func plan(_ files: [FileSyntax]) -> (
    plans: [PreferencePlan], diagnostics: [Diagnostic], synthesis: ConformanceSynthesis
  ) {
    var plans: [PreferencePlan] = []
    var diagnostics: [Diagnostic] = []
    var synthesis = ConformanceSynthesis(
      index: index, files: files, defaultIsolation: configuration.defaultIsolation,
      infersIsolatedConformances: configuration.infersIsolatedConformances ?? false)
    diagnostics += preferenceNameClashes(first: files.first(where: { !$0.preferences.isEmpty }))
    var references: [(fileIndex: Int, syntax: PreferenceSyntax)] = []
    for (fileIndex, file) in files.enumerated() {
      for (declarationIndex, syntax) in file.preferences.enumerated() {
        if syntax.arguments.reference != nil {
          references.append((fileIndex, syntax))
          continue
        }
        let (plan, problems, unstorable, keyTypes) = self.plan(
          syntax, number: declarationIndex, file: file, fileIndex: fileIndex)
        if let plan { plans.append(plan) }
        diagnostics += problems
        // A default whose type the scanner cannot read is typed by the compiler; the module
        // types it names are made storable where they can be, so that whichever it stores (or
        // keys a dictionary by) conforms.
        if let plan, plan.valueType == nil, let expression = syntax.defaultValue {
          let context = lexicalContext(scope: syntax.scope, in: file, fileIndex: fileIndex)
          synthesis.conformIfPossible(mentionedTypes(in: expression, context: context))
        }
        // A type Swift 6 will not let hold a property wrapper. A warning: in the Swift 5 language
        // mode, which the scanner cannot see, the compiler only warns too.
        let declaringType = index.scopeTypes[fileIndex][syntax.scope]
        if plan != nil, !syntax.isStatic, let sendable = synthesis.nonisolatedSendable(declaringType) {
          let kind = index[declaringType].kind == .class ? "class" : "struct"
          let name = index.qualifiedName(declaringType)
          let fix =
            kind == "class"
            ? "remove 'Sendable' from '\(name)', and create an instance where you read them (every instance reads the same stored values)"
            : "remove 'nonisolated' from '\(name)' (its preferences then take the module's default isolation), or, for preferences read off the main actor, declare them in a 'nonisolated final class' that is not Sendable"
          diagnostics.append(
            Diagnostic(
              .warning,
              "@Preference '\(syntax.property)' is declared in '\(name)', a nonisolated \(kind) that is \(sendable), and Swift 6 rejects a property wrapper there ('nonisolated' cannot be applied to mutable stored properties; the Swift 5 language mode warns); \(fix)",
              file: file.path, line: syntax.line, column: syntax.column))
        }
        // A module type stored without a conformance: the registry writes it where it can, else
        // one error that names the fix.
        if let unstorable, case .failure(let blocked) = synthesis.conformance(for: unstorable.type) {
          diagnostics.append(
            Diagnostic(
              .error,
              blocked.valueError(
                "@Preference '\(syntax.property)' stores \(unstorable.valueType)", type: unstorable.name),
              file: file.path, line: syntax.line, column: syntax.column))
        }
        // A module type a stored dictionary is keyed by: the registry makes it a key where it can.
        for key in keyTypes {
          guard case .failure(let blocked) = synthesis.keyConformance(for: key.type) else { continue }
          diagnostics.append(
            Diagnostic(
              .error,
              blocked.keyError(
                "@Preference '\(syntax.property)' stores \(plan?.valueType ?? "")", key: key.name),
              file: file.path, line: syntax.line, column: syntax.column))
        }
      }
    }
    diagnostics += resolve(references, in: files, plans: &plans)
    return (plans, diagnostics, synthesis)
  }

  /// The module types `expression` names (`Theme` in `[Theme.dark: 1]`, `Layout.Pane` in
  /// `Layout.Pane.all`), each once, in order.
  func mentionedTypes(in expression: ExpressionSyntax, context: [ModuleIndex.TypeID]) -> [ModuleIndex.TypeID]
  {
    var found: [ModuleIndex.TypeID] = []
    for position in expression.tokens.indices {
      // The first name of a path; the names after it are looked up in the type it names.
      guard let word = expression.word(position), !expression.punct(position - 1, UInt8(ascii: ".")),
        var type = index.typeID(of: [word], in: context)
      else { continue }
      var next = position + 2
      while expression.punct(next - 1, UInt8(ascii: ".")), let member = expression.word(next),
        let nested = index.child(member, of: type)
      {
        type = nested
        next += 2
      }
      if index[type].kind != nil, !found.contains(type) { found.append(type) }
    }
    return found
  }

  /// Adds each reference (`@Preference(\Settings.showFooter) var showFooter`) to the plan of the
  /// declaration it names, whose record then lists its location: the runtime finds that
  /// declaration's entry there, so the reference reads and writes the one stored value with its
  /// key, store and default. Its type is checked by the compiler (the key path's value type is
  /// the wrapper's). The declaration must be in this module, where the scanner can see it.
  private func resolve(
    _ references: [(fileIndex: Int, syntax: PreferenceSyntax)], in files: [FileSyntax],
    plans: inout [PreferencePlan]
  ) -> [Diagnostic] {
    guard !references.isEmpty else { return [] }
    struct Target: Hashable {
      var type: [String]
      var property: String
      var isStatic: Bool
    }
    var byTarget: [Target: [Int]] = [:]
    for (position, plan) in plans.enumerated() {
      byTarget[
        Target(type: plan.typePath, property: plan.property, isStatic: plan.syntax.isStatic), default: []
      ]
      .append(position)
    }
    var sites: [Int: [PreferencePlan.Reference]] = [:]
    var diagnostics: [Diagnostic] = []
    for (fileIndex, syntax) in references {
      let file = files[fileIndex]
      func error(_ message: String) {
        diagnostics.append(
          Diagnostic(.error, message, file: file.path, line: syntax.line, column: syntax.column))
      }
      guard let names = syntax.arguments.reference, names.count >= 2 else { continue }
      // `\Settings.Type.count` names a static preference.
      let isStatic = names.count >= 3 && names[names.count - 2] == "Type"
      let typeNames = Array(names.dropLast(isStatic ? 2 : 1))
      let property = names[names.count - 1]
      let written = (typeNames + [property]).joined(separator: ".")
      let subject = "@Preference '\(syntax.property)' shares '\(written)'"
      let context = lexicalContext(scope: syntax.scope, in: file, fileIndex: fileIndex)
      guard let type = index.typeID(of: typeNames, in: context), index[type].kind != nil else {
        error(
          "\(subject), but this target declares no type '\(typeNames.joined(separator: "."))'; a declaration shares a preference of its own target (another target's preference is read through that target's API)"
        )
        continue
      }
      let path = index.path(of: type)
      let name = (path + [property]).joined(separator: ".")
      guard let targets = byTarget[Target(type: path, property: property, isStatic: isStatic)] else {
        let other = byTarget[Target(type: path, property: property, isStatic: !isStatic)] != nil
        let fix =
          !other
          ? "declare '@Preference var \(property) = …' in '\(path.joined(separator: "."))', or name one it declares"
          : isStatic
            ? "it is an instance preference: write @Preference(\\\(typeNames.joined(separator: ".")).\(property))"
            : "it is a static preference: write @Preference(\\\(typeNames.joined(separator: ".")).Type.\(property))"
        error("\(subject), which is not a @Preference\(other ? " of that kind" : ""); \(fix)")
        continue
      }
      if case .firstRead(let reason) = plans[targets[0]].registration {
        error(
          "\(subject), whose default the generated registry cannot evaluate (\(reason)), so only an instance of '\(path.joined(separator: "."))' can give it; give '\(name)' a default the registry can evaluate, or read it through an instance"
        )
        continue
      }
      let site = PreferencePlan.Reference(fileID: syntax.reportedFileID, line: syntax.reportedLine)
      for target in targets { sites[target, default: []].append(site) }
    }
    for (position, added) in sites {
      plans[position] = plans[position].with(references: plans[position].references + added)
    }
    return diagnostics
  }

  /// The module's own types or type aliases at file scope named `Preference` (iina's settings
  /// keys are `struct Preference`) or `PreferenceRegistry`, which collide with the wrapper and the
  /// registry the generated code declares under those names, or `DerivedPreference`, which would
  /// capture the generated `Preference` alias's reference to the library's type: one error at
  /// each declaration (a type alias's, whose line the index does not keep, at the first
  /// declaration of a preference, `first`, if there is one). The generated code names every other
  /// library type through `_Preferences`, which no module declares.
  private func preferenceNameClashes(first: FileSyntax?) -> [Diagnostic] {
    let declared = [
      (
        "Preference", "the @Preference property wrapper, which the build plugin declares for this module",
        "AppPreference"
      ),
      (
        "PreferenceRegistry",
        "the registry of every @Preference, which the build plugin declares for this module",
        "AppPreferenceRegistry"
      ),
      (
        "DerivedPreference", "the library type that the build plugin's @Preference stands for",
        "AppDerivedPreference"
      ),
    ]
    return declared.compactMap { name, role, example in
      func message(_ what: String, at place: String = "") -> String {
        "\(what) '\(name)'\(place) has the name of \(role), so the two collide; rename the \(what) (for example to '\(example)')"
      }
      if let type = index.child(name, of: nil), let kind = index[type].kind {
        let site = index[type].declarationSite
        return Diagnostic(
          .error, message(kind.rawValue), file: site?.file ?? first?.path ?? "", line: site?.line ?? 1,
          column: 1)
      }
      if let alias = index.globals[name]?.first(where: { $0.syntax.kind == .typeAlias }) {
        guard let first, let declaration = first.preferences.first else {
          return Diagnostic(.error, message("type alias"), file: alias.file, line: 1, column: 1)
        }
        return Diagnostic(
          .error, message("type alias", at: " (in \(alias.file))"), file: first.path,
          line: declaration.line, column: declaration.column)
      }
      return nil
    }
  }

  /// A module type a declaration stores that does not conform to `PreferenceValue`.
  struct Unstorable {
    var name: String
    var type: ModuleIndex.TypeID
    var valueType: String
  }

  /// The longest qualified name of a declaring type the registry writes (in keys, records and
  /// extensions); a declaration nested deeper is an error, so that the work and the output for
  /// each declaration stay bounded however deep the input nests.
  package static let typeNameLimit = 1_000

  private func plan(_ syntax: PreferenceSyntax, number: Int, file: FileSyntax, fileIndex: Int) -> (
    PreferencePlan?, [Diagnostic], Unstorable?, [(name: String, type: ModuleIndex.TypeID)]
  ) {
    var problems: [Diagnostic] = []
    func error(_ message: String) {
      problems.append(Diagnostic(.error, message, file: file.path, line: syntax.line, column: syntax.column))
    }
    let scope = file.scopes[syntax.scope]
    let declaringType = index.scopeTypes[fileIndex][syntax.scope]
    guard let typePath = index.path(of: declaringType, limit: Self.typeNameLimit) else {
      error(
        "@Preference '\(syntax.property)' is declared in a type nested \(index[declaringType].depth) levels deep, whose qualified name is longer than \(Self.typeNameLimit) bytes; the registry cannot name it. Declare the preference in a less deeply nested type"
      )
      return (nil, problems, nil, [])
    }
    let context = lexicalContext(scope: syntax.scope, in: file, fileIndex: fileIndex)
    // A nested type named `Preference` around the declaration: `@Preference` names that type
    // there, not the wrapper. (One at file scope is one error of its own: see `plan(_:)`.)
    if let shadow = index.typeID(of: ["Preference"], in: context), index[shadow].parent != nil,
      index[shadow].kind != nil
    {
      let name = index.qualifiedName(shadow)
      let site = index[shadow].declarationSite.map { " (\($0.file):\($0.line))" } ?? ""
      error(
        "@Preference '\(syntax.property)' names the type '\(name)'\(site), not the property wrapper: a nested type of that name hides the wrapper here; rename the type (for example to '\(name.dropLast("Preference".count))AppPreference')"
      )
    }
    let key =
      syntax.arguments.key
      ?? configuration.prefix + (typePath + [syntax.property]).joined(separator: configuration.separator)
    // `key: kSelectedTabKey`, `key: ThemeKey.tint.rawValue`, ported from `@AppStorage`: the key
    // is read from source, so it must be a literal; say which, where the module shows it.
    if let reference = syntax.arguments.keyReference {
      let name = reference.joined(separator: ".")
      if let value = keyConstant(reference, context: context) {
        error(
          "the key: argument of @Preference must be a string literal, which the build plugin reads from source; write key: \(StringLiteral.quote(value)), the value of '\(name)'"
        )
      } else {
        error(
          "the key: argument of @Preference must be a plain string literal, such as key: \"HighScore\"; the build plugin reads it from source, and cannot read the value of '\(name)'"
        )
      }
    }

    // Where generated code cannot go at all.
    var blocked: String?
    let typeName = typePath.joined(separator: ".")
    let declaringGeneric = index[declaringType].genericType
    if let generic = declaringGeneric {
      blocked = "'\(index.qualifiedName(generic))' is generic"
    } else if let reason = index[declaringType].unreachable {
      blocked = reason
    } else if scope.isLocal {
      blocked = "'\(typeName)' is declared inside a function"
    }
    // The declaring type's `@available` attributes, those of the scopes around the declaration
    // (an extension that declares a static preference), and the declaration's own.
    var scopeAvailability: [[String]] = []
    var enclosing: Int? = syntax.scope
    while let current = enclosing, scopeAvailability.count < 64 {
      scopeAvailability.append(file.scopes[current].availability)
      enclosing = file.scopes[current].parent
    }
    let availability = Availability(
      index.availability(of: declaringType) + scopeAvailability.reversed().flatMap { $0 }
        + syntax.availability)

    let analyzer = ExpressionAnalyzer(
      index: index, context: context, declaringType: declaringType, file: file.path)
    let declaredType = syntax.declaredType.map { analyzer.analyze(ExpressionSyntax(text: $0), isType: true) }
    // A literal's type, found once: it types the declaration and shapes the encoded default.
    let literalType = syntax.declaredType == nil ? syntax.defaultValue.flatMap(LiteralType.of) : nil
    let valueType =
      syntax.declaredType ?? literalType
      ?? inferType(syntax.defaultValue, context: context, declaringType: declaringType)

    // The default.
    let registration: PreferencePlan.Registration
    if let expression = syntax.defaultValue, !(expression.tokens.count == 1 && expression.text == "nil") {
      // A JSON-format default is encoded by generated code, as the runtime encodes its values.
      if syntax.arguments.format != "json",
        let literal = PlistLiteral.encode(expression, as: syntax.declaredType ?? literalType, inferred: true)
      {
        registration = .literal(literal)
      } else if let blocked {
        registration = .firstRead(reason: blocked)
      } else if availability.isUnavailable {
        registration = .firstRead(
          reason:
            "'\(typeName)' is unavailable on some platform, where only code as unavailable may name it, which the generated registry cannot be"
        )
      } else {
        let analysis = analyzer.analyze(expression, isType: false)
        if let reason = analysis.unreachable ?? declaredType?.unreachable {
          registration = .firstRead(reason: reason)
        } else {
          let evaluation = PreferencePlan.Evaluation(expression: analysis.code, type: declaredType?.code)
          let nonisolated = analysis.isNonisolated && (declaredType?.isNonisolated ?? true)
          let needsMainActor = analysis.needsMainActor || declaredType?.needsMainActor == true
          registration =
            nonisolated
            ? .registry(evaluation) : needsMainActor ? .mainActor(evaluation) : .defaultIsolation(evaluation)
        }
      }
    } else {
      registration = .none
    }

    // The store, and the store a value moved from: created by generated code where the
    // expression allows (a store the main actor must create is created there, and registers its
    // defaults at its first use).
    func storeCode(_ expression: ExpressionSyntax?, label: String) -> (
      code: String, isolation: StoreIsolation
    )? {
      guard let expression else { return nil }
      if let blocked {
        error(
          "the \(label): argument of @Preference '\(syntax.property)' cannot be evaluated by the generated registry: \(blocked); declare the preference in a type the registry can extend, or give it no \(label): argument"
        )
        return nil
      }
      let analysis = analyzer.analyze(expression, isType: false, storeContext: true)
      if let reason = analysis.unreachable {
        error(
          "the \(label): argument of @Preference '\(syntax.property)' cannot be evaluated by the generated registry, which creates stores in its own file: \(reason); use a store factory (.standard, .suite(\"…\"), .propertyList(at: …)) or a 'static let' that the registry can read"
        )
        return nil
      }
      let isolation: StoreIsolation =
        analysis.isNonisolated ? .nonisolated : analysis.needsMainActor ? .mainActor : .defaultIsolation
      if label == "movedFrom", isolation != .nonisolated {
        error(
          "the movedFrom: argument of @Preference '\(syntax.property)' reads '\(analysis.isolatedReference ?? expression.text)', which may be isolated to the main actor, but the registry moves values before the first read, on any thread; declare it 'nonisolated static let', or use a store factory such as .suite(\"…\")"
        )
        return nil
      }
      return (analysis.code, isolation)
    }
    let store = storeCode(syntax.arguments.store, label: "store")
    let movedFrom = storeCode(syntax.arguments.movedFrom, label: "movedFrom")?.code

    // A dictionary keyed by what has no text: property lists key dictionaries by string.
    let keys = valueType.map { dictionaryKeys($0, context: context) }
    if let valueType, let key = keys?.problem {
      error(
        "@Preference '\(syntax.property)' stores \(valueType), a dictionary keyed by \(key), but a stored dictionary is keyed by text (as property lists are): String, a number, Bool, Character, UUID, or your enum with a String or number raw value; key it by one of those (a String for a URL, its absoluteString), or store a Codable type that holds it (stored as JSON text)"
      )
    }

    // A tuple, a function, a protocol type, a metatype or `Any`: nothing can make it storable.
    let shape =
      if let valueType { shapeProblem(valueType, context: context) } else {
        syntax.defaultValue.flatMap(Self.literalShape)
      }
    if let shape {
      error(
        "@Preference '\(syntax.property)' \(valueType.map { "stores \($0)" } ?? "defaults to \(syntax.defaultValue?.text ?? "")"): \(shape.what) cannot conform to PreferenceValue, so no store can hold it; \(shape.fix)"
      )
    }

    // A type whose `Codable` conformance the compiler synthesizes: it would encode the wrapper.
    if !syntax.isStatic, let coding = synthesizedCodingProblem(declaringType) {
      error(
        "@Preference '\(syntax.property)' is declared in '\(typeName)', whose synthesized \(coding) conformance cannot include a preference (its value is kept in a store, not in the \(index[declaringType].kind == .class ? "instance" : "struct")); declare the preference in a type that is not \(coding), or give '\(typeName)' a CodingKeys enum that lists only its other properties"
      )
    }

    // A type that names a generic parameter of the declaring type (or one around it) varies by
    // specialization, and the key does not: `Holder<Int>` and `Holder<String>` would overwrite
    // each other's stored value, each reading the other's as a mismatch.
    // (Said only where nothing else is wrong with the declaration: one error at a time.)
    // Where the type is not known, the type the default is made by (`= KeyMap()`, `= T.zero`).
    if problems.isEmpty, let generic = declaringGeneric,
      let typeText = valueType
        ?? syntax.defaultValue?.word(0).flatMap({ $0.first?.isUppercase == true ? $0 : nil })
    {
      let parameters = context.reduce(into: Set<String>()) { $0.formUnion(index[$1].genericParameters) }
      if let (parameter, alias) = genericParameter(named: typeText, among: parameters, context: context) {
        error(
          "@Preference '\(syntax.property)' \(valueType.map { "stores \($0)" } ?? "defaults to \(syntax.defaultValue?.text ?? typeText)"), which depends on the generic parameter '\(parameter)' of '\(index.qualifiedName(generic))'\(alias.map { " (through its type alias '\($0)')" } ?? ""), but every '\(index.qualifiedName(generic))<…>' stores it under the one key '\(key)', so two specializations would overwrite each other's values; store a type that does not depend on '\(parameter)', or declare the preference in a type that is not generic"
        )
      }
    }

    // A module type it stores that does not conform (decided for the whole module by `plan`).
    let unstorable = valueType.flatMap { valueType in
      guard shape == nil else { return nil as Unstorable? }
      return storabilityProblem(valueType, context: context).map {
        Unstorable(name: $0.name, type: $0.type, valueType: valueType)
      }
    }

    let plan = PreferencePlan(
      fileIndex: fileIndex, number: number, file: file.path, fileID: file.fileID, syntax: syntax,
      typePath: typePath,
      key: key, valueType: valueType, registration: registration, store: store?.code,
      storeIsolation: store?.isolation ?? .nonisolated, movedFrom: movedFrom,
      renamedFrom: syntax.arguments.renamedFrom,
      condition: syntax.branch.map { BranchSyntax.condition(of: $0, in: file.branches) },
      lockCheck: canFormKeyPath(syntax, type: declaringType, blocked: blocked) ? typePath : nil,
      availability: availability)
    return (plan, problems, unstorable, keys?.moduleKeys ?? [])
  }

  /// Whether generated code (another file, on the main actor) can form a key path to the
  /// declaration, for compile-time checks of its type.
  private func canFormKeyPath(_ syntax: PreferenceSyntax, type: ModuleIndex.TypeID, blocked: String?) -> Bool
  {
    guard blocked == nil, syntax.access?.isFilePrivate != true else { return false }
    let actor = index[type].globalActor
    return actor == nil || actor == "MainActor"
  }

  /// The string a name path stands for where the module shows it in syntax: a `let` whose
  /// initial value is one string literal (`kSelectedTabKey`, `Keys.username`), or, followed by
  /// `.rawValue`, a case of an enum with `String` raw values (`ThemeKey.tint.rawValue`).
  func keyConstant(_ path: [String], context: [ModuleIndex.TypeID]) -> String? {
    var names = path
    let rawValue = names.last == "rawValue" && names.count > 1
    if rawValue { names.removeLast() }
    guard let last = names.last else { return nil }
    let found: (owner: ModuleIndex.TypeID?, member: ModuleIndex.Member)?
    if names.count == 1 {
      switch index.resolve(last, in: context).0 {
      case .member(let owner, let member): found = (owner, member)
      case .global(let member): found = (nil, member)
      default: found = nil
      }
    } else {
      let typeNames = Array(names.dropLast())
      let owner = typeNames == ["Self"] ? context.first : index.typeID(of: typeNames, in: context)
      if let owner, case .member(let declaring, let member)? = index.lookup(last, inType: owner) {
        found = (declaring, member)
      } else {
        found = nil
      }
    }
    guard let (owner, member) = found else { return nil }
    switch member.syntax.kind {
    case .property where !rawValue:
      return member.syntax.stringValue
    case .enumCase where rawValue && !member.syntax.hasPayload:
      guard let owner, index.inherits(owner, anyOf: ["String"]) else { return nil }
      return member.syntax.stringValue ?? member.syntax.name.replacing("`", with: "")
    default:
      return nil
    }
  }

  /// The types a declaration sits in, innermost first, as Swift looks names up from it: the
  /// enclosing type declarations, up to and including an extension (whose outer types are not
  /// in scope).
  func lexicalContext(scope: Int, in file: FileSyntax, fileIndex: Int) -> [ModuleIndex.TypeID] {
    var context: [ModuleIndex.TypeID] = []
    var current: Int? = scope
    while let index = current {
      let scope = file.scopes[index]
      context.append(self.index.scopeTypes[fileIndex][index])
      if scope.kind == .extension { break }
      current = scope.parent
    }
    return context
  }

  // MARK: Types

  /// The type of a default when the declaration does not write one: a literal's; `T` for an enum
  /// case `T.case` or `T.case(…)`, an initializer `T(…)`, `A.B(…)`, `T.init(…)` (or `Self(…)` in
  /// a static of `T`) of a module type or standard type, or a static member or file-scope
  /// constant whose type is written (`Self` is the type declaring it) or inferred the same way; `[T]`
  /// or `[String: T]` for a collection literal of such elements or `T.allCases`; the written type
  /// of `… as T`, `T?.none`; what `a` unwraps to in `a ?? b`. `nil` where syntax does not prove
  /// the type, and beyond `budget`'s steps.
  func inferType(
    _ expression: ExpressionSyntax?, context: [ModuleIndex.TypeID], declaringType: ModuleIndex.TypeID,
    budget: InferenceBudget = InferenceBudget()
  ) -> String? {
    guard let expression, !expression.isEmpty, budget.spend() else { return nil }
    if let literal = LiteralType.of(expression) { return literal }
    if let arithmetic = Self.arithmeticType(expression) { return arithmetic }
    let tokens = expression.tokens
    // `… as T`: the type written after the last `as` outside brackets.
    if let written = Self.writtenType(expression) { return written }
    // `T?.none`, `Optional<T>.none`
    let compact = expression.text.filter { !$0.isWhitespace }
    if compact.hasSuffix("?.none"), case let type = compact.dropLast(6), !type.isEmpty,
      !type.contains("("), type.first.map({ $0.isUppercase || $0 == "[" }) == true
    {
      return String(type) + "?"
    }
    if compact.hasPrefix("Optional<"), compact.hasSuffix(">.none") {
      return String(compact.dropFirst(9).dropLast(6)) + "?"
    }
    // `a ?? b`: what `a` holds (`Theme(rawValue: name) ?? .system`).
    if let coalescing = Self.topLevel(expression, where: { expression.isOperator($0, "??") }), coalescing > 0
    {
      let left = ExpressionSyntax(text: expression.text(0...(coalescing - 1)))
      guard
        var type = inferType(
          left, context: context, declaringType: declaringType, budget: budget),
        type.hasSuffix("?")
      else { return nil }
      type.removeLast()
      return type
    }
    // A constant at file scope: `let defaultTheme = Theme.dark`.
    if tokens.count == 1, let name = expression.word(0),
      let global = index.globals[name]?.first(where: { $0.syntax.kind == .property })
    {
      return propertyType(global, context: [], declaringType: declaringType, budget: budget)
    }
    // [T.a, .b] or ["key": T.a]: a collection of elements of one inferred type.
    if expression.punct(0, UInt8(ascii: "[")), expression.matchingClose(0) == tokens.count - 1 {
      return collectionType(expression, context: context, declaringType: declaringType, budget: budget)
    }
    // An empty collection of a written type: [T](), [K: V](), Array<T>(), Set<T>(),
    // Dictionary<K, V>().
    if tokens.count >= 4, expression.punct(tokens.count - 2, UInt8(ascii: "(")),
      expression.punct(tokens.count - 1, UInt8(ascii: ")"))
    {
      let typeEnd = tokens.count - 3
      if expression.punct(0, UInt8(ascii: "[")), expression.matchingClose(0) == typeEnd {
        return expression.text(0...typeEnd)
      }
      if let name = expression.word(0), ["Array", "Set", "Dictionary"].contains(name),
        expression.isOperator(1, "<"), expression.text(typeEnd).hasSuffix(">")
      {
        return expression.text(0...typeEnd)
      }
    }
    // T<…>(…), A.T<…>(…) or T<…>(…)!: a generic type of the module, created with its arguments
    // written.
    var genericNames: [String] = []
    var last = 0
    while let name = expression.word(last) {
      genericNames.append(name)
      guard expression.punct(last + 1, UInt8(ascii: ".")), expression.word(last + 2) != nil else { break }
      last += 2
    }
    if !genericNames.isEmpty, case let (open, joinedDot) = expression.afterGenericArguments(last),
      open > last + 1,
      !joinedDot, expression.punct(open, UInt8(ascii: "("))
    {
      let closes = expression.matchingClose(open)
      let isForced = closes + 1 == tokens.count - 1 && expression.isOperator(closes + 1, "!")
      guard closes == tokens.count - 1 || isForced, let type = index.typeID(of: genericNames, in: context),
        case let info = index[type], info.kind != nil, info.kind != .protocol, !info.genericParameters.isEmpty
      else { return nil }
      return initializerType(
        expression.text(0...(open - 1)), info, expression, open: open, isForced: isForced)
    }
    // T(…) or T(…)!
    if let name = expression.word(0), expression.punct(1, UInt8(ascii: "(")) {
      let closes = expression.matchingClose(1)
      let isForced = closes + 1 == tokens.count - 1 && expression.isOperator(closes + 1, "!")
      if closes == tokens.count - 1 || isForced {
        if ExpressionAnalyzer.standardTypes.contains(name) {
          // A generic type whose arguments the call infers, or a function: not the name.
          if let type = Self.callTypes[name] { return type }
          if isForced || !ExpressionAnalyzer.failableInitializers.contains(name) { return name }
          // A type with failable initializers, called through one that cannot fail:
          // `URL(fileURLWithPath:)`, `URL(filePath:)`, `UUID()`.
          let label = closes > 3 && expression.punct(3, UInt8(ascii: ":")) ? expression.word(2) : nil
          let total =
            (name == "UUID" && closes == 2)
            || (name == "URL" && ["fileURLWithPath", "filePath"].contains(label))
          return total ? name : nil
        }
        if let type = index.typeID(of: [name], in: context), case let info = index[type], info.kind != nil {
          return initializerType(name, info, expression, open: 1, isForced: isForced)
        }
        // `Self(…)` in a member of the type (`static let zero = Self()`).
        if name == "Self", case let info = index[declaringType], info.kind == .struct || info.kind == .enum {
          return initializerType(
            index.qualifiedName(declaringType), info, expression, open: 1, isForced: isForced)
        }
        // An alias of a module type (`typealias Options = Emitter.Options`): that type, named
        // by its qualified name, so that it names the same type anywhere.
        if let (target, owner) = index.aliasTarget(of: [name], in: context),
          case let names = ModuleIndex.dotted(target.removing(" ")),
          names.allSatisfy({ !$0.isEmpty && !$0.contains("<") && !$0.contains("[") }),
          let type = index.typeID(of: names, in: owner.map(enclosingTypes) ?? []),
          case let info = index[type],
          info.kind != nil, info.kind != .protocol
        {
          return initializerType(index.qualifiedName(type), info, expression, open: 1, isForced: isForced)
        }
      }
      return nil
    }
    // A.b.c: an enum case or a static member with a known type; A.b(…): a static function whose
    // every overload returns the same written type.
    var names: [String] = []
    var position = 0
    var isCall = false
    var callOpen = 0
    // `A.B(…)!`: forced, which only an initializer call is read with.
    let isForced = expression.isOperator(tokens.count - 1, "!")
    while let word = expression.word(position) {
      names.append(word)
      if position + 1 == tokens.count { break }
      if expression.punct(position + 1, UInt8(ascii: "(")),
        expression.matchingClose(position + 1) == tokens.count - (isForced ? 2 : 1)
      {
        isCall = true
        callOpen = position + 1
        position = tokens.count - 1
        break
      }
      guard expression.punct(position + 1, UInt8(ascii: ".")) else { return nil }
      position += 2
    }
    guard position + 1 == tokens.count, names.count >= 2 else { return nil }
    // `A.init(…)`: an initializer written out, as `A(…)`.
    if isCall, names.last == "init", let type = index.typeID(of: names.dropLast(), in: context),
      case let info = index[type], info.kind != nil, info.kind != .protocol
    {
      return initializerType(index.qualifiedName(type), info, expression, open: callOpen, isForced: isForced)
    }
    // A.B(…): an initializer of a nested type of the module, as T(…) above.
    if isCall, let type = index.typeID(of: names, in: context), case let info = index[type],
      info.kind != nil, info.kind != .protocol
    {
      return initializerType(
        names.joined(separator: "."), info, expression, open: callOpen, isForced: isForced)
    }
    if isForced { return nil }
    let typeNames = Array(names.dropLast())
    let owner = typeNames == ["Self"] ? declaringType : index.typeID(of: typeNames, in: context)
    guard let owner else { return nil }
    // T.allCases, which the compiler synthesizes for a CaseIterable enum.
    if !isCall, names.last == "allCases", index[owner].kind == .enum, index[owner].members["allCases"] == nil,
      index[owner].conformances.contains(where: { ModuleIndex.lastComponent($0) == "CaseIterable" })
    {
      return "[" + (typeNames == ["Self"] ? index[declaringType].name : typeNames.joined(separator: "."))
        + "]"
    }
    guard let overloads = index[owner].members[names.last!], let member = overloads.first else {
      return nil
    }
    if isCall {
      // `T.custom(0.5)`: a case with associated values (cases may share a base name).
      if overloads.allSatisfy({ $0.syntax.kind == .enumCase && $0.syntax.hasPayload }) {
        return typeNames == ["Self"] ? index[declaringType].name : typeNames.joined(separator: ".")
      }
      let type = member.syntax.type
      return overloads.allSatisfy {
        $0.syntax.kind == .function && $0.syntax.isStatic && $0.syntax.type == type
      }
        ? type : nil
    }
    switch member.syntax.kind {
    case .enumCase where !member.syntax.hasPayload:
      return typeNames == ["Self"] ? index[declaringType].name : typeNames.joined(separator: ".")
    case .property where member.syntax.isStatic:
      return propertyType(
        member, context: enclosingTypes(owner), declaringType: owner, budget: budget)
    default:
      return nil
    }
  }

  /// The generic parameter (of `parameters`) that the type written `typeText` at `context`
  /// names, directly or through the module's member type aliases (`typealias KeyMap = [Key:
  /// [Int]]`, `typealias Element = Base.Element`), with the first alias on the way.
  private func genericParameter(
    named typeText: String, among parameters: Set<String>, context: [ModuleIndex.TypeID], depth: Int = 0
  ) -> (parameter: String, alias: String?)? {
    guard depth < 8 else { return nil }
    let type = ExpressionSyntax(text: typeText)
    for position in type.tokens.indices {
      guard let word = type.word(position), !type.punct(position - 1, UInt8(ascii: ".")) else { continue }
      if parameters.contains(word) { return (word, nil) }
      // A member alias only: one at file scope cannot name a type's parameter.
      if let alias = alias(named: word, context: context), alias.isMember,
        let (parameter, _) = genericParameter(
          named: alias.target, among: parameters, context: alias.context, depth: depth + 1)
      {
        return (parameter, word)
      }
    }
    return nil
  }

  /// The module type alias `name` denotes written bare at `context`: what it stands for, where
  /// the names in that resolve, and whether it is a type's member (else declared at file scope).
  private func alias(named name: String, context: [ModuleIndex.TypeID]) -> (
    target: String, context: [ModuleIndex.TypeID], isMember: Bool
  )? {
    guard let (target, owner) = index.aliasTarget(of: [name], in: context) else { return nil }
    return (target, owner.map(enclosingTypes) ?? [], owner != nil)
  }

  /// `type` and the types it is nested in, innermost first: where names in its members resolve.
  private func enclosingTypes(_ type: ModuleIndex.TypeID) -> [ModuleIndex.TypeID] {
    var context: [ModuleIndex.TypeID] = []
    var current: ModuleIndex.TypeID? = type
    while let step = current, context.count < 64 {
      context.append(step)
      current = index[step].parent
    }
    return context
  }

  /// The type of a static or file-scope property `member`: written, or inferred from its initial
  /// value (`static let standard = Layout()`, `static let fallback = Theme.dark`) where that
  /// names the module's types as defaults do. A module type is named by its qualified name, so
  /// that it names the same type where the default is (`Grid`, written inside `Outer`, is
  /// `Outer.Grid`); a type of another form that names the module's types is left unknown.
  private func propertyType(
    _ member: ModuleIndex.Member, context: [ModuleIndex.TypeID], declaringType: ModuleIndex.TypeID,
    budget: InferenceBudget
  ) -> String? {
    let type: String?
    if let written = member.syntax.type {
      // `static var standard: Self`: the type that declares it.
      type = Self.replacingSelf(in: written, with: index.qualifiedName(declaringType))
    } else if let value = member.syntax.initialValue {
      type = inferType(
        ExpressionSyntax(text: value), context: context, declaringType: declaringType, budget: budget)
    } else {
      type = nil
    }
    return type.flatMap { qualified($0.removing(" "), in: context) }
  }

  /// `type` with each `Self` in it (a whole name) replaced by `owner`: `Self?` → `Layout?`.
  static func replacingSelf(in type: String, with owner: String) -> String {
    guard type.contains("Self") else { return type }
    var result = ""
    var word = ""
    func flush() {
      result += word == "Self" ? owner : word
      word = ""
    }
    for character in type {
      if character.isLetter || character.isNumber || character == "_" {
        word.append(character)
      } else {
        flush()
        result.append(character)
      }
    }
    flush()
    return result
  }

  /// `type`, as written where names resolve from `context`, with each of the module's types in it
  /// named by its qualified name (`[Grid]` inside `Outer` is `[Outer.Grid]`), so that it names the
  /// same types anywhere; `nil` for a form that names the module's types in other ways.
  private func qualified(_ type: String, in context: [ModuleIndex.TypeID]) -> String? {
    var base = Substring(type)
    var optionals = ""
    while base.hasSuffix("?") || base.hasSuffix("!") { optionals = String(base.removeLast()) + optionals }
    if base.hasPrefix("["), base.hasSuffix("]") {
      let inner = base.dropFirst().dropLast()
      if let colon = Self.separator(":", in: inner) {
        guard let key = qualified(String(inner[..<colon]), in: context),
          let value = qualified(String(inner[inner.index(after: colon)...]), in: context)
        else { return nil }
        return "[\(key): \(value)]" + optionals
      }
      return qualified(String(inner), in: context).map { "[\($0)]" + optionals }
    }
    let names = base.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    let isPath = names.allSatisfy { name in
      !name.isEmpty && name.allSatisfy { $0 == "_" || $0.isLetter || $0.isNumber }
    }
    if isPath, let id = index.typeID(of: names, in: context), index[id].kind != nil {
      return index.qualifiedName(id) + optionals
    }
    // Another module's type (`Date`, `Set<String>`), written the same from anywhere.
    return Self.namesAny(of: index.typeNames, in: String(base)) ? nil : String(base) + optionals
  }

  /// The first `separator` in a type's text outside brackets: the `:` of `[K: V]`, the `,` of
  /// `Dictionary<K, V>`.
  static func separator(_ separator: Character, in text: Substring) -> Substring.Index? {
    var nesting = 0
    for position in text.indices {
      switch text[position] {
      case "[", "<", "(": nesting += 1
      case "]", ">", ")": nesting -= 1
      case separator where nesting == 0: return position
      default: break
      }
    }
    return nil
  }

  /// The type Swift gives arithmetic on number literals alone (`60 * 60`, `1.0 / 3`,
  /// `-(2 + 3)`): `Double` where a literal is a floating-point one, else `Int`; `nil` for
  /// anything else, and for `%` with a floating-point literal (which `Double` does not have).
  static func arithmeticType(_ expression: ExpressionSyntax) -> String? {
    var expectsOperand = true
    var depth = 0
    var isDouble = false
    var hasRemainder = false
    for index in expression.tokens.indices {
      if expression.punct(index, UInt8(ascii: "(")) {
        guard expectsOperand else { return nil }
        depth += 1
      } else if expression.punct(index, UInt8(ascii: ")")) {
        guard !expectsOperand, depth > 0 else { return nil }
        depth -= 1
      } else if expression.tokens[index].kind == .number {
        guard expectsOperand else { return nil }
        let text = expression.text(index)
        if LiteralType.integer(text) == nil {
          guard LiteralType.double(text) != nil else { return nil }
          isDouble = true
        }
        expectsOperand = false
      } else if expectsOperand, expression.isOperator(index, "-") {
        continue  // A sign.
      } else if !expectsOperand,
        let symbol = ["+", "-", "*", "/", "%"].first(where: {
          expression.isOperator(index, $0)
        })
      {
        hasRemainder = hasRemainder || symbol == "%"
        expectsOperand = true
      } else {
        return nil
      }
    }
    guard !expectsOperand, depth == 0 else { return nil }
    return isDouble ? (hasRemainder ? nil : "Double") : "Int"
  }

  /// The type written after the last `as` (not `as?` or `as!`) outside brackets, if any.
  static func writtenType(_ expression: ExpressionSyntax) -> String? {
    guard
      let cast = topLevel(
        expression,
        where: {
          expression.word($0) == "as" && $0 + 1 < expression.tokens.count
            && !expression.isOperator($0 + 1, "?") && !expression.isOperator($0 + 1, "!")
        }, last: true)
    else { return nil }
    return expression.text((cast + 1)...(expression.tokens.count - 1))
  }

  /// The first (or last) token outside brackets that `matches`.
  static func topLevel(_ expression: ExpressionSyntax, where matches: (Int) -> Bool, last: Bool = false)
    -> Int?
  {
    var depth = 0
    var found: Int?
    for position in expression.tokens.indices {
      if expression.opens(position) {
        depth += 1
      } else if expression.closes(position) {
        depth -= 1
      } else if depth == 0, matches(position) {
        found = position
        if !last { break }
      }
    }
    return found
  }

  /// What a call of these standard names returns: a generic type's arguments are inferred from
  /// the call (`Set([1, 2])`), and the functions return something else (`max(1, 2)`).
  private static let callTypes: [String: String?] = [
    "Array": nil, "Dictionary": nil, "Set": nil, "Optional": nil, "Range": nil, "ClosedRange": nil,
    "min": nil, "max": nil, "abs": nil, "NSHomeDirectory": "String", "NSTemporaryDirectory": "String",
  ]

  /// The type of an array or dictionary literal (`[Theme.dark, .light]`, `["main": Layout()]`)
  /// whose elements' types are inferred and the same: `[T]`, or `[String: T]` for string keys.
  /// An element `.member` takes the others' type; an element whose type is unknown makes the
  /// whole unknown.
  private func collectionType(
    _ expression: ExpressionSyntax, context: [ModuleIndex.TypeID], declaringType: ModuleIndex.TypeID,
    budget: InferenceBudget
  ) -> String? {
    let close = expression.tokens.count - 1
    var elements: [ClosedRange<Int>] = []
    var start = 1
    var position = 1
    while position < close {
      if expression.opens(position) {
        position = expression.matchingClose(position) + 1
        continue
      }
      if expression.punct(position, UInt8(ascii: ",")) {
        if position > start { elements.append(start...(position - 1)) }
        start = position + 1
      }
      position += 1
    }
    if close > start { elements.append(start...(close - 1)) }
    guard !elements.isEmpty, elements.count <= 64 else { return nil }
    var valueType: String?
    var isDictionary: Bool?
    for element in elements {
      var value = element
      let colon = element.first { expression.punct($0, UInt8(ascii: ":")) }
      if isDictionary == nil { isDictionary = colon != nil }
      guard isDictionary == (colon != nil) else { return nil }
      if let colon {
        guard colon > element.lowerBound, colon < element.upperBound,
          LiteralType.of(ExpressionSyntax(text: expression.text(element.lowerBound...(colon - 1))))
            == "String"
        else { return nil }
        value = (colon + 1)...element.upperBound
      }
      if expression.punct(value.lowerBound, UInt8(ascii: ".")) { continue }
      // Compared as the module names them: `Inner()` and `Inner.standard` are one type.
      guard
        let inferred = inferType(
          ExpressionSyntax(text: expression.text(value)), context: context, declaringType: declaringType,
          budget: budget),
        let type = qualified(inferred.removing(" "), in: context),
        valueType == nil || valueType == type
      else { return nil }
      valueType = type
    }
    guard let valueType else { return nil }
    return isDictionary == true ? "[String: \(valueType)]" : "[\(valueType)]"
  }

  /// The type of a call of an initializer of the module's type `name`, whose `(` is at `open`:
  /// the type; an optional for a raw-value enum's `init(rawValue:)`, which the compiler
  /// synthesizes failable (`Tint(rawValue: "red")` is a `Tint?`); unknown where the type declares
  /// a failable initializer, since which one the call picks is the compiler's to say.
  private func initializerType(
    _ name: String, _ info: ModuleIndex.TypeInfo, _ expression: ExpressionSyntax, open: Int, isForced: Bool
  ) -> String? {
    if isForced { return name }
    if info.kind == .enum, expression.word(open + 1) == "rawValue",
      expression.punct(open + 2, UInt8(ascii: ":"))
    {
      return name + "?"
    }
    return info.members["init"]?.contains(where: { $0.syntax.isFailable }) == true ? nil : name
  }

  /// Standard types a dictionary may be keyed by that the library does not conform to
  /// `PreferenceDictionaryKey`: a stored dictionary (keyed by text) cannot be keyed by them.
  private static let untextualKeys: Set<String> = [
    "CGFloat", "Date", "URL", "Data", "Decimal", "AnyHashable", "Substring", "Float16",
  ]

  /// The keys of the dictionaries in `type` (`[K: V]` or `Dictionary<K, V>`, at any depth):
  /// the first that surely cannot be stored as text (a standard type the library does not make
  /// a key, such as `Date`, or a generic parameter), and the module's types among them that do
  /// not declare `PreferenceDictionaryKey` (whose conformance the registry writes where it can).
  /// `String`, the numbers, `Bool`, `Character` and `UUID` are keys. A name from another module
  /// is left to the compiler, and so is a type longer than any real one (256 tokens: bounded
  /// work).
  func dictionaryKeys(_ type: String, context: [ModuleIndex.TypeID]) -> (
    problem: String?, moduleKeys: [(name: String, type: ModuleIndex.TypeID)]
  ) {
    var moduleKeys: [(name: String, type: ModuleIndex.TypeID)] = []
    guard type.containsText(":") || type.containsText("Dictionary") else { return (nil, moduleKeys) }
    let syntax = ExpressionSyntax(text: type)
    guard syntax.tokens.count <= 256 else { return (nil, moduleKeys) }
    for index in syntax.tokens.indices {
      let keyRange: ClosedRange<Int>
      if syntax.punct(index, UInt8(ascii: "[")) {
        // The `:` at this bracket's depth, if any, ends the key.
        let close = syntax.matchingClose(index)
        var position = index + 1
        var colon: Int?
        while position < close {
          if syntax.opens(position) {
            position = syntax.matchingClose(position) + 1
            continue
          }
          if syntax.punct(position, UInt8(ascii: ":")) {
            colon = position
            break
          }
          position += 1
        }
        guard let colon, colon > index + 1 else { continue }
        keyRange = (index + 1)...(colon - 1)
      } else if syntax.word(index) == "Dictionary", syntax.isOperator(index + 1, "<"),
        let comma = syntax.tokens.indices.dropFirst(index + 2).first(where: {
          syntax.punct($0, UInt8(ascii: ","))
        }), comma > index + 2
      {
        keyRange = (index + 2)...(comma - 1)
      } else {
        continue
      }
      let key = syntax.text(keyRange)
      var names = key.split(separator: ".").map { $0.trimmingBlanks() }
      // A type alias of the module (`typealias ID = Int`): the type it stands for.
      var keyContext = context
      for _ in 0..<8 {
        guard let (target, owner) = self.index.aliasTarget(of: names, in: keyContext) else { break }
        names = target.split(separator: ".").map { $0.trimmingBlanks() }
        keyContext = owner.map(enclosingTypes) ?? []
      }
      if names == ["Swift", "String"] || names == ["String"] { continue }
      if names.count == 1, Self.untextualKeys.contains(names[0]) { return (key, moduleKeys) }
      // A generic parameter (`[T: Int]` in `struct S<T: Hashable>`): the registry cannot conform it.
      if keyRange.count == 1, case .genericParameter = self.index.resolve(key, in: context).0 {
        return (key, moduleKeys)
      }
      if names.allSatisfy({
        !$0.isEmpty && !$0.contains(where: { !($0.isLetter || $0.isNumber || $0 == "_") })
      }),
        let id = self.index.typeID(of: names, in: keyContext), let kind = self.index[id].kind,
        kind != .protocol,
        kind != .extension, !self.index.inherits(id, anyOf: ["PreferenceDictionaryKey"]),
        !moduleKeys.contains(where: { $0.type == id })
      {
        moduleKeys.append((names.joined(separator: "."), id))
      }
    }
    return (nil, moduleKeys)
  }

  /// The protocol (`Codable`, `Encodable` or `Decodable`) whose conformance the compiler would
  /// synthesize for `type`, a struct or class, from every stored property, a preference's
  /// wrapper among them (which is not `Codable`); `nil` when none would be: the type has a
  /// `CodingKeys` type, or writes `encode(to:)` (for `Encodable`), or any initializer (for
  /// `Decodable`: it may be `init(from:)`, which syntax does not tell apart). Only conformances
  /// the type lists itself count, directly or through a protocol of the module: a subclass of a
  /// `Codable` class inherits its superclass's coding, which leaves its own properties out.
  func synthesizedCodingProblem(_ type: ModuleIndex.TypeID) -> String? {
    // Most types list none of the three, nor a protocol that may refine one.
    guard index.codingCandidates.contains(type) else { return nil }
    let info = index[type]
    guard info.kind == .struct || info.kind == .class, !info.nestedTypes.contains("CodingKeys") else {
      return nil
    }
    func lists(_ names: Set<String>) -> Bool {
      info.conformances.contains { names.contains(ModuleIndex.lastComponent($0)) }
        || info.inheritedTypes.contains { index[$0].kind == .protocol && index.inherits($0, anyOf: names) }
    }
    guard lists(ModuleIndex.codingProtocols) else { return nil }
    let encodes = lists(Self.encodingProtocols) && info.members["encode"] == nil
    let decodes = lists(Self.decodingProtocols) && info.members["init"] == nil
    switch (encodes, decodes) {
    case (true, true): return lists(["Codable"]) ? "Codable" : "Encodable"
    case (true, false): return "Encodable"
    case (false, true): return "Decodable"
    case (false, false): return nil
    }
  }

  private static let encodingProtocols: Set<String> = ["Codable", "Encodable"]
  private static let decodingProtocols: Set<String> = ["Codable", "Decodable"]

  /// What no store can hold, and what to store instead.
  struct ShapeProblem {
    let what: String
    let fix: String

    static let tuple = ShapeProblem(
      what: "a tuple", fix: "store a Codable struct that holds its values instead (stored as JSON text)")
    static let function = ShapeProblem(
      what: "a function type",
      fix: "store the data it is made from instead (a Codable struct is stored as JSON text)")
    static func untyped(_ name: String) -> ShapeProblem {
      ShapeProblem(
        what: "'\(name)'",
        fix:
          "store a Codable struct instead (stored as JSON text), or PropertyListValue for a value whose shape you handle yourself ([String: PropertyListValue] for a dictionary of any property-list values)"
      )
    }
    static func inlineArray(_ written: String) -> ShapeProblem {
      ShapeProblem(
        what: "a fixed-size inline array ('\(written)')",
        fix: "store an Array instead, and check its count where you read it")
    }
    static func metatype(_ name: String) -> ShapeProblem {
      ShapeProblem(
        what: "a metatype ('\(name)')",
        fix:
          "store which type it is instead: an enum with a case for each (stored as its raw value), mapped to the type where you read it"
      )
    }
    static func existential(_ name: String) -> ShapeProblem {
      ShapeProblem(
        what: "a protocol type ('\(name)')",
        fix:
          "store a concrete type instead: an enum with a case for each kind (stored as its raw value), or a Codable struct (stored as JSON text)"
      )
    }
  }

  /// What in `type` no store can hold, whatever the module declares: a tuple, a function type,
  /// a protocol type, a metatype, `Any`, `AnyObject` or `AnyHashable` (none can conform to a
  /// protocol in a way a store could read back, so the compiler's error would name no fix),
  /// written out or through the module's type aliases (`[Before]` where `typealias Before = ()
  /// -> Void`, found porting Spectre). `nil` for anything else, and for a
  /// type longer than any real one (256 tokens) or aliases nested deeper than 8: bounded work.
  func shapeProblem(_ type: String, context: [ModuleIndex.TypeID], depth: Int = 0) -> ShapeProblem? {
    if let problem = writtenShapeProblem(type, context: context) { return problem }
    guard depth < 8, Self.namesAny(of: index.aliasNames, in: type) else { return nil }
    let syntax = ExpressionSyntax(text: type)
    guard syntax.tokens.count <= 256 else { return nil }
    for position in syntax.tokens.indices {
      guard let word = syntax.word(position), !syntax.punct(position - 1, UInt8(ascii: ".")),
        let alias = alias(named: word, context: context),
        let problem = shapeProblem(alias.target, context: alias.context, depth: depth + 1)
      else { continue }
      return problem
    }
    return nil
  }

  /// ``shapeProblem(_:context:depth:)`` of the type as written.
  private func writtenShapeProblem(_ type: String, context: [ModuleIndex.TypeID]) -> ShapeProblem? {
    // Most types have no parentheses and name no protocol nor `Any`: told apart without
    // tokenizing (every declaration's type comes here).
    if !type.containsByte(from: Self.notIdentifierBytes) {
      // One name (`String`, `Theme`, `Mixin`).
      if Self.untypedNames.contains(type) { return .untyped(type) }
      if index.protocolNames.contains(type),
        let id = index.typeID(of: [type], in: context), index[id].kind == .protocol
      {
        return .existential(type)
      }
      if isStandardExistential([type], context: context) { return .existential(type) }
      return nil
    }
    if type.containsText(" of ") || type.containsText("InlineArray"), let written = Self.inlineArray(in: type)
    {
      return .inlineArray(written)
    }
    if !type.containsByte(from: Self.parenthesis), !type.containsText("ny"), !type.containsText(".Type"),
      !type.containsText(".Protocol"),
      !Self.namesAny(of: index.protocolNames, Self.standardExistentials, in: type)
    {
      return nil
    }
    let syntax = ExpressionSyntax(text: type)
    guard syntax.tokens.count <= 256 else { return nil }
    if syntax.tokens.indices.contains(where: { syntax.isOperator($0, "->") }) { return .function }
    for index in syntax.tokens.indices {
      // `any P`, a protocol of the module written bare (`[String: Mixin]`), or a metatype.
      if let word = syntax.word(index), !syntax.punct(index - 1, UInt8(ascii: ".")) {
        if Self.untypedNames.contains(word) {
          if Self.isStoredElement(index, in: syntax) { return .untyped(word) }
          continue
        }
        let start = word == "any" ? index + 1 : index
        guard let first = syntax.word(start) else { continue }
        var names = [first]
        var last = start
        while syntax.punct(last + 1, UInt8(ascii: ".")), let next = syntax.word(last + 2) {
          names.append(next)
          last += 2
        }
        // `P.Type`, `any P.Type`, `P.Protocol`: a type, not a value.
        let isMetatype = names.count > 1 && (names.last == "Type" || names.last == "Protocol")
        let isProtocol =
          !isMetatype
          && (word == "any"
            || self.index.typeID(of: names, in: context).map { self.index[$0].kind == .protocol } == true
            || isStandardExistential(names, context: context))
        guard isMetatype || isProtocol, Self.isStoredElement(index, in: syntax) else { continue }
        let written = (word == "any" ? "any " : "") + names.joined(separator: ".")
        return isMetatype ? .metatype(written) : .existential(written)
      }
      if syntax.punct(index, UInt8(ascii: "(")), Self.isTuple(syntax, open: index) { return .tuple }
    }
    return nil
  }

  /// The first inline array `type` stores (`[3 of Int]` or `InlineArray<3, Int>`, Swift 6.2; as
  /// the value, or an element of an optional, array, set or dictionary), as written; `nil` if
  /// none (found trying Swift 6.2's syntax around declarations: the compiler's error named no
  /// fix).
  private static func inlineArray(in type: String) -> String? {
    let syntax = ExpressionSyntax(text: type)
    guard syntax.tokens.count <= 256 else { return nil }
    for index in syntax.tokens.indices where isStoredElement(index, in: syntax) {
      if syntax.punct(index, UInt8(ascii: "[")), syntax.word(index + 2) == "of" {
        let close = syntax.matchingClose(index)
        if close < syntax.tokens.count { return syntax.text(index...close) }
      }
      if syntax.word(index) == "InlineArray",
        !syntax.punct(index - 1, UInt8(ascii: ".")) || syntax.word(index - 2) == "Swift"
      {
        return "InlineArray"
      }
    }
    return nil
  }

  /// The standard library's type-erased values: whatever they hold is known only at run time, so
  /// no store can read one back (`Set<AnyHashable>`, found porting WasmKit, was left to the
  /// compiler, whose error names no fix).
  static let untypedNames: Set<String> = ["Any", "AnyObject", "AnyHashable"]

  /// Protocols of the standard library and Foundation that a property's type may name bare
  /// (`var codingPath: [CodingKey]`, `var lastError: Error?`), each then a protocol type that
  /// cannot conform to `PreferenceValue` (found porting swift-argument-parser). Those with
  /// `Self` or associated-type requirements are left out: naming them bare is the compiler's
  /// error already.
  static let standardExistentials: Set<String> = [
    "Error", "LocalizedError", "CodingKey", "Encoder", "Decoder", "Codable", "Encodable", "Decodable",
    "Sendable", "CustomStringConvertible", "CustomDebugStringConvertible", "PreferenceValue",
  ]

  /// Whether `names` is one of ``standardExistentials`` (`Error`, or `Swift.Error`) and, written
  /// bare, means it where it is written: no type or type alias of the module by that name is in
  /// scope there (a nested `enum Error` is a concrete type).
  private func isStandardExistential(_ names: [String], context: [ModuleIndex.TypeID]) -> Bool {
    switch names.count {
    case 1:
      Self.standardExistentials.contains(names[0]) && index.typeID(of: names, in: context) == nil
        && index.aliasTarget(of: names, in: context) == nil
    case 2:
      ["Swift", "Foundation", "Preferences"].contains(names[0])
        && Self.standardExistentials.contains(names[1])
    default: false
    }
  }

  /// Whether the parentheses opening at `open` hold a tuple: nothing (`()`), or a comma outside
  /// any brackets or generic arguments inside them.
  private static func isTuple(_ syntax: ExpressionSyntax, open: Int) -> Bool {
    let close = syntax.matchingClose(open)
    if close == open + 1 { return true }
    var position = open + 1
    var angles = 0
    while position < close {
      if syntax.opens(position) {
        position = syntax.matchingClose(position) + 1
        continue
      }
      if syntax.tokens[position].kind == .operator {
        for byte in syntax.text(position).utf8 {
          if byte == UInt8(ascii: "<") { angles += 1 } else if byte == UInt8(ascii: ">") { angles -= 1 }
        }
      } else if angles == 0, syntax.punct(position, UInt8(ascii: ",")) {
        return true
      }
      position += 1
    }
    return false
  }

  /// Whether the token at `index` is outside any generic arguments but those of the standard
  /// collections and `Optional` (whose elements are stored): a protocol inside another generic
  /// type's arguments (`Box<Mixin>`) may be no stored value, and is left to the compiler.
  private static func isStoredElement(_ index: Int, in syntax: ExpressionSyntax) -> Bool {
    var depth = 0
    var position = index - 1
    while position >= 0 {
      if syntax.tokens[position].kind == .operator {
        for byte in syntax.text(position).utf8.reversed() {
          if byte == UInt8(ascii: ">") {
            depth += 1
          } else if byte == UInt8(ascii: "<") {
            if depth == 0 {
              guard let name = syntax.word(position - 1) else { return false }
              return ["Optional", "Array", "Set", "Dictionary"].contains(name)
                && isStoredElement(position - 1, in: syntax)
            }
            depth -= 1
          }
        }
      }
      position -= 1
    }
    return true
  }

  /// What a default of no written type is when it is a tuple (`(1, 2)`) or a closure (`{ 0 }`)
  /// whole, which no store can hold.
  static func literalShape(_ expression: ExpressionSyntax) -> ShapeProblem? {
    guard let last = expression.tokens.indices.last, expression.matchingClose(0) == last else { return nil }
    if expression.punct(0, UInt8(ascii: "{")) { return .function }
    return expression.punct(0, UInt8(ascii: "(")) && last > 1 && isTuple(expression, open: 0) ? .tuple : nil
  }

  /// The ASCII bytes that cannot be part of an identifier.
  private static let notIdentifierBytes = String.ByteSet(
    (1...0x7F).filter {
      !($0 == UInt8(ascii: "_") || (0x30...0x39).contains($0) || (0x41...0x5A).contains($0)
        || (0x61...0x7A).contains($0))
    })

  private static let parenthesis = String.ByteSet([UInt8(ascii: "(")])

  /// Whether any identifier in `type` (split at every byte that cannot be part of one) is in
  /// `names`; a type of one identifier is looked up whole, without splitting.
  private static func namesAny(of names: Set<String>, _ more: Set<String> = [], in type: String) -> Bool {
    guard type.containsByte(from: notIdentifierBytes) else {
      return names.contains(type) || more.contains(type)
    }
    return type.utf8.split(whereSeparator: {
      !($0 == UInt8(ascii: "_") || $0 >= 0x80 || (0x30...0x39).contains($0) || (0x41...0x5A).contains($0)
        || (0x61...0x7A).contains($0))
    })
    .contains(where: {
      let name = String(decoding: $0, as: UTF8.self)
      return names.contains(name) || more.contains(name)
    })
  }

  /// The module type in `type` (or in its optional, array, set or dictionary values) that does not
  /// conform to `PreferenceValue` (or only under `#if` conditions), if the module declares one.
  func storabilityProblem(_ type: String, context: [ModuleIndex.TypeID], depth: Int = 0) -> (
    name: String, type: ModuleIndex.TypeID
  )? {
    // Nested deeper than any real type: left to the compiler, and bounded work. A type that
    // names no type of the module has nothing to check.
    // Most types are one identifier (`String`, `Theme`): looked up whole, without splitting.
    guard depth < 32 else { return nil }
    let namesModuleType = Self.namesAny(of: index.typeNames, index.aliasNames, in: type)
    guard namesModuleType else { return nil }
    var text = type.removing(" ")
    while text.hasSuffix("?") || text.hasSuffix("!") { text.removeLast() }
    for wrapper in ["Optional<", "Set<", "Array<"] where text.hasPrefix(wrapper) && text.hasSuffix(">") {
      return storabilityProblem(
        String(text.dropFirst(wrapper.count).dropLast()), context: context, depth: depth + 1)
    }
    // Dictionary<K, V>: its values (a key that is not a string is reported on its own).
    if text.hasPrefix("Dictionary<") && text.hasSuffix(">") {
      let arguments = text.dropFirst("Dictionary<".count).dropLast()
      guard let comma = Self.separator(",", in: arguments) else { return nil }
      return storabilityProblem(
        String(arguments[arguments.index(after: comma)...]), context: context, depth: depth + 1)
    }
    if text.hasPrefix("[") && text.hasSuffix("]") {
      let inner = String(text.dropFirst().dropLast())
      if let colon = inner.firstIndex(of: ":") {
        return storabilityProblem(
          String(inner[inner.index(after: colon)...]), context: context, depth: depth + 1)
      }
      return storabilityProblem(inner, context: context, depth: depth + 1)
    }
    // A generic type of the module with its arguments (`Pair<Int>`): the generic type, which is
    // what the registry conforms.
    if text.hasSuffix(">"), let open = text.firstIndex(of: "<"),
      case let base = text[..<open].split(separator: ".", omittingEmptySubsequences: false).map(String.init),
      base.allSatisfy({ !$0.isEmpty }),
      let type = index.typeID(of: base, in: context), index[type].kind != nil, index[type].kind != .protocol,
      !index[type].genericParameters.isEmpty
    {
      let conditions = index[type].preferenceValueConditions
      let conditional = !conditions.isEmpty && !conditions.contains(nil)
      return conformsToPreferenceValue(type) && !conditional ? nil : (text, type)
    }
    // A type nested in a generic type, named with its arguments (`Box<Int>.Mode`): the nested
    // type, whose conformance does not depend on them.
    let names = Self.droppingGenericArguments(text)
    guard names.allSatisfy({ !$0.isEmpty && !$0.contains("<") }) else { return nil }
    // A type alias of the module: what it stands for, resolved from where it is declared.
    if let (target, owner) = index.aliasTarget(of: names, in: context) {
      return storabilityProblem(target, context: owner.map(enclosingTypes) ?? [], depth: depth + 1)
    }
    guard let type = index.typeID(of: names, in: context), let kind = index[type].kind, kind != .protocol
    else { return nil }
    let conditions = index[type].preferenceValueConditions
    let conditional = !conditions.isEmpty && !conditions.contains(nil)
    return conformsToPreferenceValue(type) && !conditional ? nil : (text, type)
  }

  /// The dotted components of a type name, each without its generic argument clause
  /// (`Outer<Int, A.B>.Inner` → `Outer`, `Inner`); a name whose brackets do not balance keeps them,
  /// and is left to the compiler.
  static func droppingGenericArguments(_ text: String) -> [String] {
    var components: [String] = []
    var current = ""
    var depth = 0
    for character in text {
      switch character {
      case "<":
        depth += 1
      case ">":
        depth -= 1
        if depth < 0 { return [text] }
      case "." where depth == 0:
        components.append(current)
        current = ""
      default:
        if depth == 0 { current.append(character) }
      }
    }
    guard depth == 0 else { return [text] }
    components.append(current)
    return components
  }

  /// Protocols of the standard library and Apple's frameworks that classes often list first,
  /// where a superclass would be: listed first, they are still not a superclass that might
  /// conform (Yams' `final class Anchor: RawRepresentable, …, Codable` was left to the compiler,
  /// whose error names no fix).
  static let wellKnownProtocols: Set<String> = [
    "Codable", "Encodable", "Decodable", "Sendable", "Hashable", "Equatable", "Comparable", "Identifiable",
    "RawRepresentable", "CaseIterable", "Error", "LocalizedError", "CustomStringConvertible",
    "CustomDebugStringConvertible", "CustomReflectable", "LosslessStringConvertible",
    "ExpressibleByStringLiteral",
    "ExpressibleByIntegerLiteral", "ExpressibleByFloatLiteral", "ExpressibleByBooleanLiteral",
    "ExpressibleByArrayLiteral", "ExpressibleByDictionaryLiteral", "ExpressibleByNilLiteral",
    "ExpressibleByStringInterpolation", "ExpressibleByUnicodeScalarLiteral",
    "ExpressibleByExtendedGraphemeClusterLiteral", "Sequence", "Collection", "BidirectionalCollection",
    "RandomAccessCollection", "MutableCollection", "RangeReplaceableCollection", "IteratorProtocol",
    "SetAlgebra", "OptionSet", "AnyObject", "ObservableObject", "Observable", "NSCopying", "NSCoding",
    "NSSecureCoding",
  ]

  /// Whether `type` conforms to `PreferenceValue` as far as the module shows: it, or a protocol
  /// or superclass of it the module declares, lists it; a type from another module, or a class
  /// whose superclass is, is left to the compiler. Each type is visited once.
  private func conformsToPreferenceValue(_ type: ModuleIndex.TypeID) -> Bool {
    if index[type].kind == nil { return true }
    var visited: Set<ModuleIndex.TypeID> = []
    var pending = [type]
    while let next = pending.popLast() {
      guard visited.insert(next).inserted else { continue }
      let info = index[next]
      for conformance in info.conformances {
        let name = ModuleIndex.lastComponent(conformance)
        if ModuleIndex.preferenceValueProtocols.contains(name) { return true }
        let base = index.id(of: ModuleIndex.dotted(conformance))
        if let base, let kind = index[base].kind {
          if kind == .protocol || kind == .class { pending.append(base) }
        } else if info.kind == .class, conformance == info.firstInherited,
          conformance.first?.isUppercase == true, !Self.wellKnownProtocols.contains(name)
        {
          // A superclass from another module may conform; the compiler decides.
          return true
        }
      }
    }
    return false
  }
}

/// How many steps inferring one default's type may take: statics and collections that name
/// other statics fan out, and a static may name itself. Each step is one expression inferred, so
/// the budget bounds both the work and the depth of the recursion (`nil` beyond).
final class InferenceBudget {
  private var remaining: Int

  init(steps: Int = 256) { remaining = steps }

  /// Takes one step; `false` once none is left.
  func spend() -> Bool {
    remaining -= 1
    return remaining >= 0
  }
}

/// Where generated code may evaluate a store expression.
package enum StoreIsolation: Sendable, Equatable {
  /// Anywhere: every name in it is nonisolated.
  case nonisolated
  /// In the module's default isolation (anywhere, unless the main actor is the default).
  case defaultIsolation
  /// On the main actor only.
  case mainActor
}

/// One declaration, planned: everything the output needs, decided once. A class, so that the
/// later stages pass tens of thousands of them around without copying their fields.
package final class PreferencePlan: Sendable {
  package enum Registration: Sendable, Equatable {
    /// No default (an optional declared without one): nothing to register.
    case none
    /// A literal, encoded by the scanner.
    case literal(PlistLiteral)
    /// Evaluated by generated code wherever registration runs.
    case registry(Evaluation)
    /// Evaluated by generated code on the main actor.
    case mainActor(Evaluation)
    /// Evaluated by generated code in the module's default isolation: wherever registration runs
    /// when the module is nonisolated by default, on the main actor where that is the default.
    case defaultIsolation(Evaluation)
    /// Registered by the preference's first read, because generated code cannot evaluate it.
    case firstRead(reason: String)
  }

  package struct Evaluation: Sendable, Equatable {
    /// The default expression, with names that only resolve lexically qualified.
    package var expression: String
    /// The declared type, likewise, if written.
    package var type: String?
  }

  package let fileIndex: Int
  /// The declaration's number in its file (the record index in the generated file table).
  package let number: Int
  package let file: String
  package let fileID: String
  package let syntax: PreferenceSyntax
  package let typePath: [String]
  package let key: String
  package let valueType: String?
  package let registration: Registration
  /// Generated code for an explicit store, if any.
  package let store: String?
  /// Where generated code may create ``store``.
  package let storeIsolation: StoreIsolation
  /// Generated code for the store the value moved from (`movedFrom:`), if any.
  package let movedFrom: String?
  /// Keys the value was stored under before, newest first: `renamedFrom:`, configured
  /// migrations, and what the lock remembers.
  package let renamedFrom: [String]
  /// The `#if` condition, as text for descriptors (bounded).
  package let condition: String?
  /// The declaring type, when generated code may form key paths to the declaration (for the
  /// lock's type checks).
  package let lockCheck: [String]?
  /// The `@available` attributes of the declaring type, of the types and extension around the
  /// declaration, and of the declaration itself, which generated code that names the type or the
  /// property repeats.
  package let availability: Availability
  /// Where declarations that share this one are (`@Preference(\Settings.showFooter) var
  /// showFooter`), as the compiler reports them: the runtime finds this declaration there too.
  package let references: [Reference]

  /// The location of a declaration that shares another's preference.
  package struct Reference: Sendable, Hashable {
    package var fileID: String
    package var line: Int

    package init(fileID: String, line: Int) {
      self.fileID = fileID
      self.line = line
    }
  }

  package init(
    fileIndex: Int, number: Int, file: String, fileID: String, syntax: PreferenceSyntax, typePath: [String],
    key: String, valueType: String?, registration: Registration, store: String?,
    storeIsolation: StoreIsolation = .nonisolated, movedFrom: String?,
    renamedFrom: [String], condition: String?, lockCheck: [String]?,
    availability: Availability = Availability([]), references: [Reference] = []
  ) {
    self.availability = availability
    self.references = references
    self.fileIndex = fileIndex
    self.number = number
    self.file = file
    self.fileID = fileID
    self.syntax = syntax
    self.typePath = typePath
    self.key = key
    self.valueType = valueType
    self.registration = registration
    self.store = store
    self.storeIsolation = storeIsolation
    self.movedFrom = movedFrom
    self.renamedFrom = renamedFrom
    self.condition = condition
    self.lockCheck = lockCheck
  }

  /// This plan with the keys it was stored under before, or the declarations that share it,
  /// replaced.
  package func with(renamedFrom: [String]? = nil, references: [Reference]? = nil) -> PreferencePlan {
    PreferencePlan(
      fileIndex: fileIndex, number: number, file: file, fileID: fileID, syntax: syntax, typePath: typePath,
      key: key,
      valueType: valueType, registration: registration, store: store, storeIsolation: storeIsolation,
      movedFrom: movedFrom,
      renamedFrom: renamedFrom ?? self.renamedFrom, condition: condition, lockCheck: lockCheck,
      availability: availability, references: references ?? self.references)
  }

  package var property: String { syntax.property }
  package var enclosingType: String { typePath.joined(separator: ".") }

  /// Whether the generated table evaluates this declaration's default (in an extension of the
  /// declaring type), rather than carrying it encoded, or leaving it to the first read.
  package var tableEvaluatesDefault: Bool {
    switch registration {
    case .registry, .mainActor, .defaultIsolation: true
    case .none, .literal, .firstRead: false
    }
  }

  /// Whether the generated table needs no code for this declaration, only its record: it sits
  /// outside `#if`, the table does not evaluate its default and it names no store.
  package var needsNoEvaluation: Bool {
    syntax.branch == nil && store == nil && movedFrom == nil && !tableEvaluatesDefault
  }
  package var line: Int { syntax.line }
  package var column: Int { syntax.column }
  package var documentation: String? { syntax.documentation }
  /// The default as written; `nil` for an optional without one, which defaults to `nil`.
  package var defaultText: String? {
    syntax.defaultValue?.text ?? (syntax.declaredType.map(PreferenceSyntax.isOptional) == true ? "nil" : nil)
  }
  package var syncs: Bool { syntax.arguments.syncs }
  package var inSettings: Bool { syntax.arguments.inSettings }
  package var isExported: Bool { syntax.arguments.isExported }
  package var format: String { syntax.arguments.format ?? "propertyList" }
  package var storeText: String? { syntax.arguments.store?.text }

  package var registrationKind: String {
    switch registration {
    case .none, .literal, .registry: "registry"
    case .mainActor: "mainActor"
    case .defaultIsolation: "defaultIsolation"
    case .firstRead: "firstRead"
    }
  }

  package var registrationNote: String? {
    if case .firstRead(let reason) = registration { return reason }
    return nil
  }

  /// The location the wrapper reports, as the runtime looks it up.
  package var reportedLocation: (fileID: String, line: Int, column: Int) {
    (syntax.reportedFileID, syntax.reportedLine, syntax.column)
  }
}
