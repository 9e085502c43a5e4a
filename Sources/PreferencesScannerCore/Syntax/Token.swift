/// One lexical token of Swift source. Positions are byte offsets into the file's UTF-8; lines and
/// columns are 1-based and count bytes, as the compiler's `#line` and `#column` do (a byte order
/// mark at the start of the file counts toward the first line's columns).
package struct Token: Sendable, Equatable {
  package enum Kind: UInt8, Sendable {
    /// An identifier or keyword; backticked identifiers have `isBackticked` set and their range
    /// excludes the backticks.
    case identifier
    /// One of `{ } ( ) [ ] , : ; @ .` or a lone `=`.
    case punctuation
    /// A run of operator characters (`->`, `==`, `<`, `>>`, `?`, `...`).
    case `operator`
    /// A string literal of any form, interpolations included.
    case string
    /// A number literal.
    case number
    /// `#if`, `#elseif`, `#else` or `#endif`; a condition's tokens follow as ordinary tokens.
    case directive
    /// Any other `#word` (`#available`, `#selector`, `#sourceLocation`).
    case pound
    /// A regex literal (`/…/` or `#/…/#`).
    case regex
  }

  package var kind: Kind
  package var isBackticked: Bool
  /// Whether a line break separates this token from the previous one.
  package var followsNewline: Bool
  package var start: Int32
  package var end: Int32
  package var line: Int32
  package var column: Int32
}

// Six numbers per token rather than a keyed object: parse caches hold many tokens.
extension Token: Codable {
  package init(from decoder: any Decoder) throws {
    var container = try decoder.unkeyedContainer()
    guard let kind = Kind(rawValue: try container.decode(UInt8.self)) else {
      throw DecodingError.dataCorruptedError(in: container, debugDescription: "unknown token kind")
    }
    let flags = try container.decode(UInt8.self)
    self.init(
      kind: kind, isBackticked: flags & 1 != 0, followsNewline: flags & 2 != 0,
      start: try container.decode(Int32.self), end: try container.decode(Int32.self),
      line: try container.decode(Int32.self), column: try container.decode(Int32.self))
  }

  package func encode(to encoder: any Encoder) throws {
    var container = encoder.unkeyedContainer()
    try container.encode(kind.rawValue)
    try container.encode((isBackticked ? 1 : 0) | (followsNewline ? 2 : 0) as UInt8)
    try container.encode(start)
    try container.encode(end)
    try container.encode(line)
    try container.encode(column)
  }
}
