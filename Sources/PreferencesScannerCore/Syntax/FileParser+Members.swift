/// Members a default may name, stored properties, enum cases, and the defaults of keys enums.
extension FileParser {
  // MARK: Members

  /// The effective access of a member of the current scope: a `private` extension's members are
  /// fileprivate.
  mutating func effectiveAccess(_ written: AccessLevel?) -> AccessLevel? {
    if written == nil, let scope = innermostScope, scopes[scope].kind == .extension,
      scopes[scope].access?.isFilePrivate == true
    {
      return .fileprivate
    }
    return written
  }

  mutating func member(
    _ kind: MemberSyntax.Kind, name: String, introducer: Int, nameIndex: Int, type: String? = nil,
    initialValue: String? = nil, stringValue: String? = nil, isStatic: Bool? = nil
  ) {
    let (modifiers, _) = self.modifiers(before: introducer)
    members.append(
      MemberSyntax(
        owner: innermostScope, name: name, kind: kind, isStatic: isStatic ?? modifiers.isStatic,
        access: effectiveAccess(modifiers.access), isNonisolated: modifiers.isNonisolated,
        attributeNames: modifiers.attributeNames, type: type, initialValue: initialValue,
        stringValue: stringValue,
        isFailable: kind == .initializer && source.isOperator(nameIndex + 1, startingWith: UInt8(ascii: "?")),
        hasPayload: false, branch: currentBranch))
  }

  /// `var`/`let` in a type body (static ones) or at file scope: its name, type and initial value.
  mutating func property(at index: Int) {
    let (modifiers, _) = self.modifiers(before: index)
    if !isAtFileScope, !modifiers.isStatic {
      storedProperty(at: index, attributeNames: modifiers.attributeNames)
      if source.isWord(index + 1, "defaultValue") { keyDefaultsSwitch(at: index) }
    }
    guard isAtFileScope || modifiers.isStatic, source.isIdentifier(index + 1) else { return }
    if source.isPunct(index - 1, UInt8(ascii: "@")) { return }
    let name = source.text(index + 1)
    var (type, cursor) = annotation(after: index + 1)
    var initialValue: String?
    var stringValue: String?
    let initializerEnd = source.isPunct(cursor, UInt8(ascii: "=")) ? expressionEnd(from: cursor + 1) : nil
    if let end = initializerEnd, source.isWord(index, "let") {
      stringValue = stringLiteralValue(cursor + 1, end)
    }
    if type == nil, let end = initializerEnd {
      if end > cursor + 1 {
        type = literalType(cursor + 1, end - 1)
        if type == nil,
          Int(source[end - 1].end) - Int(source[cursor + 1].start) <= MemberSyntax.initialValueLimit
        {
          initialValue = source.normalizedText(from: cursor + 1, through: end - 1)
        }
      }
    }
    member(
      .property, name: name, introducer: index, nameIndex: index + 1, type: type, initialValue: initialValue,
      stringValue: stringValue)
  }

  /// The type annotation after the name at `nameIndex` (`: T`), if written, and the index just
  /// past it (just past the name when there is none).
  mutating func annotation(after nameIndex: Int) -> (type: String?, end: Int) {
    let colon = nameIndex + 1
    guard source.isPunct(colon, UInt8(ascii: ":")) else { return (nil, colon) }
    let end = typeEnd(from: colon + 1)
    return (end > colon + 1 ? source.normalizedText(from: colon + 1, through: end - 1) : nil, end)
  }

  /// An instance `var`/`let` of a struct or enum declaration, one record per binding
  /// (`var x = 0.0, y = 0.0`; `var red, green: Double` gives both the written type): the type
  /// of what it stores, as far as syntax shows (written, a literal's, `T(…)`, or `T.member`,
  /// which the analysis resolves), or `nil` when syntax does not show it (a property wrapper, a
  /// pattern, an initial value of another form). Computed properties store nothing and are not
  /// recorded, nor is a preference: what it stores is the `Sendable` wrapper, whatever its
  /// value's type.
  mutating func storedProperty(at index: Int, attributeNames: [String]) {
    guard let scope = innermostScope, scopes[scope].kind == .struct || scopes[scope].kind == .enum else {
      return
    }
    if attributeNames.count == 1, attributeNames[0] == "Preference" { return }
    guard attributeNames.isEmpty else {
      storedProperties.append(StoredPropertySyntax(scope: scope, type: nil))
      return
    }
    var cursor = index + 1
    // Bindings with neither a type nor an initial value so far: they take the next written type.
    var awaitingType = 0
    while true {
      guard source.isIdentifier(cursor) else {
        // A pattern (`let (a, b) = …`): what it stores is not followed.
        storedProperties.append(StoredPropertySyntax(scope: scope, type: nil))
        return
      }
      let nameIndex = cursor
      var (type, next) = annotation(after: nameIndex)
      cursor = next
      var member: String?
      // A `RawRepresentable` struct's raw type, stored or computed: what makes it storable.
      if type != nil, source.isWord(nameIndex, "rawValue") {
        self.member(
          .property, name: "rawValue", introducer: index, nameIndex: nameIndex, type: type, isStatic: false)
      }
      if type != nil, source.isPunct(cursor, UInt8(ascii: "{")) {
        // `{ get … }` or a getter body: computed; `{ willSet/didSet … }`: stored, with observers.
        let observed = source.isWord(cursor + 1, "willSet") || source.isWord(cursor + 1, "didSet")
        if !observed { return }
        cursor = source.matchingClose(cursor) + 1
      }
      let written = type
      if source.isPunct(cursor, UInt8(ascii: "=")) {
        let end = expressionEnd(from: cursor + 1)
        if type == nil, end > cursor + 1 { (type, member) = initialValueType(cursor + 1, end - 1) }
        cursor = end
      } else if type == nil {
        awaitingType += 1
        guard source.isPunct(cursor, UInt8(ascii: ",")) else { break }
        cursor += 1
        continue
      }
      for _ in 0..<awaitingType {
        storedProperties.append(StoredPropertySyntax(scope: scope, type: written, member: nil))
      }
      awaitingType = 0
      storedProperties.append(StoredPropertySyntax(scope: scope, type: type, member: member))
      guard source.isPunct(cursor, UInt8(ascii: ",")) else { break }
      cursor += 1
    }
    for _ in 0..<awaitingType { storedProperties.append(StoredPropertySyntax(scope: scope, type: nil)) }
  }

  /// What an initial value from `first` through `last` shows of its type: a literal's, `T(…)`
  /// of a capitalized name (a type by convention, not a function), `[T]()` or `[K: V]()`, or
  /// `T<…>()`, or `T.member` (a case or static property, returned as `T` and `member`: the
  /// analysis decides whether the member is of type `T`).
  mutating func initialValueType(_ first: Int, _ last: Int) -> (type: String?, member: String?) {
    if let literal = literalType(first, last) { return (literal, nil) }
    if first <= last, last < source.count,
      let computed = LiteralType.computed(ExpressionSyntax(source, first...last))
    {
      return (computed, nil)
    }
    let capitalized = source.isIdentifier(first) && source.text(first).first?.isUppercase == true
    // `T(…)`, or `T(…)!` (a failable initializer, forced).
    if capitalized, source.isPunct(first + 1, UInt8(ascii: "(")),
      case let close = source.matchingClose(first + 1),
      close == last || close + 1 == last && source.isOperator(last, "!")
    {
      return (source.text(first), nil)
    }
    // `Set<String>()`, `Dictionary<String, Int>()`.
    if capitalized, let arguments = genericArgumentsEnd(from: first + 1),
      source.isPunct(arguments, UInt8(ascii: "(")),
      source.matchingClose(arguments) == last
    {
      return (source.normalizedText(from: first, through: arguments - 1), nil)
    }
    if capitalized, last == first + 2, source.isPunct(first + 1, UInt8(ascii: ".")), source.isIdentifier(last)
    {
      return (source.text(first), source.text(last))
    }
    // `T.member(…)`: what a static function (or a case with a payload) of `T` makes.
    if capitalized, source.isPunct(first + 1, UInt8(ascii: ".")), source.isIdentifier(first + 2),
      source.isPunct(first + 3, UInt8(ascii: "(")), source.matchingClose(first + 3) == last
    {
      return (source.text(first), source.text(first + 2))
    }
    if source.isPunct(first, UInt8(ascii: "[")) {
      let close = source.matchingClose(first)
      if source.isPunct(close + 1, UInt8(ascii: "(")), source.isPunct(close + 2, UInt8(ascii: ")")),
        close + 2 == last
      {
        return (source.normalizedText(from: first, through: close), nil)
      }
    }
    return (nil, nil)
  }

  /// `var defaultValue: any PreferenceValue { switch self { case .a: … } }` in a type body: the
  /// default expression of each case, for the typed keys of a ``PreferenceKeys`` enum (which
  /// the analysis decides the type is). Recorded with `clauses` empty when the body is not a
  /// `switch self` (optionally inside `get { }`).
  mutating func keyDefaultsSwitch(at index: Int) {
    guard let scope = innermostScope else { return }
    let place = source[index + 1]
    var cursor = index + 2
    if source.isPunct(cursor, UInt8(ascii: ":")) { cursor = typeEnd(from: cursor + 1) }
    guard source.isPunct(cursor, UInt8(ascii: "{")) else { return }
    var bodyOpen = cursor
    if source.isWord(cursor + 1, "get"), source.isPunct(cursor + 2, UInt8(ascii: "{")) {
      bodyOpen = cursor + 2
    }
    var body = bodyOpen + 1
    if source.isWord(body, "return") { body += 1 }
    var clauses: [KeyDefaultsSyntax.Clause] = []
    if source.isWord(body, "switch"), source.isWord(body + 1, "self"),
      source.isPunct(body + 2, UInt8(ascii: "{"))
    {
      let close = source.matchingClose(body + 2)
      var position = body + 3
      /// The `#if` groups open in the switch: the conditions of each group's earlier branches,
      /// and of the branch the clauses are in (`nil` for `#else`).
      var groups: [(previous: [String], current: String?)] = []
      func clauseCondition() -> String? {
        let parts = groups.flatMap { group in
          group.previous.map { "!(\($0))" } + (group.current.map { ["(\($0))"] } ?? [])
        }
        return parts.isEmpty ? nil : parts.joined(separator: " && ")
      }
      while position < close {
        // `#if os(iOS) case .haptics: 2 #endif`: the clauses of every branch are read, each with
        // the conditions it is compiled under.
        if source[position].kind == .directive {
          switch source.text(position) {
          case "#if":
            let (text, next) = condition(after: position)
            groups.append(([], text))
            position = next
          case "#elseif":
            let (text, next) = condition(after: position)
            if var group = groups.popLast() {
              if let current = group.current { group.previous.append(current) }
              group.current = text
              groups.append(group)
            }
            position = next
          case "#else":
            if var group = groups.popLast() {
              if let current = group.current { group.previous.append(current) }
              group.current = nil
              groups.append(group)
            }
            position += 1
          default:  // #endif
            _ = groups.popLast()
            position += 1
          }
          continue
        }
        var cases: [String] = []
        var readable = true
        let labelToken = source[position]
        // `@unknown default:` is a default.
        if source.isPunct(position, UInt8(ascii: "@")), source.isWord(position + 1, "unknown") {
          position += 2
        }
        if source.isWord(position, "default"), source.isPunct(position + 1, UInt8(ascii: ":")) {
          position += 2
        } else if source.isWord(position, "case") {
          position += 1
          // `.a, .b:`; any other pattern is not read.
          while position < close, !source.isPunct(position, UInt8(ascii: ":")) {
            if source.isPunct(position, UInt8(ascii: ".")), source.isIdentifier(position + 1) {
              cases.append(source.text(position + 1))
              position += 2
            } else if source.isPunct(position, UInt8(ascii: ",")) {
              position += 1
            } else {
              readable = false
              if source.isPunct(position, UInt8(ascii: "(")) || source.isPunct(position, UInt8(ascii: "[")) {
                position = source.matchingClose(position)
              }
              position += 1
            }
          }
          position += 1
        } else {
          break  // a directive or something unexpected: the rest is not read
        }
        // The clause runs to the next `case` or `default` that starts a line.
        var end = position
        while end < close {
          if end > position, source[end].followsNewline,
            source.isWord(end, "case") || source.isWord(end, "default") || source[end].kind == .directive
              || source.isPunct(end, UInt8(ascii: "@")) && source.isWord(end + 1, "unknown")
          {
            break
          }
          if source.isPunct(end, UInt8(ascii: "(")) || source.isPunct(end, UInt8(ascii: "["))
            || source.isPunct(end, UInt8(ascii: "{"))
          {
            end = source.matchingClose(end)
          }
          end += 1
        }
        var start = position
        if source.isWord(start, "return") { start += 1 }
        // One expression, or the clause is not read.
        let expression =
          readable && start < end && expressionEnd(from: start) >= end
          ? ExpressionSyntax(source, start...(end - 1)) : nil
        clauses.append(
          KeyDefaultsSyntax.Clause(
            cases: cases, isDefault: cases.isEmpty && readable, expression: expression,
            line: Int(labelToken.line), column: Int(labelToken.column), condition: clauseCondition()))
        position = end
      }
    } else {
      // One expression for every case: `var defaultValue: any PreferenceValue { 0 }`.
      let close = source.matchingClose(bodyOpen)
      if body < close, expressionEnd(from: body) >= close {
        let token = source[body]
        clauses.append(
          KeyDefaultsSyntax.Clause(
            cases: [], isDefault: true, expression: ExpressionSyntax(source, body...(close - 1)),
            line: Int(token.line), column: Int(token.column)))
      }
    }
    keyDefaults.append(
      KeyDefaultsSyntax(scope: scope, clauses: clauses, line: Int(place.line), column: Int(place.column)))
  }

  /// The types of an enum case's associated values, `label: Type, Type`: one per element, `nil`
  /// where an element is not a plain type (a default value).
  static func payloadTypes(_ text: String) -> [String?] {
    var elements: [String] = []
    var depth = 0
    var current = ""
    for character in text {
      switch character {
      case "(", "[", "<": depth += 1
      case ")", "]", ">": depth -= 1
      case "," where depth == 0:
        elements.append(current)
        current = ""
        continue
      default: break
      }
      current.append(character)
    }
    elements.append(current)
    return elements.map { element in
      var type = Substring(element)
      // A label: a word and a colon outside any brackets.
      if let colon = type.firstIndex(of: ":"),
        type[..<colon].allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == " " })
      {
        type = type[type.index(after: colon)...]
      }
      let trimmed = type.trimmingBlanks()
      return trimmed.isEmpty || trimmed.contains("=") ? nil : trimmed
    }
  }

  /// The written result type of a non-generic function whose name is at `nameIndex`
  /// (`func make(…) async throws -> T`), or `nil` (generic, no result, or not plainly written).
  mutating func returnType(ofFunctionNamedAt nameIndex: Int) -> String? {
    var cursor = nameIndex + 1
    guard source.isPunct(cursor, UInt8(ascii: "(")) else { return nil }  // generic: `<` first
    cursor = source.matchingClose(cursor) + 1
    while source.isWord(cursor, "async") || source.isWord(cursor, "throws")
      || source.isWord(cursor, "rethrows")
    {
      cursor += 1
      if source.isPunct(cursor, UInt8(ascii: "(")) { cursor = source.matchingClose(cursor) + 1 }
    }
    guard source.isOperator(cursor, "->") else { return nil }
    let end = typeEnd(from: cursor + 1)
    guard end > cursor + 1 else { return nil }
    let type = source.normalizedText(from: cursor + 1, through: end - 1)
    return type.contains("where") || type == "Self" || type.hasPrefix("some ") ? nil : type
  }

  /// Records the cases declared by `case` at `index` in a type body (`case a, b(Int), c = 3`).
  mutating func enumCases(at index: Int) {
    let (modifiers, _) = self.modifiers(before: index)
    var cursor = index + 1
    while source.isIdentifier(cursor) {
      let name = source.text(cursor)
      cursor += 1
      var payload = false
      if source.isPunct(cursor, UInt8(ascii: "(")) {
        payload = true
        let close = source.matchingClose(cursor)
        if let scope = innermostScope {
          // Only a closed list of reasonable length is read (an unclosed one would run to the
          // end of the file for every case, making malformed input quadratic).
          if source.matchingOpen(close) == cursor, close > cursor + 1, close - cursor < 256 {
            for type in Self.payloadTypes(source.normalizedText(from: cursor + 1, through: close - 1)) {
              storedProperties.append(StoredPropertySyntax(scope: scope, type: type))
            }
          } else {
            storedProperties.append(StoredPropertySyntax(scope: scope, type: nil))
          }
        }
        cursor = close + 1
      }
      // `case tint = "themeTint"`: the raw value, when it is one plain string literal.
      var rawValue: String?
      if source.isPunct(cursor, UInt8(ascii: "=")), cursor + 1 < source.count,
        source.isPunct(cursor + 2, UInt8(ascii: ",")) || cursor + 2 >= source.count
          || source[cursor + 2].followsNewline || source.isPunct(cursor + 2, UInt8(ascii: "}"))
          || source.isPunct(cursor + 2, UInt8(ascii: ";"))
      {
        rawValue = stringLiteralValue(cursor + 1, cursor + 2)
      }
      members.append(
        MemberSyntax(
          owner: innermostScope, name: name, kind: .enumCase, isStatic: true,
          access: effectiveAccess(modifiers.access),
          isNonisolated: true, attributeNames: [], type: nil, initialValue: nil, stringValue: rawValue,
          isFailable: false, hasPayload: payload, branch: currentBranch))
      // A raw value: skip to the next `,` on the same line.
      while cursor < source.count, !source.isPunct(cursor, UInt8(ascii: ",")),
        source.isPunct(cursor, UInt8(ascii: "="))
          || (!source[cursor].followsNewline && source[cursor].kind != .punctuation)
      {
        cursor += 1
      }
      guard source.isPunct(cursor, UInt8(ascii: ",")) else { return }
      cursor += 1
    }
  }
}
