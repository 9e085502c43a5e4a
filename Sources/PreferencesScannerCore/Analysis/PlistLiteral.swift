#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A default written as a literal of a standard type, encoded by the scanner as the store will
/// hold it, so that generated code registers it without evaluating anything.
package indirect enum PlistLiteral: Sendable, Equatable {
  case bool(Bool)
  case integer(Int64)
  case double(Double)
  case string(String)
  case array([PlistLiteral])
  /// Keys sorted, for a stable encoding.
  case dictionary([String: PlistLiteral])

  private enum Scalar { case integer, double, bool, string }

  private indirect enum Shape {
    case scalar(Scalar)
    case array(Shape)
    case dictionary(Shape)
  }

  /// The literal `expression` encoded as a value of `type` (or of the type the literal infers),
  /// or `nil` if it is not a literal of a standard type.
  /// `inferred`: `type` is already the literal's own type when none is declared
  /// (``LiteralType/of(_:)``, or `nil` when it has none), which is then not inferred again.
  package static func encode(_ expression: ExpressionSyntax, as type: WrittenType?, inferred: Bool = false)
    -> PlistLiteral?
  {
    let shape: Shape?
    if let type {
      shape = Self.shape(of: type)
    } else if inferred {
      shape = nil
    } else {
      shape = LiteralType.of(expression).flatMap { Self.shape(of: WrittenType(parsing: $0)) }
    }
    guard let shape else { return nil }
    var position = 0
    guard let value = parse(expression, &position, shape), position == expression.tokens.count else {
      return nil
    }
    return value
  }

  /// Nested deeper than 32 collections, a type is left to generated code: bounded work per
  /// declaration.
  private static func shape(of type: WrittenType, depth: Int = 0) -> Shape? {
    guard depth < 32 else { return nil }
    var type = type
    if case .optional(let wrapped) = type { type = wrapped }
    switch type {
    case .array(let element): return shape(of: element, depth: depth + 1).map(Shape.array)
    case .dictionary(.named([WrittenType.Component(name: "String")]), let value):
      return shape(of: value, depth: depth + 1).map(Shape.dictionary)
    case .named(let components) where components.count == 1 && components[0].arguments.isEmpty: break
    default: return nil
    }
    let text = type.text
    if StandardTypes.name(text, has: .storedAsInteger) { return .scalar(.integer) }
    if StandardTypes.name(text, has: .storedAsReal) { return .scalar(.double) }
    switch text {
    case "Bool": return .scalar(.bool)
    case "String": return .scalar(.string)
    default: return nil
    }
  }

  private static func parse(_ expression: ExpressionSyntax, _ position: inout Int, _ shape: Shape)
    -> PlistLiteral?
  {
    let tokens = expression.tokens
    guard position < tokens.count else { return nil }
    switch shape {
    case .scalar(let scalar):
      var negative = false
      if expression.isOperator(position, "-") {
        negative = true
        position += 1
      }
      guard position < tokens.count else { return nil }
      let text = expression.text(position)
      position += 1
      switch (scalar, tokens[position - 1].kind) {
      case (.integer, .number):
        guard let value = LiteralType.integer(text) else { return nil }
        return .integer(negative ? -value : value)
      case (.double, .number):
        guard let value = LiteralType.double(text) else { return nil }
        return .double(negative ? -value : value)
      case (.bool, .identifier) where !negative && (text == "true" || text == "false"):
        return .bool(text == "true")
      case (.string, .string) where !negative:
        return StringLiteral.value(of: text).map(PlistLiteral.string)
      default:
        return nil
      }
    case .array(let element):
      guard expression.punct(position, UInt8(ascii: "[")) else { return nil }
      position += 1
      var values: [PlistLiteral] = []
      while !expression.punct(position, UInt8(ascii: "]")) {
        guard let value = parse(expression, &position, element) else { return nil }
        values.append(value)
        if expression.punct(position, UInt8(ascii: ",")) { position += 1 } else { break }
      }
      guard expression.punct(position, UInt8(ascii: "]")) else { return nil }
      position += 1
      return .array(values)
    case .dictionary(let value):
      guard expression.punct(position, UInt8(ascii: "[")) else { return nil }
      position += 1
      var values: [String: PlistLiteral] = [:]
      if expression.punct(position, UInt8(ascii: ":")) {
        position += 1
      } else {
        while !expression.punct(position, UInt8(ascii: "]")) {
          guard case .string(let key)? = parse(expression, &position, .scalar(.string)),
            expression.punct(position, UInt8(ascii: ":"))
          else { return nil }
          position += 1
          guard let element = parse(expression, &position, value) else { return nil }
          values[key] = element
          if expression.punct(position, UInt8(ascii: ",")) { position += 1 } else { break }
        }
      }
      guard expression.punct(position, UInt8(ascii: "]")) else { return nil }
      position += 1
      return .dictionary(values)
    }
  }

  /// The value in the JSON form the runtime reads (`{"integer": 42}`).
  package var json: JSONValue {
    switch self {
    case .bool(let value): .object([("bool", .bool(value))])
    case .integer(let value): .object([("integer", .number(String(value)))])
    case .double(let value): .object([("double", .number(value.isFinite ? "\(value)" : "0"))])
    case .string(let value): .object([("string", .string(value))])
    case .array(let values): .object([("array", .array(values.map(\.json)))])
    case .dictionary(let values):
      .object([("dictionary", .object(values.keys.sorted().map { ($0, values[$0]!.json) }))])
    }
  }

  /// The value as an XML property list document, as `PropertyListSerialization` writes one
  /// (dictionary keys sorted, a tab per level).
  package var propertyListXML: String {
    var out = """
      <?xml version="1.0" encoding="UTF-8"?>
      <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
      <plist version="1.0">

      """
    writeXML(to: &out, indent: "")
    return out + "</plist>\n"
  }

  /// A real as Foundation's property list writer writes it (`%.17g`: `30`, `0.10000000000000001`,
  /// `1e+20`), so that an exported file is the one Foundation would write. `vsnprintf` is the C
  /// library's on every host the scanner runs on (Glibc, Musl, Darwin); `withVaList(_:_:)` is
  /// the standard library's (macOS 10.10+, per Apple's documentation).
  static func realText(_ value: Double) -> String {
    guard value.isFinite else { return "0" }
    var buffer = [CChar](repeating: 0, count: 40)
    let count = withVaList([value]) { arguments in
      buffer.withUnsafeMutableBufferPointer { vsnprintf($0.baseAddress, $0.count, "%.17g", arguments) }
    }
    guard count > 0, count < buffer.count else { return "\(value)" }
    return String(decoding: buffer[..<Int(count)].map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  private func writeXML(to out: inout String, indent: String) {
    func escaped(_ text: String) -> String {
      guard text.contains(where: { $0 == "&" || $0 == "<" || $0 == ">" }) else { return text }
      var result = ""
      for character in text {
        switch character {
        case "&": result += "&amp;"
        case "<": result += "&lt;"
        case ">": result += "&gt;"
        default: result.append(character)
        }
      }
      return result
    }
    switch self {
    case .bool(let value): out += indent + (value ? "<true/>\n" : "<false/>\n")
    case .integer(let value): out += indent + "<integer>\(value)</integer>\n"
    case .double(let value): out += indent + "<real>\(Self.realText(value))</real>\n"
    case .string(let value): out += indent + "<string>\(escaped(value))</string>\n"
    case .array(let values):
      guard !values.isEmpty else { return out += indent + "<array/>\n" }
      out += indent + "<array>\n"
      for value in values { value.writeXML(to: &out, indent: indent + "\t") }
      out += indent + "</array>\n"
    case .dictionary(let values):
      guard !values.isEmpty else { return out += indent + "<dict/>\n" }
      out += indent + "<dict>\n"
      for key in values.keys.sorted() {
        out += indent + "\t<key>\(escaped(key))</key>\n"
        values[key]!.writeXML(to: &out, indent: indent + "\t")
      }
      out += indent + "</dict>\n"
    }
  }
}
