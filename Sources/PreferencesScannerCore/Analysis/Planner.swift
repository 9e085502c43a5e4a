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

  /// The plans of `files`' declarations, the diagnostics found, and what the declarations ask of
  /// conformance synthesis (which runs once every analysis has asked).
  func plan(_ files: [FileSyntax]) -> (
    plans: [PreferencePlan], diagnostics: [Diagnostic], requests: ConformanceSynthesis.Requests
  ) {
    var plans: [PreferencePlan] = []
    var diagnostics: [Diagnostic] = []
    var requests = ConformanceSynthesis.Requests()
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
        func check(_ kind: ConformanceSynthesis.Check.Kind, _ subject: String) {
          requests.checks.append(
            .init(kind: kind, subject: subject, file: file.path, line: syntax.line, column: syntax.column))
        }
        // A default whose type the scanner cannot read is typed by the compiler; the module
        // types it names are made storable where they can be, so that whichever it stores (or
        // keys a dictionary by) conforms.
        if let plan, plan.valueType == nil, let expression = syntax.defaultValue {
          let context = index.lexicalContext(scope: syntax.scope, in: file, fileIndex: fileIndex)
          requestMentionedTypes(in: expression, context: context, requests: &requests)
        }
        // A type Swift 6 will not let hold a property wrapper. A warning: in the Swift 5 language
        // mode, which the scanner cannot see, the compiler only warns too.
        if plan != nil, !syntax.isStatic {
          let declaringType = index.scopeTypes[fileIndex][syntax.scope]
          check(.wrapper(in: declaringType), "@Preference '\(syntax.property)'")
        }
        // A module type stored without a conformance: the registry writes it where it can, else
        // one error that names the fix.
        if let unstorable {
          check(
            .value(unstorable.type, name: unstorable.name),
            "@Preference '\(syntax.property)' stores \(unstorable.valueType)")
        }
        // A module type a stored dictionary is keyed by: the registry makes it a key where it can.
        for key in keyTypes {
          check(
            .key(key.type, name: key.name), "@Preference '\(syntax.property)' stores \(plan?.valueType ?? "")"
          )
        }
      }
    }
    diagnostics += resolve(references, in: files, plans: &plans)
    return (plans, diagnostics, requests)
  }

  /// Asks that the module types `expression` names be made storable where they can be and are
  /// not already (see ``ConformanceSynthesis/Requests/possibleValues``).
  func requestMentionedTypes(
    in expression: ExpressionSyntax, context: [ModuleIndex.TypeID],
    requests: inout ConformanceSynthesis.Requests
  ) {
    let types = mentionedTypes(in: expression, context: context)
    guard !types.isEmpty else { return }
    requests.possibleValues += types.filter { type in
      !conformsToPreferenceValue(type) && index[type].preferenceValueConditions.isEmpty
    }
    requests.possibleKeys += types.filter { !index.inherits($0, anyOf: ["PreferenceDictionaryKey"]) }
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
  func resolve(
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
    // Where the wrapper finds each declaration: a sharing declaration needs a line of its own.
    var taken: [PreferencePlan.Reference: String] = [:]
    for plan in plans {
      taken[
        PreferencePlan.Reference(fileID: plan.reportedLocation.fileID, line: plan.reportedLocation.line)] =
        plan.property
    }
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
      let context = index.lexicalContext(scope: syntax.scope, in: file, fileIndex: fileIndex)
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
      let site = PreferencePlan.Reference(fileID: syntax.reportedFileID, line: syntax.reportedLine)
      if let other = taken[site] {
        error(
          "@Preference '\(syntax.property)' is reported on the line of '\(other)' (\(site.fileID):\(site.line)); a preference is found by its file and line, so each needs a line of its own: move it to the next line"
        )
        continue
      }
      taken[site] = syntax.property
      var kept: String?
      for position in targets {
        if case .firstRead(let reason) = plans[position].registration { kept = kept ?? reason }
      }
      if let reason = kept {
        error(
          "\(subject), whose default the generated registry cannot evaluate (\(reason)), so only an instance of '\(path.joined(separator: "."))' can give it; give '\(name)' a default the registry can evaluate, or read it through an instance"
        )
        continue
      }
      if let keeper = targets.first(where: { plans[$0].storeKeptByDeclaration }) {
        error(
          "\(subject), whose store: argument '\(plans[keeper].storeText ?? "")' names what only its own file sees, so only a value of '\(path.joined(separator: "."))' created there can give the store; make that store internal, or read the preference through an instance"
        )
        continue
      }
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
  func preferenceNameClashes(first: FileSyntax?) -> [Diagnostic] {
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

  func plan(_ syntax: PreferenceSyntax, number: Int, file: FileSyntax, fileIndex: Int) -> (
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
    let context = index.lexicalContext(scope: syntax.scope, in: file, fileIndex: fileIndex)
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
    let declaredType = syntax.writtenType.map { analyzer.analyze(type: $0) }
    // A literal's type, found once: it types the declaration and shapes the encoded default.
    let literalType = syntax.declaredType == nil ? syntax.defaultValue.flatMap(LiteralType.of) : nil
    let valueType =
      syntax.declaredType ?? literalType
      ?? inferType(syntax.defaultValue, context: context, declaringType: declaringType)
    // Taken apart once (a written type by the parser), for every check below.
    let writtenValueType = syntax.writtenType ?? valueType.map { WrittenType(parsing: $0) }

    // The default.
    let registration: PreferencePlan.Registration
    if let expression = syntax.defaultValue, !(expression.tokens.count == 1 && expression.text == "nil") {
      // A JSON-format default is encoded by generated code, as the runtime encodes its values.
      if syntax.arguments.format != "json",
        let literal = PlistLiteral.encode(
          expression, as: syntax.writtenType ?? literalType.map { WrittenType(parsing: $0) }, inferred: true)
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
        let analysis = analyzer.analyze(expression, contextualType: syntax.writtenType)
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
    /// Whether the `store:` names what only its file sees (set by `storeCode`).
    var storeIsKept = false
    func storeCode(_ expression: ExpressionSyntax?, label: String) -> (
      code: String, isolation: StoreIsolation
    )? {
      guard let expression else { return nil }
      // A store the registry cannot reach (the declaring type, or a name in the expression, is
      // private to its file) is evaluated by the declaration itself, where Swift sees it.
      if label == "store", let blocked, blocked.hasSuffix("is private to its file") {
        storeIsKept = true
        return nil
      }
      if let blocked {
        error(
          "the \(label): argument of @Preference '\(syntax.property)' cannot be evaluated by the generated registry: \(blocked); declare the preference in a type the registry can extend, or give it no \(label): argument"
        )
        return nil
      }
      let analysis = analyzer.analyze(expression, storeContext: true)
      if label == "store", analysis.unreachable != nil, analysis.unreachableOnlyByAccess {
        storeIsKept = true
        return nil
      }
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
    let keys = writtenValueType.map { dictionaryKeys($0, context: context) }
    if let valueType, let key = keys?.problem {
      error(
        "@Preference '\(syntax.property)' stores \(valueType), a dictionary keyed by \(key), but a stored dictionary is keyed by text (as property lists are): String, a number, Bool, Character, UUID, or your enum with a String, number or Character raw value; key it by one of those (a String for a URL, its absoluteString), or store a Codable type that holds it (stored as JSON text)"
      )
    }

    // A tuple, a function, a protocol type, a metatype or `Any`: nothing can make it storable.
    let shape =
      if let writtenValueType { shapeProblem(writtenValueType, context: context) } else {
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
      let type = writtenValueType
        ?? syntax.defaultValue?.word(0).flatMap({
          $0.first?.isUppercase == true ? WrittenType(parsing: $0) : nil
        })
    {
      let parameters = context.reduce(into: Set<String>()) { $0.formUnion(index[$1].genericParameters) }
      if let (parameter, alias) = genericParameter(named: type, among: parameters, context: context) {
        error(
          "@Preference '\(syntax.property)' \(valueType.map { "stores \($0)" } ?? "defaults to \(syntax.defaultValue?.text ?? type.text)"), which depends on the generic parameter '\(parameter)' of '\(index.qualifiedName(generic))'\(alias.map { " (through its type alias '\($0)')" } ?? ""), but every '\(index.qualifiedName(generic))<…>' stores it under the one key '\(key)', so two specializations would overwrite each other's values; store a type that does not depend on '\(parameter)', or declare the preference in a type that is not generic"
        )
      }
    }

    // A module type it stores that does not conform (decided for the whole module by `plan`).
    let unstorable = valueType.flatMap { valueType in
      guard shape == nil else { return nil as Unstorable? }
      return writtenValueType.flatMap { storabilityProblem($0, context: context) }.map {
        Unstorable(name: $0.name, type: $0.type, valueType: valueType)
      }
    }

    let plan = PreferencePlan(
      fileIndex: fileIndex, number: number, file: file.path, fileID: file.fileID, syntax: syntax,
      typePath: typePath,
      key: key, valueType: valueType, registration: registration, store: store?.code,
      storeIsolation: store?.isolation ?? .nonisolated, storeKeptByDeclaration: storeIsKept,
      movedFrom: movedFrom,
      renamedFrom: syntax.arguments.renamedFrom,
      condition: syntax.branch.map { BranchSyntax.condition(of: $0, in: file.branches) },
      lockCheck: canFormKeyPath(syntax, type: declaringType, blocked: blocked) ? typePath : nil,
      availability: availability)
    return (plan, problems, unstorable, keys?.moduleKeys ?? [])
  }

  /// Whether generated code (another file, on the main actor) can form a key path to the
  /// declaration, for compile-time checks of its type.
  func canFormKeyPath(_ syntax: PreferenceSyntax, type: ModuleIndex.TypeID, blocked: String?) -> Bool {
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
}
