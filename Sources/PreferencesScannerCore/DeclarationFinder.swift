/// Finds `@Preference` declarations and their enclosing types in one lexed file.
///
/// It tracks braces to know which type a declaration sits in (struct, class, enum, actor,
/// extension; nested to any depth), `#if` groups to know under which condition it is compiled,
/// and reads each declaration's attribute arguments, name, type and default expression.
struct DeclarationFinder {
  private enum ScopeKind {
    /// `isolation` names what isolates the type to a global actor (`@MainActor`, `View`).
    /// `hidesMembers`: a `private` or `fileprivate` extension, whose members are fileprivate.
    case type(
      path: [String], blocker: String?, isProtocol: Bool, isolation: String? = nil, hidesMembers: Bool = false
    )
    case other
  }

  private struct OpenGroup {
    var token: Token
    var id: Int
    var index: Int
    var conditions: [String?]
    var scopesAtStart: [ScopeKind]
  }

  private let source: [UInt8]
  private let lexed: LexedSource
  private let file: String
  private let fileID: String
  private var tokens: [Token] { lexed.tokens }

  private var scopes: [ScopeKind] = []
  /// How many open scopes are function bodies or closures, so that "inside a function?" is O(1)
  /// even 10,000 scopes deep.
  private var otherScopes = 0
  /// Where each open scope's `{` is, for the unclosed-brace warning.
  private var scopeOpenings: [Token] = []
  private var pendingType: ScopeKind?
  private var groups: [OpenGroup] = []
  private var nextGroup = 0

  private(set) var preferences: [ScannedPreference] = []
  private(set) var imports: [ScannedImport] = []
  /// Qualified names of the generic types this file declares: a type nested in one (even through
  /// an extension in another file) is generic too.
  private(set) var genericTypes: Set<[String]> = []
  /// Types this file declares isolated to a global actor, by simple name: their qualified path
  /// and what isolates them.
  private(set) var isolatedTypes: [String: [(path: [String], isolation: String)]] = [:]
  /// How deep in nested scopes qualified names are still recorded: deeper than any real code,
  /// shallow enough that building the names stays linear on hostile input.
  private static let maximumQualifiedDepth = 64

  /// The enclosing types' names, outermost first.
  private var currentTypePath: [String] {
    scopes.flatMap { scope -> [String] in
      if case .type(let path, _, _, _, _) = scope { return path }
      return []
    }
  }

  /// Names this file declares `private` or `fileprivate`, and the qualified names
  /// (`Type.member`) it declares `nonisolated` or as enum cases (the scanner's isolation check
  /// reads those of every file).
  private var privateNames: Set<String> = []
  private(set) var nonisolatedNames: Set<String> = []
  private(set) var diagnostics: [Diagnostic] = []

  static let attributeName = "Preference"

  init(source: [UInt8], lexed: LexedSource, file: String, fileID: String) {
    self.source = source
    self.lexed = lexed
    self.file = file
    self.fileID = fileID
  }

  // MARK: Token helpers

  private func text(_ token: Token) -> String {
    String(decoding: source[Int(token.start)..<Int(token.end)], as: UTF8.self)
  }

  private func text(from first: Int, to last: Int) -> String {
    guard first <= last else { return "" }
    return String(decoding: source[Int(tokens[first].start)..<Int(tokens[last].end)], as: UTF8.self)
  }

  private func isPunct(_ index: Int, _ byte: UInt8) -> Bool {
    index >= 0 && index < tokens.count && tokens[index].kind == .punctuation
      && source[Int(tokens[index].start)] == byte
  }

  private func isWord(_ index: Int, _ word: String) -> Bool {
    guard index >= 0, index < tokens.count, tokens[index].kind == .identifier, !tokens[index].isBackticked
    else {
      return false
    }
    let token = tokens[index]
    guard Int(token.end - token.start) == word.utf8.count else { return false }
    return source[Int(token.start)..<Int(token.end)].elementsEqual(word.utf8)
  }

  private func isOperator(_ index: Int, startingWith byte: UInt8) -> Bool {
    index >= 0 && index < tokens.count && tokens[index].kind == .operator
      && source[Int(tokens[index].start)] == byte
  }

  private mutating func error(_ message: String, at token: Token) {
    diagnostics.append(
      Diagnostic(.error, message, file: file, line: Int(token.line), column: Int(token.column)))
  }

  private mutating func warning(_ message: String, at token: Token) {
    diagnostics.append(
      Diagnostic(.warning, message, file: file, line: Int(token.line), column: Int(token.column)))
  }

  // MARK: Main loop

  mutating func run() {
    var index = 0
    while index < tokens.count {
      let token = tokens[index]
      switch token.kind {
      case .directive:
        directive(index)
      case .punctuation:
        switch source[Int(token.start)] {
        case UInt8(ascii: "{"):
          let scope = pendingType ?? .other
          scopes.append(scope)
          if case .other = scope { otherScopes += 1 }
          scopeOpenings.append(token)
          pendingType = nil
        case UInt8(ascii: "}"):
          if let scope = scopes.popLast() {
            if case .other = scope { otherScopes -= 1 }
          } else {
            warning("unbalanced '}': the scanner may misplace declarations after this point", at: token)
          }
          _ = scopeOpenings.popLast()
        case UInt8(ascii: ";"):
          pendingType = nil
        case UInt8(ascii: "@")
        where isWord(index + 1, Self.attributeName) && !isPunct(index + 2, UInt8(ascii: ".")):
          index = declaration(at: index)
          continue
        default:
          break
        }
      case .identifier where !token.isBackticked:
        // Members of a `private extension` are fileprivate.
        if case .type(_, _, _, _, hidesMembers: true) = scopes.last ?? .other,
          Self.introducers.contains(text(token)), index + 1 < tokens.count,
          tokens[index + 1].kind == .identifier
        {
          privateNames.insert(text(tokens[index + 1]))
        }
        // Most identifiers are not keywords: dispatch on the first byte before comparing words.
        switch source[Int(token.start)] {
        case UInt8(ascii: "i"):
          if scopes.isEmpty && isWord(index, "import") { importDeclaration(at: index) }
        case UInt8(ascii: "p"), UInt8(ascii: "f"), UInt8(ascii: "n"):
          if isWord(index, "private") || isWord(index, "fileprivate") || isWord(index, "nonisolated") {
            recordModifiedName(at: index)
          } else {
            typeHeader(at: index)  // protocol
          }
        case UInt8(ascii: "c") where isWord(index, "case"):
          recordEnumCases(at: index)
        case UInt8(ascii: "s"), UInt8(ascii: "c"), UInt8(ascii: "e"), UInt8(ascii: "a"):
          typeHeader(at: index)
        default:
          break
        }
      default:
        break
      }
      index += 1
    }
    if let open = scopeOpenings.first {
      warning("this '{' is never closed; the scanner may misplace the declarations after it", at: open)
    }
    if let group = groups.first {
      warning("#if is never closed with #endif", at: group.token)
    }
    checkReachability()
  }

  // MARK: #if

  private mutating func directive(_ index: Int) {
    let word = text(tokens[index])
    switch word {
    case "#if":
      groups.append(
        OpenGroup(
          token: tokens[index], id: nextGroup, index: 0, conditions: [lexed.directiveConditions[index] ?? ""],
          scopesAtStart: scopes
        ))
      nextGroup += 1
    case "#elseif", "#else":
      guard !groups.isEmpty else {
        warning("\(word) without #if", at: tokens[index])
        return
      }
      groups[groups.count - 1].index += 1
      groups[groups.count - 1].conditions.append(
        word == "#else" ? nil : lexed.directiveConditions[index] ?? "")
      // Each branch starts from the nesting the group started with.
      scopes = groups[groups.count - 1].scopesAtStart
      otherScopes = scopes.reduce(0) { if case .other = $1 { $0 + 1 } else { $0 } }
      scopeOpenings = Array(scopeOpenings.prefix(scopes.count))
      pendingType = nil
    default:  // #endif
      if groups.popLast() == nil { warning("#endif without #if", at: tokens[index]) }
    }
  }

  private var currentBranches: [ConditionalBranch] {
    groups.map { ConditionalBranch(group: $0.id, index: $0.index, conditions: $0.conditions) }
  }

  // MARK: What the registry can reach

  private static let introducers: Set<String> = [
    "func", "let", "var", "struct", "class", "enum", "actor", "typealias", "protocol",
  ]

  /// Records the name declared after `private`, `fileprivate` or `nonisolated` at `index`
  /// (`private static let x`, `fileprivate func f`); `private(set)` keeps the getter visible.
  private mutating func recordModifiedName(at index: Int) {
    guard !isPunct(index + 1, UInt8(ascii: "(")) || isWord(index, "nonisolated") else { return }
    var cursor = index + 1
    if isPunct(cursor, UInt8(ascii: "(")) { cursor = matchingClose(from: cursor) + 1 }  // nonisolated(unsafe)
    var steps = 0
    while cursor < tokens.count, steps < 8, tokens[cursor].kind == .identifier {
      let word = text(tokens[cursor])
      if Self.introducers.contains(word) {
        guard cursor + 1 < tokens.count, tokens[cursor + 1].kind == .identifier else { return }
        let name = text(tokens[cursor + 1])
        if isWord(index, "nonisolated") {
          guard scopes.count < Self.maximumQualifiedDepth else { return }
          nonisolatedNames.insert((currentTypePath + [name]).joined(separator: "."))
        } else {
          privateNames.insert(name)
        }
        return
      }
      cursor += 1
      steps += 1
    }
  }

  /// Records the cases declared by `case` at `index` directly in a type's body as nonisolated:
  /// an enum's cases are, whatever isolates the enum.
  private mutating func recordEnumCases(at index: Int) {
    guard case .type = scopes.last ?? .other, scopes.count < Self.maximumQualifiedDepth else { return }
    let path = currentTypePath
    var cursor = index + 1
    while cursor < tokens.count, tokens[cursor].kind == .identifier {
      nonisolatedNames.insert((path + [text(tokens[cursor])]).joined(separator: "."))
      cursor += 1
      if isPunct(cursor, UInt8(ascii: "(")) { cursor = matchingClose(from: cursor) + 1 }  // associated values
      // A raw value: skip to the next `,` on the same line.
      while cursor < tokens.count, !isPunct(cursor, UInt8(ascii: ",")),
        isPunct(cursor, UInt8(ascii: "="))
          || (!tokens[cursor].followsNewline && tokens[cursor].kind != .punctuation)
      {
        cursor += 1
      }
      guard isPunct(cursor, UInt8(ascii: ",")) else { return }
      cursor += 1
    }
  }

  /// A global-actor attribute (`@MainActor`, `@DatabaseActor`) among the attributes and
  /// modifiers before the type keyword at `index`.
  private func globalActorAttribute(before index: Int) -> String? {
    var cursor = index - 1
    var steps = 0
    while cursor >= 0, steps < 16 {
      steps += 1
      if isPunct(cursor, UInt8(ascii: ")")), let open = matchingOpenParenthesis(before: cursor) {
        cursor = open - 1
        continue
      }
      guard tokens[cursor].kind == .identifier else { return nil }
      if isPunct(cursor - 1, UInt8(ascii: "@")) {
        let name = text(tokens[cursor])
        if name == "MainActor" || (name.hasSuffix("Actor") && name != "globalActor") { return "@" + name }
        cursor -= 2
      } else if Self.declarationModifiers.contains(text(tokens[cursor])) || isWord(cursor, "indirect") {
        cursor -= 1
      } else {
        return nil
      }
    }
    return nil
  }

  /// Types and protocols whose conformers are isolated to the main actor.
  private static let mainActorTypes: Set<String> = [
    "View", "App", "Scene", "Commands", "ToolbarContent", "Widget", "WidgetBundle", "PreviewProvider",
    "UIView", "NSView", "UIViewController", "NSViewController", "NSWindowController", "UIResponder",
    "NSResponder", "UIApplicationDelegate", "NSApplicationDelegate", "UIWindowSceneDelegate",
    "UISceneDelegate", "UIViewRepresentable", "NSViewRepresentable", "UIViewControllerRepresentable",
    "NSViewControllerRepresentable",
  ]

  /// A main-actor type in the inheritance clause that starts after the type's name at `cursor`.
  private func mainActorConformance(after cursor: Int) -> String? {
    var index = cursor
    var angles = 0
    var inInheritance = false
    while index < tokens.count, index - cursor < 256 {
      let token = tokens[index]
      if token.kind == .operator {
        for byte in source[Int(token.start)..<Int(token.end)] {
          if byte == UInt8(ascii: "<") { angles += 1 }
          if byte == UInt8(ascii: ">") { angles -= 1 }
        }
      } else if isPunct(index, UInt8(ascii: "{")) || isWord(index, "where") {
        return nil
      } else if angles <= 0, isPunct(index, UInt8(ascii: ":")) {
        inInheritance = true
      } else if inInheritance, token.kind == .identifier {
        let name = text(token)
        if Self.mainActorTypes.contains(name) || name.hasSuffix("ViewController") { return name }
      }
      index += 1
    }
    return nil
  }

  /// Keeps the registry from evaluating what it cannot reach from its own file: a default (or
  /// declared type) that names something private to this file is registered when the
  /// preference is first read instead; a store expression that does is an error that names the
  /// fix. (Actor isolation is checked by the scanner, once every file is read.)
  private mutating func checkReachability() {
    guard !privateNames.isEmpty else { return }
    for index in preferences.indices {
      let preference = preferences[index]
      if let store = preference.storeExpression,
        let name = ExpressionTokens(text: store).identifiers.first(where: privateNames.contains)
      {
        diagnostics.append(
          Diagnostic(
            .error,
            "the store of @Preference '\(preference.property)' uses '\(name)', which is private to this file, but the generated registry creates the store in another file; make '\(name)' internal",
            file: file, line: preference.line, column: preference.column))
      }
      guard preference.registrationBlocker == nil, let value = preference.defaultValue else { continue }
      let expression = preference.defaultTokens ?? ExpressionTokens(text: value)
      if let type = preference.declaredType,
        let name = ExpressionTokens(text: type).identifiers.first(where: privateNames.contains)
      {
        preferences[index].registrationBlocker = "its type uses '\(name)', which is private to its file"
      } else if let name = expression.identifiers.first(where: privateNames.contains) {
        preferences[index].registrationBlocker = "its default uses '\(name)', which is private to its file"
      }
    }
  }

  // MARK: Imports

  private static let accessLevels: Set<String> = [
    "public", "package", "internal", "fileprivate", "private", "open",
  ]
  private static let importKinds: Set<String> = [
    "typealias", "struct", "class", "enum", "protocol", "let", "var", "func",
  ]

  /// Records `[attributes] [access] import [kind] Module(.Name)*` at file scope. `import` is a
  /// keyword, so an unquoted one at file scope always starts an import declaration.
  private mutating func importDeclaration(at index: Int) {
    var next = index + 1
    var kind: String?
    if next + 1 < tokens.count, tokens[next].kind == .identifier, tokens[next + 1].kind == .identifier,
      !tokens[next + 1].followsNewline, Self.importKinds.contains(text(tokens[next]))
    {
      kind = text(tokens[next])
      next += 1
    }
    guard next < tokens.count, tokens[next].kind == .identifier else { return }
    var path = text(tokens[next])
    while isPunct(next + 1, UInt8(ascii: ".")), next + 2 < tokens.count, tokens[next + 2].kind == .identifier
    {
      path += "." + text(tokens[next + 2])
      next += 2
    }
    // Attributes and an access level before `import`, read backwards.
    var attributes: [String] = []
    var accessLevel: String?
    var cursor = index - 1
    while cursor >= 0 {
      if tokens[cursor].kind == .identifier, Self.accessLevels.contains(text(tokens[cursor])),
        !tokens[cursor].isBackticked
      {
        accessLevel = text(tokens[cursor])
        cursor -= 1
      } else if tokens[cursor].kind == .identifier, isPunct(cursor - 1, UInt8(ascii: "@")) {
        attributes.insert("@" + text(tokens[cursor]), at: 0)
        cursor -= 2
      } else if isPunct(cursor, UInt8(ascii: ")")), let open = matchingOpenParenthesis(before: cursor),
        open >= 2, tokens[open - 1].kind == .identifier, isPunct(open - 2, UInt8(ascii: "@"))
      {
        attributes.insert("@" + text(from: open - 1, to: cursor), at: 0)
        cursor = open - 3
      } else {
        break
      }
    }
    let condition = currentBranches.isEmpty ? nil : currentBranches.map(\.condition).joined(separator: " && ")
    imports.append(
      ScannedImport(
        path: path, kind: kind, attributes: attributes, accessLevel: accessLevel, condition: condition,
        file: file))
  }

  /// The `(` that the `)` at `close` closes, searching at most a few tokens back.
  private func matchingOpenParenthesis(before close: Int) -> Int? {
    var depth = 0
    var cursor = close
    while cursor >= 0, close - cursor < 64 {
      if isPunct(cursor, UInt8(ascii: ")")) { depth += 1 }
      if isPunct(cursor, UInt8(ascii: "(")) {
        depth -= 1
        if depth == 0 { return cursor }
      }
      cursor -= 1
    }
    return nil
  }

  // MARK: Types

  private static let declarationModifiers: Set<String> = [
    "func", "var", "let", "subscript", "override", "final", "static", "private", "fileprivate", "public",
    "internal", "open", "nonisolated", "required", "convenience", "dynamic", "prefix", "postfix", "infix",
    "mutating", "nonmutating", "lazy", "weak", "unowned", "init", "deinit", "typealias", "class", "package",
    "isolated", "consuming", "borrowing",
  ]

  private mutating func typeHeader(at index: Int) {
    guard
      isWord(index, "struct") || isWord(index, "class") || isWord(index, "enum") || isWord(index, "actor")
        || isWord(index, "extension") || isWord(index, "protocol")
    else { return }
    // `import struct Foo.Bar`, `x.class`, `let actor = …`
    if index > 0 {
      let previous = index - 1
      if isWord(previous, "import") || isPunct(previous, UInt8(ascii: ".")) || isWord(previous, "let")
        || isWord(previous, "var") || isWord(previous, "case") || isWord(previous, "func")
      {
        return
      }
    }
    let nameIndex = index + 1
    guard nameIndex < tokens.count, tokens[nameIndex].kind == .identifier,
      !tokens[nameIndex].followsNewline || isWord(index, "extension")
    else { return }
    let name = text(tokens[nameIndex])
    if isWord(index, "class") && Self.declarationModifiers.contains(name) && !tokens[nameIndex].isBackticked {
      return
    }
    if isWord(index, "actor")
      && !(isPunct(nameIndex + 1, UInt8(ascii: "{")) || isPunct(nameIndex + 1, UInt8(ascii: ":"))
        || isOperator(nameIndex + 1, startingWith: UInt8(ascii: "<")) || isWord(nameIndex + 1, "where"))
    {
      return
    }
    var path = [name]
    var cursor = nameIndex + 1
    if isWord(index, "extension") {
      while isPunct(cursor, UInt8(ascii: ".")), cursor + 1 < tokens.count,
        tokens[cursor + 1].kind == .identifier
      {
        path.append(text(tokens[cursor + 1]))
        cursor += 2
      }
    }
    var blocker: String?
    if isOperator(cursor, startingWith: UInt8(ascii: "<")) {
      blocker = "'\(name)' is generic"
      if !isWord(index, "extension"), scopes.count < Self.maximumQualifiedDepth {
        genericTypes.insert(currentTypePath + [name])
      }
    }
    if hasPrivateModifier(before: index) { blocker = "'\(name)' is private or fileprivate" }
    if otherScopes > 0 {
      blocker = "'\(name)' is declared inside a function or closure"
    }
    let isPrivate = hasPrivateModifier(before: index)
    let isolation = globalActorAttribute(before: index) ?? mainActorConformance(after: cursor)
    if let isolation, !isWord(index, "extension"), !isWord(index, "protocol"),
      scopes.count < Self.maximumQualifiedDepth
    {
      isolatedTypes[name, default: []].append((currentTypePath + [name], isolation))
    }
    pendingType = .type(
      path: path, blocker: blocker, isProtocol: isWord(index, "protocol"), isolation: isolation,
      hidesMembers: isPrivate && isWord(index, "extension"))
  }

  private func hasPrivateModifier(before index: Int) -> Bool {
    var cursor = index - 1
    var steps = 0
    while cursor >= 0 && steps < 8 {
      if isWord(cursor, "private") || isWord(cursor, "fileprivate") { return true }
      guard tokens[cursor].kind == .identifier || isPunct(cursor, UInt8(ascii: "@")) else { return false }
      cursor -= 1
      steps += 1
    }
    return false
  }

  // MARK: Declarations

  /// Parses `@Preference(…) modifiers var name: Type = default` starting at the `@`; returns the
  /// index of the first token after the declaration.
  private mutating func declaration(at atIndex: Int) -> Int {
    let nameToken = tokens[atIndex + 1]
    var cursor = atIndex + 2
    var arguments = AttributeArguments()
    var argumentsOpen: Int?
    if isPunct(cursor, UInt8(ascii: "(")) && tokens[cursor].start == nameToken.end {
      argumentsOpen = cursor
      let close = matchingClose(from: cursor)
      arguments = parseArguments(from: cursor + 1, to: close)
      cursor = close + 1
    }

    // Other attributes and modifiers, up to `var` / `let`.
    var isStatic = false
    var bindingIndex: Int?
    while cursor < tokens.count {
      if isPunct(cursor, UInt8(ascii: "@")) {
        if isWord(cursor + 1, Self.attributeName) {
          error("@Preference is applied twice; remove one", at: tokens[cursor + 1])
        }
        cursor += 2
        if isPunct(cursor, UInt8(ascii: "(")) && tokens[cursor].start == tokens[cursor - 1].end {
          cursor = matchingClose(from: cursor) + 1
        }
        continue
      }
      if isWord(cursor, "var") || isWord(cursor, "let") {
        bindingIndex = cursor
        break
      }
      if tokens[cursor].kind == .identifier && Self.declarationModifiers.contains(text(tokens[cursor])) {
        if isWord(cursor, "static") || isWord(cursor, "class") { isStatic = true }
        cursor += 1
        if isPunct(cursor, UInt8(ascii: "(")) { cursor = matchingClose(from: cursor) + 1 }  // private(set)
        continue
      }
      break
    }
    guard let bindingIndex else {
      error("@Preference must be applied to a 'var' property declaration", at: nameToken)
      return cursor
    }
    if isWord(bindingIndex, "let") {
      error("@Preference requires 'var', not 'let'; change 'let' to 'var'", at: tokens[bindingIndex])
    }
    let propertyIndex = bindingIndex + 1
    guard propertyIndex < tokens.count, tokens[propertyIndex].kind == .identifier else {
      error("expected a property name after '\(text(tokens[bindingIndex]))'", at: tokens[bindingIndex])
      return propertyIndex
    }
    let property = text(tokens[propertyIndex])
    cursor = propertyIndex + 1

    var declaredType: String?
    if isPunct(cursor, UInt8(ascii: ":")) {
      let end = typeEnd(from: cursor + 1)
      if end > cursor + 1 { declaredType = normalizeWhitespace(text(from: cursor + 1, to: end - 1)) }
      cursor = end
    }
    var defaultRange: (Int, Int)?
    if isPunct(cursor, UInt8(ascii: "=")) {
      let end = expressionEnd(from: cursor + 1)
      if end > cursor + 1 { defaultRange = (cursor + 1, end - 1) }
      cursor = end
    }
    if isPunct(cursor, UInt8(ascii: ",")) {
      error(
        "@Preference applies to one property; declare '\(property)' and the next property separately",
        at: tokens[cursor])
    }

    var defaultText = defaultRange.map { text(from: $0.0, to: $0.1) } ?? arguments.wrappedValue
    // `@Preference var name: String?` defaults to nil, like a plain optional property. The
    // compiler then calls the wrapper's init without `wrappedValue:`, which reports the location
    // of the argument list's `(` when there is one.
    var location = nameToken
    if defaultText == nil, let declaredType,
      declaredType.hasSuffix("?") || declaredType.hasPrefix("Optional<")
    {
      defaultText = "nil"
      if let argumentsOpen { location = tokens[argumentsOpen] }
    }
    var inferred: String?
    if let (first, last) = defaultRange { inferred = inferType(first, last) }

    // Where are we?
    var typePath: [String] = []
    var blocker: String?
    var isolation: String?
    var insideOther = false
    for scope in scopes {
      switch scope {
      case .type(let path, let typeBlocker, _, let typeIsolation, _):
        typePath += path
        if let typeBlocker { blocker = typeBlocker }
        isolation = typeIsolation ?? isolation  // conservative: an isolated outer type counts too
      case .other:
        insideOther = true
      }
    }
    if insideOther && blocker == nil { blocker = "the enclosing type is declared inside a function" }

    guard let innermost = scopes.last else {
      error(
        "@Preference '\(property)' is declared at top level, outside any type; move it into a struct, class, enum or actor, whose name becomes part of its key",
        at: nameToken)
      return cursor
    }
    switch innermost {
    case .other:
      error(
        "@Preference '\(property)' is a local variable; declare it as a property of a type (its key is derived from the type and property names), or read PreferenceStore directly",
        at: nameToken)
      return cursor
    case .type(_, _, isProtocol: true, _, _):
      error(
        "@Preference '\(property)' is declared in a protocol; protocols cannot store values, declare it in a conforming type",
        at: nameToken)
      return cursor
    default:
      break
    }
    if defaultText == nil {
      let example =
        declaredType.map { "@Preference var \(property): \($0) = …" } ?? "@Preference var \(property) = …"
      error(
        "@Preference '\(property)' has no default value; add one (\(example)), or declare an optional type, which defaults to nil",
        at: nameToken)
    }
    let start = declarationStart(at: atIndex)
    let documentation = lexed.docComments[start] ?? lexed.docComments[atIndex]
    preferences.append(
      ScannedPreference(
        key: "", property: property, typePath: typePath, declaredType: declaredType, inferredType: inferred,
        defaultValue: defaultText, file: file, fileID: fileID, line: Int(location.line),
        column: Int(location.column), documentation: documentation, explicitKey: arguments.key,
        storeExpression: arguments.store, renamedFrom: arguments.renamedFrom, syncs: arguments.syncs,
        inSettings: arguments.inSettings,
        isStatic: isStatic,
        branches: currentBranches, registrationBlocker: blocker))
    preferences[preferences.count - 1].contextIsolation = isolation
    if let (first, last) = defaultRange {
      preferences[preferences.count - 1].defaultTokens = ExpressionTokens(
        source: source, tokens: tokens, range: first...last)
    }
    for message in arguments.problems { error(message, at: nameToken) }
    return cursor
  }

  /// The first token of the declaration whose `@Preference` is at `index`: earlier attributes
  /// and modifiers included, so that the doc comment before them is found.
  private func declarationStart(at index: Int) -> Int {
    var start = index
    while start > 0 {
      let previous = start - 1
      if tokens[previous].kind == .identifier && Self.declarationModifiers.contains(text(tokens[previous])) {
        start = previous
      } else if previous >= 1 && tokens[previous].kind == .identifier
        && isPunct(previous - 1, UInt8(ascii: "@"))
      {
        start = previous - 1
      } else if isPunct(previous, UInt8(ascii: ")")), let open = matchingOpen(from: previous), open >= 1 {
        if open >= 2 && isPunct(open - 2, UInt8(ascii: "@")) {
          start = open - 2
        } else if isWord(open - 1, "private") || isWord(open - 1, "fileprivate") || isWord(open - 1, "public")
          || isWord(open - 1, "internal") || isWord(open - 1, "package")
        {
          start = open - 1
        } else {
          break
        }
      } else {
        break
      }
    }
    return start
  }

  private func matchingClose(from open: Int) -> Int {
    var depth = 0
    var index = open
    while index < tokens.count {
      if tokens[index].kind == .punctuation {
        switch source[Int(tokens[index].start)] {
        case UInt8(ascii: "("), UInt8(ascii: "["), UInt8(ascii: "{"): depth += 1
        case UInt8(ascii: ")"), UInt8(ascii: "]"), UInt8(ascii: "}"):
          depth -= 1
          if depth == 0 { return index }
        default: break
        }
      }
      index += 1
    }
    return tokens.count - 1
  }

  private func matchingOpen(from close: Int) -> Int? {
    var depth = 0
    var index = close
    while index >= 0 {
      if tokens[index].kind == .punctuation {
        switch source[Int(tokens[index].start)] {
        case UInt8(ascii: ")"), UInt8(ascii: "]"), UInt8(ascii: "}"): depth += 1
        case UInt8(ascii: "("), UInt8(ascii: "["), UInt8(ascii: "{"):
          depth -= 1
          if depth == 0 { return index }
        default: break
        }
      }
      index -= 1
    }
    return nil
  }

  // MARK: Attribute arguments

  private struct AttributeArguments {
    var key: String?
    var store: String?
    var renamedFrom: [String] = []
    var wrappedValue: String?
    var syncs = false
    var inSettings = false
    var problems: [String] = []
  }

  private func parseArguments(from first: Int, to close: Int) -> AttributeArguments {
    var result = AttributeArguments()
    var index = first
    var currentLabel: String?
    while index < close {
      let end = listElement(from: index, to: close).end
      var valueStart = index
      if tokens[index].kind == .identifier && isPunct(index + 1, UInt8(ascii: ":")) {
        currentLabel = text(tokens[index])
        valueStart = index + 2
      } else if currentLabel != "renamedFrom" {
        currentLabel = nil
      }
      let value = valueStart < end ? text(from: valueStart, to: end - 1) : ""
      switch currentLabel {
      case "key":
        if let literal = stringLiteralValue(valueStart, end) {
          result.key = literal
        } else {
          result.problems.append(
            "the key: argument of @Preference must be a plain string literal, such as key: \"HighScore\"")
        }
      case "renamedFrom":
        if let literal = stringLiteralValue(valueStart, end) {
          result.renamedFrom.append(literal)
        } else {
          result.problems.append(
            "the renamedFrom: argument of @Preference must be string literals, such as renamedFrom: \"ContentView.userName\""
          )
        }
      case "store":
        result.store = value
      case "wrappedValue":
        result.wrappedValue = value
      case "sync", "settings":
        guard value == "true" || value == "false" else {
          result.problems.append(
            "the \(currentLabel!): argument of @Preference must be the literal true or false")
          break
        }
        if currentLabel == "sync" {
          result.syncs = value == "true"
        } else {
          result.inSettings = value == "true"
        }
      case let label?:
        result.problems.append(
          "@Preference has no argument '\(label):'; use key:, store:, sync:, settings: or renamedFrom:")
      case nil:
        result.problems.append("@Preference arguments need labels: key:, store: or renamedFrom:")
      }
      index = end + 1
    }
    return result
  }

  /// One element of a comma-separated list (arguments, array or dictionary elements) starting
  /// at `start`: the index of the `,` (or `end`) that ends it, and its first `:` at the same
  /// nesting level.
  private func listElement(from start: Int, to end: Int) -> (end: Int, colon: Int?) {
    var index = start
    var nesting = 0
    var colon: Int?
    while index < end {
      if tokens[index].kind == .punctuation {
        switch source[Int(tokens[index].start)] {
        case UInt8(ascii: "("), UInt8(ascii: "["), UInt8(ascii: "{"): nesting += 1
        case UInt8(ascii: ")"), UInt8(ascii: "]"), UInt8(ascii: "}"): nesting -= 1
        case UInt8(ascii: ",") where nesting == 0: return (index, colon)
        case UInt8(ascii: ":") where nesting == 0 && colon == nil: colon = index
        default: break
        }
      }
      index += 1
    }
    return (end, colon)
  }

  /// The value of a single plain string literal token in `first..<end`, or `nil`.
  private func stringLiteralValue(_ first: Int, _ end: Int) -> String? {
    guard end == first + 1, tokens[first].kind == .string else { return nil }
    return StringLiteral.value(of: text(tokens[first]))
  }

  // MARK: Types and expressions

  /// The index just past a type annotation starting at `first`.
  private func typeEnd(from first: Int) -> Int {
    var index = first
    var depth = 0
    var angle = 0
    while index < tokens.count {
      let token = tokens[index]
      if token.kind == .directive { break }
      if token.kind == .punctuation {
        let byte = source[Int(token.start)]
        if depth == 0 && angle == 0 {
          if byte == UInt8(ascii: "=") || byte == UInt8(ascii: "{") || byte == UInt8(ascii: ";")
            || byte == UInt8(ascii: "}")
            || byte == UInt8(ascii: ",") || byte == UInt8(ascii: "@")
          {
            break
          }
        }
        if byte == UInt8(ascii: "(") || byte == UInt8(ascii: "[") { depth += 1 }
        if byte == UInt8(ascii: ")") || byte == UInt8(ascii: "]") {
          if depth == 0 { break }
          depth -= 1
        }
      } else if token.kind == .operator {
        for offset in Int(token.start)..<Int(token.end) {
          if source[offset] == UInt8(ascii: "<") { angle += 1 }
          if source[offset] == UInt8(ascii: ">") && angle > 0
            && !(offset > 0 && source[offset - 1] == UInt8(ascii: "-"))
          {
            angle -= 1
          }
        }
      }
      if index > first && token.followsNewline && depth == 0 && angle == 0 {
        let previous = tokens[index - 1]
        let continues =
          previous.kind == .operator || isPunct(index - 1, UInt8(ascii: "."))
          || isPunct(index - 1, UInt8(ascii: ","))
        if !continues && token.kind != .operator { break }
      }
      index += 1
    }
    return index
  }

  private static let accessorWords: Set<String> = ["didSet", "willSet", "get", "set", "_modify", "_read"]

  /// The index just past a default-value expression starting at `first`.
  private func expressionEnd(from first: Int) -> Int {
    var index = first
    var depth = 0
    while index < tokens.count {
      let token = tokens[index]
      if token.kind == .directive { break }
      if depth == 0 && index > first && token.followsNewline && !continuesExpression(at: index) { break }
      if token.kind == .punctuation {
        let byte = source[Int(token.start)]
        switch byte {
        case UInt8(ascii: "("), UInt8(ascii: "["):
          depth += 1
        case UInt8(ascii: "{"):
          if depth == 0 {
            if index + 1 < tokens.count && tokens[index + 1].kind == .identifier
              && Self.accessorWords.contains(text(tokens[index + 1]))
            {
              return index
            }
            if token.followsNewline { return index }
          }
          depth += 1
        case UInt8(ascii: ")"), UInt8(ascii: "]"), UInt8(ascii: "}"):
          if depth == 0 { return index }
          depth -= 1
        case UInt8(ascii: ";"), UInt8(ascii: ","):
          if depth == 0 { return index }
        case UInt8(ascii: "@"):
          if depth == 0 { return index }
        default:
          break
        }
      }
      index += 1
    }
    return index
  }

  /// Whether the token at `index`, which starts a line, continues the expression before it.
  private func continuesExpression(at index: Int) -> Bool {
    let previous = tokens[index - 1]
    if isPunct(index - 1, UInt8(ascii: "=")) || isPunct(index - 1, UInt8(ascii: "."))
      || isPunct(index - 1, UInt8(ascii: ":"))
    {
      return true
    }
    if previous.kind == .operator {
      // A postfix operator (`x!` at the end of the line) ends the expression.
      let hasSpaceBefore = index - 2 >= 0 && tokens[index - 2].end < previous.start
      return hasSpaceBefore || index - 2 < 0
    }
    let token = tokens[index]
    if isPunct(index, UInt8(ascii: ".")) { return true }
    if token.kind == .operator {
      // Binary operators have space on both sides; `-x` at line start is a new statement.
      let next = index + 1
      return next < tokens.count && tokens[next].start > token.end
    }
    return false
  }

  private func normalizeWhitespace(_ text: String) -> String {
    text.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" }).joined(separator: " ")
  }

  // MARK: Literal types

  /// The type of a literal expression in `first...last`, or `nil` if it is not a literal.
  private func inferType(_ first: Int, _ last: Int, depth: Int = 0) -> String? {
    guard depth < 32 else { return nil }
    if first == last {
      let token = tokens[first]
      switch token.kind {
      case .string: return "String"
      case .number: return numberType(token)
      case .identifier where isWord(first, "true") || isWord(first, "false"): return "Bool"
      default: return nil
      }
    }
    if last == first + 1 && tokens[first].kind == .operator && text(tokens[first]) == "-"
      && tokens[last].kind == .number
    {
      return numberType(tokens[last])
    }
    if isPunct(first, UInt8(ascii: "[")) && matchingClose(from: first) == last && last > first + 1 {
      return collectionType(first + 1, last, depth: depth + 1)
    }
    return nil
  }

  private func numberType(_ token: Token) -> String {
    let literal = text(token)
    if literal.hasPrefix("0x") || literal.hasPrefix("0X") {
      return literal.contains(".") || literal.lowercased().contains("p") ? "Double" : "Int"
    }
    if literal.hasPrefix("0b") || literal.hasPrefix("0o") { return "Int" }
    return literal.contains(".") || literal.contains("e") || literal.contains("E") ? "Double" : "Int"
  }

  /// `[a, b]` → `[T]`, `[k: v]` → `[K: V]` when every element has the same literal type.
  private func collectionType(_ first: Int, _ end: Int, depth: Int) -> String? {
    var keys: [String?] = []
    var values: [String?] = []
    var index = first
    var isDictionary = false
    while index < end {
      let (elementEnd, colon) = listElement(from: index, to: end)
      if elementEnd == index { break }  // trailing comma
      if let colon {
        isDictionary = true
        keys.append(colon > index ? inferType(index, colon - 1, depth: depth) : nil)
        values.append(elementEnd > colon + 1 ? inferType(colon + 1, elementEnd - 1, depth: depth) : nil)
      } else {
        if index == elementEnd - 1 && isPunct(index, UInt8(ascii: ":")) { return nil }  // [:]
        values.append(inferType(index, elementEnd - 1, depth: depth))
      }
      index = elementEnd + 1
    }
    func unify(_ types: [String?]) -> String? {
      guard let first = types.first, let type = first else { return nil }
      if types.allSatisfy({ $0 == type }) { return type }
      if types.allSatisfy({ $0 == "Int" || $0 == "Double" }) { return "Double" }
      return nil
    }
    if isDictionary {
      guard keys.count == values.count, let key = unify(keys), let value = unify(values) else { return nil }
      return "[\(key): \(value)]"
    }
    return unify(values).map { "[\($0)]" }
  }
}
