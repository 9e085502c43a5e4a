#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads and writes Swift string literals.
enum StringLiteral {
  /// The value of a plain literal (`"…"` or `#"…"#`, no interpolation), or `nil`.
  static func value(of literal: String) -> String? {
    var body = Substring(literal)
    var hashes = 0
    while body.first == "#" && body.last == "#" && body.count >= 2 {
      body = body.dropFirst().dropLast()
      hashes += 1
    }
    // A raw literal opening with `"""` on one line (`#"""#`, a quote) is a one-line literal.
    let multiline = body.hasPrefix("\"\"\"") && (hashes == 0 || body.contains("\n"))
    guard body.count >= 2, body.first == "\"", body.last == "\"", !multiline else {
      return nil
    }
    body = body.dropFirst().dropLast()
    let escape = "\\" + String(repeating: "#", count: hashes)
    if hashes > 0 {
      return body.contains(escape) ? nil : String(body)
    }
    var result = ""
    var iterator = body.makeIterator()
    while let character = iterator.next() {
      guard character == "\\" else {
        result.append(character)
        continue
      }
      switch iterator.next() {
      case "n": result.append("\n")
      case "t": result.append("\t")
      case "r": result.append("\r")
      case "0": result.append("\0")
      case "\"": result.append("\"")
      case "'": result.append("'")
      case "\\": result.append("\\")
      case "u":
        guard iterator.next() == "{" else { return nil }
        var hex = ""
        while let digit = iterator.next(), digit != "}" { hex.append(digit) }
        guard let code = UInt32(hex, radix: 16), let scalar = Unicode.Scalar(code) else { return nil }
        result.unicodeScalars.append(scalar)
      default:
        return nil  // interpolation or invalid escape
      }
    }
    return result
  }

  /// `value` as a raw Swift string literal (`#"…"#`, with as many `#` as it takes), for long
  /// text full of quotes and backslashes such as JSON: written without rewriting a byte. Falls
  /// back to ``quote(_:)`` for text with line breaks or other control characters.
  static func rawQuote(_ value: String) -> String {
    // C library searches, not loops over bytes: the scanner runs as a debug build in users'
    // builds, where such a loop costs a hundred times more.
    if value.containsByte(from: controlCharacters) { return quote(value) }
    var hashes = "#"
    while contains(value, "\"" + hashes) || contains(value, "\\" + hashes) { hashes += "#" }
    return hashes + "\"" + value + "\"" + hashes
  }

  /// Whether `text`'s UTF-8 holds `bytes`' UTF-8, compared byte by byte as the Swift lexer
  /// reads them (no Unicode equivalence). Neither may contain a NUL, which ends a C string.
  private static func contains(_ text: String, _ bytes: String) -> Bool {
    text.withCString { haystack in bytes.withCString { needle in strstr(haystack, needle) != nil } }
  }

  private static let controlCharacters = String.ByteSet(String.controlBytes)

  /// `value` as a Swift string literal.
  static func quote(_ value: String) -> String {
    var bytes: [UInt8] = [UInt8(ascii: "\"")]
    bytes.reserveCapacity(value.utf8.count + 2)
    for byte in value.utf8 {
      switch byte {
      case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes.append(UInt8(ascii: "\\")); bytes.append(byte)
      case UInt8(ascii: "\n"): bytes.append(UInt8(ascii: "\\")); bytes.append(UInt8(ascii: "n"))
      case UInt8(ascii: "\r"): bytes.append(UInt8(ascii: "\\")); bytes.append(UInt8(ascii: "r"))
      case UInt8(ascii: "\t"): bytes.append(UInt8(ascii: "\\")); bytes.append(UInt8(ascii: "t"))
      case 0: bytes.append(UInt8(ascii: "\\")); bytes.append(UInt8(ascii: "0"))
      case 0..<0x20, 0x7F: bytes += Array("\\u{\(String(byte, radix: 16))}".utf8)
      default: bytes.append(byte)
      }
    }
    bytes.append(UInt8(ascii: "\""))
    return String(decoding: bytes, as: UTF8.self)
  }
}

extension String {
  /// A set of bytes for ``containsByte(from:)``: non-NUL bytes, ASCII or UTF-8 lead bytes.
  struct ByteSet: Sendable {
    /// The bytes as a C string.
    fileprivate let terminated: [CChar]
    init(_ bytes: [UInt8]) { terminated = (bytes + [0]).map { CChar(bitPattern: $0) } }
  }

  /// The C0 control characters but NUL, and DEL: with NUL, which ``containsByte(from:)``
  /// always finds, the bytes a Swift string literal cannot hold as they are.
  static let controlBytes: [UInt8] = Array(1...0x1F) + [0x7F]

  /// Whether the UTF-8 holds a NUL or one of `set`: the C library's search, which the debug
  /// builds the scanner runs as do not slow down as they do a loop over bytes.
  func containsByte(from set: ByteSet) -> Bool {
    withCString { text in strlen(text) != utf8.count || strpbrk(text, set.terminated) != nil }
  }

  /// Whether the UTF-8 holds `text` (no NUL in either): the C library's search, as above.
  func containsText(_ text: String) -> Bool {
    withCString { strstr($0, text) != nil }
  }

  /// The text after the last separator, separators at the end ignored (`"Sources/App/"` → `"App"`
  /// with `/`); the string itself when no separator precedes that text or there is no such
  /// text. Read by bytes: splitting by `Character` was a tenth of a release-built scan (every
  /// conformance's last component) and 29 k instructions a path in the debug-built scanner the
  /// plugin runs on every edit.
  func lastComponent(separatedBy isSeparator: (UInt8) -> Bool) -> String {
    let bytes = utf8
    var end = bytes.endIndex
    while end > bytes.startIndex, isSeparator(bytes[bytes.index(before: end)]) {
      end = bytes.index(before: end)
    }
    var start = end
    while start > bytes.startIndex, !isSeparator(bytes[bytes.index(before: start)]) {
      start = bytes.index(before: start)
    }
    if start == end || (start == bytes.startIndex && end == bytes.endIndex) { return self }
    return String(decoding: bytes[start..<end], as: UTF8.self)
  }

  /// The string without any `character`: a plain scan, much cheaper than Foundation's
  /// `replacingOccurrences(of:with:)` on the scanner's hot paths.
  func removing(_ character: Character) -> String {
    guard let byte = character.asciiValue,
      utf8.withContiguousStorageIfAvailable({
        $0.isEmpty ? false : memchr($0.baseAddress!, Int32(byte), $0.count) != nil
      })
        ?? utf8.contains(byte)
    else { return self }
    return String(decoding: utf8.filter { $0 != byte }, as: UTF8.self)
  }
}

extension StringProtocol {
  /// The text without the spaces and tabs at either end.
  func trimmingBlanks() -> String {
    let isBlank = { (character: Character) in character == " " || character == "\t" }
    guard let first = firstIndex(where: { !isBlank($0) }), let last = lastIndex(where: { !isBlank($0) })
    else {
      return ""
    }
    return String(self[first...last])
  }

  /// The last place `text` occurs.
  func lastRange(of text: String) -> Range<Index>? { ranges(of: text).last }

  /// The text on one line: each line break (`\n`, `\r\n`, `\r` and the other Unicode ones)
  /// a space.
  var singleLine: String {
    contains(where: \.isNewline) ? String(map { $0.isNewline ? " " : $0 }) : String(self)
  }
}
