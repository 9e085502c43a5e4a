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
  /// a protocol type, a metatype, `Any`, `AnyObject` or `AnyHashable` (none can conform to a
  /// protocol in a way a store could read back, so the compiler's error would name no fix),
  /// written out or through the module's type aliases (`[Before]` where `typealias Before = ()
  /// -> Void`, found porting Spectre). `nil` for anything else, and for a
  /// type longer than any real one (256 tokens) or aliases nested deeper than 8: bounded work.
  func shapeProblem(_ type: String, context: [ModuleIndex.TypeID], depth: Int = 0) -> ShapeProblem? {
    if let problem = writtenShapeProblem(type, context: context) { return problem }
    guard depth < 8, Self.namesAny(of: index.aliasNames, in: type) else { return nil }
    let syntax = ExpressionSyntax(text: type)
    guard syntax.tokens.count <= 256 else { return nil }
    for position in syntax.tokens.indices {
      guard let word = syntax.word(position), !syntax.punct(position - 1, UInt8(ascii: ".")),
        let alias = alias(named: word, context: context),
        let problem = shapeProblem(alias.target, context: alias.context, depth: depth + 1)
      else { continue }
      return problem
    }
    return nil
  }

  /// ``shapeProblem(_:context:depth:)`` of the type as written.
  func writtenShapeProblem(_ type: String, context: [ModuleIndex.TypeID]) -> ShapeProblem? {
    // Most types have no parentheses and name no protocol nor `Any`: told apart without
    // tokenizing (every declaration's type comes here).
    if !type.containsByte(from: Self.notIdentifierBytes) {
      // One name (`String`, `Theme`, `Mixin`).
      if Self.untypedNames.contains(type) { return .untyped(type) }
      if index.protocolNames.contains(type),
        let id = index.typeID(of: [type], in: context), index[id].kind == .protocol
      {
        return .existential(type)
      }
      if isStandardExistential([type], context: context) { return .existential(type) }
      return nil
    }
    if type.containsText(" of ") || type.containsText("InlineArray"), let written = Self.inlineArray(in: type)
    {
      return .inlineArray(written)
    }
    if !type.containsByte(from: Self.parenthesis), !type.containsText("ny"), !type.containsText(".Type"),
      !type.containsText(".Protocol"),
      !Self.namesAny(of: index.protocolNames, Self.standardExistentials, in: type)
    {
      return nil
    }
    let syntax = ExpressionSyntax(text: type)
    guard syntax.tokens.count <= 256 else { return nil }
    if syntax.tokens.indices.contains(where: { syntax.isOperator($0, "->") }) { return .function }
    for index in syntax.tokens.indices {
      // `any P`, a protocol of the module written bare (`[String: Mixin]`), or a metatype.
      if let word = syntax.word(index), !syntax.punct(index - 1, UInt8(ascii: ".")) {
        if Self.untypedNames.contains(word) {
          if Self.isStoredElement(index, in: syntax) { return .untyped(word) }
          continue
        }
        let start = word == "any" ? index + 1 : index
        guard let first = syntax.word(start) else { continue }
        var names = [first]
        var last = start
        while syntax.punct(last + 1, UInt8(ascii: ".")), let next = syntax.word(last + 2) {
          names.append(next)
          last += 2
        }
        // `P.Type`, `any P.Type`, `P.Protocol`: a type, not a value.
        let isMetatype = names.count > 1 && (names.last == "Type" || names.last == "Protocol")
        let isProtocol =
          !isMetatype
          && (word == "any"
            || self.index.typeID(of: names, in: context).map { self.index[$0].kind == .protocol } == true
            || isStandardExistential(names, context: context))
        guard isMetatype || isProtocol, Self.isStoredElement(index, in: syntax) else { continue }
        let written = (word == "any" ? "any " : "") + names.joined(separator: ".")
        return isMetatype ? .metatype(written) : .existential(written)
      }
      if syntax.punct(index, UInt8(ascii: "(")), Self.isTuple(syntax, open: index) { return .tuple }
    }
    return nil
  }

  /// The first inline array `type` stores (`[3 of Int]` or `InlineArray<3, Int>`, Swift 6.2; as
  /// the value, or an element of an optional, array, set or dictionary), as written; `nil` if
  /// none (found trying Swift 6.2's syntax around declarations: the compiler's error named no
  /// fix).
  static func inlineArray(in type: String) -> String? {
    let syntax = ExpressionSyntax(text: type)
    guard syntax.tokens.count <= 256 else { return nil }
    for index in syntax.tokens.indices where isStoredElement(index, in: syntax) {
      if syntax.punct(index, UInt8(ascii: "[")), syntax.word(index + 2) == "of" {
        let close = syntax.matchingClose(index)
        if close < syntax.tokens.count { return syntax.text(index...close) }
      }
      if syntax.word(index) == "InlineArray",
        !syntax.punct(index - 1, UInt8(ascii: ".")) || syntax.word(index - 2) == "Swift"
      {
        return "InlineArray"
      }
    }
    return nil
  }

  /// The standard library's type-erased values: whatever they hold is known only at run time, so
  /// no store can read one back (`Set<AnyHashable>`, found porting WasmKit, was left to the
  /// compiler, whose error names no fix).
  static let untypedNames: Set<String> = ["Any", "AnyObject", "AnyHashable"]

  /// Protocols of the standard library and Foundation that a property's type may name bare
  /// (`var codingPath: [CodingKey]`, `var lastError: Error?`), each then a protocol type that
  /// cannot conform to `PreferenceValue` (found porting swift-argument-parser). Those with
  /// `Self` or associated-type requirements are left out: naming them bare is the compiler's
  /// error already.
  static let standardExistentials: Set<String> = [
    "Error", "LocalizedError", "CodingKey", "Encoder", "Decoder", "Codable", "Encodable", "Decodable",
    "Sendable", "CustomStringConvertible", "CustomDebugStringConvertible", "PreferenceValue",
  ]

  /// Whether `names` is one of ``standardExistentials`` (`Error`, or `Swift.Error`) and, written
  /// bare, means it where it is written: no type or type alias of the module by that name is in
  /// scope there (a nested `enum Error` is a concrete type).
  func isStandardExistential(_ names: [String], context: [ModuleIndex.TypeID]) -> Bool {
    switch names.count {
    case 1:
      Self.standardExistentials.contains(names[0]) && index.typeID(of: names, in: context) == nil
        && index.aliasTarget(of: names, in: context) == nil
    case 2:
      ["Swift", "Foundation", "Preferences"].contains(names[0])
        && Self.standardExistentials.contains(names[1])
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

  /// Whether the token at `index` is outside any generic arguments but those of the standard
  /// collections and `Optional` (whose elements are stored): a protocol inside another generic
  /// type's arguments (`Box<Mixin>`) may be no stored value, and is left to the compiler.
  static func isStoredElement(_ index: Int, in syntax: ExpressionSyntax) -> Bool {
    var depth = 0
    var position = index - 1
    while position >= 0 {
      if syntax.tokens[position].kind == .operator {
        for byte in syntax.text(position).utf8.reversed() {
          if byte == UInt8(ascii: ">") {
            depth += 1
          } else if byte == UInt8(ascii: "<") {
            if depth == 0 {
              guard let name = syntax.word(position - 1) else { return false }
              return ["Optional", "Array", "Set", "Dictionary"].contains(name)
                && isStoredElement(position - 1, in: syntax)
            }
            depth -= 1
          }
        }
      }
      position -= 1
    }
    return true
  }

  /// What a default of no written type is when it is a tuple (`(1, 2)`) or a closure (`{ 0 }`)
  /// whole, which no store can hold.
  static func literalShape(_ expression: ExpressionSyntax) -> ShapeProblem? {
    guard let last = expression.tokens.indices.last, expression.matchingClose(0) == last else { return nil }
    if expression.punct(0, UInt8(ascii: "{")) { return .function }
    return expression.punct(0, UInt8(ascii: "(")) && last > 1 && isTuple(expression, open: 0) ? .tuple : nil
  }

  /// The ASCII bytes that cannot be part of an identifier.
  static let notIdentifierBytes = String.ByteSet(
    (1...0x7F).filter {
      !($0 == UInt8(ascii: "_") || (0x30...0x39).contains($0) || (0x41...0x5A).contains($0)
        || (0x61...0x7A).contains($0))
    })

  static let parenthesis = String.ByteSet([UInt8(ascii: "(")])

  /// Whether any identifier in `type` (split at every byte that cannot be part of one) is in
  /// `names`; a type of one identifier is looked up whole, without splitting.
  static func namesAny(of names: Set<String>, _ more: Set<String> = [], in type: String) -> Bool {
    guard type.containsByte(from: notIdentifierBytes) else {
      return names.contains(type) || more.contains(type)
    }
    return type.utf8.split(whereSeparator: {
      !($0 == UInt8(ascii: "_") || $0 >= 0x80 || (0x30...0x39).contains($0) || (0x41...0x5A).contains($0)
        || (0x61...0x7A).contains($0))
    })
    .contains(where: {
      let name = String(decoding: $0, as: UTF8.self)
      return names.contains(name) || more.contains(name)
    })
  }

  /// The module type in `type` (or in its optional, array, set or dictionary values) that does not
  /// conform to `PreferenceValue` (or only under `#if` conditions), if the module declares one.
  func storabilityProblem(_ type: String, context: [ModuleIndex.TypeID], depth: Int = 0) -> (
    name: String, type: ModuleIndex.TypeID
  )? {
    // Nested deeper than any real type: left to the compiler, and bounded work. A type that
    // names no type of the module has nothing to check.
    // Most types are one identifier (`String`, `Theme`): looked up whole, without splitting.
    guard depth < 32 else { return nil }
    let namesModuleType = Self.namesAny(of: index.typeNames, index.aliasNames, in: type)
    guard namesModuleType else { return nil }
    return storabilityProblem(WrittenType(parsing: type), context: context, depth: depth)
  }

  private func storabilityProblem(_ written: WrittenType, context: [ModuleIndex.TypeID], depth: Int) -> (
    name: String, type: ModuleIndex.TypeID
  )? {
    guard depth < 32 else { return nil }
    let components: [WrittenType.Component]
    switch written {
    case .optional(let inner), .array(let inner), .set(let inner):
      return storabilityProblem(inner, context: context, depth: depth + 1)
    // Its values (a key that is not a string is reported on its own).
    case .dictionary(_, let value): return storabilityProblem(value, context: context, depth: depth + 1)
    case .other: return nil
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
      return storabilityProblem(target, context: owner.map(enclosingTypes) ?? [], depth: depth + 1)
    }
    guard let type = index.typeID(of: names, in: context), let kind = index[type].kind, kind != .protocol
    else { return nil }
    let conditions = index[type].preferenceValueConditions
    let conditional = !conditions.isEmpty && !conditions.contains(nil)
    return conformsToPreferenceValue(type) && !conditional ? nil : (written.text, type)
  }

  /// Protocols of the standard library and Apple's frameworks that classes often list first,
  /// where a superclass would be: listed first, they are still not a superclass that might
  /// conform (Yams' `final class Anchor: RawRepresentable, …, Codable` was left to the compiler,
  /// whose error names no fix).
  static let wellKnownProtocols: Set<String> = [
    "Codable", "Encodable", "Decodable", "Sendable", "Hashable", "Equatable", "Comparable", "Identifiable",
    "RawRepresentable", "CaseIterable", "Error", "LocalizedError", "CustomStringConvertible",
    "CustomDebugStringConvertible", "CustomReflectable", "LosslessStringConvertible",
    "ExpressibleByStringLiteral",
    "ExpressibleByIntegerLiteral", "ExpressibleByFloatLiteral", "ExpressibleByBooleanLiteral",
    "ExpressibleByArrayLiteral", "ExpressibleByDictionaryLiteral", "ExpressibleByNilLiteral",
    "ExpressibleByStringInterpolation", "ExpressibleByUnicodeScalarLiteral",
    "ExpressibleByExtendedGraphemeClusterLiteral", "Sequence", "Collection", "BidirectionalCollection",
    "RandomAccessCollection", "MutableCollection", "RangeReplaceableCollection", "IteratorProtocol",
    "SetAlgebra", "OptionSet", "AnyObject", "ObservableObject", "Observable", "NSCopying", "NSCoding",
    "NSSecureCoding",
  ]

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
          conformance.first?.isUppercase == true, !Self.wellKnownProtocols.contains(name)
        {
          // A superclass from another module may conform; the compiler decides.
          return true
        }
      }
    }
    return false
  }
}
