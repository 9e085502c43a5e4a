/// The tokens of one expression (a default value, a `store:` argument) or type, kept with its own
/// bytes so that it can be analysed after its file has been released.
package struct ExpressionSyntax: Sendable, Equatable {
  private let bytes: [UInt8]
  package let tokens: [Token]
  /// The source text, as written.
  package let text: String

  /// Lexes `text` on its own.
  package init(text: String) {
    bytes = Array(text.utf8)
    tokens = Lexer.tokenize(bytes).tokens
    self.text = text
  }

  /// Copies `range` of a file's tokens, and the bytes they cover.
  init(_ source: SourceTokens, _ range: ClosedRange<Int>) {
    let start = source[range.lowerBound].start
    let end = source[range.upperBound].end + (source[range.upperBound].isBackticked ? 1 : 0)
    let origin = start - (source[range.lowerBound].isBackticked ? 1 : 0)
    bytes = Array(source.bytes[Int(origin)..<Int(end)])
    tokens = source.tokens[range].map { token in
      var token = token
      token.start -= origin
      token.end -= origin
      return token
    }
    text = String(decoding: bytes, as: UTF8.self)
  }

  package var isEmpty: Bool { tokens.isEmpty }

  /// The text of the token at `index`.
  package func text(_ index: Int) -> String {
    String(decoding: bytes[Int(tokens[index].start)..<Int(tokens[index].end)], as: UTF8.self)
  }

  /// The source text from the first token of `range` to its last, as written.
  package func text(_ range: ClosedRange<Int>) -> String {
    String(
      decoding: bytes[Int(tokens[range.lowerBound].start)..<Int(tokens[range.upperBound].end)], as: UTF8.self)
  }

  /// The first byte of the token at `index`.
  package func firstByte(_ index: Int) -> UInt8 { bytes[Int(tokens[index].start)] }

  /// The identifier at `index`, or `nil`.
  package func word(_ index: Int) -> String? {
    guard tokens.indices.contains(index), tokens[index].kind == .identifier else { return nil }
    return text(index)
  }

  /// Whether the token at `index` is the punctuation `byte`.
  package func punct(_ index: Int, _ byte: UInt8) -> Bool {
    tokens.indices.contains(index) && tokens[index].kind == .punctuation
      && bytes[Int(tokens[index].start)] == byte
  }

  /// Whether the token at `index` is the operator `text`.
  package func isOperator(_ index: Int, _ text: String) -> Bool {
    tokens.indices.contains(index) && tokens[index].kind == .operator && self.text(index) == text
  }

  /// Whether the token at `index` opens a bracket: `(`, `[` or `{`.
  package func opens(_ index: Int) -> Bool {
    punct(index, UInt8(ascii: "(")) || punct(index, UInt8(ascii: "[")) || punct(index, UInt8(ascii: "{"))
  }

  /// Whether the token at `index` closes a bracket: `)`, `]` or `}`.
  package func closes(_ index: Int) -> Bool {
    punct(index, UInt8(ascii: ")")) || punct(index, UInt8(ascii: "]")) || punct(index, UInt8(ascii: "}"))
  }

  /// The index of the bracket that closes the one at `open`, or the token count if none does.
  package func matchingClose(_ open: Int) -> Int {
    var depth = 0
    for index in open..<tokens.count {
      if opens(index) {
        depth += 1
      } else if closes(index) {
        depth -= 1
        if depth == 0 { return index }
      }
    }
    return tokens.count
  }

  /// The token after a type name at `index` and its generic arguments, if it has any
  /// (`Box<Key, [Int]>(…)`: the `(`), else `index + 1`; and whether the lexer joined a member's
  /// `.` to the closing `>` (`Box<Int>.make()`: the token at `next` is then `make`).
  package func afterGenericArguments(_ index: Int) -> (next: Int, joinedDot: Bool) {
    let open = index + 1
    guard tokens.indices.contains(open), tokens[open].kind == .operator, firstByte(open) == UInt8(ascii: "<")
    else {
      return (open, false)
    }
    var depth = 0
    var position = open
    // Generic arguments are types: names, `.`, `,`, brackets, `?`, `!`, `&`, `:`. Anything else
    // (a number, a string, another operator) is a comparison, not a type's arguments.
    while position < tokens.count, position - open < 256 {
      switch tokens[position].kind {
      case .identifier: break
      case .punctuation:
        guard
          [UInt8(ascii: ","), UInt8(ascii: "."), UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: ":")]
            .contains(firstByte(position))
        else { return (open, false) }
      case .operator:
        let text = Array(self.text(position).utf8)
        // `&` joins protocols (`any P & Q`); `&&` is a condition.
        if text.count > 1, text.contains(UInt8(ascii: "&")) { return (open, false) }
        for (offset, byte) in text.enumerated() {
          switch byte {
          case UInt8(ascii: "<"): depth += 1
          case UInt8(ascii: ">"):
            depth -= 1
            if depth == 0 {
              let rest = text[(offset + 1)...]
              if rest.isEmpty { return (position + 1, false) }
              if rest.elementsEqual([UInt8(ascii: ".")]) { return (position + 1, true) }
              return (open, false)
            }
          case UInt8(ascii: "?"), UInt8(ascii: "!"), UInt8(ascii: "&"), UInt8(ascii: "."): break
          default: return (open, false)
          }
        }
      default: return (open, false)
      }
      position += 1
    }
    return (open, false)
  }

  /// The identifiers, argument labels excepted.
  package var identifiers: [String] {
    tokens.indices.compactMap { index in punct(index + 1, UInt8(ascii: ":")) ? nil : word(index) }
  }
}

// The bytes, not the text, so that a cached expression is exactly the one parsed (text decoded
// from invalid UTF-8 would not give the same bytes back).
extension ExpressionSyntax: Archivable {
  package init(from reader: inout ArchiveReader) throws(ArchiveReader.Damaged) {
    bytes = try reader.byteRun()
    tokens = try reader.items()
    // Every token within the bytes: analysis reads a token's text by its offsets.
    for token in tokens where !(0 <= token.start && token.start <= token.end && Int(token.end) <= bytes.count)
    {
      throw ArchiveReader.Damaged()
    }
    text = String(decoding: bytes, as: UTF8.self)
  }

  package func archive(into writer: inout ArchiveWriter) {
    writer.byteRun(bytes)
    writer.items(tokens)
  }
}
