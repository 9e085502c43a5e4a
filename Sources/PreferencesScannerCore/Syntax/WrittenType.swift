/// A type as written in source, taken apart once: the model the analyses read a written type
/// through (its optionals, collections, dotted components and generic arguments), instead of
/// each cutting the text at brackets and colons again.
///
/// `[[String: Theme]]` is an array of dictionaries from `String` to `Theme`; `Kit.Theme?` an
/// optional of the type named `Kit`, `Theme`; `Box<Int>.Mode` a type nested in a generic one.
/// What the model does not take apart (a tuple, a function type, `some P`, `any P`, text whose
/// brackets do not balance) is ``other(_:)``, which the analyses leave to the compiler.
package indirect enum WrittenType: Equatable, Sendable {
  /// `T?`, `T!`, `Optional<T>`.
  case optional(WrittenType)
  /// `[T]`, `Array<T>`.
  case array(WrittenType)
  /// `Set<T>`.
  case set(WrittenType)
  /// `[K: V]`, `Dictionary<K, V>`.
  case dictionary(key: WrittenType, value: WrittenType)
  /// A nominal type by its dotted components, each with its generic arguments: `Kit.Theme`,
  /// `Pair<Int>`, `Box<Int>.Mode`.
  case named([Component])
  /// Anything else, as written.
  case other(String)

  /// One dotted component of a named type.
  package struct Component: Equatable, Sendable {
    package var name: String
    package var arguments: [WrittenType]

    package init(name: String, arguments: [WrittenType] = []) {
      self.name = name
      self.arguments = arguments
    }
  }

  /// Nested deeper than this (optionals counted), a type is ``other(_:)``: bounded work for any
  /// text.
  static let depthLimit = 32

  /// `text` taken apart.
  package init(parsing text: some StringProtocol) {
    var parser = Parser(bytes: Array(text.utf8))
    if let type = parser.type(depth: 0), parser.atEnd {
      self = type
    } else {
      self = .other(String(text).trimmingBlanks())
    }
  }

  /// The names of a ``named(_:)`` type's components (`["Box", "Mode"]` for `Box<Int>.Mode`), or
  /// `nil` for any other type.
  package var componentNames: [String]? {
    guard case .named(let components) = self else { return nil }
    return components.map(\.name)
  }

  /// The type written back without spaces, collections in their short forms: `[String:Theme]?`,
  /// `Pair<Int>`.
  package var text: String {
    switch self {
    case .optional(let wrapped): wrapped.text + "?"
    case .array(let element): "[" + element.text + "]"
    case .set(let element): "Set<" + element.text + ">"
    case .dictionary(let key, let value): "[" + key.text + ":" + value.text + "]"
    case .named(let components):
      components.map { component in
        component.arguments.isEmpty
          ? component.name
          : component.name + "<" + component.arguments.map(\.text).joined(separator: ",") + ">"
      }.joined(separator: ".")
    case .other(let text): text
    }
  }

  private struct Parser {
    let bytes: [UInt8]
    var position = 0

    var atEnd: Bool {
      mutating get {
        skipBlanks()
        return position == bytes.count
      }
    }

    mutating func skipBlanks() {
      while position < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[position]) { position += 1 }
    }

    mutating func take(_ byte: UInt8) -> Bool {
      skipBlanks()
      guard position < bytes.count, bytes[position] == byte else { return false }
      position += 1
      return true
    }

    static func isIdentifierByte(_ byte: UInt8) -> Bool {
      byte == UInt8(ascii: "_") || byte == UInt8(ascii: "`") || byte >= 0x80 || (0x30...0x39).contains(byte)
        || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
    }

    mutating func identifier() -> String? {
      skipBlanks()
      let start = position
      while position < bytes.count, Self.isIdentifierByte(bytes[position]) { position += 1 }
      guard position > start, !(0x30...0x39).contains(bytes[start]) else { return nil }
      return String(decoding: bytes[start..<position], as: UTF8.self)
    }

    mutating func type(depth: Int) -> WrittenType? {
      guard depth < WrittenType.depthLimit else { return nil }
      var type: WrittenType
      if take(UInt8(ascii: "[")) {
        guard let first = self.type(depth: depth + 1) else { return nil }
        if take(UInt8(ascii: ":")) {
          guard let value = self.type(depth: depth + 1) else { return nil }
          type = .dictionary(key: first, value: value)
        } else {
          type = .array(first)
        }
        guard take(UInt8(ascii: "]")) else { return nil }
      } else {
        var components: [Component] = []
        repeat {
          guard let name = identifier() else { return nil }
          var component = Component(name: name)
          if take(UInt8(ascii: "<")) {
            repeat {
              guard let argument = self.argument(depth: depth + 1) else { return nil }
              component.arguments.append(argument)
            } while take(UInt8(ascii: ","))
            guard take(UInt8(ascii: ">")) else { return nil }
          }
          components.append(component)
        } while take(UInt8(ascii: "."))
        type = Self.standardForm(of: components)
      }
      var optionals = 0
      while take(UInt8(ascii: "?")) || take(UInt8(ascii: "!")) {
        optionals += 1
        guard depth + optionals < WrittenType.depthLimit else { return nil }
        type = .optional(type)
      }
      return type
    }

    /// A generic argument: a type, or what the model does not take apart (`(Int, Int)`,
    /// `() -> Void`, `any P`) as ``WrittenType/other(_:)``, so that the components around it keep
    /// their names (`Box<(Int, Int)>.Mode` is `Box`, `Mode`).
    mutating func argument(depth: Int) -> WrittenType? {
      let start = position
      if let type = self.type(depth: depth) {
        skipBlanks()
        if position < bytes.count,
          bytes[position] == UInt8(ascii: ",") || bytes[position] == UInt8(ascii: ">")
        {
          return type
        }
      }
      position = start
      var nesting = 0
      while position < bytes.count {
        let byte = bytes[position]
        if byte == UInt8(ascii: "-"), position + 1 < bytes.count, bytes[position + 1] == UInt8(ascii: ">") {
          position += 2  // the arrow of a function type
          continue
        }
        switch byte {
        case UInt8(ascii: "("), UInt8(ascii: "["), UInt8(ascii: "<"): nesting += 1
        case UInt8(ascii: ")"), UInt8(ascii: "]"):
          nesting -= 1
          if nesting < 0 { return nil }
        case UInt8(ascii: ">"):
          if nesting == 0 { return other(from: start) }
          nesting -= 1
        case UInt8(ascii: ",") where nesting == 0: return other(from: start)
        default: break
        }
        position += 1
      }
      return nil
    }

    private func other(from start: Int) -> WrittenType? {
      let text = String(decoding: bytes[start..<position], as: UTF8.self).trimmingBlanks()
      return text.isEmpty ? nil : .other(text)
    }

    /// `Optional<T>`, `Array<T>`, `Set<T>` and `Dictionary<K, V>` (also after `Swift.`) as the
    /// cases they are.
    static func standardForm(of components: [Component]) -> WrittenType {
      let last = components[components.count - 1]
      guard components.count == 1 || (components.count == 2 && components[0].name == "Swift"),
        components[0].arguments.isEmpty || components.count == 1
      else { return .named(components) }
      switch (last.name, last.arguments.count) {
      case ("Optional", 1): return .optional(last.arguments[0])
      case ("Array", 1): return .array(last.arguments[0])
      case ("Set", 1): return .set(last.arguments[0])
      case ("Dictionary", 2): return .dictionary(key: last.arguments[0], value: last.arguments[1])
      default: return .named(components)
      }
    }
  }
}
