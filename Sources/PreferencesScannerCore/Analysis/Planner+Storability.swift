/// What no store can hold, and what the registry must make storable.
extension Planner {
  /// The protocol (`Codable`, `Encodable` or `Decodable`) whose conformance the compiler would
  /// synthesize for `type`, a struct or class, from every stored property, a preference's
  /// wrapper among them (which is not `Codable`); `nil` when none would be: the type has a
  /// `CodingKeys` type, or writes `encode(to:)` (for `Encodable`), or any initializer (for
  /// `Decodable`: it may be `init(from:)`, which syntax does not tell apart). Only conformances
  /// the type lists itself count, directly or through a protocol of the module: a subclass of a
  /// `Codable` class inherits its superclass's coding, which leaves its own properties out.
  func synthesizedCodingProblem(_ type: ModuleIndex.TypeID) -> String? {
    // Most types list none of the three, nor a protocol that may refine one.
    guard index.codingCandidates.contains(type) else { return nil }
    let info = index[type]
    guard info.kind == .struct || info.kind == .class, !info.nestedTypes.contains("CodingKeys") else {
      return nil
    }
    func lists(_ names: Set<String>) -> Bool {
      info.conformances.contains { names.contains(ModuleIndex.lastComponent($0)) }
        || info.inheritedTypes.contains { index[$0].kind == .protocol && index.inherits($0, anyOf: names) }
    }
    guard lists(ModuleIndex.codingProtocols) else { return nil }
    let encodes = lists(Self.encodingProtocols) && info.members["encode"] == nil
    let decodes = lists(Self.decodingProtocols) && info.members["init"] == nil
    switch (encodes, decodes) {
    case (true, true): return lists(["Codable"]) ? "Codable" : "Encodable"
    case (true, false): return "Encodable"
    case (false, true): return "Decodable"
    case (false, false): return nil
    }
  }

  static let encodingProtocols: Set<String> = ["Codable", "Encodable"]
  static let decodingProtocols: Set<String> = ["Codable", "Decodable"]

  /// What no store can hold, and what to store instead.
  struct ShapeProblem {
    let what: String
    let fix: String

    static let tuple = ShapeProblem(
      what: "a tuple", fix: "store a Codable struct that holds its values instead (stored as JSON text)")
    static let function = ShapeProblem(
      what: "a function type",
      fix: "store the data it is made from instead (a Codable struct is stored as JSON text)")
    static func untyped(_ name: String) -> ShapeProblem {
      ShapeProblem(
        what: "'\(name)'",
        fix:
          "store a Codable struct instead (stored as JSON text), or PropertyListValue for a value whose shape you handle yourself ([String: PropertyListValue] for a dictionary of any property-list values)"
      )
    }
    static func inlineArray(_ written: String) -> ShapeProblem {
      ShapeProblem(
        what: "a fixed-size inline array ('\(written)')",
        fix: "store an Array instead, and check its count where you read it")
    }
    static func metatype(_ name: String) -> ShapeProblem {
      ShapeProblem(
        what: "a metatype ('\(name)')",
        fix:
          "store which type it is instead: an enum with a case for each (stored as its raw value), mapped to the type where you read it"
      )
    }
    static func existential(_ name: String) -> ShapeProblem {
      ShapeProblem(
        what: "a protocol type ('\(name)')",
        fix:
          "store a concrete type instead: an enum with a case for each kind (stored as its raw value), or a Codable struct (stored as JSON text)"
      )
    }
  }

  /// What in `type` no store can hold, whatever the module declares: a tuple, a function type,
  /// a protocol type, a metatype, a fixed-size inline array, `Any`, `AnyObject` or `AnyHashable`
  /// (none can conform to a protocol in a way a store could read back, so the compiler's error
  /// would name no fix), as the value or as what an optional, array, set or dictionary of it
  /// stores, written out or through the module's type aliases (`[Before]` where `typealias Before
  /// = () -> Void`, found porting Spectre). What another generic type's arguments hold
  /// (`Box<Mixin>`) may be no stored value, and is left to the compiler; so are aliases nested
  /// deeper than 8: bounded work.
  func shapeProblem(_ type: WrittenType, context: [ModuleIndex.TypeID], aliasDepth: Int = 0) -> ShapeProblem?
  {
    switch type {
    case .optional(let inner), .array(let inner), .set(let inner):
      return shapeProblem(inner, context: context, aliasDepth: aliasDepth)
    case .dictionary(let key, let value):
      return shapeProblem(key, context: context, aliasDepth: aliasDepth)
        ?? shapeProblem(value, context: context, aliasDepth: aliasDepth)
    case .tuple: return .tuple
    case .function: return .function
    case .inlineArray(let written): return .inlineArray(written)
    case .metatype: return .metatype(type.text)
    case .existential(let inner):
      if case .metatype = inner { return .metatype(type.text) }  // `any P.Type`
      // `any P & Q`: named by its first part.
      if case .composition(let parts) = inner { return .existential("any " + parts[0].text) }
      return .existential(type.text)
    case .composition(let parts):
      // `P & Q`, `AnyObject & Delegate`: a protocol type where one of its parts is, or `Any` as
      // any part would be.
      for part in parts {
        guard let names = part.path else { continue }
        if isTypeErased(names) { return .untyped(names[names.count - 1]) }
        if isProtocol(names, context: context) { return .existential(part.text) }
      }
      return nil
    case .opaque(let inner):
      // `some P`: of a protocol, which no store can hold either.
      guard let names = inner.path, isProtocol(names, context: context) else { return nil }
      return .existential(names.joined(separator: "."))
    case .other: return nil
    case .named(let components):
      // `InlineArray<3, Int>`, also after `Swift.`.
      if let last = components.last, last.name == "InlineArray", last.arguments.count == 2,
        components.count == 1 || (components.count == 2 && components[0].name == "Swift")
      {
        return .inlineArray("InlineArray")
      }
      guard let names = type.path else { return nil }
      if isTypeErased(names) { return .untyped(names[names.count - 1]) }
      if isProtocol(names, context: context) { return .existential(names.joined(separator: ".")) }
      // A type alias of the module: what it stands for, where it is declared.
      guard aliasDepth < 8, index.aliasNames.contains(names[names.count - 1]),
        let (target, owner) = index.aliasTarget(of: names, in: context)
      else { return nil }
      return shapeProblem(
        target, context: owner.map(enclosingTypes) ?? [], aliasDepth: aliasDepth + 1)
    }
  }

  /// Whether `names` is `Any`, `AnyObject` or `AnyHashable` (also after `Swift.`).
  private func isTypeErased(_ names: [String]) -> Bool {
    (names.count == 1 || (names.count == 2 && names[0] == "Swift"))
      && StandardTypes.name(names[names.count - 1], has: .typeErased)
  }

  /// Whether the type `names` written at `context` is a protocol: the module's, or one of
  /// the standard ``StandardTypes/Traits/existential`` protocols.
  private func isProtocol(_ names: [String], context: [ModuleIndex.TypeID]) -> Bool {
    isStandardExistential(names, context: context)
      || (index.protocolNames.contains(names[names.count - 1])
        && index.typeID(of: names, in: context).map { index[$0].kind == .protocol } == true)
  }

  /// Whether `names` is a standard ``StandardTypes/Traits/existential`` protocol (`Error`, or `Swift.Error`) and, written
  /// bare, means it where it is written: no type or type alias of the module by that name is in
  /// scope there (a nested `enum Error` is a concrete type).
  func isStandardExistential(_ names: [String], context: [ModuleIndex.TypeID]) -> Bool {
    switch names.count {
    case 1:
      StandardTypes.name(names[0], has: .existential) && index.typeID(of: names, in: context) == nil
        && index.aliasTarget(of: names, in: context) == nil
    case 2:
      ["Swift", "Foundation", "Preferences"].contains(names[0])
        && StandardTypes.name(names[1], has: .existential)
    default: false
    }
  }

  /// Whether the parentheses opening at `open` hold a tuple: nothing (`()`), or a comma outside
  /// any brackets or generic arguments inside them.
  static func isTuple(_ syntax: ExpressionSyntax, open: Int) -> Bool {
    let close = syntax.matchingClose(open)
    if close == open + 1 { return true }
    var position = open + 1
    var angles = 0
    while position < close {
      if syntax.opens(position) {
        position = syntax.matchingClose(position) + 1
        continue
      }
      if syntax.tokens[position].kind == .operator {
        for byte in syntax.text(position).utf8 {
          if byte == UInt8(ascii: "<") { angles += 1 } else if byte == UInt8(ascii: ">") { angles -= 1 }
        }
      } else if angles == 0, syntax.punct(position, UInt8(ascii: ",")) {
        return true
      }
      position += 1
    }
    return false
  }

  /// What a default of no written type is when it is a tuple (`(1, 2)`) or a closure (`{ 0 }`)
  /// whole, which no store can hold.
  static func literalShape(_ expression: ExpressionSyntax) -> ShapeProblem? {
    guard let last = expression.tokens.indices.last, expression.matchingClose(0) == last else { return nil }
    if expression.punct(0, UInt8(ascii: "{")) { return .function }
    return expression.punct(0, UInt8(ascii: "(")) && last > 1 && isTuple(expression, open: 0) ? .tuple : nil
  }

  /// The module type in `type` (or in its optional, array, set or dictionary values) that does not
  /// conform to `PreferenceValue` (or only under `#if` conditions), if the module declares one.
  func storabilityProblem(_ written: WrittenType, context: [ModuleIndex.TypeID], depth: Int = 0) -> (
    name: String, type: ModuleIndex.TypeID
  )? {
    guard depth < 32 else { return nil }
    let components: [WrittenType.Component]
    switch written {
    case .optional(let inner), .array(let inner), .set(let inner):
      return storabilityProblem(inner, context: context, depth: depth + 1)
    // Its values (a key that is not a string is reported on its own).
    case .dictionary(_, let value): return storabilityProblem(value, context: context, depth: depth + 1)
    case .tuple, .function, .existential, .opaque, .composition, .metatype, .inlineArray, .other: return nil
    case .named(let named): components = named
    }
    let names = components.map(\.name)
    // A generic type of the module with its arguments (`Pair<Int>`): the generic type, which is
    // what the registry conforms.
    if let last = components.last, !last.arguments.isEmpty,
      components.dropLast().allSatisfy(\.arguments.isEmpty),
      let type = index.typeID(of: names, in: context), index[type].kind != nil, index[type].kind != .protocol,
      !index[type].genericParameters.isEmpty
    {
      let conditions = index[type].preferenceValueConditions
      let conditional = !conditions.isEmpty && !conditions.contains(nil)
      return conformsToPreferenceValue(type) && !conditional ? nil : (written.text, type)
    }
    // A type nested in a generic type, named with its arguments (`Box<Int>.Mode`): the nested
    // type, whose conformance does not depend on them.
    // A type alias of the module: what it stands for, resolved from where it is declared.
    if let (target, owner) = index.aliasTarget(of: names, in: context) {
      return storabilityProblem(
        target, context: owner.map(enclosingTypes) ?? [], depth: depth + 1)
    }
    guard let type = index.typeID(of: names, in: context), let kind = index[type].kind, kind != .protocol
    else { return nil }
    let conditions = index[type].preferenceValueConditions
    let conditional = !conditions.isEmpty && !conditions.contains(nil)
    return conformsToPreferenceValue(type) && !conditional ? nil : (written.text, type)
  }

  /// Whether `type` conforms to `PreferenceValue` as far as the module shows: it, or a protocol
  /// or superclass of it the module declares, lists it; a type from another module, or a class
  /// whose superclass is, is left to the compiler. Each type is visited once.
  func conformsToPreferenceValue(_ type: ModuleIndex.TypeID) -> Bool {
    if index[type].kind == nil { return true }
    var visited: Set<ModuleIndex.TypeID> = []
    var pending = [type]
    while let next = pending.popLast() {
      guard visited.insert(next).inserted else { continue }
      let info = index[next]
      for conformance in info.conformances {
        let name = ModuleIndex.lastComponent(conformance)
        if ModuleIndex.preferenceValueProtocols.contains(name) { return true }
        let base = index.id(of: ModuleIndex.dotted(conformance))
        if let base, let kind = index[base].kind {
          if kind == .protocol || kind == .class { pending.append(base) }
        } else if info.kind == .class, conformance == info.firstInherited,
          conformance.first?.isUppercase == true, !StandardTypes.name(name, has: .protocolNotSuperclass)
        {
          // A superclass from another module may conform; the compiler decides.
          return true
        }
      }
    }
    return false
  }
}
