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

  /// The type of arithmetic on number literals, or of a range between two (`0...10` is a
  /// `ClosedRange<Int>`, `0..<1.5` a `Range<Double>`), if `expression` is one of them.
  package static func computed(_ expression: ExpressionSyntax) -> String? {
    arithmetic(expression) ?? range(expression)
  }

  /// The type Swift gives arithmetic on number literals alone (`60 * 60`, `1.0 / 3`,
  /// `-(2 + 3)`): `Double` where a literal is a floating-point one, else `Int`; `nil` for
  /// anything else, and for `%` with a floating-point literal (which `Double` does not have).
  static func arithmetic(_ expression: ExpressionSyntax) -> String? {
    var expectsOperand = true
    var depth = 0
    var isDouble = false
    var hasRemainder = false
    for index in expression.tokens.indices {
      if expression.punct(index, UInt8(ascii: "(")) {
        guard expectsOperand else { return nil }
        depth += 1
      } else if expression.punct(index, UInt8(ascii: ")")) {
        guard !expectsOperand, depth > 0 else { return nil }
        depth -= 1
      } else if expression.tokens[index].kind == .number {
        guard expectsOperand else { return nil }
        let text = expression.text(index)
        if integer(text) == nil {
          guard double(text) != nil else { return nil }
          isDouble = true
        }
        expectsOperand = false
      } else if expectsOperand, expression.isOperator(index, "-") {
        continue  // A sign.
      } else if !expectsOperand,
        let symbol = ["+", "-", "*", "/", "%"].first(where: {
          expression.isOperator(index, $0)
        })
      {
        hasRemainder = hasRemainder || symbol == "%"
        expectsOperand = true
      } else {
        return nil
      }
    }
    guard !expectsOperand, depth == 0 else { return nil }
    return isDouble ? (hasRemainder ? nil : "Double") : "Int"
  }

  /// `a...b` or `a..<b` of number literals (signed).
  static func range(_ expression: ExpressionSyntax) -> String? {
    guard
      let operatorIndex = expression.tokens.indices.first(where: {
        expression.isOperator($0, "...") || expression.isOperator($0, "..<")
      }), operatorIndex > 0, operatorIndex < expression.tokens.count - 1
    else { return nil }
    var position = 0
    guard let lower = type(expression, &position, depth: 0), position == operatorIndex else { return nil }
    position += 1
    guard let upper = type(expression, &position, depth: 0), position == expression.tokens.count,
      ["Int", "Double"].contains(lower), ["Int", "Double"].contains(upper)
    else { return nil }
    let bound = lower == "Double" || upper == "Double" ? "Double" : "Int"
    return (expression.isOperator(operatorIndex, "...") ? "ClosedRange<" : "Range<") + bound + ">"
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
