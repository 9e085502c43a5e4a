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
