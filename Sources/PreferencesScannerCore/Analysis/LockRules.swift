/// The rules `Preferences.lock` holds the sources to, each one function returning a typed
/// finding. The build's diagnostics (``LockAnalysis``), the compile-time message of a type check
/// the generated registry places at a declaration, and the `lock` command's refusals all come
/// from these findings, so each rule is worded, and its fixes named, in one place.
package enum LockFinding: Sendable, Equatable {
  /// A shipped key is declared with a type whose stored values would no longer read. `declared`
  /// is `nil` where only the compiler knows the new type (the generated check).
  case retyped(key: String, shipped: String, declared: String?)
  /// A shipped key is declared in another store, without `movedFrom:`.
  case moved(key: String, shipped: String, declared: String)
  /// The two sides of a merge of the lock record one key differently.
  case disagreement(key: String, sides: [String])
  /// A line of the lock that is not `KEY: TYPE`.
  case malformed(line: Int, text: String)
  /// A shipped key that no declaration uses, renames away or migrates.
  case unused(key: String, type: String?)

  /// The message of a build that fails on this finding: what users would lose, and the fixes.
  package var buildMessage: String {
    switch self {
    case .retyped(let key, let shipped, let declared):
      "preference '\(key)' was shipped as \(shipped) (\(PreferenceLock.fileName)) and is now declared as \(declared ?? "another type"); values users already stored would no longer read. Keep \(LockRules.keep(shipped)); or store the new type under a new key and retire this one with '\(LockRules.command("--retire \(key)"))'; or, if dropping the stored values is intended, '\(LockRules.command("--accept-retype \(key)"))'"
    case .moved(let key, let shipped, let declared):
      "preference '\(key)' was shipped in store \(shipped) (\(PreferenceLock.fileName)) and is now declared in store \(declared); the values users stored stay behind in \(shipped). Declare the move with @Preference(store: \(declared), movedFrom: \(shipped)), which moves each value at first use; or, to leave them, run '\(LockRules.command("--accept-move \(key)"))'"
    case .disagreement(let key, let sides):
      "the two sides of a merge of \(PreferenceLock.fileName) disagree about '\(key)' (\(sides.joined(separator: "; "))); keep the line that matches what shipped and delete the other"
    case .malformed(let line, let text):
      "line \(line) of \(PreferenceLock.fileName) is not 'KEY: TYPE' ('\(text)'); fix it, or run '\(LockRules.command("").trimmingBlanks())', which rewrites the lock without it"
    case .unused(let key, let type):
      "preference key '\(key)' (\(type ?? "type unknown")) was shipped but no declaration uses it any more, so users' stored values would be lost. If you renamed it, add @Preference(renamedFrom: \"\(key)\") to the new declaration; to move it elsewhere, add it to \"migrations\" in \(ScannerConfiguration.fileName); to drop it on purpose, run '\(LockRules.command("--retire \(key)"))'"
    }
  }

  /// The message of the `lock` command when it refuses to record this finding.
  package var refusal: String {
    switch self {
    case .retyped(let key, let shipped, let declared):
      "lock refuses to record the new type of shipped key '\(key)' (\(shipped) → \(declared ?? "?")): values users stored as \(shipped) would read the default instead (they stay in the store, unread). Keep the type \(shipped), store the new type under a new key and retire this one with '\(LockRules.command("--retire \(key)"))', or, to record it anyway, '\(LockRules.command("--accept-retype \(key)"))'"
    case .moved(let key, let shipped, let declared):
      "lock refuses to record that shipped key '\(key)' moved from store \(shipped) to \(declared): the values users stored would stay behind. Declare the move with movedFrom: \(shipped), or, to leave them, '\(LockRules.command("--accept-move \(key)"))'"
    case .disagreement(let key, let sides):
      "the two sides of the merge disagree about '\(key)' (\(sides.joined(separator: "; "))); delete the line that does not match what shipped, then run lock again"
    case .malformed(let line, let text):
      "line \(line) ('\(text)') is not 'KEY: TYPE'; it is left out of the rewritten lock"
    case .unused(let key, _):
      "'\(key)' is in the lock but no declaration uses it; rename (renamedFrom:), migrate, or '\(LockRules.command("--retire \(key)"))'"
    }
  }
}

/// The lock's rules about one declaration.
package enum LockRules {
  /// "the type T", or "the type of DEFAULT" for a shipped default (`type(of: DEFAULT)`).
  static func keep(_ shipped: String) -> String {
    let entry = PreferenceLock.Entry(key: "", type: shipped)
    return entry.shippedDefault.map { "the type of \($0)" } ?? "the type \(shipped)"
  }

  /// The lock command with `arguments`, spelled the one way every message uses.
  static func command(_ arguments: String) -> String {
    "swift package --allow-writing-to-package-directory preferences lock \(arguments)"
  }

  /// A declared type that would not read the values stored as the shipped one.
  static func retype(of entry: PreferenceLock.Entry, by plan: PreferencePlan) -> LockFinding? {
    // The type of a shipped default only the compiler knows: the generated check compares it.
    guard entry.shippedDefault == nil else { return nil }
    guard let shipped = entry.type, let declared = plan.valueType, !typesAreCompatible(shipped, declared)
    else {
      return nil
    }
    return .retyped(key: plan.key, shipped: shipped, declared: declared)
  }

  /// Each key the two sides of a merge record differently, with the sides as the lock has them.
  static func disagreements(in lock: PreferenceLock) -> [(finding: LockFinding, line: Int)] {
    lock.disagreements.sorted { $0.key < $1.key }.map { key, sides in
      let described = sides.map {
        "line \($0.line): \($0.type ?? "?")\($0.store.map { " store: \($0)" } ?? "")"
      }
      return (.disagreement(key: key, sides: described), sides.last?.line ?? 1)
    }
  }

  /// Each line of the lock that is not `KEY: TYPE`.
  static func malformedLines(in lock: PreferenceLock) -> [(finding: LockFinding, line: Int)] {
    lock.malformed.map { (.malformed(line: $0.0, text: $0.1), $0.0) }
  }

  /// A shipped key that no declaration uses, renames away (`renamedFrom:`, the lock's renames) or
  /// migrates.
  static func unused(
    _ entry: PreferenceLock.Entry, declared: Set<String>, renamedAway: Set<String>
  ) -> LockFinding? {
    guard !entry.isRetired, !declared.contains(entry.key), !renamedAway.contains(entry.key) else {
      return nil
    }
    return .unused(key: entry.key, type: entry.type)
  }

  /// A declaration in another store than the shipped one, with no `movedFrom:`.
  static func move(of entry: PreferenceLock.Entry, by plan: PreferencePlan) -> LockFinding? {
    guard normalizedStore(entry.store) != normalizedStore(plan.storeText), plan.movedFrom == nil else {
      return nil
    }
    return .moved(key: plan.key, shipped: entry.store ?? ".default", declared: plan.storeText ?? ".default")
  }
}
