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
    var result = "\""
    for scalar in value.unicodeScalars {
      switch scalar {
      case "\"": result += "\\\""
      case "\\": result += "\\\\"
      case "\n": result += "\\n"
      case "\r": result += "\\r"
      case "\t": result += "\\t"
      case "\0": result += "\\0"
      default:
        if scalar.value < 0x20 || scalar.value == 0x7F {
          result += "\\u{\(String(scalar.value, radix: 16))}"
        } else {
          result.unicodeScalars.append(scalar)
        }
      }
    }
    return result + "\""
  }
}
