/// Compares the module's declarations with `Preferences.lock`, the keys the target has shipped:
/// a shipped key that no declaration uses, one whose type or store changed, renames that point
/// nowhere, and retired keys declared again. It also completes each declaration's rename chain
/// (`renamedFrom:`, `migrations`, `previousKeys`, and what the lock remembers), and says which
/// types generated code checks at compile time.
package struct LockAnalysis {
  package struct Result: Sendable {
    package var plans: [PreferencePlan]
    package var diagnostics: [Diagnostic] = []
    /// Retired keys that no declaration uses.
    package var retiredKeys: [String] = []
    /// Locked types to check where the scanner cannot see the declared type, by key.
    package var lockedTypes: [String: LockedType] = [:]
  }

  package let configuration: ScannerConfiguration
  package let index: ModuleIndex

  package init(configuration: ScannerConfiguration, index: ModuleIndex) {
    self.configuration = configuration
    self.index = index
  }

  /// Compares `plans` with the lock.
  ///
  /// - Parameters:
  ///   - plans: The module's declarations.
  ///   - files: The module's files.
  ///   - lock: The lock and its path, or `nil` if the target has none.
  ///   - expectedLockPath: Where the lock belongs, for the warning when it is missing.
  /// - Returns: The plans with what the lock remembers, and the lock's diagnostics.
  package func analyze(
    _ plans: [PreferencePlan], files: [FileSyntax], lock: PreferenceLock.Committed?,
    expectedLockPath: String?
  ) -> Result {
    var result = Result(plans: plans)
    let lockFile = lock?.contents ?? PreferenceLock()
    func error(_ message: String, at plan: PreferencePlan) {
      result.diagnostics.append(
        Diagnostic(.error, message, file: plan.file, line: plan.line, column: plan.column))
    }

    // Rename chains: declared renames, configured migrations and previous key formats, each
    // followed through the renames the lock remembers.
    let migrations = Dictionary(
      grouping: configuration.migrations.keys, by: { configuration.migrations[$0]! })
    let chainsMatter = !lockFile.entries.isEmpty || !migrations.isEmpty || configuration.previousKeys != nil
    for index in result.plans.indices where chainsMatter {
      let plan = result.plans[index]
      var sources = plan.syntax.arguments.renamedFrom
      sources += (migrations[plan.key] ?? []).sorted()
      if let previous = configuration.previousKeys, plan.syntax.arguments.key == nil {
        let old = previous.prefix + (plan.typePath + [plan.property]).joined(separator: previous.separator)
        if old != plan.key { sources.append(old) }
      }
      let renamedFrom = lockFile.chain(sources).filter { $0 != plan.key }
      if renamedFrom != plan.renamedFrom { result.plans[index] = plan.with(renamedFrom: renamedFrom) }
    }
    let plans = result.plans
    let declared = Dictionary(plans.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })

    guard let path = lock?.path else {
      // Only a build knows where the target's lock belongs; a plain scan is not warned.
      if configuration.requireLock, let expectedLockPath, let first = plans.first {
        result.diagnostics.append(
          Diagnostic(
            .warning,
            "this target has no \(PreferenceLock.fileName), so renamed, retyped and dropped preferences are not caught; create it with 'swift package --allow-writing-to-package-directory preferences lock' (in Xcode: the project's context menu, Preferences > preferences, with the argument 'lock'; it belongs at \(expectedLockPath)), or set \"requireLock\": false in \(ScannerConfiguration.fileName)",
            file: first.file, line: first.line, column: first.column))
      }
      return result
    }

    // A lock the build cannot trust.
    if let marker = lockFile.conflictMarkers.first {
      result.diagnostics.append(
        Diagnostic(
          .error,
          "\(PreferenceLock.fileName) has unresolved merge conflict markers; run 'swift package --allow-writing-to-package-directory preferences lock' to keep the union of both sides, or resolve them by hand",
          file: path, line: marker, column: 1))
    }
    for (finding, line) in LockRules.disagreements(in: lockFile) + LockRules.malformedLines(in: lockFile) {
      result.diagnostics.append(Diagnostic(.error, finding.buildMessage, file: path, line: line, column: 1))
    }

    // Declared keys: type, store, retirement.
    for plan in plans {
      guard let entry = lockFile.entries[plan.key] else { continue }
      if entry.isRetired {
        result.diagnostics.append(
          Diagnostic(
            .warning,
            "'\(plan.key)' is retired in \(PreferenceLock.fileName) but declared again; it is no longer treated as retired, so its stored values are kept. Run 'swift package --allow-writing-to-package-directory preferences lock' to record that",
            file: plan.file, line: plan.line, column: plan.column))
      }
      if let retyped = LockRules.retype(of: entry, by: plan) {
        error(retyped.buildMessage, at: plan)
      } else if let old = entry.type, plan.lockCheck != nil, !entry.isRetired,
        let locked = lockedType(old, for: plan, files: files)
      {
        result.lockedTypes[plan.key] = locked
      }
      if let moved = LockRules.move(of: entry, by: plan) {
        error(moved.buildMessage, at: plan)
      }
    }

    // Shipped keys no declaration uses.
    let renamedAway = Set(plans.flatMap(\.renamedFrom)).union(configuration.migrations.keys)
    let declaredKeys = Set(declared.keys)
    let dropped = lockFile.entries.values.filter {
      LockRules.unused($0, declared: declaredKeys, renamedAway: renamedAway) != nil
    }
    .sorted { $0.key < $1.key }
    var explained: Set<String> = []
    if let (separator, prefix, keys) = keyFormatChange(dropped: dropped, plans: plans) {
      explained = keys
      let change = [
        separator != configuration.separator
          ? "\"separator\" from \"\(separator)\" to \"\(configuration.separator)\"" : nil,
        prefix != configuration.prefix ? "\"prefix\" from \"\(prefix)\" to \"\(configuration.prefix)\"" : nil,
      ].compactMap { $0 }.joined(separator: " and ")
      result.diagnostics.append(
        Diagnostic(
          .error,
          "\(keys.count) shipped keys changed form: did \(change) in \(ScannerConfiguration.fileName) change? Add \"previousKeys\": {\"separator\": \"\(separator)\", \"prefix\": \"\(prefix)\"} to \(ScannerConfiguration.fileName) to move every stored value to its new key",
          file: path, line: keys.compactMap { lockFile.entries[$0]?.line }.min() ?? 1, column: 1))
    }
    for entry in dropped where !explained.contains(entry.key) {
      let finding = LockFinding.unused(key: entry.key, type: entry.type)
      result.diagnostics.append(
        Diagnostic(.error, finding.buildMessage, file: path, line: max(entry.line, 1), column: 1))
    }

    // Renames from keys that never shipped.
    let shipped = Set(lockFile.entries.keys)
    for plan in plans {
      for old in plan.syntax.arguments.renamedFrom where !shipped.contains(old) && declared[old] == nil {
        let candidates = shipped.filter { declared[$0] == nil }
        let nearest = candidates.min { editDistance(old, $0) < editDistance(old, $1) }
        result.diagnostics.append(
          Diagnostic(
            .warning,
            "@Preference '\(plan.property)' is renamedFrom '\(old)', which \(PreferenceLock.fileName) does not list as shipped\(nearest.map { "; did you mean '\($0)'?" } ?? "")",
            file: plan.file, line: plan.line, column: plan.column))
      }
    }
    result.retiredKeys = lockFile.entries.values.filter { $0.isRetired && declared[$0.key] == nil }.map(\.key)
      .sorted()
    return result
  }

  /// The lock's type of `plan`, written so that generated code in an extension of the declaring
  /// type resolves it as the declaration does, with the family of types that read its values;
  /// `nil` where the scanner already compares the written type, or cannot place the check.
  private func lockedType(_ type: String, for plan: PreferencePlan, files: [FileSyntax]) -> LockedType? {
    // A shipped default whose type only the compiler knows: it compares that type with the
    // declaration's, whatever the declaration now says.
    if let shipped = PreferenceLock.Entry(key: plan.key, type: type).shippedDefault {
      // Unless generated code can no longer name what it names (a name made private since).
      let analysis = expressionAnalyzer(for: plan, files: files).analyze(
        ExpressionSyntax(text: shipped))
      guard analysis.unreachable == nil else { return nil }
      return .init(type: analysis.code, family: .typeOfShippedDefault)
    }
    // A literal default, or a type written with standard names only, is compared by the scanner.
    if plan.syntax.declaredType == nil, let value = plan.syntax.defaultValue,
      LiteralType.of(value) != nil
    {
      return nil
    }
    if let written = plan.syntax.writtenType, Self.isStandard(written) { return nil }
    let normalized = normalizedType(type)
    if normalized == "Int" { return .init(type: type, family: .integer) }
    if normalized == "Double" { return .init(type: type, family: .real) }
    let analysis = expressionAnalyzer(for: plan, files: files).analyze(type: WrittenType(parsing: type))
    guard analysis.unreachable == nil else { return nil }
    return .init(type: analysis.code, family: .exact)
  }

  /// An analyzer of code written where `plan`'s generated checks stand.
  private func expressionAnalyzer(for plan: PreferencePlan, files: [FileSyntax]) -> ExpressionAnalyzer {
    let context = index.lexicalContext(
      scope: plan.syntax.scope, in: files[plan.fileIndex], fileIndex: plan.fileIndex)
    let declaringType = index.scopeTypes[plan.fileIndex][plan.syntax.scope]
    return ExpressionAnalyzer(index: index, context: context, declaringType: declaringType, file: plan.file)
  }

  /// Whether `type` is a standard type, or an optional or collection of standard types at any
  /// depth (`[String: [Int]]?`), read on the parsed model.
  static func isStandard(_ type: WrittenType) -> Bool {
    switch type {
    case .named(let components):
      components.allSatisfy {
        StandardTypes.name($0.name, has: .nonisolated) && $0.arguments.allSatisfy(isStandard)
      }
    case .optional(let inner), .array(let inner), .set(let inner): isStandard(inner)
    case .dictionary(let key, let value): isStandard(key) && isStandard(value)
    default: false
    }
  }

  /// Whether the dropped keys are the declared keys under another separator or prefix: the
  /// separator and prefix they were formed with, and which keys that explains.
  private func keyFormatChange(dropped: [PreferenceLock.Entry], plans: [PreferencePlan]) -> (
    String, String, Set<String>
  )? {
    let derived = plans.filter { $0.syntax.arguments.key == nil }
    guard !dropped.isEmpty, !derived.isEmpty else { return nil }
    var votes: [String: (separator: String, prefix: String, keys: Set<String>)] = [:]
    for entry in dropped {
      for plan in derived {
        for separator in [".", "_", ":", "-", "/", "|"] {
          let suffix = (plan.typePath + [plan.property]).joined(separator: separator)
          guard entry.key.hasSuffix(suffix) else { continue }
          let prefix = String(entry.key.dropLast(suffix.count))
          guard separator != configuration.separator || prefix != configuration.prefix else { continue }
          votes["\(separator)\u{0}\(prefix)", default: (separator, prefix, [])].keys.insert(entry.key)
        }
      }
    }
    guard let best = votes.values.max(by: { $0.keys.count < $1.keys.count }),
      best.keys.count >= 2 || (dropped.count == 1 && derived.count == 1)
    else { return nil }
    return (best.separator, best.prefix, best.keys)
  }

  private func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a.utf8.prefix(200))
    let b = Array(b.utf8.prefix(200))
    var previous = Array(0...b.count)
    for (i, x) in a.enumerated() {
      var current = [i + 1]
      for (j, y) in b.enumerated() {
        current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1)))
      }
      previous = current
    }
    return previous[b.count]
  }
}

/// What the lock says about one declaration's type, for a check the generated code makes the
/// compiler do where the scanner cannot see the declared type.
package struct LockedType: Sendable {
  /// The type; with ``Family/typeOfShippedDefault``, the default the key shipped with.
  package var type: String
  /// Types whose stored values read as `type` (integers of every width, floating point), or the
  /// type of the shipped default.
  package var family: Family

  package enum Family: Sendable { case exact, integer, real, typeOfShippedDefault }
}
