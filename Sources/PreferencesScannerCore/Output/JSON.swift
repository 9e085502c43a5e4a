/// A JSON value with members in a fixed order, and the one writer and escaper the scanner uses
/// for every JSON it prints or generates.
package indirect enum JSONValue: Sendable, Equatable {
  case null
  case bool(Bool)
  /// A number, as JSON text.
  case number(String)
  case string(String)
  case array([JSONValue])
  case object([(String, JSONValue)])

  package static func == (a: JSONValue, b: JSONValue) -> Bool { a.text == b.text }

  /// `value` or `null`.
  package static func optional(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }
  package static func strings(_ values: [String]) -> JSONValue { .array(values.map(JSONValue.string)) }
  package static func number(_ value: Int) -> JSONValue { .number(String(value)) }

  /// Compact JSON.
  package var text: String {
    var out = ""
    write(to: &out, indent: nil)
    return out
  }

  /// JSON with one member or element per line, indented by two spaces per level.
  package var prettyText: String { prettyText(indent: "") }

  /// Pretty JSON for a value nested at `indent` (its first line is not indented).
  package func prettyText(indent: String) -> String {
    var out = ""
    write(to: &out, indent: indent)
    return out
  }

  // Index loops and no per-member allocations: the scanner runs as a debug build in users'
  // builds (SwiftPM builds plugin tools in the build's configuration), where iterator
  // abstractions are not optimized away.
  private func write(to out: inout String, indent: String?) {
    switch self {
    case .null: out += "null"
    case .bool(let value): out += value ? "true" : "false"
    case .number(let text): out += text
    case .string(let value): Self.escape(value, into: &out)
    case .array(let values):
      guard !values.isEmpty else { return out += "[]" }
      out += "["
      let inner = indent.map { $0 + "  " }
      var index = 0
      while index < values.count {
        if index > 0 { out += "," }
        if let inner { out += "\n" + inner }
        values[index].write(to: &out, indent: inner)
        index += 1
      }
      if let indent { out += "\n" + indent }
      out += "]"
    case .object(let members):
      guard !members.isEmpty else { return out += "{}" }
      out += "{"
      let inner = indent.map { $0 + "  " }
      var index = 0
      while index < members.count {
        if index > 0 { out += "," }
        if let inner { out += "\n" + inner }
        Self.escape(members[index].0, into: &out)
        out += inner == nil ? ":" : ": "
        members[index].1.write(to: &out, indent: inner)
        index += 1
      }
      if let indent { out += "\n" + indent }
      out += "}"
    }
  }

  /// Writes `text` as a JSON string: quotes, backslashes and control characters escaped, and the
  /// line and paragraph separators too, so the result is safe inside Swift and JavaScript.
  package static func escape(_ text: String, into out: inout String) {
    if !needsEscaping(text) {
      out += "\""
      out += text
      out += "\""
      return
    }
    var bytes: [UInt8] = [UInt8(ascii: "\"")]
    bytes.reserveCapacity(text.utf8.count + 2)
    let utf8 = Array(text.utf8)
    var index = 0
    while index < utf8.count {
      let byte = utf8[index]
      switch byte {
      case UInt8(ascii: "\""): bytes.append(UInt8(ascii: "\\")); bytes.append(byte)
      case UInt8(ascii: "\\"): bytes.append(UInt8(ascii: "\\")); bytes.append(byte)
      case UInt8(ascii: "\n"): bytes.append(UInt8(ascii: "\\")); bytes.append(UInt8(ascii: "n"))
      case UInt8(ascii: "\r"): bytes.append(UInt8(ascii: "\\")); bytes.append(UInt8(ascii: "r"))
      case UInt8(ascii: "\t"): bytes.append(UInt8(ascii: "\\")); bytes.append(UInt8(ascii: "t"))
      case 0..<0x20, 0x7F: bytes += hexEscape(UInt32(byte))
      case 0xE2
      where index + 2 < utf8.count && utf8[index + 1] == 0x80
        && (utf8[index + 2] == 0xA8 || utf8[index + 2] == 0xA9):
        // U+2028 and U+2029: valid in JSON, but line breaks to JavaScript and some editors.
        bytes += hexEscape(utf8[index + 2] == 0xA8 ? 0x2028 : 0x2029)
        index += 2
      default: bytes.append(byte)
      }
      index += 1
    }
    bytes.append(UInt8(ascii: "\""))
    out += String(decoding: bytes, as: UTF8.self)
  }

  /// Whether `text` has a byte that ``escape(_:into:)`` may rewrite (most keys, names and
  /// numbers have none, and are then copied whole): control characters, quotes, backslashes,
  /// and the lead byte of U+2028 and U+2029.
  private static func needsEscaping(_ text: String) -> Bool {
    text.containsByte(from: escapedBytes)
  }

  private static let escapedBytes = String.ByteSet(
    String.controlBytes + [UInt8(ascii: "\""), UInt8(ascii: "\\"), 0xE2])

  private static func hexEscape(_ value: UInt32) -> [UInt8] {
    let hex = String(value, radix: 16)
    return Array(("\\u" + String(repeating: "0", count: 4 - hex.count) + hex).utf8)
  }
}

extension JSONValue {
  /// Where text is not JSON, and why.
  package struct ParseError: Error, Equatable {
    package var message: String
    /// 1-based, in lines of the text and UTF-8 bytes of the line, as compilers count.
    package var line: Int
    package var column: Int
  }

  /// The JSON value `text` holds (RFC 8259: one value, whitespace around it, after a UTF-8 byte
  /// order mark if an editor wrote one), members of objects in their order in the text. Numbers
  /// are kept as written.
  package static func parse(_ text: [UInt8]) throws(ParseError) -> JSONValue {
    var parser = Parser(bytes: text)
    if text.starts(with: [0xEF, 0xBB, 0xBF]) { parser.position = 3 }
    parser.skipSpace()
    let value = try parser.value(depth: 0)
    parser.skipSpace()
    guard parser.position == text.count else { throw parser.error("unexpected text after the JSON value") }
    return value
  }

  private struct Parser {
    let bytes: [UInt8]
    var position = 0

    func error(_ message: String) -> ParseError {
      var line = 1
      var lineStart = 0
      var index = 0
      while index < min(position, bytes.count) {
        if bytes[index] == UInt8(ascii: "\n") {
          line += 1
          lineStart = index + 1
        }
        index += 1
      }
      return ParseError(message: message, line: line, column: position - lineStart + 1)
    }

    var current: UInt8? { position < bytes.count ? bytes[position] : nil }

    mutating func skipSpace() {
      while let byte = current, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { position += 1 }
    }

    mutating func expect(_ word: String, _ value: JSONValue) throws(ParseError) -> JSONValue {
      let start = position
      for byte in word.utf8 {
        guard current == byte else {
          position = start
          throw error("expected '\(word)'")
        }
        position += 1
      }
      return value
    }

    mutating func value(depth: Int) throws(ParseError) -> JSONValue {
      guard depth < 256 else { throw error("values nested more than 256 deep") }
      switch current {
      case UInt8(ascii: "{")?:
        position += 1
        var members: [(String, JSONValue)] = []
        skipSpace()
        if current == UInt8(ascii: "}") {
          position += 1
          return .object(members)
        }
        while true {
          skipSpace()
          guard current == UInt8(ascii: "\"") else { throw error("expected a member name in double quotes") }
          let name = try string()
          skipSpace()
          guard current == UInt8(ascii: ":") else { throw error("expected ':' after the member name") }
          position += 1
          skipSpace()
          members.append((name, try value(depth: depth + 1)))
          skipSpace()
          if current == UInt8(ascii: ",") {
            position += 1
          } else if current == UInt8(ascii: "}") {
            position += 1
            return .object(members)
          } else {
            throw error("expected ',' or '}' after an object member")
          }
        }
      case UInt8(ascii: "[")?:
        position += 1
        var elements: [JSONValue] = []
        skipSpace()
        if current == UInt8(ascii: "]") {
          position += 1
          return .array(elements)
        }
        while true {
          skipSpace()
          elements.append(try value(depth: depth + 1))
          skipSpace()
          if current == UInt8(ascii: ",") {
            position += 1
          } else if current == UInt8(ascii: "]") {
            position += 1
            return .array(elements)
          } else {
            throw error("expected ',' or ']' after an array element")
          }
        }
      case UInt8(ascii: "\"")?: return .string(try string())
      case UInt8(ascii: "t")?: return try expect("true", .bool(true))
      case UInt8(ascii: "f")?: return try expect("false", .bool(false))
      case UInt8(ascii: "n")?: return try expect("null", .null)
      case let byte?
      where byte == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte):
        return try number()
      case nil: throw error("expected a value, found the end of the text")
      default: throw error("expected a value (an object, array, string, number, true, false or null)")
      }
    }

    mutating func digits() -> Int {
      let start = position
      while let byte = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { position += 1 }
      return position - start
    }

    mutating func number() throws(ParseError) -> JSONValue {
      let start = position
      if current == UInt8(ascii: "-") { position += 1 }
      if current == UInt8(ascii: "0") {
        position += 1
      } else if digits() == 0 {
        throw error("expected a digit")
      }
      if current == UInt8(ascii: ".") {
        position += 1
        guard digits() > 0 else { throw error("expected a digit after '.'") }
      }
      if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
        position += 1
        if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { position += 1 }
        guard digits() > 0 else { throw error("expected a digit in the exponent") }
      }
      return .number(String(decoding: bytes[start..<position], as: UTF8.self))
    }

    mutating func hexQuad() throws(ParseError) -> UInt32 {
      var value: UInt32 = 0
      for _ in 0..<4 {
        guard let byte = current, let digit = Int(String(UnicodeScalar(byte)), radix: 16) else {
          throw error("expected four hexadecimal digits after '\\u'")
        }
        value = value * 16 + UInt32(digit)
        position += 1
      }
      return value
    }

    mutating func string() throws(ParseError) -> String {
      position += 1
      var out: [UInt8] = []
      while true {
        guard let byte = current else { throw error("unterminated string") }
        switch byte {
        case UInt8(ascii: "\""):
          position += 1
          return String(decoding: out, as: UTF8.self)
        case 0..<0x20: throw error("a control character in a string must be escaped")
        case UInt8(ascii: "\\"):
          position += 1
          guard let escaped = current else { throw error("unterminated string") }
          position += 1
          switch escaped {
          case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(escaped)
          case UInt8(ascii: "b"): out.append(0x08)
          case UInt8(ascii: "f"): out.append(0x0C)
          case UInt8(ascii: "n"): out.append(0x0A)
          case UInt8(ascii: "r"): out.append(0x0D)
          case UInt8(ascii: "t"): out.append(0x09)
          case UInt8(ascii: "u"):
            var scalar = try hexQuad()
            if (0xD800..<0xDC00).contains(scalar), bytes[position...].starts(with: Array("\\u".utf8)) {
              position += 2
              let low = try hexQuad()
              guard (0xDC00..<0xE000).contains(low) else {
                throw error("an unpaired surrogate in '\\u' escapes")
              }
              scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            }
            guard let unicode = UnicodeScalar(scalar) else {
              throw error("an unpaired surrogate in '\\u' escapes")
            }
            out += Array(String(Character(unicode)).utf8)
          default:
            position -= 2
            throw error("unknown escape '\\\(String(UnicodeScalar(escaped)))'")
          }
        default:
          out.append(byte)
          position += 1
        }
      }
    }
  }
}
