// Regex literals, bare (`/…/`, on by default in Swift 6) and extended (`#/…/#`), with the
// characters that used to mislead the scanner: `/*`, `//`, quotes and braces inside them.
import Foundation

struct LogFilter {
  static var comment: Regex<Substring> { /\/*/ }
  static var slash: Regex<Substring> { /\// }
  static var quote: Regex<Substring> { /"/ }
  static var braces: Regex<Substring> { /\{+\}/ }
  static var extended: Regex<(Substring, key: Substring)> {
    #/
    (?<key> [a-z]+ )  # a key
    \s* = \s*          // not a comment
    /#
  }

  func matches(_ line: String) -> Bool {
    line.contains(/\/*/) || line.contains(Self.quote) || line.firstMatch(of: /\}\{/) != nil
  }

  func ratio(_ a: Double, _ b: Double) -> Double { a / b / 2 }

  @Preference var pattern = "error"
  @Preference var threshold = 3
}

struct AfterRegex {
  let parts = "a/b/c".split(separator: "/")
  @Preference var enabled = false
}
