/// `@Preference` declarations and their arguments.
extension FileParser {
  // MARK: @Preference declarations

  /// Parses `@Preference(…) modifiers var name: Type = default` starting at the `@`; returns the
  /// index of the first token after the declaration.
  mutating func declaration(at atIndex: Int) -> Int {
    let nameIndex = atIndex + 1
    var cursor = atIndex + 2
    var arguments = PreferenceArguments()
    var argumentsOpen: Int?
    if source.isPunct(cursor, UInt8(ascii: "(")) && source.touch(nameIndex, cursor) {
      argumentsOpen = cursor
      let close = source.matchingClose(cursor)
      arguments = parseArguments(from: cursor + 1, to: close, attribute: nameIndex)
      cursor = close + 1
    }

    // Other attributes and modifiers, up to `var` / `let`.
    var isStatic = false
    var access: AccessLevel?
    var bindingIndex: Int?
    var otherAttributes: [String] = []
    var availability: [String] = []
    while cursor < source.count {
      if source.isPunct(cursor, UInt8(ascii: "@")) {
        if isAttribute(cursor + 1, Self.attributeName) {
          error("@Preference is applied twice; remove one", at: cursor + 1)
        } else if source.isIdentifier(cursor + 1) {
          composedWrapper(source.text(cursor + 1), at: cursor + 1)
          otherAttributes.append(source.text(cursor + 1))
        }
        cursor += 2
        if source.isPunct(cursor, UInt8(ascii: "(")) && source.touch(cursor - 1, cursor) {
          let close = source.matchingClose(cursor)
          if source.text(cursor - 1) == "available" {
            availability.append("@" + source.normalizedText(from: cursor - 1, through: close))
          }
          cursor = close + 1
        }
        continue
      }
      if source.isWord(cursor, "var") || source.isWord(cursor, "let") {
        bindingIndex = cursor
        break
      }
      if source.isWord(cursor, in: Self.declarationModifiers) {
        let word = source.text(cursor)
        if word == "static" || word == "class" { isStatic = true }
        if let level = AccessLevel(rawValue: word), !source.isPunct(cursor + 1, UInt8(ascii: "(")) {
          access = level
        }
        cursor += 1
        // `private(set)` and the like.
        if source.isPunct(cursor, UInt8(ascii: "(")) { cursor = source.matchingClose(cursor) + 1 }
        continue
      }
      break
    }
    // Modifiers written before the attribute count too (`public @Preference var` is unusual but legal).
    let (before, start) = modifiers(before: atIndex)
    for name in before.attributeNames { composedWrapper(name, at: nameIndex) }
    otherAttributes += before.attributeNames
    availability = before.availability + availability
    if before.isStatic { isStatic = true }
    access = access ?? before.access
    guard let bindingIndex else {
      error("@Preference must be applied to a 'var' property declaration", at: nameIndex)
      return cursor
    }
    if source.isWord(bindingIndex, "let") {
      error("@Preference requires 'var', not 'let'; change 'let' to 'var'", at: bindingIndex)
    }
    let propertyIndex = bindingIndex + 1
    guard source.isIdentifier(propertyIndex) else {
      error("expected a property name after '\(source.text(bindingIndex))'", at: bindingIndex)
      return propertyIndex
    }
    let property = source.text(propertyIndex)
    cursor = propertyIndex + 1

    var declaredType: String?
    if source.isPunct(cursor, UInt8(ascii: ":")) {
      let end = typeEnd(from: cursor + 1)
      if end > cursor + 1 { declaredType = source.normalizedText(from: cursor + 1, through: end - 1) }
      cursor = end
    }
    var defaultValue: ExpressionSyntax?
    if source.isPunct(cursor, UInt8(ascii: "=")) {
      let end = expressionEnd(from: cursor + 1)
      if end > cursor + 1 { defaultValue = ExpressionSyntax(source, (cursor + 1)...(end - 1)) }
      cursor = end
    }
    if source.isPunct(cursor, UInt8(ascii: ",")) {
      error(
        "@Preference applies to one property; declare '\(property)' and the next property separately",
        at: cursor)
    }

    // `@Preference var name: String?` defaults to nil, like a plain optional property. The
    // compiler then calls the wrapper's init without `wrappedValue:`, which reports the location
    // of the argument list's `(` when there is one.
    var reportedIndex = nameIndex
    let isOptional = declaredType.map(PreferenceSyntax.isOptional) ?? false
    if defaultValue == nil, isOptional, let argumentsOpen { reportedIndex = argumentsOpen }
    // `@Preference(wrappedValue: 5) var count: Int` is a call the source writes out: the
    // compiler reports its `(` too.
    if let written = arguments.wrappedValue {
      if defaultValue != nil {
        error(
          "@Preference '\(property)' has a default twice, as wrappedValue: and after '='; keep one",
          at: nameIndex)
      }
      defaultValue = written
      if let argumentsOpen { reportedIndex = argumentsOpen }
    }

    guard let scope = innermostScope else {
      if isAtFileScope {
        error(
          "@Preference '\(property)' is declared at top level, outside any type; move it into a struct, class, enum or actor, whose name becomes part of its key",
          at: nameIndex)
      } else {
        error(
          "@Preference '\(property)' is a local variable; declare it as a property of a type (its key is derived from the type and property names), or read PreferenceStore directly",
          at: nameIndex)
      }
      return cursor
    }
    if scopes[scope].kind == .protocol {
      error(
        "@Preference '\(property)' is declared in a protocol; protocols cannot store values, declare it in a conforming type",
        at: nameIndex)
      return cursor
    }
    // `@Observable` turns each stored property into a computed one over storage named `_name`,
    // the name of the wrapper's storage too: the compiler reports "invalid redeclaration of
    // synthesized property '_name'" in the macro's expansion, which does not say what to do.
    if scopes[scope].kind == .class, scopes[scope].attributeNames.contains("Observable"), !isStatic,
      !otherAttributes.contains("ObservationIgnored")
    {
      error(
        "@Preference '\(property)' is in an @Observable class, whose macro would store it a second time; add @ObservationIgnored before @Preference (reads of a preference are tracked by Observation already, so views that read it still update)",
        at: nameIndex)
    }
    if let reference = arguments.reference {
      let name = reference.filter { $0 != "Type" }.joined(separator: ".")
      if defaultValue != nil {
        error(
          "@Preference '\(property)' shares '\(name)', whose default it reads; remove the default here (change it in the declaration of '\(name)')",
          at: nameIndex)
      }
      if let label = arguments.written.first(where: { $0 != "wrappedValue" }) {
        error(
          "@Preference '\(property)' shares '\(name)', whose key, store and options it takes; remove '\(label):' (change it in the declaration of '\(name)')",
          at: nameIndex)
      }
      if let argumentsOpen { reportedIndex = argumentsOpen }
    } else if defaultValue == nil && !isOptional {
      let example =
        declaredType.map { "@Preference var \(property): \($0) = …" } ?? "@Preference var \(property) = …"
      error(
        "@Preference '\(property)' has no default value; add one (\(example)), or declare an optional type, which defaults to nil",
        at: nameIndex)
    }
    let reported = source[reportedIndex]
    let documentation = source.docComments[start] ?? source.docComments[atIndex]
    preferences.append(
      PreferenceSyntax(
        scope: scope, property: property, isStatic: isStatic, access: access, declaredType: declaredType,
        defaultValue: defaultValue, arguments: arguments, line: Int(reported.line),
        column: Int(reported.column),
        reportedFileID: presumed?.fileID ?? fileID,
        reportedLine: Int(reported.line) + (presumed?.lineOffset ?? 0),
        documentation: documentation, branch: currentBranch, availability: availability))
    return cursor
  }

  /// Property wrappers of Apple's frameworks and of the preference libraries people move from,
  /// each with what to do instead of combining it with `@Preference`.
  static let knownWrappers: [String: String] = {
    let observed =
      "SwiftUI views and @Observable models that read a preference already update when it changes"
    var wrappers: [String: String] = [:]
    for name in [
      "State", "Binding", "Published", "ObservedObject", "StateObject", "EnvironmentObject", "Environment",
      "Bindable", "FocusState", "FocusedValue", "FocusedBinding", "FocusedObject", "GestureState",
      "AccessibilityFocusState", "ScaledMetric", "Namespace",
    ] {
      wrappers[name] = observed
    }
    for name in ["AppStorage", "SceneStorage", "Default", "Shared", "SharedReader"] {
      wrappers[name] =
        "to keep reading the values it stored, give @Preference that key: @Preference(key: \"…\")"
    }
    for name in ["Query", "FetchRequest", "SectionedFetchRequest", "Dependency"] {
      wrappers[name] = "a preference is its own storage"
    }
    return wrappers
  }()

  /// Reports `@Preference` combined with another known property wrapper. Inside `@Preference`
  /// the other wrapper does not compile (the compiler reports a type mismatch that does not say
  /// what to do); around it, a generic one (`@State`, `@Published`) compiles but holds the
  /// preference's wrapper and is never written to, since a preference's setter is nonmutating.
  mutating func composedWrapper(_ name: String, at index: Int) {
    guard let instead = Self.knownWrappers[name] else { return }
    error(
      "@Preference is the property's storage and cannot be combined with the property wrapper @\(name), which would never see its writes; remove @\(name) (\(instead))",
      at: index)
  }

  // MARK: Attribute arguments

  mutating func parseArguments(from first: Int, to close: Int, attribute: Int) -> PreferenceArguments {
    var result = PreferenceArguments()
    var index = first
    var currentLabel: String?
    let labels = PreferenceArguments.labels.map(\.label)
    while index < close {
      let end = listElementEnd(from: index, to: close)
      var valueStart = index
      if source.isIdentifier(index) && source.isPunct(index + 1, UInt8(ascii: ":")) {
        let label = source.text(index)
        currentLabel = label
        valueStart = index + 2
        if let position = labels.firstIndex(of: label) {
          // The generated initializer takes the labels as written; Swift's own rule for a call
          // (each once, in the declared order) keeps one form per combination.
          if result.written.contains(label) {
            error("@Preference takes '\(label):' once; remove the second", at: attribute)
          } else if let last = result.written.last, let previous = labels.firstIndex(of: last),
            previous > position
          {
            error(
              "argument '\(label):' of @Preference must precede '\(last):'; write the options in this order: \(labels.dropFirst().map { $0 + ":" }.joined(separator: ", "))",
              at: attribute)
          } else {
            result.written.append(label)
          }
        }
      } else if index == first, followsBackslash(index) {
        // `@Preference(\Settings.showFooter)`: a reference to another declaration.
        // An unreadable key path still makes the declaration a reference (with no names, which
        // the planner skips), so that it draws this one error.
        // The key path's names, a root type and at least one member: `\Settings.showFooter`.
        result.reference = namePath(index, end, names: 2...32) ?? []
        if result.reference == [] {
          error(
            "@Preference(\\…) names the declaration it shares as a key path with its type: @Preference(\\Settings.showFooter), or @Preference(\\Settings.Type.showFooter) for a static preference",
            at: attribute)
        }
        index = end + 1
        continue
      } else if currentLabel != "renamedFrom" {
        currentLabel = nil
      }
      let expression = valueStart < end ? ExpressionSyntax(source, valueStart...(end - 1)) : nil
      let value = expression?.text ?? ""
      switch currentLabel {
      case "wrappedValue":
        result.wrappedValue = expression
      case "key":
        if let literal = stringLiteralValue(valueStart, end) {
          result.key = literal
        } else if let path = namePath(valueStart, end) {
          // `key: kSelectedTabKey`, `key: ThemeKey.tint.rawValue`: the planner, which sees the
          // whole module, reports it with the literal to write where it can find one.
          result.keyReference = path
        } else {
          error(
            "the key: argument of @Preference must be a plain string literal, such as key: \"HighScore\"",
            at: attribute)
        }
      case "renamedFrom":
        if let literal = stringLiteralValue(valueStart, end) {
          result.renamedFrom.append(literal)
        } else {
          error(
            "the renamedFrom: argument of @Preference must be string literals, such as renamedFrom: \"ContentView.userName\"",
            at: attribute)
        }
      case "store":
        result.store = expression
      case "movedFrom":
        result.movedFrom = expression
      case "format":
        let name =
          value.hasPrefix(".")
          ? String(value.dropFirst()) : value.replacing("PreferenceFormat.", with: "")
        guard name == "propertyList" || name == "json" else {
          error("the format: argument of @Preference must be .propertyList or .json", at: attribute)
          break
        }
        result.format = name
      case "sync", "settings", "exported":
        guard value == "true" || value == "false" else {
          error(
            "the \(currentLabel!): argument of @Preference must be the literal true or false", at: attribute)
          break
        }
        switch currentLabel {
        case "sync": result.syncs = value == "true"
        case "settings": result.inSettings = value == "true"
        default: result.isExported = value == "true"
        }
      case let label?:
        error(
          "@Preference has no argument '\(label):'; use \(labels.map { $0 + ":" }.joined(separator: ", "))",
          at: attribute)
      case nil:
        error(
          "@Preference arguments need labels: \(labels.map { $0 + ":" }.joined(separator: ", "))",
          at: attribute)
      }
      index = end + 1
    }
    return result
  }

  /// The end (the `,` or `end`) of the list element starting at `start`.
  mutating func listElementEnd(from start: Int, to end: Int) -> Int {
    var index = start
    while index < end {
      if source[index].kind == .punctuation {
        switch source.bytes[Int(source[index].start)] {
        case UInt8(ascii: "("), UInt8(ascii: "["), UInt8(ascii: "{"):
          index = min(source.matchingClose(index), end)
        case UInt8(ascii: ","):
          return index
        default:
          break
        }
      } else if source[index].kind == .operator, let after = genericArgumentsEnd(from: index), after <= end {
        // `store: Stores<Int, String>.shared`: the commas are the generic arguments'.
        index = after
        continue
      }
      index += 1
    }
    return end
  }

  /// The names of a dotted path of `names` names in `first..<end` (`ThemeKey.tint.rawValue`),
  /// or `nil`.
  mutating func namePath(_ first: Int, _ end: Int, names range: ClosedRange<Int> = 1...4) -> [String]? {
    let count = end - first
    guard count > 0, count % 2 == 1, range.contains((count + 1) / 2) else { return nil }
    var names: [String] = []
    for index in stride(from: first, to: end, by: 2) {
      guard source.isIdentifier(index), index == first || source.isPunct(index - 1, UInt8(ascii: "."))
      else { return nil }
      names.append(source.text(index))
    }
    return names
  }

  /// Whether a `\` (which the lexer skips) comes right before the token at `index`.
  func followsBackslash(_ index: Int) -> Bool {
    let start = Int(source[index].start)
    return start > 0 && source.bytes[start - 1] == UInt8(ascii: "\\")
  }

  /// The value of a single plain string literal token in `first..<end`, or `nil`.
  mutating func stringLiteralValue(_ first: Int, _ end: Int) -> String? {
    guard end == first + 1, source[first].kind == .string else { return nil }
    return StringLiteral.value(of: source.text(first))
  }
}
