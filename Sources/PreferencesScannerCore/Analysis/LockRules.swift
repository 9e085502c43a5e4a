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

  /// The message of a build that fails on this finding: what users would lose, and the fixes.
  package var buildMessage: String {
    switch self {
    case .retyped(let key, let shipped, let declared):
      "preference '\(key)' was shipped as \(shipped) (\(PreferenceLock.fileName)) and is now declared as \(declared ?? "another type"); values users already stored would no longer read. Keep the type \(shipped); or store the new type under a new key and retire this one with '\(LockRules.command("--retire \(key)"))'; or, if dropping the stored values is intended, '\(LockRules.command("--accept-retype \(key)"))'"
    case .moved(let key, let shipped, let declared):
      "preference '\(key)' was shipped in store \(shipped) (\(PreferenceLock.fileName)) and is now declared in store \(declared); the values users stored stay behind in \(shipped). Declare the move with @Preference(store: \(declared), movedFrom: \(shipped)), which moves each value at first use; or, to leave them, run '\(LockRules.command("--accept-move \(key)"))'"
    }
  }

  /// The message of the `lock` command when it refuses to record this finding.
  package var refusal: String {
    switch self {
    case .retyped(let key, let shipped, let declared):
      "lock refuses to record the new type of shipped key '\(key)' (\(shipped) → \(declared ?? "?")): values users stored as \(shipped) would read the default instead (they stay in the store, unread). Keep the type \(shipped), store the new type under a new key and retire this one with '\(LockRules.command("--retire \(key)"))', or, to record it anyway, '\(LockRules.command("--accept-retype \(key)"))'"
    case .moved(let key, let shipped, let declared):
      "lock refuses to record that shipped key '\(key)' moved from store \(shipped) to \(declared): the values users stored would stay behind. Declare the move with movedFrom: \(shipped), or, to leave them, '\(LockRules.command("--accept-move \(key)"))'"
    }
  }
}

/// The lock's rules about one declaration.
package enum LockRules {
  /// The lock command with `arguments`, spelled the one way every message uses.
  static func command(_ arguments: String) -> String {
    "swift package --allow-writing-to-package-directory preferences lock \(arguments)"
  }

  /// A declared type that would not read the values stored as the shipped one.
  static func retype(of entry: PreferenceLock.Entry, by plan: PreferencePlan) -> LockFinding? {
    guard let shipped = entry.type, let declared = plan.valueType, !typesAreCompatible(shipped, declared)
    else {
      return nil
    }
    return .retyped(key: plan.key, shipped: shipped, declared: declared)
  }

  /// A declaration in another store than the shipped one, with no `movedFrom:`.
  static func move(of entry: PreferenceLock.Entry, by plan: PreferencePlan) -> LockFinding? {
    guard normalizedStore(entry.store) != normalizedStore(plan.storeText), plan.movedFrom == nil else {
      return nil
    }
    return .moved(key: plan.key, shipped: entry.store ?? ".default", declared: plan.storeText ?? ".default")
  }
}
