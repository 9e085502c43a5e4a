/// Reads the names in one default expression, type or store expression: whether generated code
/// (an extension of the declaring type, in another file) resolves each of them exactly as the
/// declaration does, and whether evaluating them needs the main actor.
struct ExpressionAnalyzer {
  let index: ModuleIndex
  /// The types around the declaration, innermost first.
  let context: [ModuleIndex.TypeID]
  let declaringType: ModuleIndex.TypeID
  /// The declaring file: its private names are out of the generated code's reach.
  let file: String

  struct Analysis {
    /// The expression as generated code must write it: names that only resolve from the
    /// declaration's lexical position are qualified.
    var code: String
    /// Why generated code cannot evaluate it at all, if it cannot.
    var unreachable: String?
    /// Whether every reason it is unreachable is a `private` or `fileprivate` name, which the
    /// declaration itself can see.
    var unreachableOnlyByAccess = true
    /// Whether it can be evaluated off the main actor whatever the module's default isolation.
    var isNonisolated = true
    /// Whether some name needs the main actor in every module (declared `@MainActor`, or of
    /// unknown isolation: another module's, a type inheriting from one). When `false` and
    /// ``isNonisolated`` is too, every name is isolated exactly as the module's default
    /// isolation makes it: nonisolated by default, or the main actor where it is the default
    /// (Xcode 26's new app targets), which generated code asks at run time.
    var needsMainActor = false
    /// The first name that needs the main actor (or may).
    var isolatedReference: String?
  }

  private static let keywords: Set<String> = [
    "true", "false", "nil", "self", "try", "await", "as", "is", "in", "if", "else", "switch", "case",
    "default",
    "let", "var", "return", "some", "any", "where", "throw", "repeat", "while", "for", "do", "catch", "guard",
    "then",
    "_", "inout", "consume", "copy", "each",
  ]

  fileprivate enum Isolation {
    case nonisolated, mainActor
    /// The module's default isolation: a declaration without an isolation of its own, in a type
    /// whose isolation can only come from that default.
    case defaultIsolation
    case other(String)
  }

  /// `contextualType`: the type written on the declaration, which a default that is a `.member`
  /// is a member of.
  func analyze(
    _ expression: ExpressionSyntax, storeContext: Bool = false,
    contextualType: WrittenType? = nil
  ) -> Analysis {
    var analysis = Analysis(code: expression.text)
    var replacements: [Int: String] = [:]
    var brackets: [UInt8] = []
    var closureDepth = 0

    func check(member: String, of type: ModuleIndex.TypeID, reference: String) {
      guard let resolution = index.lookup(member, inType: type) else {
        // Not declared in the module (inherited from another module's type, or an error the
        // compiler reports): its isolation is unknown.
        analysis.require(index[type].kind == nil ? .nonisolated : .mainActor, reference)
        return
      }
      switch resolution {
      case .member(let owner, let found):
        if found.syntax.access?.isFilePrivate == true {
          analysis.markUnreachable("'\(reference)' is private to its file", byAccess: true)
        }
        analysis.require(isolation(of: found, in: owner), reference)
      case .nestedType(let owner, _, let nested):
        if let reason = index[nested ?? owner].unreachable { analysis.markUnreachableType(reason) }
        if nested == nil, isFilePrivateAlias(member, in: owner) {
          analysis.markUnreachable("'\(reference)' is private to its file", byAccess: true)
        }
      default:
        break
      }
    }

    /// A use of a module type (`nil`: a type alias, whose target is unknown).
    func useType(_ type: ModuleIndex.TypeID?, name: String, member: String?, isCall: Bool) {
      if let member {
        if let type { check(member: member, of: type, reference: "\(name).\(member)") }
      } else if isCall {
        analysis.require(initializerIsolation(type), "\(name)(…)")
      }
    }

    var position = 0
    /// The name after the module's (`Theme` of `App.Theme`), read as a base.
    var moduleQualified: Int?
    let tokens = expression.tokens
    while position < tokens.count {
      defer { position += 1 }
      let token = tokens[position]
      if token.kind == .punctuation {
        let byte = expression.firstByte(position)
        switch byte {
        case UInt8(ascii: "("), UInt8(ascii: "["): brackets.append(byte)
        case UInt8(ascii: "{"):
          brackets.append(byte)
          closureDepth += 1
        case UInt8(ascii: ")"), UInt8(ascii: "]"): _ = brackets.popLast()
        case UInt8(ascii: "}"):
          _ = brackets.popLast()
          closureDepth = max(0, closureDepth - 1)
        case UInt8(ascii: "."):
          // `.member` with no base: a member of the contextual type.
          if isLeadingDot(expression, position), let member = expression.word(position + 1) {
            // Only the expression's first token takes the contextual type.
            let context = tokens.startIndex == position ? contextualType : nil
            analysis.require(
              leadingDotIsolation(
                member, storeContext: storeContext, contextualType: context,
                term: index.dependencyEnums.isEmpty ? nil : Self.term(expression, endingAt: position + 1)),
              "." + member)
            // A store of this module's own `PreferenceStore` extension that only its file sees.
            if storeContext, let store = index.child("PreferenceStore", of: nil),
              case .member(_, let found)? = index.lookup(member, inType: store),
              found.syntax.access?.isFilePrivate == true
            {
              analysis.markUnreachable("'.\(member)' is private to its file", byAccess: true)
            }
          }
        default: break
        }
        continue
      }
      guard token.kind == .identifier, let name = expression.word(position) else { continue }
      // A member, checked with its base; but `App.Theme`, with the module's name, is `Theme`.
      if expression.punct(position - 1, UInt8(ascii: ".")), moduleQualified != position { continue }
      if expression.punct(position + 1, UInt8(ascii: ".")), let next = expression.word(position + 2),
        !expression.punct(position - 1, UInt8(ascii: ".")), index.withoutModuleName([name, next]) != nil
      {
        moduleQualified = position + 2
        continue
      }
      if Self.keywords.contains(name) || name.hasPrefix("$") { continue }
      if expression.punct(position + 1, UInt8(ascii: ":")), brackets.last == UInt8(ascii: "("),
        position == 0 || expression.punct(position - 1, UInt8(ascii: "("))
          || expression.punct(position - 1, UInt8(ascii: ","))
      {
        continue  // an argument label
      }
      // `Box<Key, Int>()` and `Box<Int>.make()` are a call and a member of `Box`.
      let (next, joinedDot) = expression.afterGenericArguments(position)
      let member =
        joinedDot
        ? expression.word(next) : expression.punct(next, UInt8(ascii: ".")) ? expression.word(next + 1) : nil
      let isCall = !joinedDot && expression.punct(next, UInt8(ascii: "("))
      if name == "Self" {
        if let member { check(member: member, of: declaringType, reference: "Self.\(member)") }
        continue
      }
      // After the module's name, from file scope: `App.Theme` is the module's `Theme`, not one
      // nested in an enclosing type.
      let (resolution, level) = index.resolve(name, in: moduleQualified == position ? [] : context)
      switch resolution {
      case .genericParameter:
        analysis.markUnreachable("'\(name)' is a generic parameter")
      case .member(let owner, let found):
        if found.syntax.access?.isFilePrivate == true {
          analysis.markUnreachable("'\(name)' is private to its file", byAccess: true)
        }
        if level > 0 {
          if closureDepth > 0 {
            analysis.markUnreachable("'\(name)' names a member of an enclosing type inside a closure")
          }
          replacements[position] = qualified(index.path(of: owner) + [name])
        }
        analysis.require(isolation(of: found, in: owner), name)
      case .nestedType(let owner, let nested, let type):
        if let reason = index[type ?? owner].unreachable { analysis.markUnreachableType(reason) }
        if type == nil, isFilePrivateAlias(nested, in: owner) {
          analysis.markUnreachable("'\(name)' is private to its file", byAccess: true)
        }
        if level > 0 {
          if closureDepth > 0 {
            analysis.markUnreachable("'\(name)' names a type nested in an enclosing type inside a closure")
          }
          replacements[position] = qualified(index.path(of: owner) + [nested])
        }
        useType(type, name: name, member: member, isCall: isCall)
      case .moduleType(let type):
        if let reason = index[type].unreachable { analysis.markUnreachableType(reason) }
        useType(type, name: name, member: member, isCall: isCall)
      case .global(let global):
        if global.syntax.access?.isFilePrivate == true && global.file == file {
          analysis.markUnreachable("'\(name)' is private to its file", byAccess: true)
        }
        analysis.require(isolation(of: global, in: nil), name)
      case .external:
        if !StandardTypes.name(name, has: .nonisolated) && !storeContext
          && !namesDependencyEnumCase(expression, from: position)
        {
          analysis.require(.mainActor, name)
        }
      }

    }

    analysis.code = expression.rewritten(replacements)
    return analysis
  }

  /// A written type read as ``analyze(_:storeContext:contextualType:)`` reads an
  /// expression's names: each path's first name resolved where the declaration is (a type
  /// nested in an enclosing type qualified, so that generated code in an extension of the
  /// declaring type names the same type), with what generated code cannot name, and the
  /// isolation a file-scope alias takes. ``Analysis/code`` is the type written with Swift's usual
  /// spacing (``WrittenType/code``).
  func analyze(type: WrittenType) -> Analysis {
    var analysis = Analysis(code: "")
    let rewritten = type.mappingPaths { components in
      // `App.Theme`, with the module's name: the module's `Theme`, from file scope.
      if components.count > 1, index.withoutModuleName([components[0].name, components[1].name]) != nil {
        return components
      }
      let name = components[0].name
      if name == "Self" {
        if components.count > 1, let resolution = index.lookup(components[1].name, inType: declaringType) {
          switch resolution {
          case .member(_, let found) where found.syntax.access?.isFilePrivate == true:
            analysis.markUnreachable("'Self.\(components[1].name)' is private to its file", byAccess: true)
          case .nestedType(let owner, _, let nested):
            if let reason = index[nested ?? owner].unreachable { analysis.markUnreachableType(reason) }
            if nested == nil, isFilePrivateAlias(components[1].name, in: owner) {
              analysis.markUnreachable("'Self.\(components[1].name)' is private to its file", byAccess: true)
            }
          default: break
          }
        }
        return components
      }
      let (resolution, level) = index.resolve(name, in: context)
      // Named from where the declaration is: `Grid`, written inside `Outer`, is `Outer.Grid`.
      func qualified(_ owner: ModuleIndex.TypeID, _ last: String) -> [WrittenType.Component] {
        var named = WrittenType.Component.declared(last)
        named.arguments = components[0].arguments
        return index.path(of: owner).map(WrittenType.Component.declared) + [named] + components.dropFirst()
      }
      switch resolution {
      case .genericParameter:
        analysis.markUnreachable("'\(name)' is a generic parameter")
      case .member(let owner, let found):
        if found.syntax.access?.isFilePrivate == true {
          analysis.markUnreachable("'\(name)' is private to its file", byAccess: true)
        }
        analysis.require(isolation(of: found, in: owner), name)
        if level > 0 { return qualified(owner, name) }
      case .nestedType(let owner, let nested, let type):
        if let reason = index[type ?? owner].unreachable { analysis.markUnreachableType(reason) }
        if type == nil, isFilePrivateAlias(nested, in: owner) {
          analysis.markUnreachable("'\(name)' is private to its file", byAccess: true)
        }
        if level > 0 { return qualified(owner, nested) }
      case .moduleType(let type):
        if let reason = index[type].unreachable { analysis.markUnreachableType(reason) }
      case .global(let global):
        if global.syntax.access?.isFilePrivate == true && global.file == file {
          analysis.markUnreachable("'\(name)' is private to its file", byAccess: true)
        }
        analysis.require(isolation(of: global, in: nil), name)
      case .external:
        break
      }
      return components
    }
    analysis.code = rewritten.code
    return analysis
  }

  /// Whether `name` is a type alias of `owner` declared `private` or `fileprivate` (or in a
  /// `private extension`), which generated code in another file cannot name.
  private func isFilePrivateAlias(_ name: String, in owner: ModuleIndex.TypeID) -> Bool {
    index[owner].members[name]?.contains {
      $0.syntax.kind == .typeAlias && $0.syntax.access?.isFilePrivate == true
    }
      == true
  }

  private func isLeadingDot(_ expression: ExpressionSyntax, _ position: Int) -> Bool {
    guard position + 1 < expression.tokens.count, expression.tokens[position + 1].kind == .identifier else {
      return false
    }
    if position == 0 { return true }
    let previous = expression.tokens[position - 1]
    switch previous.kind {
    case .identifier, .string, .number, .regex: return false
    case .operator:
      let text = expression.text(position - 1)
      // `Box<Int>.empty`: a `>` that closes generic arguments, written against the dot.
      if text.allSatisfy({ $0 == ">" }), previous.end == expression.tokens[position].start { return false }
      return !(text == "?" || text == "!")
    case .punctuation:
      return
        !(expression.punct(position - 1, UInt8(ascii: ")"))
        || expression.punct(position - 1, UInt8(ascii: "]"))
        || expression.punct(position - 1, UInt8(ascii: "}")))
    default: return true
    }
  }

  /// `.member` of the contextual type: the library's store factories, or an enum case or static
  /// member of the declared type (`contextualType`, where the default is that `.member`).
  /// `term`: the member stands alone (`.a`, `.a(1)`, not `.a.b` or `.a + b`).
  private func leadingDotIsolation(
    _ member: String, storeContext: Bool, contextualType: WrittenType?, term: Term?
  ) -> Isolation {
    if storeContext { return .nonisolated }
    if let contextualType {
      let (type, isOptional) = contextualType.unwrapped
      // `.none` and `.some(…)` of an optional.
      if isOptional, member == "none" || member == "some" { return .nonisolated }
      let names = type.path ?? []
      if !names.isEmpty, let owner = index.typeID(of: names, in: context) {
        // A member of a module type: as the compiler isolates it; one the index does not hold
        // (a protocol extension's) may be isolated anywhere: the main actor, to be safe.
        guard case .member(let found, let declaration)? = index.lookup(member, inType: owner) else {
          return .mainActor
        }
        return isolation(of: declaration, in: found)
      }
      // A member of a standard type (`Date = .distantPast`, `Int = .max`, `TimeZone = .current`),
      // unless the module extends the type with a member of that name (which it may isolate).
      if names.count == 1, StandardTypes.name(names[0], has: .nonisolated),
        index.withoutModuleName(names) == nil,
        !index.typeNames.contains(names[0])
      {
        return .nonisolated
      }
      // A case of a dependency's enum (`Unit = .grapheme`), which no actor isolates, where no
      // name of the module's own (a type, an extension, a type alias) could be meant.
      if let term, !names.isEmpty, case (.external, _) = index.resolve(names[0], in: context),
        isDependencyCase(member, of: names, term: term)
      {
        return .nonisolated
      }
    }
    // Elsewhere (an argument, an element) the contextual type is unknown. Enum cases of any
    // module type are nonisolated; anything else may not be.
    return index.enumCaseNames.contains(member) ? .nonisolated : .mainActor
  }

  /// Whether the name at `position` begins a case of a dependency's enum (`Kit.Unit.grapheme`,
  /// `Kit.Unit.tagged(1)`) that stands alone: nothing is read off the case (`.rawValue`, which the
  /// enum's isolation may isolate) and no operator applies to it (an enum's operators may be
  /// isolated too).
  private func namesDependencyEnumCase(_ expression: ExpressionSyntax, from position: Int) -> Bool {
    guard !index.dependencyEnums.isEmpty, let first = expression.word(position) else { return false }
    var path = [first]
    var last = position
    while expression.punct(last + 1, UInt8(ascii: ".")), let next = expression.word(last + 2) {
      path.append(next)
      last += 2
    }
    guard path.count > 1, let term = Self.term(expression, endingAt: last) else { return false }
    return isDependencyCase(path[path.count - 1], of: Array(path.dropLast()), term: term)
  }

  /// Whether `member` of the type at `path` is a case of a dependency's enum that this file
  /// imports, which the module leaves to the dependency: it declares no type alias of the
  /// path's first name, and where it extends the type, no member of the member's name (a static
  /// member an extension adds may hide a case, and takes the module's isolation).
  private func isDependencyCase(_ member: String, of path: [String], term: Term) -> Bool {
    if index.aliasNames.contains(path[0]) { return false }
    if let extended = index.id(of: path),
      index[extended].kind != nil || index.lookup(member, inType: extended) != nil
    {
      return false
    }
    return index.dependencyEnums.isCase(
      member, of: path, called: term.isCall, imports: index.importedModules[file] ?? [])
  }

  /// A name that stands alone in its expression: followed by nothing, or by one argument list
  /// (`isCall`), then by the end of the expression or a `,`, `)` or `]` that ends an element.
  struct Term {
    var isCall: Bool
  }

  /// The term that ends with the name at `position`, or `nil` where more follows it (a member,
  /// `?`, `!`, a subscript, a second call, a trailing closure, an operator).
  static func term(_ expression: ExpressionSyntax, endingAt position: Int) -> Term? {
    var next = position + 1
    var isCall = false
    if expression.punct(next, UInt8(ascii: "(")) {
      isCall = true
      var depth = 0
      while next < expression.tokens.count {
        if expression.punct(next, UInt8(ascii: "(")) {
          depth += 1
        } else if expression.punct(next, UInt8(ascii: ")")) {
          depth -= 1
          if depth == 0 { break }
        }
        next += 1
      }
      next += 1
    }
    guard next < expression.tokens.count else { return Term(isCall: isCall) }
    let ends =
      expression.punct(next, UInt8(ascii: ",")) || expression.punct(next, UInt8(ascii: ")"))
      || expression.punct(next, UInt8(ascii: "]"))
    return ends ? Term(isCall: isCall) : nil
  }

  private func isolation(of member: ModuleIndex.Member, in owner: ModuleIndex.TypeID?) -> Isolation {
    if member.syntax.kind == .enumCase || member.syntax.isNonisolated { return .nonisolated }
    let type = owner.map { index[$0] }
    if let actor = member.actor ?? member.scopeActor ?? type?.globalActor {
      return actor == "MainActor" ? .mainActor : .other(actor)
    }
    if type?.isNonisolated == true { return .nonisolated }
    return owner.map(defaultIsolation(of:)) ?? .defaultIsolation
  }

  private func initializerIsolation(_ type: ModuleIndex.TypeID?) -> Isolation {
    guard let type else { return .mainActor }
    let info = index[type]
    if let actor = info.globalActor { return actor == "MainActor" ? .mainActor : .other(actor) }
    return info.isNonisolated ? .nonisolated : defaultIsolation(of: type)
  }

  /// The isolation of a type with no isolation written on it: the module's default, unless it
  /// can inherit one from elsewhere (a superclass or protocol of another module, such as a
  /// UIKit class or SwiftUI's `View`, or a module protocol isolated to an actor), which only the
  /// compiler knows: then the main actor, to be safe.
  private func defaultIsolation(of type: ModuleIndex.TypeID) -> Isolation {
    var visited: Set<ModuleIndex.TypeID> = []
    var pending = [type]
    while let next = pending.popLast() {
      guard visited.insert(next).inserted else { continue }
      let info = index[next]
      if next != type, info.globalActor != nil { return .mainActor }
      for conformance in info.conformances {
        if let base = index.id(of: ModuleIndex.dotted(conformance)),
          index[base].kind != nil
        {
          pending.append(base)
        } else if !StandardTypes.name(
          ModuleIndex.lastComponent(conformance), has: .conformanceWithoutIsolation)
          && !(info.kind == .enum && conformance == info.firstInherited)
        {
          return .mainActor
        }
      }
    }
    return .defaultIsolation
  }

  private func qualified(_ path: [String]) -> String {
    path.map(SwiftIdentifier.escaped).joined(separator: ".")
  }
}

extension ExpressionSyntax {
  /// The text with the tokens at the given indices replaced, spacing kept.
  func rewritten(_ replacements: [Int: String]) -> String {
    guard !replacements.isEmpty else { return text }
    var out = ""
    let utf8 = Array(text.utf8)
    var cursor = 0
    for index in replacements.keys.sorted() {
      let token = tokens[index]
      let start = Int(token.start) - (token.isBackticked ? 1 : 0)
      let end = Int(token.end) + (token.isBackticked ? 1 : 0)
      out += String(decoding: utf8[cursor..<start], as: UTF8.self)
      out += replacements[index]!
      cursor = end
    }
    return out + String(decoding: utf8[cursor...], as: UTF8.self)
  }
}

extension ExpressionAnalyzer.Analysis {
  /// Records why generated code cannot evaluate it (the first reason is kept).
  fileprivate mutating func markUnreachable(_ reason: String, byAccess: Bool = false) {
    if unreachable == nil { unreachable = reason }
    if !byAccess { unreachableOnlyByAccess = false }
  }

  /// A type generated code cannot name: private to its file (which the declaration sees), or
  /// declared inside a function.
  fileprivate mutating func markUnreachableType(_ reason: String) {
    markUnreachable(reason, byAccess: reason.hasSuffix("is private to its file"))
  }

  /// Records that evaluating `reference` needs `isolation`.
  fileprivate mutating func require(_ isolation: ExpressionAnalyzer.Isolation, _ reference: String) {
    switch isolation {
    case .nonisolated: break
    case .mainActor, .defaultIsolation:
      if isNonisolated {
        isNonisolated = false
        isolatedReference = reference
      }
      if case .mainActor = isolation, !needsMainActor {
        needsMainActor = true
        isolatedReference = reference
      }
    case .other(let actor): markUnreachable("'\(reference)' is isolated to @\(actor)")
    }
  }
}
