/// Imports, the modifiers and attributes before a declaration, and type declarations.
extension FileParser {
  // MARK: Imports

  static let importKinds: Set<String> = [
    "typealias", "struct", "class", "enum", "protocol", "let", "var", "func",
  ]

  /// Records `[attributes] [access] import [kind] Module(.Name)*` at file scope.
  mutating func importDeclaration(at index: Int) {
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
        condition: currentBranch.map { branchCondition($0) }))
  }

  // MARK: Modifiers

  struct Modifiers {
    var access: AccessLevel?
    var isStatic = false
    var isNonisolated = false
    /// The attributes' names, without `@` or arguments (`MainActor`, `available`); which of them
    /// name a global actor is the analysis's to decide.
    var attributeNames: [String] = []
    /// Attributes as written: `@testable`, `@_spi(Internal)`, `@MainActor`.
    var attributes: [String] = []
    /// The `@available(…)` attributes, comments and line breaks in them made one space.
    var availability: [String] = []
  }

  static let declarationModifiers: Set<String> = [
    "override", "final", "static", "class", "private", "fileprivate", "public", "internal", "open", "package",
    "nonisolated", "required", "convenience", "dynamic", "prefix", "postfix", "infix", "mutating",
    "nonmutating",
    "lazy", "weak", "unowned", "indirect", "isolated", "consuming", "borrowing", "distributed", "optional",
    "__consuming", "unsafe",
  ]

  /// The attributes and modifiers written before the keyword at `index`, read backwards (a
  /// bounded number of steps), and the index of the first of them.
  mutating func modifiers(before index: Int) -> (Modifiers, Int) {
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
          if source.text(open - 1) == "available" {
            result.availability.insert("@" + source.normalizedText(from: open - 1, through: cursor), at: 0)
          }
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
  mutating func typeKeyword(at index: Int) -> StaticString? {
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

  mutating func typeHeader(at index: Int) {
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
    // The name may be on the next line (`struct\n  Settings {`). Only `actor`, a contextual
    // keyword, may end a statement as a variable's name (`let a = actor` and a call on the next).
    guard source.isIdentifier(nameIndex),
      !(source[nameIndex].followsNewline && source.isWord(index, "actor"))
    else { return }
    let name = source.text(nameIndex)
    // `protocol P: class where …`: the deprecated class constraint, not a class named `where`.
    if name == "where" && !source[nameIndex].isBackticked { return }
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
      availability: modifiers.availability,
      isNonisolated: modifiers.isNonisolated,
      inherits: inheritance(from: cursor), line: Int(source[nameIndex].line),
      column: Int(source[nameIndex].column))
  }

  /// The names in `<T, U: P>` starting at `open`, and the index after the closing `>`.
  mutating func genericParameters(at open: Int) -> ([String], Int) {
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
  mutating func inheritance(from start: Int) -> [String] {
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

  mutating func openScope(_ pending: PendingType, at index: Int) -> Int {
    let parent = innermostScope
    var scope = TypeScope(
      kind: pending.kind, names: pending.name, parent: pending.kind == .extension ? nil : parent,
      isLocal: isInsideOther,
      genericParameters: pending.genericParameters, access: pending.access,
      attributeNames: pending.attributeNames,
      isNonisolated: pending.isNonisolated, inherits: pending.inherits, branch: currentBranch,
      line: pending.line,
      column: pending.column)
    scope.availability = pending.availability
    scopes.append(scope)
    return scopes.count - 1
  }
}
