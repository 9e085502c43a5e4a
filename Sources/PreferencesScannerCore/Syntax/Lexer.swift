/// A Swift lexer that knows exactly enough of the language to never mistake the inside of a
/// comment or string for code: line, doc and nested block comments; single-line, multi-line and
/// raw string literals with interpolations (nested to any depth); regex literals; backticked
/// identifiers; and `#if` directives.
///
/// It works on bytes and never fails: malformed input (an unterminated comment or string) ends
/// the token at the end of the input or line and adds a ``LexerProblem``.
struct Lexer {
  private var tokens: [Token] = []
  private var docComments: [Int: String] = [:]
  private var directiveConditions: [Int: String] = [:]
  private var problems: [LexedSource.Problem] = []

  private let bytes: UnsafeBufferPointer<UInt8>
  private var position = 0
  private var line: Int32 = 1
  private var lineStart = 0
  private var sawNewline = true
  private var pendingDoc: [String] = []
  /// Strings inside interpolations inside strings…: recursion, so it is bounded.
  private var stringDepth = 0
  static let maximumStringDepth = 32

  /// Tokenizes `source`.
  static func tokenize(_ source: [UInt8]) -> LexedSource {
    source.withUnsafeBufferPointer { buffer in
      var lexer = Lexer(bytes: buffer)
      lexer.run()
      return LexedSource(
        tokens: lexer.tokens, docComments: lexer.docComments, directiveConditions: lexer.directiveConditions,
        problems: lexer.problems, lineCount: Int(lexer.line))
    }
  }

  private init(bytes: UnsafeBufferPointer<UInt8>) {
    self.bytes = bytes
    tokens.reserveCapacity(bytes.count / 5)
  }

  // MARK: Helpers

  @inline(__always) private func peek(_ offset: Int = 0) -> UInt8 {
    let index = position + offset
    return index < bytes.count ? bytes[index] : 0
  }

  @inline(__always) private var atEnd: Bool { position >= bytes.count }

  @inline(__always) private mutating func newline() {
    line += 1
    lineStart = position + 1
  }

  private mutating func problem(_ message: String, line: Int32, column: Int32) {
    problems.append(LexedSource.Problem(message: message, line: line, column: column))
  }

  private mutating func emit(
    _ kind: Token.Kind, start: Int, end: Int, line: Int32, column: Int32, backticked: Bool = false
  ) {
    if !pendingDoc.isEmpty {
      docComments[tokens.count] = pendingDoc.joined(separator: "\n")
      pendingDoc.removeAll(keepingCapacity: true)
    }
    tokens.append(
      Token(
        kind: kind, isBackticked: backticked, followsNewline: sawNewline, start: Int32(start),
        end: Int32(end),
        line: line, column: column))
    sawNewline = false
  }

  private func text(_ start: Int, _ end: Int) -> String {
    String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
  }

  // MARK: Main loop

  private mutating func run() {
    while !atEnd {
      let byte = bytes[position]
      switch byte {
      case UInt8(ascii: "\n"):
        newline()
        position += 1
        sawNewline = true
      case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"), 0x0B, 0x0C, 0:
        position += 1
      case UInt8(ascii: "/") where peek(1) == UInt8(ascii: "/"):
        lineComment()
      case UInt8(ascii: "/") where peek(1) == UInt8(ascii: "*"):
        blockComment()
      case UInt8(ascii: "\""):
        let (startLine, column) = (line, Int32(position - lineStart + 1))
        let start = position
        string(hashes: 0)
        emit(.string, start: start, end: position, line: startLine, column: column)
      case UInt8(ascii: "#"):
        pound()
      case UInt8(ascii: "`"):
        backtickIdentifier()
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "_"),
        UInt8(ascii: "$"), 0x80...0xFF:
        identifier()
      case UInt8(ascii: "0")...UInt8(ascii: "9"):
        number()
      case UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "["),
        UInt8(ascii: "]"), UInt8(ascii: ","), UInt8(ascii: ":"), UInt8(ascii: ";"), UInt8(ascii: "@"):
        emit(
          .punctuation, start: position, end: position + 1, line: line,
          column: Int32(position - lineStart + 1))
        position += 1
      case UInt8(ascii: "."):
        if peek(1) == UInt8(ascii: ".") {
          operatorRun()
        } else {
          emit(
            .punctuation, start: position, end: position + 1, line: line,
            column: Int32(position - lineStart + 1))
          position += 1
        }
      default:
        if Self.isOperator(byte) {
          operatorRun()
        } else {
          position += 1  // Stray byte (e.g. `\` outside a string): skip it.
        }
      }
    }
  }

  @inline(__always) static func isOperator(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "/"), UInt8(ascii: "="), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "!"),
      UInt8(ascii: "*"), UInt8(ascii: "%"), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "&"),
      UInt8(ascii: "|"), UInt8(ascii: "^"), UInt8(ascii: "~"), UInt8(ascii: "?"), UInt8(ascii: "."):
      true
    default: false
    }
  }

  @inline(__always) static func isIdentifierByte(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "$"), 0x80...0xFF:
      true
    default: false
    }
  }

  // MARK: Comments

  private mutating func lineComment() {
    let start = position
    while !atEnd && bytes[position] != UInt8(ascii: "\n") { position += 1 }
    // `///` is a doc comment; `////` is not.
    if position - start >= 3 && bytes[start + 2] == UInt8(ascii: "/")
      && (position - start == 3 || bytes[start + 3] != UInt8(ascii: "/"))
    {
      var content = start + 3
      if content < position && bytes[content] == UInt8(ascii: " ") { content += 1 }
      pendingDoc.append(text(content, position))
    } else if !pendingDoc.isEmpty {
      pendingDoc.removeAll()
    }
  }

  private mutating func blockComment() {
    let start = position
    let (startLine, startColumn) = (line, Int32(position - lineStart + 1))
    let isDoc = peek(2) == UInt8(ascii: "*") && peek(3) != UInt8(ascii: "/") && peek(3) != UInt8(ascii: "*")
    position += 2
    var depth = 1
    while !atEnd {
      let byte = bytes[position]
      if byte == UInt8(ascii: "/") && peek(1) == UInt8(ascii: "*") {
        depth += 1
        position += 2
      } else if byte == UInt8(ascii: "*") && peek(1) == UInt8(ascii: "/") {
        depth -= 1
        position += 2
        if depth == 0 { break }
      } else {
        if byte == UInt8(ascii: "\n") { newline() }
        position += 1
      }
    }
    if depth > 0 {
      problem("unterminated block comment; add '*/'", line: startLine, column: startColumn)
      return
    }
    if isDoc {
      let body = text(start + 3, position - 2)
      let lines = body.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
        var trimmed = line.drop { $0 == " " || $0 == "\t" }
        if trimmed.hasPrefix("* ") {
          trimmed = trimmed.dropFirst(2)
        } else if trimmed.hasPrefix("*") {
          trimmed = trimmed.dropFirst()
        }
        return String(trimmed).trimmingSpaces()
      }
      pendingDoc = lines.drop { $0.isEmpty }.reversed().drop { $0.isEmpty }.reversed()
    } else {
      pendingDoc.removeAll()
    }
  }

  // MARK: Strings

  /// Skips a string literal starting at the opening quote (after `hashes` `#` characters).
  private mutating func string(hashes: Int) {
    let (startLine, startColumn) = (line, Int32(position - lineStart + 1))
    let multiline = peek(1) == UInt8(ascii: "\"") && peek(2) == UInt8(ascii: "\"")
    position += multiline ? 3 : 1
    stringDepth += 1
    defer { stringDepth -= 1 }
    if stringDepth > Self.maximumStringDepth {
      problem(
        "string interpolations nested more than \(Self.maximumStringDepth) deep; the rest of the file is skipped",
        line: startLine, column: startColumn)
      position = bytes.count
      return
    }
    while !atEnd {
      let byte = bytes[position]
      if byte == UInt8(ascii: "\\") {
        // An escape needs `hashes` `#` after the backslash in a raw string.
        var count = 0
        while count < hashes && peek(1 + count) == UInt8(ascii: "#") { count += 1 }
        if count == hashes {
          position += 1 + hashes
          if peek() == UInt8(ascii: "(") {
            interpolation()
          } else if !atEnd {
            if bytes[position] == UInt8(ascii: "\n") { newline() }
            position += 1
          }
        } else {
          position += 1
        }
        continue
      }
      if byte == UInt8(ascii: "\"") {
        if multiline {
          if peek(1) == UInt8(ascii: "\"") && peek(2) == UInt8(ascii: "\"") && closingHashes(after: 3, hashes)
          {
            position += 3 + hashes
            return
          }
        } else if closingHashes(after: 1, hashes) {
          position += 1 + hashes
          return
        }
        position += 1
        continue
      }
      if byte == UInt8(ascii: "\n") {
        if !multiline {
          problem(
            "unterminated string literal; close it with '\"' on the same line", line: startLine,
            column: startColumn)
          return
        }
        newline()
      }
      position += 1
    }
    problem("unterminated string literal", line: startLine, column: startColumn)
  }

  private func closingHashes(after offset: Int, _ hashes: Int) -> Bool {
    for index in 0..<hashes where peek(offset + index) != UInt8(ascii: "#") { return false }
    return true
  }

  /// Skips `( … )` inside a string, including nested strings, comments and parentheses.
  private mutating func interpolation() {
    var depth = 0
    while !atEnd {
      let byte = bytes[position]
      switch byte {
      case UInt8(ascii: "("):
        depth += 1
        position += 1
      case UInt8(ascii: ")"):
        depth -= 1
        position += 1
        if depth == 0 { return }
      case UInt8(ascii: "\""):
        string(hashes: 0)
      case UInt8(ascii: "#") where rawStringHashes() != nil:
        let hashes = rawStringHashes()!
        position += hashes
        string(hashes: hashes)
      case UInt8(ascii: "/") where peek(1) == UInt8(ascii: "*"):
        let saved = pendingDoc
        blockComment()
        pendingDoc = saved
      case UInt8(ascii: "/") where peek(1) == UInt8(ascii: "/"):
        while !atEnd && bytes[position] != UInt8(ascii: "\n") { position += 1 }
      case UInt8(ascii: "\n"):
        newline()
        position += 1
      default:
        position += 1
      }
    }
  }

  /// If a raw string starts here (`#"`, `##"` …), the number of `#`.
  private func rawStringHashes() -> Int? {
    var count = 0
    while peek(count) == UInt8(ascii: "#") { count += 1 }
    return count > 0 && peek(count) == UInt8(ascii: "\"") ? count : nil
  }

  // MARK: # forms

  private mutating func pound() {
    let start = position
    let (startLine, column) = (line, Int32(position - lineStart + 1))
    if let hashes = rawStringHashes() {
      position += hashes
      string(hashes: hashes)
      emit(.string, start: start, end: position, line: startLine, column: column)
      return
    }
    var count = 0
    while peek(count) == UInt8(ascii: "#") { count += 1 }
    if peek(count) == UInt8(ascii: "/") {
      regex(hashes: count)
      emit(.regex, start: start, end: position, line: startLine, column: column)
      return
    }
    position += 1
    let wordStart = position
    while !atEnd && Self.isIdentifierByte(bytes[position]) { position += 1 }
    let word = text(wordStart, position)
    switch word {
    case "if", "elseif":
      let conditionStart = position
      while !atEnd && bytes[position] != UInt8(ascii: "\n")
        && !(bytes[position] == UInt8(ascii: "/")
          && (peek(1) == UInt8(ascii: "/") || peek(1) == UInt8(ascii: "*")))
      {
        position += 1
      }
      directiveConditions[tokens.count] = text(conditionStart, position).trimmingSpaces()
      emit(.directive, start: start, end: wordStart + word.utf8.count, line: startLine, column: column)
    case "else", "endif":
      emit(.directive, start: start, end: position, line: startLine, column: column)
    default:
      emit(.pound, start: start, end: position, line: startLine, column: column)
    }
  }

  private mutating func regex(hashes: Int) {
    let (startLine, startColumn) = (line, Int32(position - lineStart + 1))
    position += hashes + 1
    while !atEnd {
      let byte = bytes[position]
      if byte == UInt8(ascii: "\\") {
        position += 2
        continue
      }
      if byte == UInt8(ascii: "/") && closingHashes(after: 1, hashes) {
        position += 1 + hashes
        return
      }
      if byte == UInt8(ascii: "\n") { newline() }
      position += 1
    }
    problem("unterminated regex literal", line: startLine, column: startColumn)
  }

  // MARK: Words

  private mutating func identifier() {
    let start = position
    while !atEnd && Self.isIdentifierByte(bytes[position]) { position += 1 }
    emit(.identifier, start: start, end: position, line: line, column: Int32(start - lineStart + 1))
  }

  private mutating func backtickIdentifier() {
    let start = position
    let column = Int32(start - lineStart + 1)
    position += 1
    while !atEnd && bytes[position] != UInt8(ascii: "`") && bytes[position] != UInt8(ascii: "\n") {
      position += 1
    }
    if peek() == UInt8(ascii: "`") {
      emit(.identifier, start: start + 1, end: position, line: line, column: column, backticked: true)
      position += 1
    } else {
      problem("unterminated backtick identifier", line: line, column: column)
    }
  }

  private mutating func number() {
    let start = position
    while !atEnd {
      let byte = bytes[position]
      if Self.isIdentifierByte(byte) {
        position += 1
      } else if byte == UInt8(ascii: ".") && peek(1) >= UInt8(ascii: "0") && peek(1) <= UInt8(ascii: "9") {
        position += 1
      } else if (byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+")) && position > start
        && [UInt8(ascii: "e"), UInt8(ascii: "E"), UInt8(ascii: "p"), UInt8(ascii: "P")].contains(
          bytes[position - 1])
        && !(bytes[start] == UInt8(ascii: "0") && peek(1) == UInt8(ascii: "x")
          && bytes[position - 1] == UInt8(ascii: "e"))
      {
        position += 1
      } else {
        break
      }
    }
    emit(.number, start: start, end: position, line: line, column: Int32(start - lineStart + 1))
  }

  private mutating func operatorRun() {
    let start = position
    while !atEnd && Self.isOperator(bytes[position]) {
      // A comment starts a new token even right after an operator.
      if bytes[position] == UInt8(ascii: "/")
        && (peek(1) == UInt8(ascii: "/") || peek(1) == UInt8(ascii: "*")) && position > start
      {
        break
      }
      position += 1
    }
    let isAssignment = position - start == 1 && bytes[start] == UInt8(ascii: "=")
    emit(
      isAssignment ? .punctuation : .operator, start: start, end: position, line: line,
      column: Int32(start - lineStart + 1))
  }
}

extension String {
  func trimmingSpaces() -> String {
    var scalars = Substring(self)
    while let first = scalars.first, first == " " || first == "\t" || first == "\r" {
      scalars = scalars.dropFirst()
    }
    while let last = scalars.last, last == " " || last == "\t" || last == "\r" {
      scalars = scalars.dropLast()
    }
    return String(scalars)
  }
}

/// The tokens of one file and what the lexer noticed on the way.
public struct LexedSource: Sendable {
  public struct Problem: Sendable, Equatable {
    public var message: String
    public var line: Int32
    public var column: Int32
  }

  public var tokens: [Token]
  /// Doc comments (`///` lines or `/** */` blocks) by the index of the token they precede.
  public var docComments: [Int: String]
  /// The condition text of each `#if` / `#elseif` directive token, by token index.
  public var directiveConditions: [Int: String]
  /// Unterminated comments, strings and the like.
  public var problems: [Problem]
  public var lineCount: Int
}
