/// A file's bytes and tokens, with the questions the parser asks about them answered in O(1):
/// a token's text, whether it is a given word or punctuation, and where its bracket closes.
struct SourceTokens {
  let bytes: [UInt8]
  let tokens: [Token]
  let docComments: [Int: String]
  /// For each `(`, `[` or `{`: the index of the bracket that closes it, and the reverse; -1 where
  /// there is none. Computed once; `#if` branches each start from the nesting their group started
  /// with, as the compiler reads them.
  private let matching: [Int32]

  init(bytes: [UInt8], lexed: LexedSource) {
    self.bytes = bytes
    self.tokens = lexed.tokens
    self.docComments = lexed.docComments
    // A plain loop over indices, comparing bytes with numeric literals, with arrays for the
    // stacks: this runs over every token, and a debug build (how SwiftPM builds the plugin's
    // tool) calls out for iterators, `UInt8(ascii:)` and generic nodes.
    let tokens = lexed.tokens
    var matching = [Int32](repeating: -1, count: tokens.count)
    var open: [Int] = []  // the brackets not closed yet, innermost last
    var groups: [[Int]] = []  // `open` where each enclosing `#if` group started
    var index = 0
    while index < tokens.count {
      let token = tokens[index]
      switch token.kind {
      case .punctuation:
        let byte = bytes[Int(token.start)]
        if byte == 0x28 || byte == 0x5B || byte == 0x7B {  // ( [ {
          open.append(index)
        } else if byte == 0x29 || byte == 0x5D || byte == 0x7D, let opener = open.popLast() {  // ) ] }
          matching[opener] = Int32(index)
          matching[index] = Int32(opener)
        }
      case .directive:
        switch bytes[Int(token.start) + 1] {
        case 0x69: groups.append(open)  // #if
        case 0x65 where token.end - token.start == 6: _ = groups.popLast()  // #endif
        default: if let start = groups.last { open = start }  // #else, #elseif
        }
      default:
        break
      }
      index += 1
    }
    self.matching = matching
  }

  var count: Int { tokens.count }

  subscript(index: Int) -> Token { tokens[index] }

  func text(_ index: Int) -> String {
    let token = tokens[index]
    return String(decoding: bytes[Int(token.start)..<Int(token.end)], as: UTF8.self)
  }

  func text(from first: Int, through last: Int) -> String {
    guard first <= last else { return "" }
    return String(decoding: bytes[Int(tokens[first].start)..<Int(tokens[last].end)], as: UTF8.self)
  }

  /// The tokens' text with every run of whitespace and comments between them made one space (or
  /// nothing, where the tokens touch): `os(macOS) /* … */ || os(Linux)` → `os(macOS) || os(Linux)`.
  func normalizedText(from first: Int, through last: Int) -> String {
    guard first <= last else { return "" }
    var out = ""
    for index in first...last {
      let token = tokens[index]
      // Blank between the two tokens, their backticks counted as theirs (`` Item.`Type` ``).
      if index > first,
        token.start - (token.isBackticked ? 1 : 0) > tokens[index - 1].end
          + (tokens[index - 1].isBackticked ? 1 : 0)
      {
        out += " "
      }
      if token.isBackticked { out += "`" }
      out += String(decoding: bytes[Int(token.start)..<Int(token.end)], as: UTF8.self)
      if token.isBackticked { out += "`" }
    }
    return out
  }

  func isPunct(_ index: Int, _ byte: UInt8) -> Bool {
    index >= 0 && index < tokens.count && tokens[index].kind == .punctuation
      && bytes[Int(tokens[index].start)] == byte
  }

  /// Whether the token at `index` is the unquoted word `word`.
  func isWord(_ index: Int, _ word: StaticString) -> Bool {
    guard index >= 0, index < tokens.count, tokens[index].kind == .identifier, !tokens[index].isBackticked
    else {
      return false
    }
    let token = tokens[index]
    let count = Int(token.end - token.start)
    guard count == word.utf8CodeUnitCount else { return false }
    for offset in 0..<count where bytes[Int(token.start) + offset] != word.utf8Start[offset] { return false }
    return true
  }

  func isWord(_ index: Int, in words: Set<String>) -> Bool {
    guard index >= 0, index < tokens.count, tokens[index].kind == .identifier, !tokens[index].isBackticked
    else {
      return false
    }
    return words.contains(text(index))
  }

  func isIdentifier(_ index: Int) -> Bool {
    index >= 0 && index < tokens.count && tokens[index].kind == .identifier
  }

  func isOperator(_ index: Int, startingWith byte: UInt8) -> Bool {
    index >= 0 && index < tokens.count && tokens[index].kind == .operator
      && bytes[Int(tokens[index].start)] == byte
  }

  func isOperator(_ index: Int, _ text: StaticString) -> Bool {
    guard index >= 0, index < tokens.count, tokens[index].kind == .operator else { return false }
    let token = tokens[index]
    let count = Int(token.end - token.start)
    guard count == text.utf8CodeUnitCount else { return false }
    for offset in 0..<count where bytes[Int(token.start) + offset] != text.utf8Start[offset] { return false }
    return true
  }

  /// The bracket that closes the one at `open`, or the last token if it is never closed.
  func matchingClose(_ open: Int) -> Int {
    let close = Int(matching[open])
    return close >= 0 ? close : tokens.count - 1
  }

  /// The bracket that the one at `close` closes, if any.
  func matchingOpen(_ close: Int) -> Int? {
    let open = Int(matching[close])
    return open >= 0 ? open : nil
  }

  /// Whether the tokens at `first` and `second` touch (no space or comment between them).
  func touch(_ first: Int, _ second: Int) -> Bool { tokens[first].end == tokens[second].start }
}
