/// A Swift lexer that knows exactly enough of the language to never mistake the inside of a
/// comment, string or regex literal for code: line, doc and nested block comments; single-line,
/// multi-line and raw string literals with interpolations (nested to a bounded depth); regex
/// literals, both `#/…/#` and bare `/…/` (decided by the language's own rule, as in Swift 6);
/// backticked identifiers; a byte order mark; and `#if` directives.
///
/// It works on bytes, in one pass, and never fails: malformed input (an unterminated comment or
/// string) ends the token at the end of the input or line and adds a problem.
struct Lexer {
  var tokens: [Token] = []
  var docComments: [Int: String] = [:]
  var problems: [LexedSource.Problem] = []

  let bytes: UnsafeBufferPointer<UInt8>
  var position = 0
  var line: Int32 = 1
  var lineStart = 0
  var sawNewline = true
  var pendingDoc: [String] = []
  /// Strings inside interpolations inside strings…: recursion, so it is bounded.
  var stringDepth = 0
  /// Set when a string nested too deep ended the scan: the strings around it are not reported.
  var gaveUp = false
  static let maximumStringDepth = 32

  /// Tokenizes `source`.
  static func tokenize(_ source: [UInt8]) -> LexedSource {
    source.withUnsafeBufferPointer { buffer in
      var lexer = Lexer(bytes: buffer)
      lexer.run()
      return LexedSource(
        tokens: lexer.tokens, docComments: lexer.docComments, problems: lexer.problems,
        lineCount: Int(lexer.line))
    }
  }

  init(bytes: UnsafeBufferPointer<UInt8>) {
    self.bytes = bytes
    tokens.reserveCapacity(bytes.count / 5)
  }

  // MARK: Helpers

  // The lexer's readers (these and the lookahead helpers below) are `mutating` though they only
  // read: called from a mutating method, a non-mutating one gets a copy of `self` in a debug
  // build, retaining its arrays on every call, and SwiftPM builds the plugin's tool in debug.

  @inline(__always) mutating func peek(_ offset: Int = 0) -> UInt8 {
    let index = position + offset
    return index >= 0 && index < bytes.count ? bytes[index] : 0
  }

  @inline(__always) mutating func byte(at index: Int) -> UInt8 {
    index >= 0 && index < bytes.count ? bytes[index] : 0
  }

  @inline(__always) var atEnd: Bool { mutating get { position >= bytes.count } }

  @inline(__always) var column: Int32 { mutating get { Int32(position - lineStart + 1) } }

  @inline(__always) mutating func newline() {
    line += 1
    lineStart = position + 1
  }

  mutating func problem(_ message: String, line: Int32, column: Int32) {
    problems.append(LexedSource.Problem(message: message, line: line, column: column))
  }

  mutating func emit(
    _ kind: Token.Kind, start: Int, end: Int, line: Int32, column: Int32, backticked: Bool = false
  ) {
    // Every token lies within the input, whatever a scanning rule did at its end: the parser
    // slices the bytes by these offsets.
    let end = min(end, bytes.count)
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

  mutating func text(_ start: Int, _ end: Int) -> String {
    String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
  }

  mutating func equals(_ token: Token, _ word: StaticString) -> Bool {
    let count = Int(token.end - token.start)
    guard count == word.utf8CodeUnitCount else { return false }
    for offset in 0..<count where bytes[Int(token.start) + offset] != word.utf8Start[offset] { return false }
    return true
  }

  // MARK: Main loop

  mutating func run() {
    // A byte order mark is skipped, but still counts toward the first line's columns, as the
    // compiler's #column counts it.
    if bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF { position = 3 }
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
        let (startLine, startColumn, start) = (line, column, position)
        string(hashes: 0)
        emit(.string, start: start, end: position, line: startLine, column: startColumn)
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
        emit(.punctuation, start: position, end: position + 1, line: line, column: column)
        position += 1
      case UInt8(ascii: "."):
        if peek(1) == UInt8(ascii: ".") {
          operatorRun()
        } else {
          emit(.punctuation, start: position, end: position + 1, line: line, column: column)
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

  // The two byte classes below are tested on every byte, and a debug build (which is how SwiftPM
  // builds the plugin's tool) calls `UInt8(ascii:)` and `ClosedRange.contains` rather than
  // folding them: so they compare with numeric literals, which it does fold.

  /// `/ = - + ! * % < > & | ^ ~ ? .`
  @inline(__always) static func isOperator(_ byte: UInt8) -> Bool {
    switch byte {
    case 0x2F, 0x3D, 0x2D, 0x2B, 0x21, 0x2A, 0x25, 0x3C, 0x3E, 0x26, 0x7C, 0x5E, 0x7E, 0x3F, 0x2E: true
    default: false
    }
  }

  /// `a`–`z`, `A`–`Z`, `0`–`9`, `_`, `$`, and any byte of a multi-byte UTF-8 character.
  @inline(__always) static func isIdentifierByte(_ byte: UInt8) -> Bool {
    (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x30 && byte <= 0x39)
      || byte == 0x5F || byte == 0x24 || byte >= 0x80
  }

  // MARK: Comments

  mutating func lineComment() {
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

  mutating func blockComment() {
    let start = position
    let (startLine, startColumn) = (line, column)
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
  mutating func string(hashes: Int) {
    let (startLine, startColumn) = (line, column)
    // `#"""#` is a one-line raw string holding a quote, as is any raw string whose closing
    // delimiter follows on the opening line: the language's lexer checks the rest of the line
    // before it takes `"""` after `#` for a multi-line opening.
    let multiline =
      peek(1) == UInt8(ascii: "\"") && peek(2) == UInt8(ascii: "\"")
      && !(hashes > 0 && closesOnItsLine(from: position + 2, hashes))
    position += multiline ? 3 : 1
    stringDepth += 1
    defer { stringDepth -= 1 }
    if stringDepth > Self.maximumStringDepth {
      problem(
        "string interpolations nested more than \(Self.maximumStringDepth) deep; the scanner cannot read the rest of the file",
        line: startLine, column: startColumn)
      position = bytes.count
      gaveUp = true
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
    // Strings around one nested too deep end with the file too: that one was reported.
    if !gaveUp { problem("unterminated string literal", line: startLine, column: startColumn) }
  }

  /// Whether a quote followed by `hashes` `#` comes before the end of the line, from `start`.
  func closesOnItsLine(from start: Int, _ hashes: Int) -> Bool {
    var index = start
    while index < bytes.count, bytes[index] != UInt8(ascii: "\n"), bytes[index] != UInt8(ascii: "\r") {
      index += 1
      guard bytes[index - 1] == UInt8(ascii: "\"") else { continue }
      var count = 0
      while count < hashes, index + count < bytes.count, bytes[index + count] == UInt8(ascii: "#") {
        count += 1
      }
      if count == hashes { return true }
    }
    return false
  }

  mutating func closingHashes(after offset: Int, _ hashes: Int) -> Bool {
    for index in 0..<hashes where peek(offset + index) != UInt8(ascii: "#") { return false }
    return true
  }

  /// Skips `( … )` inside a string, including nested strings, comments and parentheses.
  mutating func interpolation() {
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
  mutating func rawStringHashes() -> Int? {
    var count = 0
    while peek(count) == UInt8(ascii: "#") { count += 1 }
    return count > 0 && peek(count) == UInt8(ascii: "\"") ? count : nil
  }

  // MARK: # forms

  mutating func pound() {
    let (startLine, startColumn, start) = (line, column, position)
    if let hashes = rawStringHashes() {
      position += hashes
      string(hashes: hashes)
      emit(.string, start: start, end: position, line: startLine, column: startColumn)
      return
    }
    var count = 0
    while peek(count) == UInt8(ascii: "#") { count += 1 }
    if peek(count) == UInt8(ascii: "/") {
      extendedRegex(hashes: count)
      emit(.regex, start: start, end: position, line: startLine, column: startColumn)
      return
    }
    position += 1
    let wordStart = position
    while !atEnd && Self.isIdentifierByte(bytes[position]) { position += 1 }
    switch text(wordStart, position) {
    case "if", "elseif", "else", "endif":
      emit(.directive, start: start, end: position, line: startLine, column: startColumn)
    default:
      emit(.pound, start: start, end: position, line: startLine, column: startColumn)
    }
  }

  /// `#/…/#`, `##/…/##`: ends at `/` followed by as many `#`; may span lines when the opening
  /// delimiter ends its line.
  mutating func extendedRegex(hashes: Int) {
    let (startLine, startColumn) = (line, column)
    position += hashes + 1
    while !atEnd {
      let byte = bytes[position]
      if byte == UInt8(ascii: "\\") {
        if peek(1) == UInt8(ascii: "\n") { newline() }
        // A backslash that ends the input escapes nothing: never step past the end.
        position = min(position + 2, bytes.count)
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

  mutating func identifier() {
    let start = position
    while !atEnd && Self.isIdentifierByte(bytes[position]) { position += 1 }
    emit(.identifier, start: start, end: position, line: line, column: Int32(start - lineStart + 1))
  }

  mutating func backtickIdentifier() {
    let start = position
    let startColumn = column
    position += 1
    while !atEnd && bytes[position] != UInt8(ascii: "`") && bytes[position] != UInt8(ascii: "\n") {
      position += 1
    }
    if peek() == UInt8(ascii: "`") {
      emit(.identifier, start: start + 1, end: position, line: line, column: startColumn, backticked: true)
      position += 1
    } else {
      problem("unterminated backtick identifier", line: line, column: startColumn)
    }
  }

  mutating func number() {
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

  mutating func operatorRun() {
    let start = position
    let startColumn = column
    while !atEnd && Self.isOperator(bytes[position]) {
      // A comment starts a new token even right after an operator; `.` continues an operator
      // only if it started with one.
      if bytes[position] == UInt8(ascii: "/")
        && (peek(1) == UInt8(ascii: "/") || peek(1) == UInt8(ascii: "*"))
        && position > start
      {
        break
      }
      if bytes[position] == UInt8(ascii: ".") && position > start && bytes[start] != UInt8(ascii: ".") {
        break
      }
      position += 1
    }
    let end = position
    // A regex literal may start at the first '/' of the operator.
    if let slash = (start..<end).first(where: { bytes[$0] == UInt8(ascii: "/") }),
      let regexEnd = bareRegex(slash: slash, operatorStart: start, operatorEnd: end)
    {
      if slash > start {
        emit(.operator, start: start, end: slash, line: line, column: startColumn)
      }
      position = slash
      let (regexLine, regexColumn) = (line, column)
      while position < regexEnd {
        if bytes[position] == UInt8(ascii: "\n") { newline() }
        position += 1
      }
      if regexEnd == bytes.count || byte(at: regexEnd - 1) != UInt8(ascii: "/") {
        problem("unterminated regex literal", line: regexLine, column: regexColumn)
      }
      emit(.regex, start: slash, end: regexEnd, line: regexLine, column: regexColumn)
      return
    }
    let isAssignment = end - start == 1 && bytes[start] == UInt8(ascii: "=")
    emit(isAssignment ? .punctuation : .operator, start: start, end: end, line: line, column: startColumn)
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
package struct LexedSource: Sendable {
  package struct Problem: Sendable, Equatable {
    package var message: String
    package var line: Int32
    package var column: Int32
  }

  package var tokens: [Token]
  /// Doc comments (`///` lines or `/** */` blocks) by the index of the token they precede.
  package var docComments: [Int: String]
  /// Unterminated comments, strings and the like.
  package var problems: [Problem]
  package var lineCount: Int
}
