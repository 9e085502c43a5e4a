/// The conformances to `PreferenceValue` the registry writes for module types declared without
/// one, so that `@Preference var theme = Theme.dark` needs nothing more: an enum with a
/// property-list raw value, or a `RawRepresentable` struct (an `OptionSet`) whose raw type is
/// written, is stored as its raw value, a `Codable` type as JSON text (the protocol's
/// default implementations, as for a conformance the user writes). Likewise the conformances to
/// `PreferenceDictionaryKey` of the module types a stored dictionary is keyed by: a raw-value
/// enum or struct is a key as its raw value, a `LosslessStringConvertible` type as its
/// description.
///
/// `PreferenceValue` refines `Sendable`, and Swift accepts a conformance that implies `Sendable`
/// only in the file that declares the type. The generated file therefore states the type
/// `@unchecked Sendable`, and does so only where the scanner proves it: a raw-value enum (no
/// payloads: a value is one of its cases), or a struct or enum whose every stored property (and
/// associated value) is of a standard value type or of a module type proven the same way. A type
/// declared `Sendable`, or isolated to a global actor, needs no such statement. Anything else
/// (a class, a generic or private type, a public type not declared `Sendable` but a raw-value
/// enum, storage syntax does not show) gets one error at the declaration that names the
/// one-line fix.
///
/// Each type is decided once, however many declarations store it.
struct ConformanceSynthesis {
  let index: ModuleIndex
  /// Whether the module imports `Preferences` so that a public type's conformance may name it.
  let importsPublicly: Bool
  /// The target's default actor isolation, where its build settings or configuration say.
  let defaultIsolation: DefaultIsolation?
  /// Whether the target infers isolated conformances (Approachable Concurrency).
  let infersIsolatedConformances: Bool
  private(set) var decided: [ModuleIndex.TypeID: Result<SynthesizedConformance, ConformanceBlock>] = [:]
  private(set) var decidedKeys: [ModuleIndex.TypeID: Result<SynthesizedConformance, ConformanceBlock>] = [:]
  private var sendable: [ModuleIndex.TypeID: Bool] = [:]
  /// How many times a proof assumed a type it was already proving.
  private var assumptions = 0

  /// Why Swift rejects a property wrapper in each type asked about (``wrapperRejection(_:)``).
  private(set) var wrapperRejections: [ModuleIndex.TypeID: String] = [:]

  /// Decides every conformance `requests` asks for.
  init(
    index: ModuleIndex, files: [FileSyntax], defaultIsolation: DefaultIsolation? = nil,
    infersIsolatedConformances: Bool = false, requests: Requests = Requests()
  ) {
    self.index = index
    self.defaultIsolation = defaultIsolation
    self.infersIsolatedConformances = infersIsolatedConformances
    let own = files.lazy.flatMap(\.imports).filter { $0.module == "Preferences" && $0.kind == nil }
    importsPublicly = own.isEmpty || own.contains { $0.accessLevel == nil || $0.accessLevel == "public" }
    // Each decision depends on its type alone, so the order of the requests does not matter.
    conformIfPossible(values: requests.possibleValues, keys: requests.possibleKeys)
    var askedForWrapper: Set<ModuleIndex.TypeID> = []
    for check in requests.checks {
      switch check.kind {
      case .value(let type, _) where decided[type] == nil: decided[type] = decide(type, asKey: false)
      case .key(let type, _) where decidedKeys[type] == nil: decidedKeys[type] = decide(type, asKey: true)
      case .wrapper(let type) where askedForWrapper.insert(type).inserted:
        wrapperRejections[type] = wrapperRejection(type)
      default: break
      }
    }
  }

  /// Every conformance decided, by type name: a type that is both stored and a stored
  /// dictionary's key gets one extension that lists both protocols (and states `Sendable` once).
  var conformances: [SynthesizedConformance] {
    var byType: [String: SynthesizedConformance] = [:]
    var separate: [SynthesizedConformance] = []
    for case .success(let value) in decided.values { byType[value.typeName] = value }
    for case .success(let key) in decidedKeys.values {
      guard var merged = byType[key.typeName] else {
        byType[key.typeName] = key
        continue
      }
      if merged.condition == key.condition {
        merged.keyStorage = key.keyStorage
        byType[key.typeName] = merged
      } else {
        // Under another `#if` than the stored type's (the user conformed it to `PreferenceValue`
        // under one): a line of its own, which leaves `Sendable` to the other.
        var alone = key
        alone.statesSendable = alone.statesSendable && !merged.statesSendable
        separate.append(alone)
      }
    }
    return (Array(byType.values) + separate).sorted {
      ($0.typeName, $0.condition ?? "") < ($1.typeName, $1.condition ?? "")
    }
  }

  /// Conformances to `PreferenceValue` (for `values`) and `PreferenceDictionaryKey` (for
  /// `keys`) of the module types a default names whose type only the compiler knows, so that
  /// whichever the default stores, or keys a dictionary by, conforms. Only raw-value enums,
  /// whose conformance holds in any isolation: a type merely named must never draw an error, and
  /// one stored as JSON or through its own `rawValue` may not conform where the target's
  /// isolation makes that conformance isolated. The callers leave out types that conform already.
  private mutating func conformIfPossible(values: [ModuleIndex.TypeID], keys: [ModuleIndex.TypeID]) {
    for type in values where decided[type] == nil {
      let result = decide(type, asKey: false)
      if case .success(let value) = result, value.storage == .rawValue { decided[type] = result }
    }
    for type in keys where decidedKeys[type] == nil {
      let result = decide(type, asKey: true)
      if case .success(let value) = result, value.keyStorage == .rawValue { decidedKeys[type] = result }
    }
  }

  private mutating func decide(_ type: ModuleIndex.TypeID, asKey: Bool) -> Result<
    SynthesizedConformance, ConformanceBlock
  > {
    let info = index[type]
    let name = index.qualifiedName(type)
    let protocolName = asKey ? "PreferenceDictionaryKey" : "PreferenceValue"
    let ownFix = "add 'extension \(name): \(protocolName) {}' in the file that declares it"
    if let generic = info.genericType {
      // A generic type whose own declaration states `Codable` and `Sendable` is both whatever
      // its arguments (the compiler holds the declaration to that): stored as JSON, as any
      // `Codable` type. Conformances of its extensions may be conditional, so they do not count.
      let declared = index.genericDeclaredConformances[type] ?? []
      let codable = declared.contains("Codable") || declared.isSuperset(of: ["Encodable", "Decodable"])
      if generic != type || asKey || !codable || !declared.contains("Sendable") {
        // A type nested in a generic one, with no parameters of its own (`Box<T>.Mode`), conforms
        // without constraints: `extension Box.Mode: PreferenceValue {}` compiles.
        let fix =
          generic != type && info.genericParameters.isEmpty
          ? ownFix
          : "add 'extension \(name): \(protocolName) where …' with the constraints that make it storable"
        return .failure(
          ConformanceBlock(
            reason: "'\(index.qualifiedName(generic))' is generic"
              + (generic == type && !asKey && codable ? ", and its declaration does not state Sendable" : ""),
            fix: generic == type && !asKey && codable
              ? "declare it '\(info.kind?.rawValue ?? "struct") \(info.name)<…>: …, Sendable', or \(fix)"
              : fix))
      }
    }
    if let unreachable = info.unreachable {
      return .failure(ConformanceBlock(reason: unreachable, fix: ownFix))
    }
    guard let kind = info.kind, kind == .enum || kind == .struct else {
      return .failure(
        ConformanceBlock(
          reason: "'\(name)' is \(info.kind.map { "a \($0.rawValue)" } ?? "not declared in this module")",
          fix: info.kind == .class ? "make it a final class that is Sendable, and \(ownFix)" : ownFix))
    }
    var storage: SynthesizedConformance.Storage?
    var keyStorage: SynthesizedConformance.KeyStorage?
    if asKey {
      // A raw type that reads back from text as the same key (`CGFloat` does not).
      if kind == .enum && isRawValueEnum(info, asKey: true) {
        keyStorage = .rawValue
      } else if rawType(type) != nil {
        keyStorage = .rawRepresentable
      } else if index.inherits(type, anyOf: ["LosslessStringConvertible"]) {
        keyStorage = .description
      } else {
        return .failure(
          ConformanceBlock(
            reason:
              "it is neither an enum with a String, number or Character raw value, nor RawRepresentable with its rawValue's type written, nor LosslessStringConvertible, so it has no text to be stored as",
            fix: "key the dictionary by its raw value or another text, or \(ownFix) and implement it"))
      }
    } else {
      let rawValue = kind == .enum && isRawValueEnum(info)
      let codable =
        index.inherits(type, anyOf: ["Codable"])
        || (index.inherits(type, anyOf: ["Encodable"]) && index.inherits(type, anyOf: ["Decodable"]))
      // A Codable one is stored as its raw value only where that is a preference value for sure
      // (else the conformance takes Codable's implementation: JSON text).
      let rawStruct =
        !rawValue && rawType(type) != nil
        && (!codable || writtenRawType(type).map { StandardTypes.name($0, has: .rawValueType) } == true)
      guard rawValue || rawStruct || codable else {
        return .failure(
          ConformanceBlock(
            reason:
              "it is neither an enum with a String, number or Character raw value, nor RawRepresentable (an OptionSet, say) with its rawValue's type written, nor Codable",
            fix: "declare it Codable (it is then stored as JSON text), or \(ownFix) and implement it"))
      }
      storage = rawValue ? .rawValue : rawStruct ? .rawRepresentable : .json
    }
    // A conformance that uses the type's own members (synthesized `Codable`, a written
    // `rawValue`, `description`) is isolated where the default isolation is MainActor, unless the
    // type is `nonisolated`, and where conformances are inferred isolated, if the type is isolated
    // to a global actor; the generated conformance could not compile. A conformance written
    // `nonisolated` (`: nonisolated Codable`) is usable anywhere, and an enum's synthesized raw
    // value is never isolated.
    let usesOwnMembers: String? =
      storage == .json
      ? "Codable"
      : storage == .rawRepresentable || keyStorage == .rawRepresentable
        ? "RawRepresentable" : keyStorage == .description ? "LosslessStringConvertible" : nil
    let ownProtocols: Set<String> =
      usesOwnMembers == "Codable"
      ? ["Codable", "Encodable", "Decodable"]
      : usesOwnMembers == "RawRepresentable"
        ? ["RawRepresentable", "OptionSet"] : ["LosslessStringConvertible"]
    if let usesOwnMembers, !index.declaresNonisolatedConformance(type, toAnyOf: ownProtocols) {
      let fix =
        "declare it 'nonisolated \(kind.rawValue) \(info.name): …' (or its conformance ': nonisolated \(usesOwnMembers)')"
      if defaultIsolation == .mainActor, !isNonisolated(type) {
        return .failure(
          ConformanceBlock(
            reason:
              "this target's default isolation is MainActor, which makes the \(usesOwnMembers) conformance of '\(name)' main-actor isolated, and preferences are read on any thread",
            fix: fix))
      }
      // Isolated to a global actor where conformances are inferred isolated (Approachable
      // Concurrency): its conformances are too.
      if infersIsolatedConformances, let actor = info.globalActor {
        return .failure(
          ConformanceBlock(
            reason:
              "'\(name)' is isolated to @\(actor), and this target infers isolated conformances (Approachable Concurrency), which makes its \(usesOwnMembers) conformance isolated too, and preferences are read on any thread",
            fix:
              "declare its conformance ': nonisolated \(usesOwnMembers)', or remove '@\(actor)' from '\(info.name)'"
          ))
      }
    }
    let declaredSendable = index.inherits(type, anyOf: ["Sendable"]) || info.globalActor != nil
    if let access = info.access, access >= .public {
      if !importsPublicly {
        return .failure(
          ConformanceBlock(
            reason: "'\(name)' is \(access.rawValue), and the module imports Preferences below public",
            fix: ownFix))
      }
      // Sendable is part of a public type's contract: the user states it. Except for a
      // raw-value enum, which has no payloads and never can: it is Sendable by construction, and
      // stating so takes nothing from its future (IceCubes' public settings enums).
      if !declaredSendable, !(kind == .enum && isRawValueEnum(info)) {
        return .failure(
          ConformanceBlock(
            reason: "'\(name)' is \(access.rawValue) and not declared Sendable",
            fix: "declare it '\(kind.rawValue) \(info.name): …, Sendable', or \(ownFix)"))
      }
    }
    var visiting: Set<ModuleIndex.TypeID> = []
    if !declaredSendable, !isProvablySendable(type, visiting: &visiting) {
      return .failure(
        ConformanceBlock(
          reason:
            "the scanner cannot prove '\(name)' Sendable from its stored properties (each must be of a standard value type, or a module type proven the same way, with its type written)",
          fix: "declare it '\(kind.rawValue) \(info.name): …, Sendable', or \(ownFix)"))
    }
    guard let condition = condition(info, excludingOwn: !asKey) else {
      return .failure(
        ConformanceBlock(
          reason: "'\(name)' is declared under an #if condition too long to repeat", fix: ownFix))
    }
    return .success(
      SynthesizedConformance(
        typeName: name, storage: storage, keyStorage: keyStorage,
        statesSendable: !declaredSendable, condition: condition.isEmpty ? nil : condition,
        site: info.declarationSite, availability: Availability(index.availability(of: type))))
  }

  private func isRawValueEnum(_ info: ModuleIndex.TypeInfo, asKey: Bool = false) -> Bool {
    guard info.kind == .enum, let raw = info.firstInherited.map(ModuleIndex.lastComponent) else {
      return false
    }
    return StandardTypes.name(raw, has: .rawValueType)
      && !(asKey && StandardTypes.name(raw, has: .untextualKey))
  }

  /// The raw type, as written, of a struct or enum `RawRepresentable` by its own members (an
  /// `OptionSet`, `struct Tag: RawRepresentable`, an enum with payloads that writes `var rawValue:
  /// String`), read from its `rawValue` property or its `RawValue` type alias: the
  /// protocol's default implementation then stores its raw value, as `@AppStorage` stores such a
  /// type. Whether the raw type is a preference value (or a dictionary key) the compiler decides:
  /// the generated conformance needs it, and is placed at the type's declaration
  /// (`RegistryRenderer.conformances`), where the compiler reports it if not. A raw type syntax
  /// does not show (`let rawValue = 1`) leaves the type to the user.
  private func rawType(_ type: ModuleIndex.TypeID) -> WrittenType? {
    guard index[type].kind == .struct || index[type].kind == .enum else { return nil }
    guard index.inherits(type, anyOf: ["RawRepresentable", "OptionSet"]) else { return nil }
    let members = index[type].members
    let alias = members["RawValue"]?.first { $0.syntax.kind == .typeAlias }?.syntax.writtenType
    var written = members["rawValue"]?.first { $0.syntax.kind == .property && !$0.syntax.isStatic }?.syntax
      .writtenType
    if written == nil || written?.path == ["RawValue"] || written?.path == ["Self", "RawValue"] {
      written = alias
    }
    return written == .other("") ? nil : written
  }

  /// The raw type a `RawRepresentable` type writes, as a standard name (`Swift.Int` is `Int`),
  /// if it writes one of those.
  private func writtenRawType(_ type: ModuleIndex.TypeID) -> String? {
    guard let names = rawType(type)?.path else { return nil }
    return names.count == 1
      ? names[0] : names.count == 2 && ["Swift", "Foundation"].contains(names[0]) ? names[1] : nil
  }

  /// Where the conformance compiles: where the type is declared, and (with `excludingOwn`) not
  /// where the user's own conformance to `PreferenceValue` is (`""` for everywhere); `nil` if a
  /// condition was too long to repeat.
  private func condition(_ info: ModuleIndex.TypeInfo, excludingOwn: Bool) -> String? {
    var clauses: [String] = []
    if !info.declarationConditions.contains(nil) {
      let declared = info.declarationConditions.compactMap { $0 }.sorted()
      clauses.append(
        declared.count == 1 ? declared[0] : "(" + declared.map(Self.grouped).joined(separator: " || ") + ")")
    }
    if excludingOwn {
      clauses += info.preferenceValueConditions.compactMap { $0 }.sorted().map { "!" + Self.grouped($0) }
    }
    if clauses.contains(where: { $0.contains("…") }) { return nil }
    return clauses.joined(separator: " && ")
  }

  /// A condition as one operand: parenthesized unless it is one already.
  static func grouped(_ condition: String) -> String {
    condition.hasPrefix("(") && condition.hasSuffix(")") && !condition.contains(" && ")
      && !condition.contains(" || ") ? condition : "(\(condition))"
  }

  // MARK: Sendable

  /// Why Swift rejects a property wrapper in `type`, if it does: a struct or class declared
  /// `nonisolated` that is `Sendable` cannot hold one, whatever the module's default isolation
  /// (Swift 6.3: "'nonisolated' cannot be applied to mutable stored properties", at the
  /// property, naming no fix; a warning in the Swift 5 language mode). `Sendable` as declared
  /// (`@unchecked` too, or through a protocol of the module), or, for a struct that is not
  /// public, as the compiler infers it from stored properties that are all `Sendable`, where the
  /// scanner proves that (else the compiler is left to say it). Returns how the type is
  /// `Sendable`, for the message.
  private mutating func wrapperRejection(_ type: ModuleIndex.TypeID) -> String? {
    let info = index[type]
    guard info.isNonisolated, info.kind == .struct || info.kind == .class else { return nil }
    if index.inherits(type, anyOf: ["Sendable"]) { return "declared Sendable" }
    guard info.kind == .struct, (info.access ?? .internal) < .public else { return nil }
    var visiting: Set<ModuleIndex.TypeID> = []
    guard isProvablySendable(type, visiting: &visiting) else { return nil }
    return "Sendable without saying so (a struct that is not public, of Sendable properties)"
  }

  /// Whether every value of `type` is provably `Sendable`: declared so (or isolated to a global
  /// actor), a raw-value enum, or a struct or enum whose storage syntax shows and holds only such
  /// types. A type met again while it is being proven counts as proven (it adds no storage of its
  /// own); a result that leaned on that assumption is not remembered, every other one is, so each
  /// type is proven once.
  private mutating func isProvablySendable(
    _ type: ModuleIndex.TypeID, visiting: inout Set<ModuleIndex.TypeID>
  )
    -> Bool
  {
    if let known = sendable[type] { return known }
    guard visiting.insert(type).inserted else {
      assumptions += 1
      return true
    }
    let assumedBefore = assumptions
    let info = index[type]
    let proven: Bool
    if index.inherits(type, anyOf: ["Sendable"]) || info.globalActor != nil || isRawValueEnum(info) {
      proven = true
    } else if info.kind == .struct || info.kind == .enum, info.genericType == nil, !info.hasUnknownStorage {
      let context = enclosingTypes(type)
      proven =
        info.storedPropertyTypes.allSatisfy { isSendableType($0, context: context, visiting: &visiting) }
        && info.storedMemberValues.allSatisfy { isSendableMember($0, context: context, visiting: &visiting) }
    } else {
      proven = false
    }
    visiting.remove(type)
    if !proven || assumptions == assumedBefore { sendable[type] = proven }
    return proven
  }

  /// The types a member of `type` looks names up in, innermost first.
  private func enclosingTypes(_ type: ModuleIndex.TypeID) -> [ModuleIndex.TypeID] {
    var context: [ModuleIndex.TypeID] = []
    var current: ModuleIndex.TypeID? = type
    while let step = current {
      context.append(step)
      current = index[step].parent
    }
    return context
  }

  /// Whether a written type is `Sendable`: a standard value type, a module type proven so, or an
  /// optional, array, set, range, tuple or dictionary of them.
  private mutating func isSendableType(
    _ written: WrittenType, context: [ModuleIndex.TypeID], visiting: inout Set<ModuleIndex.TypeID>,
    depth: Int = 0
  ) -> Bool {
    guard depth < 16 else { return false }
    let components: [WrittenType.Component]
    switch written {
    case .optional(let inner), .array(let inner), .set(let inner):
      return isSendableType(inner, context: context, visiting: &visiting, depth: depth + 1)
    case .dictionary(let key, let value):
      return isSendableType(key, context: context, visiting: &visiting, depth: depth + 1)
        && isSendableType(value, context: context, visiting: &visiting, depth: depth + 1)
    case .tuple(let elements, _):
      return elements.allSatisfy {
        isSendableType($0, context: context, visiting: &visiting, depth: depth + 1)
      }
    case .function, .existential, .opaque, .composition, .metatype, .inlineArray, .other: return false
    case .named(let named): components = named
    }
    // `Range<T>`, `ClosedRange<T>` (also `Swift.`): as their bounds.
    if let last = components.last, last.arguments.count == 1, ["Range", "ClosedRange"].contains(last.name),
      components.count == 1 || (components.count == 2 && components[0].name == "Swift")
    {
      return isSendableType(last.arguments[0], context: context, visiting: &visiting, depth: depth + 1)
    }
    guard components.allSatisfy(\.arguments.isEmpty) else { return false }
    let names = components.map(\.name)
    if let type = index.typeID(of: names, in: context), index[type].kind != nil {
      return isProvablySendable(type, visiting: &visiting)
    }
    // A type alias of the module (`typealias RawValue = String`): its target.
    if let (target, owner) = index.aliasTarget(of: names, in: context) {
      return isSendableType(
        target, context: owner.map(enclosingTypes) ?? [], visiting: &visiting, depth: depth + 1)
    }
    // `String`, or `Swift.String`, `Foundation.Date`.
    let standard =
      names.count == 1
      ? names[0] : names.count == 2 && ["Swift", "Foundation"].contains(names[0]) ? names[1] : ""
    return StandardTypes.name(standard, has: .sendable)
  }
}

extension ConformanceSynthesis {
  /// Whether a type is `nonisolated` where the default isolation is MainActor: declared so, or
  /// nested in a type declared so, without a global actor of its own or of a type between
  /// (`nonisolated enum Space { struct Nested: Codable }`: `Nested` is nonisolated; a type in a
  /// `nonisolated extension` is not, as Swift 6.3 decides).
  fileprivate func isNonisolated(_ type: ModuleIndex.TypeID) -> Bool {
    var current: ModuleIndex.TypeID? = type
    while let step = current {
      if index[step].isNonisolated { return true }
      if index[step].globalActor != nil { return false }
      current = index[step].parent
    }
    return false
  }

  /// Whether a stored property initialized to `T.member` stores a `Sendable` value: a case
  /// without payload, or a static property written to be of type `T`, of a module type `T`
  /// proven `Sendable` (`var order = SortOrder.name`); or any static member of a standard value
  /// type (`var date = Date.now`, `var zone = TimeZone.current`), each of which the standard
  /// library and Foundation declare as a `Sendable` value. Anything else (`Manager.shared`, a
  /// case with a payload, which names a function) is not proven.
  fileprivate mutating func isSendableMember(
    _ value: ModuleIndex.MemberValue, context: [ModuleIndex.TypeID], visiting: inout Set<ModuleIndex.TypeID>
  ) -> Bool {
    guard let type = index.typeID(of: [value.type], in: context), index[type].kind != nil else {
      return index.aliasTarget(of: [value.type], in: context) == nil
        && StandardTypes.name(value.type, has: .sendable)
    }
    let names: Set<String> = ["Self", value.type, index.qualifiedName(type)]
    let ofType = index[type].members[value.member, default: []].contains { member in
      switch member.syntax.kind {
      case .enumCase: !member.syntax.hasPayload
      case .property: member.syntax.isStatic && member.syntax.type.map { names.contains($0) } == true
      default: false
      }
    }
    return ofType && isProvablySendable(type, visiting: &visiting)
  }
}

/// Why the registry cannot write a type's conformance, and the one-line fix.
struct ConformanceBlock: Error {
  var reason: String
  var fix: String

  /// The error for what stores module type `type` (`subject`: "@Preference 'x' stores T",
  /// "'Keys.c' holds T"), which the registry cannot make a `PreferenceValue`.
  func valueError(_ subject: String, type: String) -> String {
    "\(subject), but '\(type)' does not conform to PreferenceValue, and the registry cannot add the conformance: \(reason); \(fix)"
  }

  /// The error for what stores a dictionary keyed by module type `key`, which the registry cannot
  /// make a `PreferenceDictionaryKey`.
  func keyError(_ subject: String, key: String) -> String {
    "\(subject), a dictionary keyed by '\(key)', which does not conform to PreferenceDictionaryKey (a stored dictionary is keyed by text, as property lists are), and the registry cannot add the conformance: \(reason); \(fix)"
  }
}

/// A conformance to `PreferenceValue` (or `PreferenceDictionaryKey`, or both) the registry writes
/// for a module type declared without one.
package struct SynthesizedConformance: Sendable {
  package enum Storage: String, Sendable {
    /// An enum stored as its raw value.
    case rawValue
    /// A struct or enum `RawRepresentable` by members it writes (an `OptionSet`, say), stored as
    /// its raw value.
    case rawRepresentable
    /// A `Codable` type stored as JSON text.
    case json
  }

  /// How a stored dictionary's key is stored as text.
  package enum KeyStorage: String, Sendable {
    /// An enum's raw value.
    case rawValue
    /// A `RawRepresentable` struct's raw value.
    case rawRepresentable
    /// A `LosslessStringConvertible` type's `description`.
    case description
  }

  /// The type's qualified name in the module.
  package let typeName: String
  /// How it is stored, where it conforms to `PreferenceValue`; `nil` where it does not.
  package var storage: Storage?
  /// How it is stored as a dictionary's key, where it conforms to `PreferenceDictionaryKey`.
  package var keyStorage: KeyStorage? = nil
  /// Whether the conformance also states `@unchecked Sendable`, which the scanner proved.
  package var statesSendable: Bool
  /// The `#if` condition to compile it under: where the type is declared and the user's own
  /// conformance is not; `nil` for always.
  package let condition: String?
  /// Where the type is declared: the compiler reports a conformance it rejects there.
  package var site: (file: String, line: Int)? = nil
  /// The `@available` attributes of the type and the types around it, which the extension
  /// that conforms it repeats.
  package var availability = Availability([])
}
