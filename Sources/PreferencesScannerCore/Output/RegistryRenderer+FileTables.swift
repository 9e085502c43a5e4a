/// The per-file tables of the generated registry (see ``RegistryRenderer``).
extension RegistryRenderer {
  // MARK: File tables

  /// The table of one source file (or, for files without an output of their own, several tables
  /// in one file: pass them together).
  package static func fileTable(
    for file: FileSyntax, plans: [PreferencePlan], locks: [String: LockedType] = [:]
  ) -> String {
    var out = ""
    let name = tableName(forFileID: file.fileID)
    let emitter = ConditionalEmitter(branches: file.branches)
    let extensions = emitter.emit(plans.map { ($0.syntax.branch, $0) }) { plans in
      plans.map { extensionMembers($0, file: file, lock: locks[$0.key]) }.joined()
    }

    // The common case, declarations outside `#if` whose records say everything (literal
    // defaults, the default store): the file ID and the records as two static strings. A table
    // file of 12 sources' tables then compiles in 53 ms instead of 78 ms (44 ms for an empty
    // file), on every edit that shifts its lines (Benchmarks/README.md). The runtime makes the
    // table of them.
    if plans.allSatisfy(\.needsNoEvaluation) {
      let json = JSONValue.array(
        plans.map { PreferenceRecord.json($0, extras: .generator, tableFileID: file.fileID) }
      ).text
      out += "nonisolated func \(name)() -> (StaticString, StaticString) {\n"
      out += "  (\(StringLiteral.quote(file.fileID)), \(StringLiteral.rawQuote(json)))\n}\n"
      return out + extensions
    }

    if namesDeprecatedTypes(plans) { out += deprecatedCaller }
    out += "nonisolated func \(name)() -> _Preferences.FileTable {\n"
    out += "  _Preferences.FileTable(\n    fileID: \(StringLiteral.quote(file.fileID)),\n"

    // Records: one JSON array per run of declarations in the same #if branch.
    out += "    records: {\n      var records: [String] = []\n"
    out += emitter.emit(plans.map { ($0.syntax.branch, $0) }, chunked: true) { chunk in
      let json = JSONValue.array(
        chunk.map { PreferenceRecord.json($0, extras: .generator, tableFileID: file.fileID) }
      ).text
      return "      records.append(\(StringLiteral.rawQuote(json)))\n"
    }
    out += "      return records\n    }"

    // Defaults the table evaluates.
    let evaluated = plans.filter(\.tableEvaluatesDefault)
    if !evaluated.isEmpty {
      out += ",\n    registration: { index in\n      switch index {\n"
      out += emitter.emit(evaluated.map { ($0.syntax.branch, $0) }) { plans in
        plans.map { plan in
          let call = "\(qualified(plan.typePath)).\(defaultFunction(plan))()"
          let kind =
            switch plan.registration {
            case .mainActor: "mainActor"
            case .defaultIsolation: "defaultIsolation"
            default: "registry"
            }
          return "      case \(plan.number): return .\(kind) { \(guarded(call, plan, otherwise: "nil")) }\n"
        }.joined()
      }
      out += "      default: return .none\n      }\n    }"
    }
    for (label, selector) in [("store", \PreferencePlan.store), ("movedFrom", \PreferencePlan.movedFrom)] {
      let stores = plans.filter {
        $0[keyPath: selector] != nil && (label != "store" || $0.storeIsolation == .nonisolated)
      }
      guard !stores.isEmpty else { continue }
      out += ",\n    \(label): { index in\n      switch index {\n"
      out += emitter.emit(stores.map { ($0.syntax.branch, $0) }) { plans in
        plans.map {
          let call = "\(qualified($0.typePath)).\(storeFunction($0, label))()"
          return compiledWhereAvailable(
            $0, "      case \($0.number): \(guarded(call, $0, otherwise: "nil", returns: true))\n")
        }.joined()
      }
      out += "      default: return nil\n      }\n    }"
    }
    // Stores the main actor may have to create: evaluated by the runtime where it can.
    let isolatedStores = plans.filter { $0.store != nil && $0.storeIsolation != .nonisolated }
    if !isolatedStores.isEmpty {
      out += ",\n    isolatedStore: { index in\n      switch index {\n"
      out += emitter.emit(isolatedStores.map { ($0.syntax.branch, $0) }) { plans in
        plans.map {
          let follows = $0.storeIsolation == .defaultIsolation
          let call = guarded(
            "\(qualified($0.typePath)).\(storeFunction($0, "store"))()", $0,
            otherwise: "_Preferences.Store.default")
          return compiledWhereAvailable(
            $0,
            "      case \($0.number): return _Preferences.IsolatedStore(followsDefaultIsolation: \(follows)) { \(call) }\n"
          )
        }.joined()
      }
      out += "      default: return nil\n      }\n    }"
    }
    out += ")\n}\n"

    // Evaluations in the declaring type's context, where the declaration's names resolve.
    return out + extensions
  }

  static func extensionMembers(_ plan: PreferencePlan, file: FileSyntax, lock: LockedType?) -> String {
    var body = ""
    switch plan.registration {
    case .registry(let evaluation), .mainActor(let evaluation), .defaultIsolation(let evaluation):
      let attribute = if case .registry = plan.registration { "nonisolated" } else { "@MainActor" }
      let type = evaluation.type.map { ": \($0)" } ?? ""
      body += """
          /// The default of `\(SwiftIdentifier.comment(plan.enclosingType + "." + plan.property))`.
          \(attribute) fileprivate static func \(defaultFunction(plan))() -> _Preferences.PropertyList? {
            let value\(type) = \(indented(evaluation.expression))
            return _Preferences.encodedDefault(value\(plan.format == "json" ? ", format: .json" : ""))
          }

        """
    default:
      break
    }
    for (label, code) in [("store", plan.store), ("movedFrom", plan.movedFrom)] {
      guard let code else { continue }
      let attribute = label == "store" && plan.storeIsolation != .nonisolated ? "@MainActor" : "nonisolated"
      body += """
          \(attribute) fileprivate static func \(storeFunction(plan, label))() -> _Preferences.Store {
            \(indented(code))
          }

        """
    }
    if let lock, let root = plan.lockCheck {
      body += lockCheck(plan, root: root, lock: lock, file: file)
    }
    guard !body.isEmpty else { return "" }
    let availability = plan.availability.attributes.map { $0 + "\n" }.joined()
    return "\n" + availability + "extension \(qualified(plan.typePath)) {\n" + body + "}\n"
  }

  /// `code` (switch cases that name the declaring type), compiled only where the type is
  /// available: a type unavailable on a platform may be named there only by code as unavailable,
  /// which a table's closures cannot be. Where it is unavailable nothing creates a value of it,
  /// so nothing asks for its store.
  static func compiledWhereAvailable(_ plan: PreferencePlan, _ code: String) -> String {
    guard let condition = plan.availability.compiledCondition else { return code }
    return "#if \(condition)\n" + code + "#endif\n"
  }

  /// `call`, which names the declaring type, where code outside its extension may make it: under
  /// `if #available(…)` when the type is only available from some OS version (on an older one,
  /// where the type's code never runs, `otherwise`). With `returns`, a `return` statement;
  /// otherwise an expression (a closure's body).
  static func guarded(
    _ call: String, _ plan: PreferencePlan, otherwise: String, returns: Bool = false
  )
    -> String
  {
    guard let condition = plan.availability.condition else { return returns ? "return \(call)" : call }
    return "if #available(\(condition)) { return \(call) } else { return \(otherwise) }"
  }

  /// Overloads that accept the locked type (or its storage family, or its optional) and a
  /// generic one, unavailable, whose message names the key and the fixes; the call, placed at
  /// the declaration with `#sourceLocation`, picks the unavailable one exactly when the declared
  /// type changed, so the compiler reports it there. Where the lock has the default the key
  /// shipped with instead of a type, the call passes that default too, and the accepting
  /// overloads take a value of the declared type (or of its optional's wrapped type).
  static func lockCheck(_ plan: PreferencePlan, root: [String], lock: LockedType, file: FileSyntax)
    -> String
  {
    let name =
      "_preferenceLock_" + SwiftIdentifier.mangled(plan.property) + (plan.syntax.isStatic ? "_static" : "")
    let rootType = qualified(root) + (plan.syntax.isStatic ? ".Type" : "")
    let shippedDefault = lock.family == .typeOfShippedDefault
    let shipped = shippedDefault ? "type(of: \(lock.type))" : lock.type
    let message = LockFinding.retyped(key: plan.key, shipped: shipped, declared: nil).buildMessage
    var accepted: [String]
    switch lock.family {
    case .exact: accepted = ["KeyPath<\(rootType), \(lock.type)>", "KeyPath<\(rootType), \(lock.type)?>"]
    case .integer, .real: accepted = ["KeyPath<\(rootType), V>", "KeyPath<\(rootType), V?>"]
    case .typeOfShippedDefault:
      accepted = ["KeyPath<\(rootType), V>, _: V", "KeyPath<\(rootType), V?>, _: V"]
    }
    let generic =
      switch lock.family {
      case .exact: ""
      case .integer: "<V: _Preferences.StoredAsInteger>"
      case .real: "<V: _Preferences.StoredAsReal>"
      case .typeOfShippedDefault: "<V>"
      }
    var out = ""
    for parameter in accepted {
      out += "  @MainActor fileprivate static func \(name)\(generic)(_: \(parameter)) {}\n"
    }
    out += "  @available(*, unavailable, message: \(StringLiteral.quote(message)))\n"
    out +=
      shippedDefault
      ? "  @MainActor fileprivate static func \(name)<Declared, Shipped>(_: KeyPath<\(rootType), Declared>, _: Shipped) {}\n"
      : "  @MainActor fileprivate static func \(name)<Declared>(_: KeyPath<\(rootType), Declared>) {}\n"
    out += "  @MainActor fileprivate static func \(name)_check() {\n"
    out += "#sourceLocation(file: \(StringLiteral.quote(plan.file)), line: \(plan.line))\n"
    let keyPath = "\\\(rootType).\(SwiftIdentifier.escaped(plan.property))"
    out += "    \(name)(\(keyPath)\(shippedDefault ? ", " + lock.type : ""))\n"
    out += "#sourceLocation()\n  }\n\n"
    return out
  }

  static func defaultFunction(_ plan: PreferencePlan) -> String {
    SwiftIdentifier.escaped("_preferenceDefault_" + plan.property + (plan.syntax.isStatic ? "_static" : ""))
  }

  static func storeFunction(_ plan: PreferencePlan, _ label: String) -> String {
    SwiftIdentifier.escaped("_preference_\(label)_" + plan.property + (plan.syntax.isStatic ? "_static" : ""))
  }

  static func qualified(_ path: [String]) -> String {
    path.map(SwiftIdentifier.escaped).joined(separator: ".")
  }

  static func indented(_ text: String) -> String {
    text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
      .map { $0.offset == 0 ? String($0.element) : "      " + $0.element }.joined(separator: "\n")
  }
}
