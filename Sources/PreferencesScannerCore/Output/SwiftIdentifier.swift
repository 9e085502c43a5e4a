/// Writing names into generated Swift: every identifier taken from input is escaped for where it
/// lands, so that no name (a keyword, a raw identifier with spaces) can break the generated file.
package enum SwiftIdentifier {
  /// Words that must be quoted with backticks to be used as names.
  static let keywords: Set<String> = [
    "associatedtype", "borrowing", "class", "consuming", "deinit", "enum", "extension", "fileprivate", "func",
    "import", "init", "inout", "internal", "let", "nonisolated", "open", "operator", "package", "private",
    "precedencegroup", "protocol", "public", "rethrows", "static", "struct", "subscript", "typealias", "var",
    "break", "case", "catch", "continue", "default", "defer", "do", "else", "fallthrough", "for", "guard",
    "if",
    "in", "repeat", "return", "throw", "switch", "where", "while", "Any", "as", "await", "false", "is", "nil",
    "self", "Self", "super", "throws", "true", "try", "_",
    // Not keywords, but after a dot they make a metatype (`Item.Type`): a component so named is
    // written in backticks.
    "Type", "Protocol",
  ]

  /// `name` as it must be written: plain if it is a plain identifier, else in backticks (a raw
  /// identifier may hold anything but a backtick and a line break, which are dropped).
  package static func escaped(_ name: String) -> String {
    if isPlain(name) && !keywords.contains(name) { return name }
    let safe = name.filter { $0 != "`" && $0 != "\n" && $0 != "\r" }
    return "`\(safe.isEmpty ? "_" : safe)`"
  }

  /// A plain identifier made from `text`, for names the generator invents (`_Preferences_…`):
  /// letters, digits and `_` kept, anything else spelled as `_uXXXX_`.
  /// A qualified name (`Outer.default`) with each component escaped as ``escaped(_:)`` does.
  package static func escapedPath(_ name: String) -> String {
    name.split(separator: ".").map { escaped(String($0)) }.joined(separator: ".")
  }

  package static func mangled(_ text: String) -> String {
    var out = ""
    for scalar in text.unicodeScalars {
      if scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)) {
        out.unicodeScalars.append(scalar)
      } else if scalar == "_" {
        out += "__"
      } else {
        out += "_u\(String(scalar.value, radix: 16))_"
      }
    }
    return out
  }

  static func isPlain(_ name: String) -> Bool {
    guard let first = name.unicodeScalars.first, first == "_" || first.properties.isXIDStart else {
      return false
    }
    return name.unicodeScalars.dropFirst().allSatisfy { $0.properties.isXIDContinue }
  }

  /// Text for a `//` comment: line breaks and control characters become spaces.
  package static func comment(_ text: String) -> String {
    String(
      text.unicodeScalars.map {
        $0.value < 0x20 || $0.value == 0x7F || $0 == "\u{2028}" || $0 == "\u{2029}" ? " " : Character($0)
      })
  }
}
