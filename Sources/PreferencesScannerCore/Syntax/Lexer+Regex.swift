/// Bare regex literals (`/…/`), decided by the language's own rule (see ``Lexer``).
extension Lexer {
  // MARK: Bare regex literals

  /// Whether a regex literal may start after the previous token: where an expression, not a
  /// binary operator, is expected (the language's rule, as swift-syntax states it).
  mutating func isRegexLiteralPosition() -> Bool {
    guard let previous = tokens.last else { return true }
    switch previous.kind {
    case .punctuation:
      switch bytes[Int(previous.start)] {
      case UInt8(ascii: "{"), UInt8(ascii: "("), UInt8(ascii: "["), UInt8(ascii: ","), UInt8(ascii: ";"),
        UInt8(ascii: ":"), UInt8(ascii: "="):
        return true
      default:
        return false  // ) ] } . @
      }
    case .operator:
      if equals(previous, "->") || equals(previous, "...") { return false }
      // Binary and prefix operators sequence expressions; postfix ones do not.
      let leftBound = isLeftBound(Int(previous.start))
      let rightBound = isRightBound(Int(previous.end), leftBound: leftBound)
      return !(leftBound && !rightBound)
    case .identifier:
      guard !previous.isBackticked else { return false }
      for word in Self.keywordsBeforeExpressions where equals(previous, word) { return true }
      return false
    case .directive:
      return true
    case .number, .string, .regex, .pound:
      return false
    }
  }

  /// Keywords after which an expression may follow (the lexer-classified keywords, without
  /// those that are themselves expressions: true, false, nil, self, Self, super, Any).
  static let keywordsBeforeExpressions: [StaticString] = [
    "as", "associatedtype", "break", "case", "catch", "class", "continue", "default", "defer", "deinit", "do",
    "else", "enum", "extension", "fallthrough", "fileprivate", "for", "func", "guard", "if", "import", "in",
    "init",
    "inout", "internal", "is", "let", "operator", "precedencegroup", "private", "protocol", "public",
    "repeat",
    "rethrows", "return", "static", "struct", "subscript", "switch", "throw", "throws", "try", "typealias",
    "var",
    "where", "while",
  ]

  /// Whether an operator starting at `index` is bound to what precedes it.
  mutating func isLeftBound(_ index: Int) -> Bool {
    if index == 0 || (index == 3 && byte(at: 0) == 0xEF) { return false }
    switch byte(at: index - 1) {
    case UInt8(ascii: " "), UInt8(ascii: "\r"), UInt8(ascii: "\n"), UInt8(ascii: "\t"), UInt8(ascii: "("),
      UInt8(ascii: "["), UInt8(ascii: "{"), UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: ":"), 0:
      return false
    case UInt8(ascii: "/"):
      return byte(at: index - 2) != UInt8(ascii: "*")  // the end of a block comment is whitespace
    default:
      return true
    }
  }

  /// Whether an operator ending at `index` is bound to what follows it.
  mutating func isRightBound(_ index: Int, leftBound: Bool) -> Bool {
    switch byte(at: index) {
    case UInt8(ascii: " "), UInt8(ascii: "\r"), UInt8(ascii: "\n"), UInt8(ascii: "\t"), UInt8(ascii: ")"),
      UInt8(ascii: "]"), UInt8(ascii: "}"), UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: ":"), 0:
      return false
    case UInt8(ascii: "."):
      return !leftBound
    case UInt8(ascii: "/"):
      let next = byte(at: index + 1)
      return next != UInt8(ascii: "/") && next != UInt8(ascii: "*")
    default:
      return index < bytes.count
    }
  }

  /// Whether the regex literal that the language would lex at the `/` at `slash`, in an operator
  /// spanning `start..<end`, exists; returns its end.
  mutating func bareRegex(slash: Int, operatorStart start: Int, operatorEnd end: Int) -> Int? {
    let leftBound = isLeftBound(start)
    guard !leftBound else { return nil }
    if let previous = tokens.last, previous.kind == .identifier, !previous.isBackticked,
      equals(previous, "func") || equals(previous, "operator")
    {
      return nil
    }
    var mustBeRegex = false
    if !isRightBound(end, leftBound: leftBound) {
      // Looks like a binary operator: a regex only where an expression is expected (or after
      // `try?`/`try!`, which cannot be the left side of an operator).
      mustBeRegex = afterOptionalTry()
      if !mustBeRegex && !isRegexLiteralPosition() { return nil }
      if let previous = tokens.last, previous.kind == .punctuation,
        [UInt8(ascii: "("), UInt8(ascii: "["), UInt8(ascii: ","), UInt8(ascii: ":")].contains(
          bytes[Int(previous.start)])
      {
        // An unapplied operator is legal in an argument list.
      } else {
        mustBeRegex = true
      }
    }
    return scanBareRegex(from: slash, mustBeRegex: mustBeRegex)
  }

  mutating func afterOptionalTry() -> Bool {
    guard tokens.count >= 2, let last = tokens.last, last.kind == .operator,
      equals(last, "?") || equals(last, "!")
    else { return false }
    let previous = tokens[tokens.count - 2]
    return previous.kind == .identifier && equals(previous, "try") && isLeftBound(Int(last.start))
  }

  /// Scans `/…/` from the opening slash; returns the end, or `nil` if this is not a regex.
  mutating func scanBareRegex(from slash: Int, mustBeRegex: Bool) -> Int? {
    var index = slash + 1
    switch byte(at: index) {
    case UInt8(ascii: " "), UInt8(ascii: "\t"):
      if !mustBeRegex { return nil }
    case UInt8(ascii: "*"), UInt8(ascii: "/"):
      return nil  // a comment
    default:
      break
    }
    if byte(at: slash - 1) == UInt8(ascii: "*") { return nil }  // the end of a block comment
    var groups = 0
    var classes = 0
    var lastSpace = -1
    while index < bytes.count {
      let character = bytes[index]
      switch character {
      case UInt8(ascii: "/"):
        let next = byte(at: index + 1)
        if next == UInt8(ascii: "*") || next == UInt8(ascii: "/") { return mustBeRegex ? index + 1 : nil }
        if lastSpace == index - 1 && !mustBeRegex { return nil }
        return index + 1
      case UInt8(ascii: "\n"), UInt8(ascii: "\r"):
        return mustBeRegex ? index : nil
      case UInt8(ascii: "\\"):
        index += 1
        if byte(at: index) == UInt8(ascii: "\n") { return mustBeRegex ? index : nil }
      case UInt8(ascii: "(") where classes == 0:
        groups += 1
      case UInt8(ascii: ")") where classes == 0:
        if groups == 0 {
          if !mustBeRegex { return nil }
        } else {
          groups -= 1
        }
      case UInt8(ascii: "["):
        classes += 1
      case UInt8(ascii: "]"):
        if classes > 0 { classes -= 1 }
      case UInt8(ascii: " "), UInt8(ascii: "\t"):
        lastSpace = index
      default:
        break
      }
      index += 1
    }
    return mustBeRegex ? bytes.count : nil
  }
}
