/// Where types and expressions end, and the types of literals.
extension FileParser {
  // MARK: Types and expressions

  /// The index just past a type annotation starting at `first`.
  mutating func typeEnd(from first: Int) -> Int {
    var index = first
    var angle = 0
    while index < source.count {
      let token = source[index]
      if token.kind == .directive { break }
      if token.kind == .punctuation {
        let byte = source.bytes[Int(token.start)]
        // A type's own attributes: `@Sendable () -> Void`, `@MainActor (Int) -> Int`,
        // `() -> @Sendable () -> Void`, `@convention(c) (Int32) -> Int32`.
        if byte == UInt8(ascii: "@"), source.isIdentifier(index + 1),
          startsTypeAttribute(at: index, first: first)
        {
          index += 2
          if source.isPunct(index, UInt8(ascii: "(")) && source.touch(index - 1, index) {
            index = source.matchingClose(index) + 1
          }
          continue
        }
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

  /// Words after which a type continues with the type they qualify (`any`, `some`, `sending`,
  /// ownership specifiers).
  static let typeSpecifiers: Set<String> = [
    "any", "some", "sending", "inout", "borrowing", "consuming", "isolated", "__owned", "__shared", "each",
    "repeat",
  ]

  /// Whether the `@` at `index` is an attribute of the type that starts at `first`, not the next
  /// declaration's: it begins the type, or follows `->` or `&` (after which the type goes on,
  /// on this line or the next), or a type specifier on its line (`sending @Sendable () -> Void`).
  private func startsTypeAttribute(at index: Int, first: Int) -> Bool {
    if index == first { return true }
    let previous = index - 1
    if source[previous].kind == .operator {
      let text = source.text(previous)
      return text == "->" || text == "&"
    }
    return source.isWord(previous, in: Self.typeSpecifiers) && !source[index].followsNewline
  }

  static let accessorWords: Set<String> = ["didSet", "willSet", "get", "set", "_modify", "_read"]

  /// The index just past a default-value expression starting at `first`.
  mutating func expressionEnd(from first: Int) -> Int {
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
      } else if token.kind == .operator, let end = genericArgumentsEnd(from: index) {
        // `Dictionary<Int, String>()`: the commas are the generic arguments', not the end.
        index = end
        continue
      }
      index += 1
    }
    return min(index, source.count)
  }

  /// The most tokens a generic argument list is looked for in: far more than real code writes, and
  /// what keeps `a<a<a<…` linear (each `<` looks this far at most).
  static let genericArgumentsLimit = 64

  /// The index just past the generic argument list that the `<` at `open` begins, if it begins
  /// one (as Swift decides: a `<` right after a name, closed by a `>` with only type syntax
  /// between, and followed by a token that can follow a type): `nil` for a comparison, and for a
  /// list longer than ``genericArgumentsLimit`` tokens.
  mutating func genericArgumentsEnd(from open: Int) -> Int? {
    guard open > 0, open < source.count, source[open].kind == .operator, source.text(open) == "<",
      source.isIdentifier(open - 1),
      source[open - 1].end == source[open].start
    else { return nil }
    var depth = 0
    var index = open
    while index < min(source.count, open + Self.genericArgumentsLimit) {
      let token = source[index]
      switch token.kind {
      case .identifier:
        break
      case .punctuation:
        let byte = source.bytes[Int(token.start)]
        if byte == UInt8(ascii: "(") || byte == UInt8(ascii: "[") {
          index = source.matchingClose(index) + 1
          continue
        }
        guard byte == UInt8(ascii: ".") || byte == UInt8(ascii: ",") || byte == UInt8(ascii: ":") else {
          return nil
        }
      case .operator:
        // Only the operator characters a type can hold: `<`, `>`, `?`, `!`, `&`, `->`, `...`.
        for offset in Int(token.start)..<Int(token.end) {
          switch source.bytes[offset] {
          case UInt8(ascii: "<"): depth += 1
          case UInt8(ascii: ">")
          where !(offset > Int(token.start) && source.bytes[offset - 1] == UInt8(ascii: "-")):
            depth -= 1
            if depth < 0 { return nil }
          case UInt8(ascii: ">"), UInt8(ascii: "?"), UInt8(ascii: "!"), UInt8(ascii: "&"), UInt8(ascii: "-"),
            UInt8(ascii: "."):
            break
          default: return nil
          }
        }
        if depth == 0 {
          // What may follow a type: a call, a member, a closing bracket, a separator, the end.
          let next = index + 1
          guard next < source.count else { return next }
          if source[next].kind == .directive || source[next].followsNewline { return next }
          for byte in [
            UInt8(ascii: "("), UInt8(ascii: "."), UInt8(ascii: ")"), UInt8(ascii: "]"),
            UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "}"), UInt8(ascii: "{"),
          ]
          where source.isPunct(next, byte) {
            return next
          }
          return nil
        }
      default:
        return nil
      }
      if index > open && token.followsNewline && token.kind != .identifier { return nil }
      index += 1
    }
    return nil
  }

  /// Whether the token at `index`, which starts a line, continues the expression before it.
  mutating func continuesExpression(at index: Int) -> Bool {
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
}
