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
    guard body.count >= 2, body.first == "\"", body.last == "\"", !body.hasPrefix("\"\"\"") else {
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
  /// The string without any `character`: a plain scan, much cheaper than Foundation's
  /// `replacingOccurrences(of:with:)` on the scanner's hot paths.
  func removing(_ character: Character) -> String {
    guard let byte = character.asciiValue, utf8.contains(byte) else { return self }
    return String(decoding: utf8.filter { $0 != byte }, as: UTF8.self)
  }
}
