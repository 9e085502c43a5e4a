/// The types of defaults, read from syntax: what `Planner` infers where a declaration writes none.
extension Planner {
  // MARK: Types

  /// The type of a default when the declaration does not write one: a literal's; `T` for an enum
  /// case `T.case` or `T.case(…)`, an initializer `T(…)`, `A.B(…)`, `T.init(…)` (or `Self(…)` in
  /// a static of `T`) of a module type or standard type, or a static member or file-scope
  /// constant whose type is written (`Self` is the type declaring it) or inferred the same way; `[T]`
  /// or `[String: T]` for a collection literal of such elements or `T.allCases`; the written type
  /// of `… as T`, `T?.none`; what `a` unwraps to in `a ?? b`. `nil` where syntax does not prove
  /// the type, and beyond `budget`'s steps.
  func inferType(
    _ expression: ExpressionSyntax?, context: [ModuleIndex.TypeID], declaringType: ModuleIndex.TypeID,
    budget: InferenceBudget = InferenceBudget()
  ) -> String? {
    guard let expression, !expression.isEmpty, budget.spend() else { return nil }
    if let literal = LiteralType.of(expression) { return literal }
    if let computed = LiteralType.computed(expression) { return computed }
    let tokens = expression.tokens
    // `… as T`: the type written after the last `as` outside brackets.
    if let written = Self.writtenType(expression) { return written }
    // `T?.none`, `Optional<T>.none`
    let compact = expression.text.filter { !$0.isWhitespace }
    if compact.hasSuffix("?.none"), case let type = compact.dropLast(6), !type.isEmpty,
      !type.contains("("), type.first.map({ $0.isUppercase || $0 == "[" }) == true
    {
      return String(type) + "?"
    }
    if compact.hasPrefix("Optional<"), compact.hasSuffix(">.none") {
      return String(compact.dropFirst(9).dropLast(6)) + "?"
    }
    // `a ?? b`: what `a` holds (`Theme(rawValue: name) ?? .system`).
    if let coalescing = Self.topLevel(expression, where: { expression.isOperator($0, "??") }), coalescing > 0
    {
      let left = ExpressionSyntax(text: expression.text(0...(coalescing - 1)))
      guard
        var type = inferType(
          left, context: context, declaringType: declaringType, budget: budget),
        type.hasSuffix("?")
      else { return nil }
      type.removeLast()
      return type
    }
    // A constant at file scope: `let defaultTheme = Theme.dark`.
    if tokens.count == 1, let name = expression.word(0),
      let global = index.globals[name]?.first(where: { $0.syntax.kind == .property })
    {
      return propertyType(global, context: [], declaringType: declaringType, budget: budget)
    }
    // [T.a, .b] or ["key": T.a]: a collection of elements of one inferred type.
    if expression.punct(0, UInt8(ascii: "[")), expression.matchingClose(0) == tokens.count - 1 {
      return collectionType(expression, context: context, declaringType: declaringType, budget: budget)
    }
    // An empty collection of a written type: [T](), [K: V](), Array<T>(), Set<T>(),
    // Dictionary<K, V>().
    if tokens.count >= 4, expression.punct(tokens.count - 2, UInt8(ascii: "(")),
      expression.punct(tokens.count - 1, UInt8(ascii: ")"))
    {
      let typeEnd = tokens.count - 3
      if expression.punct(0, UInt8(ascii: "[")), expression.matchingClose(0) == typeEnd {
        return expression.text(0...typeEnd)
      }
      if let name = expression.word(0), ["Array", "Set", "Dictionary"].contains(name),
        expression.isOperator(1, "<"), expression.text(typeEnd).hasSuffix(">")
      {
        return expression.text(0...typeEnd)
      }
    }
    // T<…>(…), A.T<…>(…) or T<…>(…)!: a generic type of the module, created with its arguments
    // written.
    var genericNames: [String] = []
    var last = 0
    while let name = expression.word(last) {
      genericNames.append(name)
      guard expression.punct(last + 1, UInt8(ascii: ".")), expression.word(last + 2) != nil else { break }
      last += 2
    }
    if !genericNames.isEmpty, case let (open, joinedDot) = expression.afterGenericArguments(last),
      open > last + 1,
      !joinedDot, expression.punct(open, UInt8(ascii: "("))
    {
      let closes = expression.matchingClose(open)
      let isForced = closes + 1 == tokens.count - 1 && expression.isOperator(closes + 1, "!")
      guard closes == tokens.count - 1 || isForced, let type = index.typeID(of: genericNames, in: context),
        case let info = index[type], info.kind != nil, info.kind != .protocol, !info.genericParameters.isEmpty
      else { return nil }
      return initializerType(
        expression.text(0...(open - 1)), info, expression, open: open, isForced: isForced)
    }
    // T(…) or T(…)!
    if let name = expression.word(0), expression.punct(1, UInt8(ascii: "(")) {
      let closes = expression.matchingClose(1)
      let isForced = closes + 1 == tokens.count - 1 && expression.isOperator(closes + 1, "!")
      if closes == tokens.count - 1 || isForced {
        if StandardTypes.name(name, has: .nonisolated) {
          // A generic type whose arguments the call infers, or a function: not the name.
          if StandardTypes.name(name, has: .callIsNotOfItsName) { return StandardTypes.callResults[name] }
          if isForced || !StandardTypes.name(name, has: .failableInitializer) { return name }
          // A type with failable initializers, called through one that cannot fail:
          // `URL(fileURLWithPath:)`, `URL(filePath:)`, `UUID()`.
          let label = closes > 3 && expression.punct(3, UInt8(ascii: ":")) ? expression.word(2) : nil
          // A literal argument picks an initializer that cannot fail: `Int64(0)`, `Double(1)`,
          // `Decimal(1)`, `Character("a")` (`Int("42")`, from text, can).
          let literal =
            closes > 2 && label == nil
            ? LiteralType.of(ExpressionSyntax(text: expression.text(2...(closes - 1)))) : nil
          let total =
            (closes == 2 && name != "URL")
            || (name == "URL" && ["fileURLWithPath", "filePath"].contains(label))
            || (literal == "Int" || literal == "Double") && name != "URL" && name != "UUID"
              && name != "Character"
              && name != "Bool"
            || (literal == "String" && name == "Character")
          return total ? name : nil
        }
        if let type = index.typeID(of: [name], in: context), case let info = index[type], info.kind != nil {
          return initializerType(name, info, expression, open: 1, isForced: isForced)
        }
        // `Self(…)` in a member of the type (`static let zero = Self()`).
        if name == "Self", case let info = index[declaringType], info.kind == .struct || info.kind == .enum {
          return initializerType(
            spelled(declaringType), info, expression, open: 1, isForced: isForced)
        }
        // An alias of a module type (`typealias Options = Emitter.Options`): that type, named
        // by its qualified name, so that it names the same type anywhere.
        if let (target, owner) = index.aliasTarget(of: [name], in: context),
          let names = target.path,
          let type = index.typeID(of: names, in: owner.map(enclosingTypes) ?? []),
          case let info = index[type],
          info.kind != nil, info.kind != .protocol
        {
          return initializerType(spelled(type), info, expression, open: 1, isForced: isForced)
        }
      }
      return nil
    }
    // A.b.c: an enum case or a static member with a known type; A.b(…): a static function whose
    // every overload returns the same written type.
    var names: [String] = []
    var position = 0
    var isCall = false
    var callOpen = 0
    // `A.B(…)!`: forced, which only an initializer call is read with.
    let isForced = expression.isOperator(tokens.count - 1, "!")
    while let word = expression.word(position) {
      names.append(word)
      if position + 1 == tokens.count { break }
      if expression.punct(position + 1, UInt8(ascii: "(")),
        expression.matchingClose(position + 1) == tokens.count - (isForced ? 2 : 1)
      {
        isCall = true
        callOpen = position + 1
        position = tokens.count - 1
        break
      }
      guard expression.punct(position + 1, UInt8(ascii: ".")) else { return nil }
      position += 2
    }
    guard position + 1 == tokens.count, names.count >= 2 else { return nil }
    // `A.init(…)`: an initializer written out, as `A(…)`.
    if isCall, names.last == "init", let type = index.typeID(of: names.dropLast(), in: context),
      case let info = index[type], info.kind != nil, info.kind != .protocol
    {
      return initializerType(spelled(type), info, expression, open: callOpen, isForced: isForced)
    }
    // A.B(…): an initializer of a nested type of the module, as T(…) above.
    if isCall, let type = index.typeID(of: names, in: context), case let info = index[type],
      info.kind != nil, info.kind != .protocol
    {
      return initializerType(spelled(names), info, expression, open: callOpen, isForced: isForced)
    }
    if isForced { return nil }
    let typeNames = Array(names.dropLast())
    let owner = typeNames == ["Self"] ? declaringType : index.typeID(of: typeNames, in: context)
    guard let owner else { return nil }
    // T.allCases, which the compiler synthesizes for a CaseIterable enum.
    if !isCall, names.last == "allCases", index[owner].kind == .enum, index[owner].members["allCases"] == nil,
      index[owner].conformances.contains(where: { ModuleIndex.lastComponent($0) == "CaseIterable" })
    {
      return "[" + spelled(typeNames == ["Self"] ? [index[declaringType].name] : typeNames) + "]"
    }
    guard let overloads = index[owner].members[names.last!], let member = overloads.first else {
      return nil
    }
    if isCall {
      // `T.custom(0.5)`: a case with associated values (cases may share a base name).
      if overloads.allSatisfy({ $0.syntax.kind == .enumCase && $0.syntax.hasPayload }) {
        return spelled(typeNames == ["Self"] ? [index[declaringType].name] : typeNames)
      }
      guard let type = member.syntax.writtenType,
        overloads.allSatisfy({
          $0.syntax.kind == .function && $0.syntax.isStatic && $0.syntax.writtenType == type
        })
      else { return nil }
      // Written where the function is: `Sort` in `Library` is `Library.Sort` here.
      return qualified(replacingSelf(in: type, with: owner), in: enclosingTypes(owner))
    }
    switch member.syntax.kind {
    case .enumCase where !member.syntax.hasPayload:
      return spelled(typeNames == ["Self"] ? [index[declaringType].name] : typeNames)
    case .property where member.syntax.isStatic:
      let type = propertyType(member, context: enclosingTypes(owner), declaringType: owner, budget: budget)
      // `App.Tint.accent`: named with the module's name as written, which reaches the module's
      // `Tint` where a nested `Tint` hides it.
      if let moduleName = index.moduleName, index.withoutModuleName(typeNames) != nil,
        type == spelled(owner)
      {
        return moduleName + "." + (type ?? "")
      }
      return type
    default:
      return nil
    }
  }

  /// A type path as code writes it: each component in backticks where it must be (`Item.Type`,
  /// a nested type named `Type`, is `` Item.`Type` ``).
  func spelled(_ names: [String]) -> String {
    WrittenType.named(names.map(WrittenType.Component.declared)).text
  }

  /// The module type `type` as code names it from anywhere: its qualified name, spelled.
  func spelled(_ type: ModuleIndex.TypeID) -> String { spelled(index.path(of: type)) }

  /// The generic parameter (of `parameters`) that `type`, written at `context`, names, directly
  /// or through the module's member type aliases (`typealias KeyMap = [Key: [Int]]`, `typealias
  /// Element = Base.Element`), with the first alias on the way.
  func genericParameter(
    named type: WrittenType, among parameters: Set<String>, context: [ModuleIndex.TypeID], depth: Int = 0
  ) -> (parameter: String, alias: String?)? {
    guard depth < 8 else { return nil }
    for name in type.leadingNames {
      if parameters.contains(name) { return (name, nil) }
      // A member alias only: one at file scope cannot name a type's parameter.
      if let alias = alias(named: name, context: context), alias.isMember,
        let (parameter, _) = genericParameter(
          named: alias.target, among: parameters, context: alias.context,
          depth: depth + 1)
      {
        return (parameter, name)
      }
    }
    return nil
  }

  /// The module type alias `name` denotes written bare at `context`: what it stands for, where
  /// the names in that resolve, and whether it is a type's member (else declared at file scope).
  func alias(named name: String, context: [ModuleIndex.TypeID]) -> (
    target: WrittenType, context: [ModuleIndex.TypeID], isMember: Bool
  )? {
    guard let (target, owner) = index.aliasTarget(of: [name], in: context) else { return nil }
    return (target, owner.map(enclosingTypes) ?? [], owner != nil)
  }

  /// `type` and the types it is nested in, innermost first: where names in its members resolve.
  func enclosingTypes(_ type: ModuleIndex.TypeID) -> [ModuleIndex.TypeID] {
    var context: [ModuleIndex.TypeID] = []
    var current: ModuleIndex.TypeID? = type
    while let step = current, context.count < 64 {
      context.append(step)
      current = index[step].parent
    }
    return context
  }

  /// The type of a static or file-scope property `member`: written, or inferred from its initial
  /// value (`static let standard = Layout()`, `static let fallback = Theme.dark`) where that
  /// names the module's types as defaults do. A module type is named by its qualified name, so
  /// that it names the same type where the default is (`Grid`, written inside `Outer`, is
  /// `Outer.Grid`); a type of another form that names the module's types is left unknown.
  func propertyType(
    _ member: ModuleIndex.Member, context: [ModuleIndex.TypeID], declaringType: ModuleIndex.TypeID,
    budget: InferenceBudget
  ) -> String? {
    if let written = member.syntax.writtenType {
      // `static var standard: Self`: the type that declares it.
      return qualified(replacingSelf(in: written, with: declaringType), in: context)
    }
    guard let value = member.syntax.initialValue,
      let inferred = inferType(
        ExpressionSyntax(text: value), context: context, declaringType: declaringType, budget: budget)
    else { return nil }
    return qualified(WrittenType(parsing: inferred), in: context)
  }

  /// `type` with each path that starts with `Self` starting with `owner`'s path instead: `Self?`
  /// → `Layout?`.
  func replacingSelf(in type: WrittenType, with owner: ModuleIndex.TypeID) -> WrittenType {
    type.mappingPaths { components in
      guard components[0].name == "Self", components[0].arguments.isEmpty else { return components }
      return index.path(of: owner).map(WrittenType.Component.declared) + components.dropFirst()
    }
  }

  /// `type`, as written where names resolve from `context`, with each of the module's types in it
  /// named by its qualified name (`[Grid]` inside `Outer` is `[Outer.Grid]`), so that it names the
  /// same types anywhere; `nil` for a form that names the module's types in other ways.
  func qualified(_ type: WrittenType, in context: [ModuleIndex.TypeID], depth: Int = 0) -> String? {
    guard depth < 8 else { return nil }
    switch type {
    case .optional(let wrapped):
      // `Handler?` of `typealias Handler = () -> Void` is `(() -> Void)?`.
      return qualified(wrapped, in: context, depth: depth).map {
        $0.contains("->") || $0.contains("&") || $0.hasPrefix("any ") ? "(\($0))?" : $0 + "?"
      }
    case .array(let element):
      return qualified(element, in: context, depth: depth + 1).map { "[\($0)]" }
    case .dictionary(let key, let value):
      guard let key = qualified(key, in: context, depth: depth + 1),
        let value = qualified(value, in: context, depth: depth + 1)
      else { return nil }
      return "[\(key): \(value)]"
    default:
      break
    }
    if let names = type.path {
      if let id = index.typeID(of: names, in: context), index[id].kind != nil {
        return spelled(id)
      }
      // A type alias of the module (`typealias Columns = [String]` inside `Library`): what it
      // stands for, named from where the alias is, so that it names the same type anywhere.
      if let (target, owner) = index.aliasTarget(of: names, in: context) {
        return qualified(target, in: owner.map(enclosingTypes) ?? [], depth: depth + 1)
      }
    }
    // Another module's type (`Date`, `Set<String>`), written the same from anywhere.
    return type.leadingNames.contains(where: index.typeNames.contains) ? nil : type.text
  }

  /// The type written after the last `as` (not `as?` or `as!`) outside brackets, if the rest of
  /// the expression is that type: `flag ? 13 as Double : 17` casts only the `13`, and the text
  /// after it (`Double : 17`) is no type, so the scanner leaves the type to the compiler.
  static func writtenType(_ expression: ExpressionSyntax) -> String? {
    guard
      let cast = topLevel(
        expression,
        where: {
          expression.word($0) == "as" && $0 + 1 < expression.tokens.count
            && !expression.isOperator($0 + 1, "?") && !expression.isOperator($0 + 1, "!")
        }, last: true)
    else { return nil }
    var depth = 0
    for position in (cast + 1)..<expression.tokens.count {
      if expression.opens(position) {
        depth += 1
      } else if expression.closes(position) {
        depth -= 1
      } else if depth == 0, !isTypeToken(expression, position) {
        return nil
      }
    }
    return expression.text((cast + 1)...(expression.tokens.count - 1))
  }

  /// Whether the token at `position`, outside brackets, may stand in a type: a name, `.`, `,`
  /// (of generic arguments), or an operator of `<`, `>`, `?`, `!`, `&` (`Set<Int>?`, `A & B`).
  private static func isTypeToken(_ expression: ExpressionSyntax, _ position: Int) -> Bool {
    if let word = expression.word(position) { return !["as", "is", "try", "await"].contains(word) }
    if expression.punct(position, UInt8(ascii: ".")) || expression.punct(position, UInt8(ascii: ",")) {
      return true
    }
    let text = expression.text(position)
    // Not `??`, which in `x as Theme? ?? .light` is the operator, not a double optional.
    return expression.tokens[position].kind == .operator && text != "??"
      && text.utf8.allSatisfy { "<>?!&.".utf8.contains($0) }
  }

  /// The first (or last) token outside brackets that `matches`.
  static func topLevel(_ expression: ExpressionSyntax, where matches: (Int) -> Bool, last: Bool = false)
    -> Int?
  {
    var depth = 0
    var found: Int?
    for position in expression.tokens.indices {
      if expression.opens(position) {
        depth += 1
      } else if expression.closes(position) {
        depth -= 1
      } else if depth == 0, matches(position) {
        found = position
        if !last { break }
      }
    }
    return found
  }

  /// The type of an array or dictionary literal (`[Theme.dark, .light]`, `["main": Layout()]`)
  /// whose elements' types are inferred and the same: `[T]`, or `[String: T]` for string keys.
  /// An element `.member` takes the others' type; an element whose type is unknown makes the
  /// whole unknown.
  func collectionType(
    _ expression: ExpressionSyntax, context: [ModuleIndex.TypeID], declaringType: ModuleIndex.TypeID,
    budget: InferenceBudget
  ) -> String? {
    let close = expression.tokens.count - 1
    var elements: [ClosedRange<Int>] = []
    var start = 1
    var position = 1
    while position < close {
      if expression.opens(position) {
        position = expression.matchingClose(position) + 1
        continue
      }
      if expression.punct(position, UInt8(ascii: ",")) {
        if position > start { elements.append(start...(position - 1)) }
        start = position + 1
      }
      position += 1
    }
    if close > start { elements.append(start...(close - 1)) }
    guard !elements.isEmpty, elements.count <= 64 else { return nil }
    var valueType: String?
    var isDictionary: Bool?
    for element in elements {
      var value = element
      let colon = element.first { expression.punct($0, UInt8(ascii: ":")) }
      if isDictionary == nil { isDictionary = colon != nil }
      guard isDictionary == (colon != nil) else { return nil }
      if let colon {
        guard colon > element.lowerBound, colon < element.upperBound,
          LiteralType.of(ExpressionSyntax(text: expression.text(element.lowerBound...(colon - 1))))
            == "String"
        else { return nil }
        value = (colon + 1)...element.upperBound
      }
      if expression.punct(value.lowerBound, UInt8(ascii: ".")) { continue }
      // Compared as the module names them: `Inner()` and `Inner.standard` are one type.
      guard
        let inferred = inferType(
          ExpressionSyntax(text: expression.text(value)), context: context, declaringType: declaringType,
          budget: budget),
        let type = qualified(WrittenType(parsing: inferred), in: context),
        valueType == nil || valueType == type
      else { return nil }
      valueType = type
    }
    guard let valueType else { return nil }
    return isDictionary == true ? "[String: \(valueType)]" : "[\(valueType)]"
  }

  /// The type of a call of an initializer of the module's type `name`, whose `(` is at `open`:
  /// the type; an optional for a raw-value enum's `init(rawValue:)`, which the compiler
  /// synthesizes failable (`Tint(rawValue: "red")` is a `Tint?`); unknown where the type declares
  /// a failable initializer, since which one the call picks is the compiler's to say.
  func initializerType(
    _ name: String, _ info: ModuleIndex.TypeInfo, _ expression: ExpressionSyntax, open: Int, isForced: Bool
  ) -> String? {
    if isForced { return name }
    if info.kind == .enum, expression.word(open + 1) == "rawValue",
      expression.punct(open + 2, UInt8(ascii: ":"))
    {
      return name + "?"
    }
    return info.members["init"]?.contains(where: { $0.syntax.isFailable }) == true ? nil : name
  }

  /// The keys of the dictionaries in `type` (`[K: V]` or `Dictionary<K, V>`, at any depth):
  /// the first that surely cannot be stored as text (a standard type the library does not make
  /// a key, such as `Date`, or a generic parameter), and the module's types among them that do
  /// not declare `PreferenceDictionaryKey` (whose conformance the registry writes where it can).
  /// `String`, the numbers, `Bool`, `Character` and `UUID` are keys. A name from another module
  /// is left to the compiler.
  func dictionaryKeys(_ type: WrittenType, context: [ModuleIndex.TypeID]) -> (
    problem: String?, moduleKeys: [(name: String, type: ModuleIndex.TypeID)]
  ) {
    var moduleKeys: [(name: String, type: ModuleIndex.TypeID)] = []
    var problem: String?
    func visit(_ type: WrittenType) {
      guard problem == nil else { return }
      if case .dictionary(let key, _) = type { check(key) }
      type.parts.forEach(visit)
    }
    func check(_ key: WrittenType) {
      guard var names = key.path else { return }
      // A type alias of the module (`typealias ID = Int`): the type it stands for.
      var keyContext = context
      for _ in 0..<8 {
        guard let (target, owner) = index.aliasTarget(of: names, in: keyContext) else { break }
        guard let targetNames = target.path else { return }
        names = targetNames
        keyContext = owner.map(enclosingTypes) ?? []
      }
      if names == ["Swift", "String"] || names == ["String"] { return }
      if names.count == 1, StandardTypes.name(names[0], has: .untextualKey) {
        problem = key.text
        return
      }
      // A generic parameter (`[T: Int]` in `struct S<T: Hashable>`): the registry cannot conform it.
      if let name = key.path, name.count == 1, case .genericParameter = index.resolve(name[0], in: context).0
      {
        problem = key.text
        return
      }
      if let id = index.typeID(of: names, in: keyContext), let kind = index[id].kind, kind != .protocol,
        kind != .extension, !index.inherits(id, anyOf: ["PreferenceDictionaryKey"]),
        !moduleKeys.contains(where: { $0.type == id })
      {
        moduleKeys.append((names.joined(separator: "."), id))
      }
    }
    visit(type)
    return (problem, moduleKeys)
  }
}

/// How many steps inferring one default's type may take: statics and collections that name
/// other statics fan out, and a static may name itself. Each step is one expression inferred, so
/// the budget bounds both the work and the depth of the recursion (`nil` beyond).
final class InferenceBudget {
  private var remaining: Int

  init(steps: Int = 256) { remaining = steps }

  /// Takes one step; `false` once none is left.
  func spend() -> Bool {
    remaining -= 1
    return remaining >= 0
  }
}
