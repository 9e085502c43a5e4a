/// The parser of ``WrittenType``: a type's text taken apart, bounded by
/// ``WrittenType/depthLimit``.
extension WrittenType {
  /// Takes a type's text apart, byte by byte; see ``WrittenType/init(parsing:)``.
  struct Parser {
    let bytes: [UInt8]
    var position = 0

    var atEnd: Bool {
      mutating get {
        skipBlanks()
        return position == bytes.count
      }
    }

    mutating func skipBlanks() {
      while position < bytes.count {
        let byte = bytes[position]
        guard byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D else { return }
        position += 1
      }
    }

    mutating func take(_ byte: UInt8) -> Bool {
      skipBlanks()
      guard position < bytes.count, bytes[position] == byte else { return false }
      position += 1
      return true
    }

    /// `->`.
    mutating func takeArrow() -> Bool {
      skipBlanks()
      guard position + 1 < bytes.count, bytes[position] == UInt8(ascii: "-"),
        bytes[position + 1] == UInt8(ascii: ">")
      else { return false }
      position += 2
      return true
    }

    /// `&` of a composition (not `&&`).
    mutating func takeAmpersand() -> Bool {
      skipBlanks()
      guard position < bytes.count, bytes[position] == UInt8(ascii: "&"),
        position + 1 == bytes.count || bytes[position + 1] != UInt8(ascii: "&")
      else { return false }
      position += 1
      return true
    }

    /// The identifier `word` next, taken; nothing taken otherwise.
    mutating func take(word: String) -> Bool {
      let start = position
      if identifier() == word { return true }
      position = start
      return false
    }

    /// The identifier next, without taking it.
    mutating func peekIdentifier() -> String? {
      let start = position
      defer { position = start }
      return identifier()
    }

    /// `_`, a backtick, a digit, an ASCII letter or any byte of a non-ASCII character (compared
    /// as numbers: MAINTAINERS.md's debug-build rules).
    static func isIdentifierByte(_ byte: UInt8) -> Bool {
      byte == 0x5F || byte == 0x60 || byte >= 0x80 || (byte >= 0x30 && byte <= 0x39)
        || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
    }

    mutating func identifier() -> String? {
      skipBlanks()
      let start = position
      while position < bytes.count, Self.isIdentifierByte(bytes[position]) { position += 1 }
      guard position > start, !(0x30...0x39).contains(bytes[start]) else {
        position = start
        return nil
      }
      return String(decoding: bytes[start..<position], as: UTF8.self)
    }

    /// Skips from an opening bracket to past its matching close; `false` if it does not close.
    mutating func skipBalanced() -> Bool {
      var nesting = 0
      while position < bytes.count {
        switch bytes[position] {
        case UInt8(ascii: "("), UInt8(ascii: "["): nesting += 1
        case UInt8(ascii: ")"), UInt8(ascii: "]"):
          nesting -= 1
          if nesting == 0 {
            position += 1
            return true
          }
        default: break
        }
        position += 1
      }
      return false
    }

    /// A type: its attributes and specifiers skipped, a composition of the parts `&` joins.
    mutating func type(depth: Int) -> WrittenType? {
      guard depth < WrittenType.depthLimit else { return nil }
      skipBlanks()
      let typeStart = position
      guard var type = unattributed(depth: depth) else { return nil }
      // A function type is written with its attributes and specifiers.
      if case .function(let parameters, let result, _) = type {
        type = .function(parameters: parameters, result: result, written: written(from: typeStart))
      }
      return type
    }

    /// The text from `start` to here, each run of blanks made one space.
    func written(from start: Int) -> String {
      var text: [UInt8] = []
      var blank = false
      for byte in bytes[start..<position] {
        if byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D {
          blank = true
          continue
        }
        if blank, !text.isEmpty { text.append(0x20) }
        blank = false
        text.append(byte)
      }
      return String(decoding: text, as: UTF8.self)
    }

    /// A type after its attributes and specifiers.
    mutating func unattributed(depth: Int) -> WrittenType? {
      // `@Sendable`, `@escaping`, `@MainActor`, `@convention(c)`; `sending`, `inout`.
      attributes: while true {
        if take(UInt8(ascii: "@")) {
          guard identifier() != nil else { return nil }
          // Arguments are written against the name (`@convention(c)`); `@Sendable ()` is a type after it.
          if position < bytes.count, bytes[position] == UInt8(ascii: "("), !skipBalanced() { return nil }
          continue
        }
        for specifier in ["inout", "sending", "borrowing", "consuming", "__owned", "__shared"] {
          let start = position
          if take(word: specifier), peekIdentifier() != nil || peekOpening() { continue attributes }
          position = start
        }
        break
      }
      if take(word: "any") {
        guard let inner = composition(depth: depth + 1) else { return nil }
        return .existential(inner)
      }
      if take(word: "some") {
        guard let inner = composition(depth: depth + 1) else { return nil }
        return .opaque(inner)
      }
      return composition(depth: depth)
    }

    mutating func peekOpening() -> Bool {
      skipBlanks()
      return position < bytes.count
        && [UInt8(ascii: "("), UInt8(ascii: "["), UInt8(ascii: "@")].contains(bytes[position])
    }

    mutating func composition(depth: Int) -> WrittenType? {
      guard let first = postfixed(depth: depth) else { return nil }
      var parts = [first]
      while takeAmpersand() {
        guard let next = postfixed(depth: depth + 1) else { return nil }
        parts.append(next)
      }
      return parts.count == 1 ? first : .composition(parts)
    }

    /// A type and its postfixes: `?`, `!`, `.Type`, `.Protocol`.
    mutating func postfixed(depth: Int) -> WrittenType? {
      guard var type = primary(depth: depth) else { return nil }
      var wrappers = 0
      while true {
        if take(UInt8(ascii: "?")) || take(UInt8(ascii: "!")) {
          type = .optional(type)
        } else if let metatype = takeMetatype() {
          type = .metatype(type, isProtocol: metatype)
        } else {
          break
        }
        wrappers += 1
        guard depth + wrappers < WrittenType.depthLimit else { return nil }
      }
      return type
    }

    /// `.Type` (`false`) or `.Protocol` (`true`) next, taken.
    mutating func takeMetatype() -> Bool? {
      let start = position
      if take(UInt8(ascii: ".")) {
        switch identifier() {
        case "Type": return false
        case "Protocol": return true
        default: break
        }
      }
      position = start
      return nil
    }

    mutating func primary(depth: Int) -> WrittenType? {
      if take(UInt8(ascii: "[")) { return bracketed(from: position - 1, depth: depth) }
      if take(UInt8(ascii: "(")) { return parenthesized(depth: depth) }
      var components: [Component] = []
      repeat {
        guard let written = identifier() else { return nil }
        // `` `Type` ``: the name `Type`, written in backticks.
        let isEscaped = written.utf8.first == 0x60
        var component = Component(
          name: isEscaped ? written.filter { $0 != "`" } : written, isEscaped: isEscaped)
        if take(UInt8(ascii: "<")) {
          repeat {
            guard let argument = self.argument(depth: depth + 1) else { return nil }
            component.arguments.append(argument)
          } while take(UInt8(ascii: ","))
          guard take(UInt8(ascii: ">")) else { return nil }
        }
        components.append(component)
      } while takeComponentDot()
      return Self.standardForm(of: components)
    }

    /// A `.` before another component.
    mutating func takeComponentDot() -> Bool {
      let start = position
      guard take(UInt8(ascii: ".")) else { return false }
      // Not `.Type`, nor the dots of a variadic parameter (`Int...`).
      guard let next = peekIdentifier(), next != "Type", next != "Protocol" else {
        position = start
        return false
      }
      return true
    }

    /// After `[`: an inline array (`[3 of Int]`), an array or a dictionary.
    mutating func bracketed(from open: Int, depth: Int) -> WrittenType? {
      let afterOpen = position
      skipBlanks()
      // `[3 of Int]`, `[count of Element]`.
      while position < bytes.count, Self.isIdentifierByte(bytes[position]) { position += 1 }
      if position > afterOpen, take(word: "of") {
        position = open
        guard skipBalanced() else { return nil }
        return .inlineArray(String(decoding: bytes[open..<position], as: UTF8.self))
      }
      position = afterOpen
      guard let first = self.type(depth: depth + 1) else { return nil }
      let type: WrittenType
      if take(UInt8(ascii: ":")) {
        guard let value = self.type(depth: depth + 1) else { return nil }
        type = .dictionary(key: first, value: value)
      } else {
        type = .array(first)
      }
      guard take(UInt8(ascii: "]")) else { return nil }
      return type
    }

    /// After `(`: a tuple, a type in parentheses, or a function type's parameters.
    mutating func parenthesized(depth: Int) -> WrittenType? {
      let open = position - 1
      var elements: [WrittenType] = []
      var labeled = false
      if !take(UInt8(ascii: ")")) {
        repeat {
          // `label:`, `_ name:`.
          let start = position
          if identifier() != nil {
            if take(UInt8(ascii: ":")) {
              labeled = true
            } else if identifier() != nil, take(UInt8(ascii: ":")) {
              labeled = true
            } else {
              position = start
            }
          }
          guard let element = self.type(depth: depth + 1) else { return nil }
          elements.append(element)
          // A variadic parameter: `Int...`.
          skipBlanks()
          if position + 2 < bytes.count, bytes[position..<position + 3].elementsEqual("...".utf8) {
            position += 3
          }
        } while take(UInt8(ascii: ","))
        guard take(UInt8(ascii: ")")) else { return nil }
      }
      // A function type's effects and arrow.
      var effects = false
      while true {
        if take(word: "async") || take(word: "rethrows") {
          effects = true
        } else if take(word: "throws") {
          effects = true
          skipBlanks()
          if position < bytes.count, bytes[position] == UInt8(ascii: "("), !skipBalanced() { return nil }
        } else {
          break
        }
      }
      if takeArrow() {
        guard let result = self.type(depth: depth + 1) else { return nil }
        return .function(parameters: elements, result: result, written: written(from: open))
      }
      if effects { return nil }
      return elements.count == 1 && !labeled ? elements[0] : .tuple(elements, written: written(from: open))
    }

    /// A generic argument: a type, or what the model does not take apart (an integer of
    /// `InlineArray<3, Int>`) as ``WrittenType/other(_:)``, so that the components around it keep
    /// their names.
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
