extension ConformanceSynthesis {
  /// What the analyses ask of the synthesis, gathered before it runs: the stage decides them all
  /// at once, and its result is a value the analyses after it only read.
  struct Requests {
    /// Module types a default names whose type only the compiler knows: each conforms where it
    /// can (``conformIfPossible(values:keys:)``), silently.
    var possibleValues: [ModuleIndex.TypeID] = []
    var possibleKeys: [ModuleIndex.TypeID] = []
    /// The diagnostics that wait for the decisions, in the order the analyses found them; the
    /// types they name are decided (each conforms, or its check is an error that names the fix).
    var checks: [Check] = []

    mutating func append(_ other: Requests) {
      possibleValues += other.possibleValues
      possibleKeys += other.possibleKeys
      checks += other.checks
    }
  }

  /// A diagnostic that depends on a decision of the synthesis, at the declaration it concerns.
  struct Check {
    enum Kind {
      /// `subject` stores `type` (named `name`): an error if it cannot conform.
      case value(ModuleIndex.TypeID, name: String)
      /// `subject` keys a stored dictionary by `type` (named `name`): an error if it cannot be a key.
      case key(ModuleIndex.TypeID, name: String)
      /// `@Preference` `subject` is an instance property of `type`: a warning if Swift rejects a
      /// property wrapper there.
      case wrapper(in: ModuleIndex.TypeID)
    }
    var kind: Kind
    var subject: String
    var file: String
    var line: Int
    var column: Int
  }

  /// The diagnostics of `checks`, from the decisions made.
  func diagnostics(for checks: [Check]) -> [Diagnostic] {
    checks.compactMap { check in
      switch check.kind {
      case .value(let type, let name):
        guard case .failure(let blocked)? = decided[type] else { return nil }
        return Diagnostic(
          .error, blocked.valueError(check.subject, type: name), file: check.file, line: check.line,
          column: check.column)
      case .key(let type, let name):
        guard case .failure(let blocked)? = decidedKeys[type] else { return nil }
        return Diagnostic(
          .error, blocked.keyError(check.subject, key: name), file: check.file, line: check.line,
          column: check.column)
      case .wrapper(let type):
        guard let sendable = wrapperRejections[type] else { return nil }
        let kind = index[type].kind == .class ? "class" : "struct"
        let name = index.qualifiedName(type)
        let fix =
          kind == "class"
          ? "remove 'Sendable' from '\(name)', and create an instance where you read them (every instance reads the same stored values)"
          : "remove 'nonisolated' from '\(name)' (its preferences then take the module's default isolation), or, for preferences read off the main actor, declare them in a 'nonisolated final class' that is not Sendable"
        return Diagnostic(
          .warning,
          "\(check.subject) is declared in '\(name)', a nonisolated \(kind) that is \(sendable), and Swift 6 rejects a property wrapper there ('nonisolated' cannot be applied to mutable stored properties; the Swift 5 language mode warns); \(fix)",
          file: check.file, line: check.line, column: check.column)
      }
    }
  }
}
