/// Reads one file's syntax: type declarations and extensions (nested to any depth), the members
/// a default may name, imports, `#if` branches, `#sourceLocation` directives, and every
/// `@Preference` declaration with its arguments, type and default.
///
/// It knows nothing of other files and decides nothing about meaning (whether a name is
/// reachable, isolated or generic): that is the analysis stage's job. Every step is O(1) or
/// bounded per token, so time and memory are linear in the file, however it nests.
///
/// Its readers are `mutating` though most only read: SwiftPM builds the plugin's tool in debug,
/// and there a non-mutating method called from a mutating one gets a copy of `self`, retaining
/// each of its arrays and strings on every call (the lexer's readers are `mutating` for the same
/// reason). Passed in place, parsing runs about twice as fast in that build.
struct FileParser {
  /// An open `{ … }`: a type's body (its scope index) or anything else (a function, closure,
  /// computed property, initializer).
  private struct Frame {
    var scope: Int?
    /// How many non-type frames are open, this one included.
    var others: Int
  }

  /// A type header seen, waiting for its `{`.
  private struct PendingType {
    var kind: TypeScope.Kind
    var name: [String]
    var genericParameters: [String]
    var access: AccessLevel?
    var attributeNames: [String]
    var isNonisolated: Bool
    var inherits: [String]
    var line: Int
    var column: Int
  }

  /// An open `#if` group.
  private struct Group {
    var id: Int
    var branch: Int
    var frames: PersistentStack<Frame>
    var parentBranch: Int?
  }

  private let source: SourceTokens
  private let path: String
  private let fileID: String
  private let module: String

  private var frames = PersistentStack<Frame>()
  private var pendingType: PendingType?
  private var groups: [Group] = []
  private var nextGroup = 0
  /// `#sourceLocation`: the file it names, and how to turn a real line into the one it reports.
  private var presumed: (fileID: String, lineOffset: Int)?

  private var scopes: [TypeScope] = []
  private var members: [MemberSyntax] = []
  private var storedProperties: [StoredPropertySyntax] = []
  private var keyDefaults: [KeyDefaultsSyntax] = []
  private var imports: [ImportSyntax] = []
  private var preferences: [PreferenceSyntax] = []
  private var branches: [BranchSyntax] = []
  private var diagnostics: [Diagnostic] = []

  static let attributeName: StaticString = "Preference"

  /// Parses `contents` of the file at `path` in `module`.
  static func parse(path: String, module: String, contents: [UInt8]) -> FileSyntax {
    let lexed = Lexer.tokenize(contents)
    let fileName = path.split(separator: "/").last.map(String.init) ?? path
    var parser = FileParser(
      source: SourceTokens(bytes: contents, lexed: lexed), path: path, fileID: module + "/" + fileName,
      module: module)
    for problem in lexed.problems {
      // A file the lexer could not read to the end cannot be scanned with certainty: the
      // declarations after the problem might be missed, and their values lost.
      parser.diagnostics.append(
        Diagnostic(
          .error,
          "\(problem.message); the scanner cannot read this file with certainty, so it cannot register its preferences",
          file: path, line: Int(problem.line), column: Int(problem.column)))
    }
    parser.run()
    return FileSyntax(
      path: path, fileID: parser.fileID, lineCount: lexed.lineCount, imports: parser.imports,
      scopes: parser.scopes,
      members: parser.members, storedProperties: parser.storedProperties, keyDefaults: parser.keyDefaults,
      preferences: parser.preferences,
      branches: parser.branches, diagnostics: parser.diagnostics)
  }

  private init(source: SourceTokens, path: String, fileID: String, module: String) {
    self.source = source
    self.path = path
    self.fileID = fileID
    self.module = module
  }

  // MARK: Diagnostics

  private mutating func error(_ message: String, at index: Int) {
    let token = source[min(index, source.count - 1)]
    diagnostics.append(
      Diagnostic(.error, message, file: path, line: Int(token.line), column: Int(token.column)))
  }

  private mutating func warning(_ message: String, at index: Int) {
    let token = source[min(index, source.count - 1)]
    diagnostics.append(
      Diagnostic(.warning, message, file: path, line: Int(token.line), column: Int(token.column)))
  }

  private var currentBranch: Int? { mutating get { groups.last.map(\.branch) } }
  private var innermostScope: Int? { mutating get { frames.top?.scope } }
  private var isInsideOther: Bool { mutating get { (frames.top?.others ?? 0) > 0 } }
  /// Directly in a type's body (not in a function inside it).
  private var isInTypeBody: Bool { mutating get { frames.top?.scope != nil } }
  private var isAtFileScope: Bool { mutating get { frames.isEmpty } }

  // MARK: Main loop

  private mutating func run() {
    var index = 0
    while index < source.count {
      let token = source[index]
      switch token.kind {
      case .directive:
        index = directive(index)
        continue
      case .pound:
        if source.text(index) == "#sourceLocation" {
          index = sourceLocation(index)
          continue
        }
      case .punctuation:
        switch source.bytes[Int(token.start)] {
        case UInt8(ascii: "{"):
          let others = (frames.top?.others ?? 0)
          if let pending = pendingType {
            frames.push(Frame(scope: openScope(pending, at: index), others: others))
          } else {
            frames.push(Frame(scope: nil, others: others + 1))
          }
          pendingType = nil
        case UInt8(ascii: "}"):
          if frames.pop() == nil {
            error(
              "unbalanced '}'; the scanner cannot tell which type the declarations after it belong to",
              at: index)
          }
        case UInt8(ascii: ";"):
          pendingType = nil
        case UInt8(ascii: "@")
        where isAttribute(index + 1, Self.attributeName) && !source.isPunct(index + 2, UInt8(ascii: ".")):
          index = declaration(at: index)
          continue
        default:
          break
        }
      case .identifier where !token.isBackticked:
        identifier(at: index)
      default:
        break
      }
      index += 1
    }
    if !frames.isEmpty {
      error(
        "a '{' in this file is never closed; the scanner cannot tell which type the declarations after it belong to",
        at: source.count - 1)
    }
    if !groups.isEmpty {
      error("#if is never closed with #endif", at: max(0, source.count - 1))
    }
  }

  private mutating func isAttribute(_ index: Int, _ name: StaticString) -> Bool {
    source.isWord(index, name)
      || (source.isIdentifier(index) && source[index].isBackticked && source.text(index) == "\(name)")
  }

  /// Dispatches on keywords that start something the scanner records.
  private mutating func identifier(at index: Int) {
    switch source.bytes[Int(source[index].start)] {
    case UInt8(ascii: "i"):
      if isAtFileScope && source.isWord(index, "import") {
        importDeclaration(at: index)
      } else if source.isWord(index, "init") && isInTypeBody && !source.isPunct(index - 1, UInt8(ascii: "."))
      {
        member(.initializer, name: "init", introducer: index, nameIndex: index)
      }
    case UInt8(ascii: "s"), UInt8(ascii: "c"), UInt8(ascii: "e"), UInt8(ascii: "a"), UInt8(ascii: "p"):
      if source.isWord(index, "case") {
        if isInTypeBody { enumCases(at: index) }
      } else {
        typeHeader(at: index)
      }
    case UInt8(ascii: "v"), UInt8(ascii: "l"), UInt8(ascii: "f"), UInt8(ascii: "t"):
      guard isInTypeBody || isAtFileScope else { return }
      if source.isWord(index, "var") || source.isWord(index, "let") {
        property(at: index)
      } else if source.isWord(index, "func"), source.isIdentifier(index + 1) {
        member(
          .function, name: source.text(index + 1), introducer: index, nameIndex: index + 1,
          type: returnType(ofFunctionNamedAt: index + 1))
      } else if source.isWord(index, "typealias"), source.isIdentifier(index + 1) {
        member(.typeAlias, name: source.text(index + 1), introducer: index, nameIndex: index + 1)
      }
    default:
      break
    }
  }

  // MARK: #if and #sourceLocation

  private mutating func directive(_ index: Int) -> Int {
    let word = source.text(index)
    switch word {
    case "#if":
      let (clause, next) = condition(after: index)
      branches.append(
        BranchSyntax(parent: currentBranch, group: nextGroup, index: 0, clause: clause, previous: nil))
      groups.append(
        Group(id: nextGroup, branch: branches.count - 1, frames: frames, parentBranch: currentBranch))
      nextGroup += 1
      pendingType = nil
      return next
    case "#elseif", "#else":
      var next = index + 1
      var clause: String?
      if word == "#elseif" { (clause, next) = condition(after: index) }
      guard var group = groups.popLast() else {
        error("\(word) without #if", at: index)
        return next
      }
      let previous = group.branch
      branches.append(
        BranchSyntax(
          parent: group.parentBranch, group: group.id, index: branches[previous].index + 1, clause: clause,
          previous: previous))
      group.branch = branches.count - 1
      // Each branch starts from the nesting its group started with.
      frames = group.frames
      groups.append(group)
      pendingType = nil
      return next
    default:  // #endif
      if groups.popLast() == nil { error("#endif without #if", at: index) }
      return index + 1
    }
  }

  /// The condition after `#if` or `#elseif`: an expression that ends where a line ends without
  /// an operator or open parenthesis carrying it on. Comments inside it are dropped.
  private mutating func condition(after directive: Int) -> (String, Int) {
    var index = directive + 1
    let first = index
    var depth = 0
    while index < source.count {
      let token = source[index]
      if token.kind == .directive
        || token.kind == .pound && index > first && depth == 0 && token.followsNewline
      {
        break
      }
      if index > first && token.followsNewline && depth == 0 {
        let previous = source[index - 1]
        let carries =
          previous.kind == .operator || source.isPunct(index - 1, UInt8(ascii: "("))
          || source.isPunct(index - 1, UInt8(ascii: ","))
        if !carries
          && !(token.kind == .operator && (source.isOperator(index, "||") || source.isOperator(index, "&&")))
        {
          break
        }
      }
      if token.kind == .punctuation {
        switch source.bytes[Int(token.start)] {
        case UInt8(ascii: "("): depth += 1
        case UInt8(ascii: ")"): depth = max(0, depth - 1)
        default: break
        }
      }
      index += 1
    }
    return (source.normalizedText(from: first, through: index - 1), index)
  }

  /// `#sourceLocation(file: "X", line: N)` and `#sourceLocation()`: the compiler then reports the
  /// following lines as lines of X, from N on, and `#fileID` as `Module/X`.
  private mutating func sourceLocation(_ index: Int) -> Int {
    guard source.isPunct(index + 1, UInt8(ascii: "(")) else {
      error(
        "#sourceLocation needs its arguments: #sourceLocation(file: \"…\", line: …) or #sourceLocation()",
        at: index)
      return index + 1
    }
    let close = source.matchingClose(index + 1)
    let directiveLine = Int(source[index].line)
    if close == index + 2 {
      presumed = nil
      return close + 1
    }
    var file: String?
    var line: Int?
    var cursor = index + 2
    while cursor < close {
      if source.isWord(cursor, "file"), source.isPunct(cursor + 1, UInt8(ascii: ":")), cursor + 2 < close,
        source[cursor + 2].kind == .string
      {
        file = StringLiteral.value(of: source.text(cursor + 2))
        cursor += 3
      } else if source.isWord(cursor, "line"), source.isPunct(cursor + 1, UInt8(ascii: ":")),
        cursor + 2 < close,
        source[cursor + 2].kind == .number
      {
        line = Int(source.text(cursor + 2))
        cursor += 3
      } else {
        cursor += 1
      }
    }
    guard let file, let line else {
      error(
        "the scanner cannot read this #sourceLocation directive; write #sourceLocation(file: \"Name.swift\", line: 1)",
        at: index)
      return close + 1
    }
    let name = file.split(separator: "/").last.map(String.init) ?? file
    presumed = (module + "/" + name, line - (directiveLine + 1))
    return close + 1
  }

  // MARK: Imports

  private static let importKinds: Set<String> = [
    "typealias", "struct", "class", "enum", "protocol", "let", "var", "func",
  ]

  /// Records `[attributes] [access] import [kind] Module(.Name)*` at file scope.
  private mutating func importDeclaration(at index: Int) {
    var next = index + 1
    var kind: String?
    if source.isIdentifier(next), source.isIdentifier(next + 1), !source[next + 1].followsNewline,
      source.isWord(next, in: Self.importKinds)
    {
      kind = source.text(next)
      next += 1
    }
    guard source.isIdentifier(next) else { return }
    var path = source.text(next)
    while source.isPunct(next + 1, UInt8(ascii: ".")), source.isIdentifier(next + 2) {
      path += "." + source.text(next + 2)
      next += 2
    }
    let (modifiers, _) = self.modifiers(before: index)
    imports.append(
      ImportSyntax(
        path: path, kind: kind, attributes: modifiers.attributes, accessLevel: modifiers.access?.rawValue,
        condition: currentBranch.map { branchCondition($0) }, file: path))
  }

  // MARK: Modifiers

  private struct Modifiers {
    var access: AccessLevel?
    var isStatic = false
    var isNonisolated = false
    /// The attributes' names, without `@` or arguments (`MainActor`, `available`); which of them
    /// name a global actor is the analysis's to decide.
    var attributeNames: [String] = []
    /// Attributes as written: `@testable`, `@_spi(Internal)`, `@MainActor`.
    var attributes: [String] = []
  }

  private static let declarationModifiers: Set<String> = [
    "override", "final", "static", "class", "private", "fileprivate", "public", "internal", "open", "package",
    "nonisolated", "required", "convenience", "dynamic", "prefix", "postfix", "infix", "mutating",
    "nonmutating",
    "lazy", "weak", "unowned", "indirect", "isolated", "consuming", "borrowing", "distributed", "optional",
    "__consuming", "unsafe",
  ]

  /// The attributes and modifiers written before the keyword at `index`, read backwards (a
  /// bounded number of steps), and the index of the first of them.
  private mutating func modifiers(before index: Int) -> (Modifiers, Int) {
    var result = Modifiers()
    var cursor = index - 1
    var first = index
    var steps = 0
    while cursor >= 0, steps < 24 {
      steps += 1
      // `private(set)`, `@_spi(X)`, `nonisolated(unsafe)`, `@available(…)`
      if source.isPunct(cursor, UInt8(ascii: ")")), let open = source.matchingOpen(cursor), open >= 1 {
        if open >= 2, source.isPunct(open - 2, UInt8(ascii: "@")), source.isIdentifier(open - 1) {
          result.attributes.insert("@" + source.text(from: open - 1, through: cursor), at: 0)
          result.attributeNames.insert(source.text(open - 1), at: 0)
          cursor = open - 3
          first = open - 2
          continue
        }
        if source.isWord(open - 1, in: Self.declarationModifiers) {
          let word = source.text(open - 1)
          if word == "nonisolated" { result.isNonisolated = true }
          // `private(set)` restricts the setter only.
          cursor = open - 2
          first = open - 1
          continue
        }
        break
      }
      guard source.isIdentifier(cursor) else { break }
      if source.isPunct(cursor - 1, UInt8(ascii: "@")) {
        let name = source.text(cursor)
        result.attributes.insert("@" + name, at: 0)
        result.attributeNames.insert(name, at: 0)
        cursor -= 2
        first = cursor + 1
        continue
      }
      guard source.isWord(cursor, in: Self.declarationModifiers) else { break }
      let word = source.text(cursor)
      if let access = AccessLevel(rawValue: word) { result.access = access }
      if word == "static" || word == "class" { result.isStatic = true }
      if word == "nonisolated" { result.isNonisolated = true }
      first = cursor
      cursor -= 1
    }
    return (result, first)
  }

  // MARK: Types

  /// The type keyword (`struct`, `class`, `enum`, `actor`, `extension`, `protocol`) at `index`,
  /// if it is one. This runs for every identifier that starts with one of their letters, so it
  /// tells by first byte and length before it compares.
  private mutating func typeKeyword(at index: Int) -> StaticString? {
    let token = source[index]
    let keyword: StaticString
    switch (source.bytes[Int(token.start)], token.end - token.start) {
    case (UInt8(ascii: "s"), 6): keyword = "struct"
    case (UInt8(ascii: "c"), 5): keyword = "class"
    case (UInt8(ascii: "e"), 4): keyword = "enum"
    case (UInt8(ascii: "a"), 5): keyword = "actor"
    case (UInt8(ascii: "e"), 9): keyword = "extension"
    case (UInt8(ascii: "p"), 8): keyword = "protocol"
    default: return nil
    }
    return source.isWord(index, keyword) ? keyword : nil
  }

  private mutating func typeHeader(at index: Int) {
    guard let keyword = typeKeyword(at: index) else { return }
    let isExtension = "\(keyword)" == "extension"
    // `import struct Foo.Bar`, `x.class`, `let actor = …`, `case class`
    if index > 0 {
      let previous = index - 1
      if source.isWord(previous, "import") || source.isPunct(previous, UInt8(ascii: "."))
        || source.isWord(previous, "let")
        || source.isWord(previous, "var") || source.isWord(previous, "case")
        || source.isWord(previous, "func")
      {
        return
      }
    }
    let nameIndex = index + 1
    guard source.isIdentifier(nameIndex), !source[nameIndex].followsNewline || isExtension else { return }
    let name = source.text(nameIndex)
    if source.isWord(index, "class")
      && Self.declarationModifiers.union(["func", "var", "let", "subscript", "init"]).contains(name)
      && !source[nameIndex].isBackticked
    {
      return  // `class func`, `class var`: a static member, recorded as such
    }
    if source.isWord(index, "actor")
      && !(source.isPunct(nameIndex + 1, UInt8(ascii: "{"))
        || source.isPunct(nameIndex + 1, UInt8(ascii: ":"))
        || source.isOperator(nameIndex + 1, startingWith: UInt8(ascii: "<"))
        || source.isWord(nameIndex + 1, "where"))
    {
      return
    }
    var path = [name]
    var cursor = nameIndex + 1
    if isExtension {
      while source.isPunct(cursor, UInt8(ascii: ".")), source.isIdentifier(cursor + 1) {
        path.append(source.text(cursor + 1))
        cursor += 2
      }
    }
    var genericParameters: [String] = []
    if source.isOperator(cursor, startingWith: UInt8(ascii: "<")) {
      (genericParameters, cursor) = self.genericParameters(at: cursor)
    }
    let (modifiers, _) = self.modifiers(before: index)
    pendingType = PendingType(
      kind: TypeScope.Kind(rawValue: "\(keyword)")!, name: path, genericParameters: genericParameters,
      access: modifiers.access, attributeNames: modifiers.attributeNames,
      isNonisolated: modifiers.isNonisolated,
      inherits: inheritance(from: cursor), line: Int(source[nameIndex].line),
      column: Int(source[nameIndex].column))
  }

  /// The names in `<T, U: P>` starting at `open`, and the index after the closing `>`.
  private mutating func genericParameters(at open: Int) -> ([String], Int) {
    var names: [String] = []
    var depth = 0
    var index = open
    var expectName = true
    while index < source.count, index - open < 256 {
      let token = source[index]
      if token.kind == .operator {
        for offset in Int(token.start)..<Int(token.end) {
          if source.bytes[offset] == UInt8(ascii: "<") { depth += 1; expectName = depth == 1 }
          if source.bytes[offset] == UInt8(ascii: ">") { depth -= 1 }
        }
        if depth <= 0 { return (names, index + 1) }
      } else if source.isPunct(index, UInt8(ascii: "{")) {
        return (names, index)
      } else if depth == 1 && source.isPunct(index, UInt8(ascii: ",")) {
        expectName = true
      } else if depth == 1 && expectName && token.kind == .identifier {
        if !source.isWord(index, "each") {
          names.append(source.text(index))
          expectName = false
        }
      } else if token.kind == .punctuation && !source.isPunct(index, UInt8(ascii: ":"))
        && !source.isPunct(index, UInt8(ascii: "."))
      {
        if !source.isPunct(index, UInt8(ascii: "(")) && !source.isPunct(index, UInt8(ascii: ")")) {
          expectName = false
        }
      }
      index += 1
    }
    return (names, index)
  }

  /// The inheritance clause after a type's name, up to its `{` or `where`.
  private mutating func inheritance(from start: Int) -> [String] {
    guard source.isPunct(start, UInt8(ascii: ":")) else { return [] }
    var entries: [String] = []
    var first = start + 1
    var index = first
    var angles = 0
    while index < source.count, index - start < 256 {
      let token = source[index]
      if token.kind == .operator {
        for offset in Int(token.start)..<Int(token.end) {
          if source.bytes[offset] == UInt8(ascii: "<") { angles += 1 }
          if source.bytes[offset] == UInt8(ascii: ">") { angles -= 1 }
        }
      }
      let ends = source.isPunct(index, UInt8(ascii: "{")) || source.isWord(index, "where")
      if ends || (angles <= 0 && source.isPunct(index, UInt8(ascii: ","))) {
        if index > first { entries.append(source.normalizedText(from: first, through: index - 1)) }
        if ends { break }
        first = index + 1
      }
      index += 1
    }
    return entries.map { $0.hasPrefix("@") ? String($0.drop { $0 != " " }.dropFirst()) : $0 }
  }

  private mutating func openScope(_ pending: PendingType, at index: Int) -> Int {
    let parent = innermostScope
    scopes.append(
      TypeScope(
        kind: pending.kind, names: pending.name, parent: pending.kind == .extension ? nil : parent,
        isLocal: isInsideOther,
        genericParameters: pending.genericParameters, access: pending.access,
        attributeNames: pending.attributeNames,
        isNonisolated: pending.isNonisolated, inherits: pending.inherits, branch: currentBranch,
        line: pending.line,
        column: pending.column))
    return scopes.count - 1
  }

  // MARK: Members

  /// The effective access of a member of the current scope: a `private` extension's members are
  /// fileprivate.
  private mutating func effectiveAccess(_ written: AccessLevel?) -> AccessLevel? {
    if written == nil, let scope = innermostScope, scopes[scope].kind == .extension,
      scopes[scope].access?.isFilePrivate == true
    {
      return .fileprivate
    }
    return written
  }

  private mutating func member(
    _ kind: MemberSyntax.Kind, name: String, introducer: Int, nameIndex: Int, type: String? = nil,
    reference: [String]? = nil, isStatic: Bool? = nil
  ) {
    let (modifiers, _) = self.modifiers(before: introducer)
    members.append(
      MemberSyntax(
        owner: innermostScope, name: name, kind: kind, isStatic: isStatic ?? modifiers.isStatic,
        access: effectiveAccess(modifiers.access), isNonisolated: modifiers.isNonisolated,
        attributeNames: modifiers.attributeNames, type: type, initialReference: reference,
        isFailable: kind == .initializer && source.isOperator(nameIndex + 1, startingWith: UInt8(ascii: "?")),
        hasPayload: false, branch: currentBranch))
  }

  /// `var`/`let` in a type body (static ones) or at file scope: its name, type and initial value.
  private mutating func property(at index: Int) {
    let (modifiers, _) = self.modifiers(before: index)
    if !isAtFileScope, !modifiers.isStatic {
      storedProperty(at: index, attributes: modifiers.attributes)
      if source.isWord(index + 1, "defaultValue") { keyDefaultsSwitch(at: index) }
    }
    guard isAtFileScope || modifiers.isStatic, source.isIdentifier(index + 1) else { return }
    if source.isPunct(index - 1, UInt8(ascii: "@")) { return }
    let name = source.text(index + 1)
    var cursor = index + 2
    var type: String?
    if source.isPunct(cursor, UInt8(ascii: ":")) {
      let end = typeEnd(from: cursor + 1)
      if end > cursor + 1 { type = source.normalizedText(from: cursor + 1, through: end - 1) }
      cursor = end
    }
    var reference: [String]?
    if type == nil, source.isPunct(cursor, UInt8(ascii: "=")) {
      let end = expressionEnd(from: cursor + 1)
      if end > cursor + 1 {
        type = literalType(cursor + 1, end - 1)
        reference = dottedReference(cursor + 1, end - 1)
      }
    }
    member(.property, name: name, introducer: index, nameIndex: index + 1, type: type, reference: reference)
  }

  /// An instance `var`/`let` of a struct or enum declaration: the type of what it stores, as far
  /// as syntax shows (written, a literal's, or `T(…)`), or `nil` when syntax does not show it (a
  /// property wrapper, a pattern, several bindings, an initial value of another form). Computed
  /// properties store nothing and are not recorded.
  private mutating func storedProperty(at index: Int, attributes: [String]) {
    guard let scope = innermostScope, scopes[scope].kind == .struct || scopes[scope].kind == .enum else {
      return
    }
    guard attributes.isEmpty, source.isIdentifier(index + 1) else {
      storedProperties.append(StoredPropertySyntax(scope: scope, type: nil))
      return
    }
    var cursor = index + 2
    var type: String?
    if source.isPunct(cursor, UInt8(ascii: ":")) {
      let end = typeEnd(from: cursor + 1)
      if end > cursor + 1 { type = source.normalizedText(from: cursor + 1, through: end - 1) }
      cursor = end
      // `{ get … }` or a getter body: computed; `{ willSet/didSet … }`: stored, with observers.
      if source.isPunct(cursor, UInt8(ascii: "{")) {
        let observed = source.isWord(cursor + 1, "willSet") || source.isWord(cursor + 1, "didSet")
        if !observed { return }
        cursor = source.matchingClose(cursor) + 1
      }
    }
    if source.isPunct(cursor, UInt8(ascii: "=")) {
      let end = expressionEnd(from: cursor + 1)
      if type == nil, end > cursor + 1 {
        type = literalType(cursor + 1, end - 1)
        // `T(…)` of a type (capitalized by convention, so not a function call).
        if type == nil, source.isIdentifier(cursor + 1), source.text(cursor + 1).first?.isUppercase == true,
          source.isPunct(cursor + 2, UInt8(ascii: "(")), source.matchingClose(cursor + 2) == end - 1
        {
          type = source.text(cursor + 1)
        }
        // `[T]()`, `[K: V]()`: an empty collection of a written type.
        if type == nil, source.isPunct(cursor + 1, UInt8(ascii: "[")) {
          let close = source.matchingClose(cursor + 1)
          if source.isPunct(close + 1, UInt8(ascii: "(")), source.isPunct(close + 2, UInt8(ascii: ")")),
            close + 2 == end - 1
          {
            type = source.normalizedText(from: cursor + 1, through: close)
          }
        }
      }
      cursor = end
    }
    // `let a = 1, b = 2`: more bindings than one, whose types are not followed.
    if source.isPunct(cursor, UInt8(ascii: ",")) { type = nil }
    storedProperties.append(StoredPropertySyntax(scope: scope, type: type))
  }

  /// `var defaultValue: any PreferenceValue { switch self { case .a: … } }` in a type body: the
  /// default expression of each case, for the typed keys of a ``PreferenceKeys`` enum (which
  /// the analysis decides the type is). Recorded with `clauses` empty when the body is not a
  /// `switch self` (optionally inside `get { }`).
  private mutating func keyDefaultsSwitch(at index: Int) {
    guard let scope = innermostScope else { return }
    let place = source[index + 1]
    var cursor = index + 2
    if source.isPunct(cursor, UInt8(ascii: ":")) { cursor = typeEnd(from: cursor + 1) }
    guard source.isPunct(cursor, UInt8(ascii: "{")) else { return }
    var bodyOpen = cursor
    if source.isWord(cursor + 1, "get"), source.isPunct(cursor + 2, UInt8(ascii: "{")) {
      bodyOpen = cursor + 2
    }
    var body = bodyOpen + 1
    if source.isWord(body, "return") { body += 1 }
    var clauses: [KeyDefaultsSyntax.Clause] = []
    if source.isWord(body, "switch"), source.isWord(body + 1, "self"),
      source.isPunct(body + 2, UInt8(ascii: "{"))
    {
      let close = source.matchingClose(body + 2)
      var position = body + 3
      while position < close {
        var cases: [String] = []
        var readable = true
        let labelToken = source[position]
        if source.isWord(position, "default"), source.isPunct(position + 1, UInt8(ascii: ":")) {
          position += 2
        } else if source.isWord(position, "case") {
          position += 1
          // `.a, .b:`; any other pattern is not read.
          while position < close, !source.isPunct(position, UInt8(ascii: ":")) {
            if source.isPunct(position, UInt8(ascii: ".")), source.isIdentifier(position + 1) {
              cases.append(source.text(position + 1))
              position += 2
            } else if source.isPunct(position, UInt8(ascii: ",")) {
              position += 1
            } else {
              readable = false
              if source.isPunct(position, UInt8(ascii: "(")) || source.isPunct(position, UInt8(ascii: "[")) {
                position = source.matchingClose(position)
              }
              position += 1
            }
          }
          position += 1
        } else {
          break  // a directive or something unexpected: the rest is not read
        }
        // The clause runs to the next `case` or `default` that starts a line.
        var end = position
        while end < close {
          if end > position, source[end].followsNewline,
            source.isWord(end, "case") || source.isWord(end, "default") || source[end].kind == .directive
          {
            break
          }
          if source.isPunct(end, UInt8(ascii: "(")) || source.isPunct(end, UInt8(ascii: "["))
            || source.isPunct(end, UInt8(ascii: "{"))
          {
            end = source.matchingClose(end)
          }
          end += 1
        }
        var start = position
        if source.isWord(start, "return") { start += 1 }
        // One expression, or the clause is not read.
        let expression =
          readable && start < end && expressionEnd(from: start) >= end
          ? ExpressionSyntax(source, start...(end - 1)) : nil
        clauses.append(
          KeyDefaultsSyntax.Clause(
            cases: cases, isDefault: cases.isEmpty && readable, expression: expression,
            line: Int(labelToken.line), column: Int(labelToken.column)))
        if end < close, source[end].kind == .directive { break }
        position = end
      }
    } else {
      // One expression for every case: `var defaultValue: any PreferenceValue { 0 }`.
      let close = source.matchingClose(bodyOpen)
      if body < close, expressionEnd(from: body) >= close {
        let token = source[body]
        clauses.append(
          KeyDefaultsSyntax.Clause(
            cases: [], isDefault: true, expression: ExpressionSyntax(source, body...(close - 1)),
            line: Int(token.line), column: Int(token.column)))
      }
    }
    keyDefaults.append(
      KeyDefaultsSyntax(scope: scope, clauses: clauses, line: Int(place.line), column: Int(place.column)))
  }

  /// The types of an enum case's associated values, `label: Type, Type`: one per element, `nil`
  /// where an element is not a plain type (a default value).
  static func payloadTypes(_ text: String) -> [String?] {
    var elements: [String] = []
    var depth = 0
    var current = ""
    for character in text {
      switch character {
      case "(", "[", "<": depth += 1
      case ")", "]", ">": depth -= 1
      case "," where depth == 0:
        elements.append(current)
        current = ""
        continue
      default: break
      }
      current.append(character)
    }
    elements.append(current)
    return elements.map { element in
      var type = Substring(element)
      // A label: a word and a colon outside any brackets.
      if let colon = type.firstIndex(of: ":"),
        type[..<colon].allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == " " })
      {
        type = type[type.index(after: colon)...]
      }
      let trimmed = type.trimmingCharacters(in: .whitespaces)
      return trimmed.isEmpty || trimmed.contains("=") ? nil : trimmed
    }
  }

  /// The written result type of a non-generic function whose name is at `nameIndex`
  /// (`func make(…) async throws -> T`), or `nil` (generic, no result, or not plainly written).
  private mutating func returnType(ofFunctionNamedAt nameIndex: Int) -> String? {
    var cursor = nameIndex + 1
    guard source.isPunct(cursor, UInt8(ascii: "(")) else { return nil }  // generic: `<` first
    cursor = source.matchingClose(cursor) + 1
    while source.isWord(cursor, "async") || source.isWord(cursor, "throws")
      || source.isWord(cursor, "rethrows")
    {
      cursor += 1
      if source.isPunct(cursor, UInt8(ascii: "(")) { cursor = source.matchingClose(cursor) + 1 }
    }
    guard source.isOperator(cursor, "->") else { return nil }
    let end = typeEnd(from: cursor + 1)
    guard end > cursor + 1 else { return nil }
    let type = source.normalizedText(from: cursor + 1, through: end - 1)
    return type.contains("where") || type == "Self" || type.hasPrefix("some ") ? nil : type
  }

  /// `A.b` or `A.B.c` (identifiers joined by dots, nothing else), or `nil`.
  private mutating func dottedReference(_ first: Int, _ last: Int) -> [String]? {
    guard (last - first) % 2 == 0, last > first else { return nil }
    var names: [String] = []
    for index in stride(from: first, through: last, by: 2) {
      guard source.isIdentifier(index), index == last || source.isPunct(index + 1, UInt8(ascii: ".")) else {
        return nil
      }
      names.append(source.text(index))
    }
    return names
  }

  /// Records the cases declared by `case` at `index` in a type body (`case a, b(Int), c = 3`).
  private mutating func enumCases(at index: Int) {
    let (modifiers, _) = self.modifiers(before: index)
    var cursor = index + 1
    while source.isIdentifier(cursor) {
      let name = source.text(cursor)
      cursor += 1
      var payload = false
      if source.isPunct(cursor, UInt8(ascii: "(")) {
        payload = true
        let close = source.matchingClose(cursor)
        if let scope = innermostScope {
          // Only a closed list of reasonable length is read (an unclosed one would run to the
          // end of the file for every case, making malformed input quadratic).
          if source.matchingOpen(close) == cursor, close > cursor + 1, close - cursor < 256 {
            for type in Self.payloadTypes(source.normalizedText(from: cursor + 1, through: close - 1)) {
              storedProperties.append(StoredPropertySyntax(scope: scope, type: type))
            }
          } else {
            storedProperties.append(StoredPropertySyntax(scope: scope, type: nil))
          }
        }
        cursor = close + 1
      }
      members.append(
        MemberSyntax(
          owner: innermostScope, name: name, kind: .enumCase, isStatic: true,
          access: effectiveAccess(modifiers.access),
          isNonisolated: true, attributeNames: [], type: nil, initialReference: nil, isFailable: false,
          hasPayload: payload, branch: currentBranch))
      // A raw value: skip to the next `,` on the same line.
      while cursor < source.count, !source.isPunct(cursor, UInt8(ascii: ",")),
        source.isPunct(cursor, UInt8(ascii: "="))
          || (!source[cursor].followsNewline && source[cursor].kind != .punctuation)
      {
        cursor += 1
      }
      guard source.isPunct(cursor, UInt8(ascii: ",")) else { return }
      cursor += 1
    }
  }

  // MARK: @Preference declarations

  /// Parses `@Preference(…) modifiers var name: Type = default` starting at the `@`; returns the
  /// index of the first token after the declaration.
  private mutating func declaration(at atIndex: Int) -> Int {
    let nameIndex = atIndex + 1
    var cursor = atIndex + 2
    var arguments = PreferenceArguments()
    var argumentsOpen: Int?
    if source.isPunct(cursor, UInt8(ascii: "(")) && source.touch(nameIndex, cursor) {
      argumentsOpen = cursor
      let close = source.matchingClose(cursor)
      arguments = parseArguments(from: cursor + 1, to: close, attribute: nameIndex)
      cursor = close + 1
    }

    // Other attributes and modifiers, up to `var` / `let`.
    var isStatic = false
    var access: AccessLevel?
    var bindingIndex: Int?
    while cursor < source.count {
      if source.isPunct(cursor, UInt8(ascii: "@")) {
        if isAttribute(cursor + 1, Self.attributeName) {
          error("@Preference is applied twice; remove one", at: cursor + 1)
        }
        cursor += 2
        if source.isPunct(cursor, UInt8(ascii: "(")) && source.touch(cursor - 1, cursor) {
          cursor = source.matchingClose(cursor) + 1
        }
        continue
      }
      if source.isWord(cursor, "var") || source.isWord(cursor, "let") {
        bindingIndex = cursor
        break
      }
      if source.isWord(cursor, in: Self.declarationModifiers) {
        let word = source.text(cursor)
        if word == "static" || word == "class" { isStatic = true }
        if let level = AccessLevel(rawValue: word), !source.isPunct(cursor + 1, UInt8(ascii: "(")) {
          access = level
        }
        cursor += 1
        // `private(set)` and the like.
        if source.isPunct(cursor, UInt8(ascii: "(")) { cursor = source.matchingClose(cursor) + 1 }
        continue
      }
      break
    }
    // Modifiers written before the attribute count too (`public @Preference var` is unusual but legal).
    let (before, start) = modifiers(before: atIndex)
    if before.isStatic { isStatic = true }
    access = access ?? before.access
    guard let bindingIndex else {
      error("@Preference must be applied to a 'var' property declaration", at: nameIndex)
      return cursor
    }
    if source.isWord(bindingIndex, "let") {
      error("@Preference requires 'var', not 'let'; change 'let' to 'var'", at: bindingIndex)
    }
    let propertyIndex = bindingIndex + 1
    guard source.isIdentifier(propertyIndex) else {
      error("expected a property name after '\(source.text(bindingIndex))'", at: bindingIndex)
      return propertyIndex
    }
    let property = source.text(propertyIndex)
    cursor = propertyIndex + 1

    var declaredType: String?
    if source.isPunct(cursor, UInt8(ascii: ":")) {
      let end = typeEnd(from: cursor + 1)
      if end > cursor + 1 { declaredType = source.normalizedText(from: cursor + 1, through: end - 1) }
      cursor = end
    }
    var defaultValue: ExpressionSyntax?
    if source.isPunct(cursor, UInt8(ascii: "=")) {
      let end = expressionEnd(from: cursor + 1)
      if end > cursor + 1 { defaultValue = ExpressionSyntax(source, (cursor + 1)...(end - 1)) }
      cursor = end
    }
    if source.isPunct(cursor, UInt8(ascii: ",")) {
      error(
        "@Preference applies to one property; declare '\(property)' and the next property separately",
        at: cursor)
    }

    // `@Preference var name: String?` defaults to nil, like a plain optional property. The
    // compiler then calls the wrapper's init without `wrappedValue:`, which reports the location
    // of the argument list's `(` when there is one.
    var reportedIndex = nameIndex
    let isOptional = declaredType.map(PreferenceSyntax.isOptional) ?? false
    if defaultValue == nil, isOptional, let argumentsOpen { reportedIndex = argumentsOpen }
    // `@Preference(wrappedValue: 5) var count: Int` is a call the source writes out: the
    // compiler reports its `(` too.
    if let written = arguments.wrappedValue {
      if defaultValue != nil {
        error(
          "@Preference '\(property)' has a default twice, as wrappedValue: and after '='; keep one",
          at: nameIndex)
      }
      defaultValue = written
      if let argumentsOpen { reportedIndex = argumentsOpen }
    }

    guard let scope = innermostScope else {
      if isAtFileScope {
        error(
          "@Preference '\(property)' is declared at top level, outside any type; move it into a struct, class, enum or actor, whose name becomes part of its key",
          at: nameIndex)
      } else {
        error(
          "@Preference '\(property)' is a local variable; declare it as a property of a type (its key is derived from the type and property names), or read PreferenceStore directly",
          at: nameIndex)
      }
      return cursor
    }
    if scopes[scope].kind == .protocol {
      error(
        "@Preference '\(property)' is declared in a protocol; protocols cannot store values, declare it in a conforming type",
        at: nameIndex)
      return cursor
    }
    if defaultValue == nil && !isOptional {
      let example =
        declaredType.map { "@Preference var \(property): \($0) = …" } ?? "@Preference var \(property) = …"
      error(
        "@Preference '\(property)' has no default value; add one (\(example)), or declare an optional type, which defaults to nil",
        at: nameIndex)
    }
    let reported = source[reportedIndex]
    let documentation = source.docComments[start] ?? source.docComments[atIndex]
    preferences.append(
      PreferenceSyntax(
        scope: scope, property: property, isStatic: isStatic, access: access, declaredType: declaredType,
        defaultValue: defaultValue, arguments: arguments, line: Int(reported.line),
        column: Int(reported.column),
        reportedFileID: presumed?.fileID ?? fileID,
        reportedLine: Int(reported.line) + (presumed?.lineOffset ?? 0),
        documentation: documentation, branch: currentBranch))
    return cursor
  }

  // MARK: Attribute arguments

  private mutating func parseArguments(from first: Int, to close: Int, attribute: Int) -> PreferenceArguments
  {
    var result = PreferenceArguments()
    var index = first
    var currentLabel: String?
    let labels = PreferenceArguments.labels.map(\.label)
    while index < close {
      let end = listElementEnd(from: index, to: close)
      var valueStart = index
      if source.isIdentifier(index) && source.isPunct(index + 1, UInt8(ascii: ":")) {
        currentLabel = source.text(index)
        valueStart = index + 2
      } else if currentLabel != "renamedFrom" {
        currentLabel = nil
      }
      let expression = valueStart < end ? ExpressionSyntax(source, valueStart...(end - 1)) : nil
      let value = expression?.text ?? ""
      switch currentLabel {
      case "wrappedValue":
        result.wrappedValue = expression
      case "key":
        if let literal = stringLiteralValue(valueStart, end) {
          result.key = literal
        } else {
          error(
            "the key: argument of @Preference must be a plain string literal, such as key: \"HighScore\"",
            at: attribute)
        }
      case "renamedFrom":
        if let literal = stringLiteralValue(valueStart, end) {
          result.renamedFrom.append(literal)
        } else {
          error(
            "the renamedFrom: argument of @Preference must be string literals, such as renamedFrom: \"ContentView.userName\"",
            at: attribute)
        }
      case "store":
        result.store = expression
      case "movedFrom":
        result.movedFrom = expression
      case "format":
        let name =
          value.hasPrefix(".")
          ? String(value.dropFirst()) : value.replacingOccurrences(of: "PreferenceFormat.", with: "")
        guard name == "propertyList" || name == "json" else {
          error("the format: argument of @Preference must be .propertyList or .json", at: attribute)
          break
        }
        result.format = name
      case "sync", "settings":
        guard value == "true" || value == "false" else {
          error(
            "the \(currentLabel!): argument of @Preference must be the literal true or false", at: attribute)
          break
        }
        if currentLabel == "sync" {
          result.syncs = value == "true"
        } else {
          result.inSettings = value == "true"
        }
      case let label?:
        error(
          "@Preference has no argument '\(label):'; use \(labels.map { $0 + ":" }.joined(separator: ", "))",
          at: attribute)
      case nil:
        error(
          "@Preference arguments need labels: \(labels.map { $0 + ":" }.joined(separator: ", "))",
          at: attribute)
      }
      index = end + 1
    }
    return result
  }

  /// The end (the `,` or `end`) of the list element starting at `start`.
  private mutating func listElementEnd(from start: Int, to end: Int) -> Int {
    var index = start
    while index < end {
      if source[index].kind == .punctuation {
        switch source.bytes[Int(source[index].start)] {
        case UInt8(ascii: "("), UInt8(ascii: "["), UInt8(ascii: "{"):
          index = min(source.matchingClose(index), end)
        case UInt8(ascii: ","):
          return index
        default:
          break
        }
      }
      index += 1
    }
    return end
  }

  /// The value of a single plain string literal token in `first..<end`, or `nil`.
  private mutating func stringLiteralValue(_ first: Int, _ end: Int) -> String? {
    guard end == first + 1, source[first].kind == .string else { return nil }
    return StringLiteral.value(of: source.text(first))
  }

  // MARK: Types and expressions

  /// The index just past a type annotation starting at `first`.
  private mutating func typeEnd(from first: Int) -> Int {
    var index = first
    var angle = 0
    while index < source.count {
      let token = source[index]
      if token.kind == .directive { break }
      if token.kind == .punctuation {
        let byte = source.bytes[Int(token.start)]
        if angle == 0
          && (byte == UInt8(ascii: "=") || byte == UInt8(ascii: "{") || byte == UInt8(ascii: ";")
            || byte == UInt8(ascii: "}") || byte == UInt8(ascii: ",") || byte == UInt8(ascii: "@")
            || byte == UInt8(ascii: ")") || byte == UInt8(ascii: "]"))
        {
          break
        }
        if byte == UInt8(ascii: "(") || byte == UInt8(ascii: "[") {
          index = source.matchingClose(index) + 1
          continue
        }
      } else if token.kind == .operator {
        for offset in Int(token.start)..<Int(token.end) {
          if source.bytes[offset] == UInt8(ascii: "<") { angle += 1 }
          if source.bytes[offset] == UInt8(ascii: ">") && angle > 0
            && !(offset > 0 && source.bytes[offset - 1] == UInt8(ascii: "-"))
          {
            angle -= 1
          }
        }
      }
      if index > first && token.followsNewline && angle == 0 {
        // A type continues on the next line after `&`, `->`, `.` or `,`; not after the `?`,
        // `!` or `>` that end one (`String?`, `Array<Int>`).
        let previous = source[index - 1]
        let continues =
          (previous.kind == .operator
            && !(source.bytes[Int(previous.end) - 1] == UInt8(ascii: "?")
              || source.bytes[Int(previous.end) - 1] == UInt8(ascii: "!")
              || (source.bytes[Int(previous.end) - 1] == UInt8(ascii: ">") && source.text(index - 1) != "->")))
          || source.isPunct(index - 1, UInt8(ascii: ".")) || source.isPunct(index - 1, UInt8(ascii: ","))
        if !continues && token.kind != .operator { break }
      }
      index += 1
    }
    return index
  }

  private static let accessorWords: Set<String> = ["didSet", "willSet", "get", "set", "_modify", "_read"]

  /// The index just past a default-value expression starting at `first`.
  private mutating func expressionEnd(from first: Int) -> Int {
    var index = first
    while index < source.count {
      let token = source[index]
      if token.kind == .directive { break }
      if index > first && token.followsNewline && !continuesExpression(at: index) { break }
      if token.kind == .punctuation {
        switch source.bytes[Int(token.start)] {
        case UInt8(ascii: "("), UInt8(ascii: "["):
          index = source.matchingClose(index) + 1
          continue
        case UInt8(ascii: "{"):
          if source.isIdentifier(index + 1) && Self.accessorWords.contains(source.text(index + 1)) {
            return index
          }
          if token.followsNewline { return index }
          index = source.matchingClose(index) + 1
          continue
        case UInt8(ascii: ")"), UInt8(ascii: "]"), UInt8(ascii: "}"), UInt8(ascii: ";"), UInt8(ascii: ","),
          UInt8(ascii: "@"):
          return index
        default:
          break
        }
      }
      index += 1
    }
    return min(index, source.count)
  }

  /// Whether the token at `index`, which starts a line, continues the expression before it.
  private mutating func continuesExpression(at index: Int) -> Bool {
    let previous = source[index - 1]
    if source.isPunct(index - 1, UInt8(ascii: "=")) || source.isPunct(index - 1, UInt8(ascii: "."))
      || source.isPunct(index - 1, UInt8(ascii: ":"))
    {
      return true
    }
    if previous.kind == .operator {
      // A postfix operator (`x!` at the end of the line) ends the expression.
      return index - 2 < 0 || source[index - 2].end < previous.start
    }
    let token = source[index]
    if source.isPunct(index, UInt8(ascii: ".")) { return true }
    if token.kind == .operator {
      // Binary operators have space on both sides; `-x` at line start is a new statement.
      return index + 1 < source.count && source[index + 1].start > token.end
    }
    return false
  }

  // MARK: Literal types

  /// The type a literal between tokens `first` and `last` infers, if it is a literal.
  mutating func literalType(_ first: Int, _ last: Int) -> String? {
    guard first <= last, last < source.count else { return nil }
    return LiteralType.of(ExpressionSyntax(source, first...last))
  }

  // MARK: Conditions

  /// The full condition of `branch`: its own clause, the negations of its group's earlier
  /// clauses, and the conditions of the branches it is nested in.
  mutating func branchCondition(_ branch: Int) -> String {
    BranchSyntax.condition(of: branch, in: branches, limit: .max)
  }
}

extension BranchSyntax {
  /// The condition under which `branch` is compiled, as Swift: `!(A) && (B)`. Bounded in length
  /// (a condition nested thousands deep is summarized with a leading `…`), so that output stays
  /// linear in input; generated code does not use it, it mirrors the `#if` structure instead.
  package static func condition(of branch: Int, in branches: [BranchSyntax], limit: Int = 256) -> String {
    var parts: [String] = []
    var length = 0
    var truncated = false
    var current: Int? = branch
    outer: while let index = current {
      var node: Int? = index
      var own = true
      while let step = node {
        if let clause = branches[step].clause {
          let part = own ? "(\(clause))" : "!(\(clause))"
          length += part.count + 4
          if length > limit {
            truncated = true
            break outer
          }
          parts.append(part)
        }
        own = false
        node = branches[step].previous
      }
      current = branches[index].parent
    }
    if parts.isEmpty { return truncated ? "…" : "true" }
    return (truncated ? "… && " : "") + parts.reversed().joined(separator: " && ")
  }
}
