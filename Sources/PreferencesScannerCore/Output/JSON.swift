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
