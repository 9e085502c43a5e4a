/// The tokens of one expression (a default value or a `store:` argument), kept with its own
/// bytes so that a declaration can be checked after its file has been released.
struct ExpressionTokens: Sendable, Equatable {
  private var bytes: [UInt8]
  private(set) var tokens: [Token]

  /// Lexes `text` on its own.
  init(text: String) {
    bytes = Array(text.utf8)
    tokens = Lexer.tokenize(bytes).tokens
  }

  /// Copies `range` of a file's tokens, and the bytes they cover.
  init(source: [UInt8], tokens fileTokens: [Token], range: ClosedRange<Int>) {
    let start = fileTokens[range.lowerBound].start
    bytes = Array(source[Int(start)..<Int(fileTokens[range.upperBound].end)])
    tokens = fileTokens[range].map { token in
      var token = token
      token.start -= start
      token.end -= start
      return token
    }
  }

  /// The identifier at `index`, or `nil`.
  func word(_ index: Int) -> String? {
    guard tokens.indices.contains(index), tokens[index].kind == .identifier else { return nil }
    return String(decoding: bytes[Int(tokens[index].start)..<Int(tokens[index].end)], as: UTF8.self)
  }

  /// Whether the token at `index` is the punctuation `byte`.
  func punct(_ index: Int, _ byte: UInt8) -> Bool {
    tokens.indices.contains(index) && tokens[index].kind == .punctuation
      && bytes[Int(tokens[index].start)] == byte
  }

  /// The identifiers, argument labels excepted.
  var identifiers: [String] {
    tokens.indices.compactMap { index in punct(index + 1, UInt8(ascii: ":")) ? nil : word(index) }
  }
}
