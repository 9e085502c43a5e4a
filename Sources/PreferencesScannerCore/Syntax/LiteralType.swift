/// The type a literal expression infers (`"a"` → `String`, `[1, 2.5]` → `[Double]`), if it is
/// one: the one inference the parser (for the types of properties a default may name) and the
/// analysis (for defaults the scanner encodes) share.
package enum LiteralType {
  /// The type `expression` infers, if it is a literal of a standard type (nested at most 32
  /// collections deep: bounded work per expression).
  package static func of(_ expression: ExpressionSyntax) -> String? {
    var position = 0
    guard let type = type(expression, &position, depth: 0), position == expression.tokens.count else {
      return nil
    }
    return type
  }

  fileprivate static func type(_ expression: ExpressionSyntax, _ position: inout Int, depth: Int) -> String? {
    let tokens = expression.tokens
    guard depth < 32, position < tokens.count else { return nil }
    if expression.isOperator(position, "-") { position += 1 }
    guard position < tokens.count else { return nil }
    let token = tokens[position]
    switch token.kind {
    case .number:
      position += 1
      let text = expression.text(position - 1)
      return integer(text) != nil ? "Int" : (double(text) != nil ? "Double" : nil)
    case .string:
      position += 1
      return "String"
    case .identifier where expression.text(position) == "true" || expression.text(position) == "false":
      position += 1
      return "Bool"
    case .punctuation where expression.punct(position, UInt8(ascii: "[")):
      position += 1
      var keys: [String] = []
      var values: [String] = []
      var isDictionary = false
      if expression.punct(position, UInt8(ascii: ":")) { return nil }  // [:]
      while !expression.punct(position, UInt8(ascii: "]")) {
        guard let first = type(expression, &position, depth: depth + 1) else { return nil }
        if expression.punct(position, UInt8(ascii: ":")) {
          isDictionary = true
          position += 1
          guard let value = type(expression, &position, depth: depth + 1) else { return nil }
          keys.append(first)
          values.append(value)
        } else {
          values.append(first)
        }
        if expression.punct(position, UInt8(ascii: ",")) { position += 1 } else { break }
      }
      guard expression.punct(position, UInt8(ascii: "]")), !values.isEmpty else { return nil }
      position += 1
      func unify(_ types: [String]) -> String? {
        if Set(types).count == 1 { return types[0] }
        return types.allSatisfy { $0 == "Int" || $0 == "Double" } ? "Double" : nil
      }
      guard let value = unify(values) else { return nil }
      if isDictionary {
        guard keys.count == values.count, let key = unify(keys) else { return nil }
        return "[\(key): \(value)]"
      }
      return "[\(value)]"
    default:
      return nil
    }
  }

  static func integer(_ text: String) -> Int64? {
    let digits = text.removing("_")
    if digits.utf8.count > 2, digits.utf8.first == UInt8(ascii: "0") {
      for (prefix, radix) in [("0x", 16), ("0o", 8), ("0b", 2)] where digits.hasPrefix(prefix) {
        return Int64(digits.dropFirst(2), radix: radix)
      }
    }
    return Int64(digits)
  }

  static func double(_ text: String) -> Double? {
    let digits = text.removing("_")
    if digits.hasPrefix("0o") || digits.hasPrefix("0b") { return integer(digits).map(Double.init) }
    if digits.hasPrefix("0x") && !digits.contains("p") && !digits.contains("P") {
      return integer(digits).map(Double.init)
    }
    return Double(digits)
  }
}
