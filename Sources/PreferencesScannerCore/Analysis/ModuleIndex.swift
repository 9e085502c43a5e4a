/// What the whole module declares, from every file's syntax: each type (its declarations and
/// extensions merged), its members and nested types, conformances, generic parameters and
/// isolation, and the module's file-scope names. It answers how a name in a default expression
/// resolves where the declaration is, and whether it resolves the same in generated code.
///
/// Types are numbered (``TypeID``) in a tree of names, so that nesting thousands deep costs
/// linear time and memory: a type is found from its parent and its own name, never by its
/// qualified name, and what a type inherits from the types around it (being generic, private or
/// local) is computed once, from its parent.
///
/// A class, and its type records too: the plugin runs a debug-built scanner on every edit, and an
/// unoptimized read of a struct this size copies every field (retaining each collection), which
/// cost about a tenth of an edit's scan; a reference costs one retain.
///
/// `@unchecked Sendable`, proved: every stored property here and in ``TypeInfo`` is set only in
/// this file, and only by `init` (with `typeID(creating:in:)`, which only `init` calls), before the
/// index is returned; after that it is only read, so sharing it between threads races on nothing.
/// For the same reason each `var` is `@exclusivity(unchecked)`: a class's stored `var` is otherwise
/// checked at run time on every access (`swift_beginAccess`, in release builds too), which made a
/// release scan 2.5 % slower than the struct; no access here can overlap a write, since every
/// write happens in `init`, one statement at a time, before anything else can see the index.
package final class ModuleIndex: @unchecked Sendable {
  package typealias TypeID = Int

  /// What the module declares of one type. Written only by ``ModuleIndex/init(_:)``.
  ///
  /// `@unchecked Sendable`: see ``ModuleIndex``.
  package final class TypeInfo: @unchecked Sendable {
    package let name: String
    package let parent: TypeID?
    /// How deep it is nested: 1 for a type at file scope.
    package let depth: Int
    /// The kind of the declaration itself; `nil` when only extensions were seen (a type from
    /// another module).
    @exclusivity(unchecked) package fileprivate(set) var kind: TypeScope.Kind?
    @exclusivity(unchecked) package fileprivate(set) var genericParameters: Set<String> = []
    @exclusivity(unchecked) package fileprivate(set) var globalActor: String?
    @exclusivity(unchecked) package fileprivate(set) var isNonisolated = false
    /// The file and line of its first declaration (not extension), where the compiler reports
    /// a problem with a conformance the registry writes for it.
    @exclusivity(unchecked) package fileprivate(set) var declarationSite: (file: String, line: Int)?
    /// The `@available(…)` attributes of its declaration, as written.
    @exclusivity(unchecked) package fileprivate(set) var availability: [String] = []
    /// The widest access level written on its declarations.
    @exclusivity(unchecked) package fileprivate(set) var access: AccessLevel?
    /// The `#if` condition of each declaration (not extension) of it, `nil` for one outside any
    /// `#if`: where a conformance the registry writes must be compiled.
    @exclusivity(unchecked) package fileprivate(set) var declarationConditions: Set<String?> = []
    /// The same, for each declaration or extension that lists `PreferenceValue`.
    @exclusivity(unchecked) package fileprivate(set) var preferenceValueConditions: Set<String?> = []
    /// The types of its instance stored properties and enum cases' associated values, as far as
    /// syntax shows them, in declaration order (a list: hashing every type of a module to drop the
    /// repeats costs more than the rare proofs that read them).
    @exclusivity(unchecked) package fileprivate(set) var storedPropertyTypes: [WrittenType] = []
    /// Stored properties whose initial value names a case or static property (`T.member`), as
    /// the type `T` and the member, once each.
    @exclusivity(unchecked) package fileprivate(set) var storedMemberValues: Set<MemberValue> = []
    /// Whether it has a stored property (or associated value) whose type syntax does not show.
    @exclusivity(unchecked) package fileprivate(set) var hasUnknownStorage = false
    /// The file of a `private` or `fileprivate` declaration.
    @exclusivity(unchecked) package fileprivate(set) var privateFile: String?
    @exclusivity(unchecked) package fileprivate(set) var isLocal = false
    /// Every type named in an inheritance clause of a declaration or extension, once each, in
    /// the order first seen (a name repeated by thousands of declarations stays one entry, so
    /// what walks it stays linear).
    @exclusivity(unchecked) package fileprivate(set) var conformances: [String] = []
    @exclusivity(unchecked) fileprivate var conformanceSet: Set<String> = []
    /// The first entry of the declaration's own inheritance clause: a superclass or raw type.
    @exclusivity(unchecked) package fileprivate(set) var firstInherited: String?
    @exclusivity(unchecked) package fileprivate(set) var members: [String: [Member]] = [:]
    /// Names of the types (and type aliases) declared inside it.
    @exclusivity(unchecked) package fileprivate(set) var nestedTypes: Set<String> = []
    /// The module's types among ``conformances`` (superclasses and protocols it declares).
    @exclusivity(unchecked) package fileprivate(set) var inheritedTypes: [TypeID] = []
    /// The outermost of it and the types it is nested in that has generic parameters.
    @exclusivity(unchecked) package fileprivate(set) var genericType: TypeID?
    /// Why generated code cannot name it: the outermost type around it (or itself) that is
    /// private to a file or local to a function; `nil` if it can.
    @exclusivity(unchecked) package fileprivate(set) var unreachable: String?

    fileprivate init(name: String, parent: TypeID?, depth: Int) {
      self.name = name
      self.parent = parent
      self.depth = depth
    }
  }

  package struct Member: Sendable {
    package var syntax: MemberSyntax
    package var file: String
    /// The global actor written on the member itself.
    package var actor: String?
    /// Isolation of the extension the member is declared in, when that declares one.
    package var scopeActor: String?
  }

  /// A stored property's initial value `T.member`: a case or static property of `T`.
  package struct MemberValue: Hashable, Sendable {
    package var type: String
    package var member: String
  }

  private struct ChildKey: Hashable {
    var parent: TypeID
    var name: String
  }

  @exclusivity(unchecked) package private(set) var types: [TypeInfo] = []
  @exclusivity(unchecked) private var children: [ChildKey: TypeID] = [:]
  /// The type of each scope, by file and scope index.
  @exclusivity(unchecked) package private(set) var scopeTypes: [[TypeID]] = []
  /// File-scope values and functions, by name.
  @exclusivity(unchecked) package private(set) var globals: [String: [Member]] = [:]
  /// Names of the enum cases (without payloads or with) declared anywhere in the module.
  @exclusivity(unchecked) package private(set) var enumCaseNames: Set<String> = []
  /// The name of every type the module declares or extends, at any depth: a name not in it
  /// never resolves to a module type.
  @exclusivity(unchecked) package private(set) var typeNames: Set<String> = []
  /// The module's name (the first component of its files' `#fileID`): `App.Theme` names the
  /// module's `Theme` where the module declares no type `App`.
  @exclusivity(unchecked) package private(set) var moduleName: String?
  /// The names of the module's type aliases whose target syntax shows (`typealias A = B`).
  @exclusivity(unchecked) package private(set) var aliasNames: Set<String> = []
  /// The names of the module's protocols.
  @exclusivity(unchecked) package private(set) var protocolNames: Set<String> = []
  /// The types that list `Codable`, `Encodable` or `Decodable`, or a protocol of the module
  /// (which may refine one of them), among their conformances.
  @exclusivity(unchecked) package private(set) var codingCandidates: Set<TypeID> = []
  /// Of each generic type, the last components of its declaration's own inheritance clause (not
  /// its extensions', which may be conditional): the conformances that hold whatever its
  /// arguments. Kept beside the types rather than in them, so that reading a type copies no more.
  @exclusivity(unchecked) package private(set) var genericDeclaredConformances: [TypeID: Set<String>] = [:]
  /// Whether any type of the module declares `@available(…)`: most modules declare none, and
  /// ``availability(of:)`` then walks no type chain (a debug scanner, which the plugin runs on
  /// every edit, copies each type record it reads).
  @exclusivity(unchecked) private var declaresAvailability = false

  /// The global actors: `MainActor`, every type the module declares `@globalActor`, and a name
  /// ending in `Actor` that the module does not declare as something else (another module's
  /// global actor, which the scanner cannot see).
  @exclusivity(unchecked) package private(set) var globalActors: Set<String> = ["MainActor"]
  @exclusivity(unchecked) private var declaredNonActors: Set<String> = []

  /// The first of `attributes` that names a global actor.
  package func globalActor(among attributes: [String]) -> String? {
    attributes.first { name in
      globalActors.contains(name)
        || (name.hasSuffix("Actor") && name != "globalActor" && !declaredNonActors.contains(name))
    }
  }

  /// The enums of the modules this one depends on, read from their sources where the build gives
  /// them (``DependencyEnums``).
  package let dependencyEnums: DependencyEnums

  /// The modules each file imports, by the file's path (for names of other modules that only
  /// an import makes visible).
  package let importedModules: [String: Set<String>]

  package init(_ files: [FileSyntax], dependencyEnums: DependencyEnums = DependencyEnums()) {
    self.dependencyEnums = dependencyEnums
    importedModules =
      dependencyEnums.isEmpty
      ? [:]
      : Dictionary(files.map { ($0.path, Set($0.imports.map(\.module))) }, uniquingKeysWith: { $0.union($1) })
    moduleName = files.first.map { String($0.fileID.prefix { $0 != "/" }) }
    // Which names are global actors is known only once every file's declarations are.
    for file in files {
      for scope in file.scopes where scope.kind != .extension {
        guard let name = scope.names.last else { continue }
        if scope.attributeNames.contains("globalActor") {
          globalActors.insert(name)
        } else {
          declaredNonActors.insert(name)
        }
      }
    }
    declaredNonActors.subtract(globalActors)
    for file in files {
      var fileTypes: [TypeID] = []
      fileTypes.reserveCapacity(file.scopes.count)
      for scope in file.scopes {
        let id = typeID(creating: scope.names, in: scope.parent.map { fileTypes[$0] })
        fileTypes.append(id)
        for inherited in scope.inherits where types[id].conformanceSet.insert(inherited).inserted {
          types[id].conformances.append(inherited)
        }
        func condition() -> String? { scope.branch.map { BranchSyntax.condition(of: $0, in: file.branches) } }
        if scope.inherits.contains(where: { Self.preferenceValueProtocols.contains(Self.lastComponent($0)) })
        {
          types[id].preferenceValueConditions.insert(condition())
        }
        guard scope.kind != .extension else { continue }
        types[id].declarationConditions.insert(condition())
        if types[id].declarationSite == nil {
          types[id].declarationSite = (file.path, scope.line)
          types[id].availability = scope.availability
          if !scope.availability.isEmpty { declaresAvailability = true }
        }
        if let access = scope.access { types[id].access = max(types[id].access ?? access, access) }
        types[id].kind = scope.kind
        types[id].genericParameters.formUnion(scope.genericParameters)
        if !scope.genericParameters.isEmpty {
          genericDeclaredConformances[id, default: []].formUnion(scope.inherits.map(Self.lastComponent))
        }
        types[id].globalActor = globalActor(among: scope.attributeNames) ?? types[id].globalActor
        types[id].isNonisolated = types[id].isNonisolated || scope.isNonisolated
        // A type of a `private extension` is as private as the extension's members.
        if scope.access?.isFilePrivate == true
          || scope.parent.map({
            file.scopes[$0].kind == .extension && file.scopes[$0].access?.isFilePrivate == true
          })
            == true
        {
          types[id].privateFile = file.path
        }
        if scope.isLocal { types[id].isLocal = true }
        types[id].firstInherited = scope.inherits.first
        if let parent = types[id].parent { types[parent].nestedTypes.insert(types[id].name) }
      }
      scopeTypes.append(fileTypes)
      for stored in file.storedProperties {
        if let type = stored.type, let member = stored.member {
          types[fileTypes[stored.scope]].storedMemberValues.insert(MemberValue(type: type, member: member))
        } else if let type = stored.writtenType {
          types[fileTypes[stored.scope]].storedPropertyTypes.append(type)
        } else {
          types[fileTypes[stored.scope]].hasUnknownStorage = true
        }
      }
      for member in file.members {
        let entry = Member(
          syntax: member, file: file.path, actor: globalActor(among: member.attributeNames),
          scopeActor: member.owner.flatMap { globalActor(among: file.scopes[$0].attributeNames) })
        if member.kind == .enumCase { enumCaseNames.insert(member.name) }
        if member.kind == .typeAlias, member.type != nil { aliasNames.insert(member.name) }
        if let owner = member.owner {
          let id = fileTypes[owner]
          if member.kind == .typeAlias { types[id].nestedTypes.insert(member.name) }
          types[id].members[member.name, default: []].append(entry)
        } else {
          globals[member.name, default: []].append(entry)
        }
      }
    }
    // Parents are numbered before their children: one pass in order settles what each type
    // inherits from the types around it.
    for id in types.indices {
      typeNames.insert(types[id].name)
      if types[id].kind == .protocol { protocolNames.insert(types[id].name) }
      types[id].inheritedTypes = types[id].conformances.compactMap {
        self.id(of: Self.dotted($0))
      }
      if types[id].conformances.contains(where: { Self.codingProtocols.contains(Self.lastComponent($0)) })
        || types[id].inheritedTypes.contains(where: { types[$0].kind == .protocol })
      {
        codingCandidates.insert(id)
      }
      let parent = types[id].parent.map { types[$0] }
      types[id].genericType = parent?.genericType ?? (types[id].genericParameters.isEmpty ? nil : id)
      if let inherited = parent?.unreachable {
        types[id].unreachable = inherited
      } else if types[id].isLocal {
        types[id].unreachable = "'\(qualifiedName(id))' is declared inside a function"
      } else if types[id].privateFile != nil {
        types[id].unreachable = "'\(qualifiedName(id))' is private to its file"
      }
    }
  }

  /// The type `names` denotes inside `parent` (at file scope if `nil`), created if new.
  private func typeID(creating names: [String], in parent: TypeID?) -> TypeID {
    var current = parent
    for name in names {
      let key = ChildKey(parent: current ?? -1, name: name)
      if let existing = children[key] {
        current = existing
      } else {
        let id = types.count
        types.append(TypeInfo(name: name, parent: current, depth: (current.map { types[$0].depth } ?? 0) + 1))
        children[key] = id
        current = id
      }
    }
    return current ?? parent ?? 0
  }

  // MARK: Lookup

  /// The type named `name` directly inside `parent` (at file scope if `nil`).
  package func child(_ name: String, of parent: TypeID?) -> TypeID? {
    children[ChildKey(parent: parent ?? -1, name: name)]
  }

  /// The type at the qualified path `names` (`["Outer", "Inner"]`).
  package func id<Names: Collection<String>>(of names: Names) -> TypeID? {
    guard !names.isEmpty else { return nil }
    var current: TypeID?
    for name in names {
      guard let next = child(name, of: current) else { return nil }
      current = next
    }
    return current
  }

  package subscript(id: TypeID) -> TypeInfo { types[id] }

  /// The type at the qualified path `names`, if the module declares or extends it.
  package func type<Names: Collection<String>>(_ names: Names) -> TypeInfo? {
    id(of: names).map { types[$0] }
  }

  /// The qualified path of a type: its enclosing types' names, then its own.
  package func path(of id: TypeID) -> [String] {
    var names: [String] = []
    names.reserveCapacity(types[id].depth)
    var current: TypeID? = id
    while let step = current {
      names.append(types[step].name)
      current = types[step].parent
    }
    return names.reversed()
  }

  /// The qualified path of a type if its dotted name fits in `limit` bytes, else `nil`; costs at
  /// most `limit` steps however deep the type is.
  package func path(of id: TypeID, limit: Int) -> [String]? {
    var names: [String] = []
    var length = 0
    var current: TypeID? = id
    while let step = current {
      length += types[step].name.utf8.count + 1
      if length > limit + 1 { return nil }
      names.append(types[step].name)
      current = types[step].parent
    }
    return names.reversed()
  }

  package func qualifiedName(_ id: TypeID) -> String { path(of: id).joined(separator: ".") }

  /// The `@available(…)` attributes of a type and of every type around it, outermost first:
  /// what an extension of it must repeat.
  package func availability(of id: TypeID) -> [String] {
    guard declaresAvailability else { return [] }
    var chain: [[String]] = []
    var current: TypeID? = id
    var steps = 0
    while let type = current, steps < 64 {
      chain.append(types[type].availability)
      current = types[type].parent
      steps += 1
    }
    return chain.reversed().flatMap { $0 }
  }

  // MARK: Name resolution

  /// How a name resolves.
  package enum Resolution: Sendable {
    /// A member (static property or function, enum case, initializer) of the type `owner`.
    case member(owner: TypeID, Member)
    /// A type (or type alias) `name` nested in `owner`; `type` is `nil` for a type alias.
    case nestedType(owner: TypeID, name: String, type: TypeID?)
    /// A generic parameter of an enclosing type.
    case genericParameter
    /// A type declared at file scope in the module.
    case moduleType(TypeID)
    /// A value or function declared at file scope in the module.
    case global(Member)
    /// Not declared in the module: the standard library or an imported module.
    case external
  }

  /// How `name` resolves from inside the types `context` (innermost first): the first type whose
  /// members (or superclasses' members, within the module) include it, then the module's file
  /// scope, then imports. Also returns how many levels out it was found (0: the innermost type).
  package func resolve(_ name: String, in context: [TypeID]) -> (Resolution, level: Int) {
    for (level, type) in context.enumerated() {
      if let found = lookup(name, inType: type) { return (found, level) }
    }
    if let type = child(name, of: nil), types[type].kind != nil { return (.moduleType(type), context.count) }
    if let global = globals[name]?.first { return (.global(global), context.count) }
    return (.external, context.count)
  }

  /// `name` among the members, nested types and generic parameters of `type` and of its
  /// superclasses and protocols declared in the module, searched in declaration order, depth
  /// first. Each type is searched once, so inheritance cycles (invalid, but a scanner sees them)
  /// and protocols that refine each other cost time linear in the types reached, not exponential.
  package func lookup(_ name: String, inType type: TypeID) -> Resolution? {
    var visited: Set<TypeID> = []
    var pending: [TypeID] = [type]
    while let next = pending.popLast() {
      guard visited.insert(next).inserted else { continue }
      let info = types[next]
      if info.genericParameters.contains(name) { return .genericParameter }
      if let member = info.members[name]?.first(where: { $0.syntax.kind != .typeAlias }) {
        return .member(owner: next, member)
      }
      if info.nestedTypes.contains(name) {
        return .nestedType(owner: next, name: name, type: child(name, of: next))
      }
      pending += info.inheritedTypes.reversed()
    }
    return nil
  }

  /// Whether `type`, or a superclass or protocol of it that the module declares, lists one of
  /// `names` in an inheritance clause (compared by last component: `Swift.Codable` is `Codable`).
  /// Each type is visited once.
  package func inherits(_ type: TypeID, anyOf names: Set<String>) -> Bool {
    var visited: Set<TypeID> = []
    var pending: [TypeID] = [type]
    while let next = pending.popLast() {
      guard visited.insert(next).inserted else { continue }
      if types[next].conformances.contains(where: { names.contains(Self.lastComponent($0)) }) { return true }
      pending += types[next].inheritedTypes
    }
    return false
  }

  /// Whether `type` declares its conformance to one of `names` `nonisolated`
  /// (`struct Window: nonisolated Codable`), which keeps it usable off its actor.
  package func declaresNonisolatedConformance(_ type: TypeID, toAnyOf names: Set<String>) -> Bool {
    types[type].conformances.contains {
      $0.hasPrefix("nonisolated ") && names.contains(Self.lastComponent($0))
    }
  }

  /// The protocols whose conformance the compiler synthesizes from stored properties' coding.
  package static let codingProtocols: Set<String> = ["Codable", "Encodable", "Decodable"]

  /// The protocols whose conformance makes a type storable.
  package static let preferenceValueProtocols: Set<String> = ["PreferenceValue"]

  /// `Swift.Codable` → `Codable`; `@unchecked Sendable` → `Sendable`: every conformance of every
  /// type goes through here.
  package static func lastComponent(_ name: String) -> String {
    name.lastComponent { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: ".") }
  }

  /// `Outer.Inner` → `["Outer", "Inner"]`; a name without a dot, the common case, is not split.
  package static func dotted(_ name: String) -> [String] {
    guard name.utf8.contains(UInt8(ascii: ".")) else { return name.isEmpty ? [] : [name] }
    return name.split(separator: ".").map(String.init)
  }

  /// The type a module type alias named by `name` at `context` stands for, and the type it is
  /// declared in (`nil` at file scope), from where the names in it resolve.
  package func aliasTarget(of name: [String], in context: [TypeID]) -> (target: WrittenType, owner: TypeID?)?
  {
    if let unqualified = withoutModuleName(name) { return aliasTarget(of: unqualified, in: []) }
    guard let last = name.last, aliasNames.contains(last) else { return nil }
    let owner: TypeID
    if name.count == 1 {
      switch resolve(last, in: context).0 {
      case .nestedType(let found, _, nil): owner = found
      case .global(let member) where member.syntax.kind == .typeAlias:
        return member.syntax.writtenType.map { ($0, nil) }
      default: return nil
      }
    } else {
      guard let found = typeID(of: Array(name.dropLast()), in: context) else { return nil }
      owner = found
    }
    let alias = types[owner].members[last]?.first { $0.syntax.kind == .typeAlias }
    return alias?.syntax.writtenType.map { ($0, owner) }
  }

  /// `name` without its first component when that is the module's name, which no type of the
  /// module shadows (`App.Theme`: `Theme`, resolved from file scope); else `nil`.
  func withoutModuleName(_ name: [String]) -> [String]? {
    guard name.count > 1, let moduleName, name[0] == moduleName, !typeNames.contains(moduleName) else {
      return nil
    }
    return Array(name.dropFirst())
  }

  /// The module type a type name used at `context` refers to, if any.
  package func typeID(of name: [String], in context: [TypeID]) -> TypeID? {
    if let unqualified = withoutModuleName(name) { return typeID(of: unqualified, in: []) }
    guard let first = name.first, typeNames.contains(first) else { return nil }
    let start: TypeID?
    switch resolve(first, in: context).0 {
    case .nestedType(_, _, let type): start = type
    case .moduleType(let type): start = type
    default: start = nil
    }
    guard var current = start else { return nil }
    for component in name.dropFirst() {
      guard let next = child(component, of: current) else { return nil }
      current = next
    }
    return current
  }

  /// The types a declaration sits in, innermost first, as Swift looks names up from it: the
  /// enclosing type declarations, up to and including an extension (whose outer types are not
  /// in scope).
  func lexicalContext(scope: Int, in file: FileSyntax, fileIndex: Int) -> [ModuleIndex.TypeID] {
    var context: [ModuleIndex.TypeID] = []
    var current: Int? = scope
    while let index = current {
      let scope = file.scopes[index]
      context.append(scopeTypes[fileIndex][index])
      if scope.kind == .extension { break }
      current = scope.parent
    }
    return context
  }
}
