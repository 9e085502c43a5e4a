/// One lexical token of Swift source. Positions are byte offsets into the file's UTF-8; lines and
/// columns are 1-based and count bytes, as the compiler's `#line` and `#column` do.
public struct Token: Sendable, Equatable {
  public enum Kind: UInt8, Sendable {
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
    /// `#if`, `#elseif`, `#else` or `#endif`; the condition is in `ScannedFile.directiveConditions`.
    case directive
    /// Any other `#word` (`#available`, `#selector`, `#fileID`).
    case pound
    /// A regex literal (`#/…/#`).
    case regex
  }

  public var kind: Kind
  public var isBackticked: Bool
  /// Whether a line break separates this token from the previous one.
  public var followsNewline: Bool
  public var start: Int32
  public var end: Int32
  public var line: Int32
  public var column: Int32
}
