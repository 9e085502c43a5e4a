/// Checks across the module's declarations: keys that are invalid or declared twice, locations
/// that `#sourceLocation` made ambiguous, sync limits, and `renamedFrom:` that would move or
/// split a live value.
package enum Validation {
  /// `NSUbiquitousKeyValueStore`'s limits, checked for `sync: true` declarations: keys of at
  /// most 64 bytes of UTF-8 ("The maximum length for a key string is 64 bytes using UTF8
  /// encoding": Apple's iCloud Design Guide, "Data Size Limits for Key-Value Storage", which
  /// Apple's own Security sources quote in `CKDKVSProxy.m`; a longer key raises
  /// `NSInvalidArgumentException`), and at most 1024 keys (Apple's documentation of
  /// `NSUbiquitousKeyValueStoreQuotaViolationChange`). `ValidationTests` checks both on Linux.
  package static let syncedKeyLimit = 64
  package static let syncedKeyCountLimit = 1024

  package static func check(_ plans: [PreferencePlan], files: [FileSyntax]) -> [Diagnostic] {
    var diagnostics: [Diagnostic] = []
    func report(_ severity: Diagnostic.Severity, _ message: String, at plan: PreferencePlan) {
      diagnostics.append(Diagnostic(severity, message, file: plan.file, line: plan.line, column: plan.column))
    }
    var byKey: [String: [Int]] = [:]
    struct Place: Hashable {
      var fileID: String
      var line: Int
    }
    var byLocation: [Place: PreferencePlan] = [:]
    // Sized once rather than grown by doubling (each growth holds the old table and one twice
    // its size): 1.4 MB less resident memory scanning the benchmark's 39,000 declarations.
    byKey.reserveCapacity(plans.count)
    byLocation.reserveCapacity(plans.count)
    for (number, plan) in plans.enumerated() {
      if let problem = keyProblem(plan.key) {
        let fix =
          plan.syntax.arguments.key != nil
          ? "change the key: argument"
          : "rename the property or type, or give an explicit key with @Preference(key: …)"
        report(.error, "invalid preference key '\(plan.key)': \(problem); \(fix)", at: plan)
      }
      // Any key with a system prefix (`NSQuitAlwaysKeepsWindows`, `AppleLanguages`, or a
      // configured prefix) is the user's decision, which an app makes on purpose: no warning.
      byKey[plan.key, default: []].append(number)
      // The wrapper finds its declaration by the file and line the compiler reports (#fileID,
      // #line): two declarations reported on one line cannot be told apart at run time.
      let location = plan.reportedLocation
      let place = Place(fileID: location.fileID, line: location.line)
      if let earlier = byLocation[place], earlier.file != plan.file || coexist(earlier, plan, files: files) {
        if earlier.file == plan.file && earlier.line == plan.line {
          report(
            .error,
            "@Preference '\(plan.property)' is on the same line as '\(earlier.property)' (column \(earlier.column)); a preference is found by its file and line, so each needs a line of its own: move it to the next line",
            at: plan)
        } else {
          report(
            .error,
            "@Preference '\(plan.property)' is reported at \(location.fileID):\(location.line), like the declaration at \(earlier.file):\(earlier.line):\(earlier.column) (a #sourceLocation directive names the same line); the wrapper could not tell them apart: give one directive another line",
            at: plan)
        }
      } else {
        byLocation[place] = plan
      }
    }
    let synced = plans.filter(\.syncs)
    for plan in synced where plan.key.utf8.count > syncedKeyLimit {
      report(
        .error,
        "synced preference key '\(plan.key)' is \(plan.key.utf8.count) bytes; iCloud's key-value store allows \(syncedKeyLimit); give it a shorter explicit key with @Preference(key: …, sync: true)",
        at: plan)
    }
    if Set(synced.map(\.key)).count > syncedKeyCountLimit, let first = synced.first {
      report(
        .error,
        "\(Set(synced.map(\.key)).count) preferences are marked sync: true; iCloud's key-value store holds at most \(syncedKeyCountLimit) keys; sync fewer, or group them in one Codable value",
        at: first)
    }
    for (key, declarations) in byKey.filter({ $0.value.count > 1 }).sorted(by: { $0.key < $1.key }) {
      for (later, earlier) in duplicates(declarations.map { plans[$0] }, files: files) {
        let named = later.syntax.arguments.key != nil || earlier.syntax.arguments.key != nil
        if let keeper = [later, earlier].first(where: \.storeKeptByDeclaration) {
          // Two files' private names may be spelled alike and be two stores: the registry, which
          // sees neither, could not tell which one holds the key.
          report(
            .error,
            "preference key '\(key)' is also declared at \(earlier.file):\(earlier.line):\(earlier.column), and the store: argument '\(keeper.storeText ?? "")' at \(keeper.file):\(keeper.line):\(keeper.column) names what only its own file sees, so the registry cannot know that both declarations name one store; make that store internal (a 'static let' the registry can read), or give one declaration another key",
            at: later)
          continue
        }
        if named && agree(later, earlier) { continue }
        report(
          .error,
          named
            ? "preference key '\(key)' is also declared at \(earlier.file):\(earlier.line):\(earlier.column) with another type, default or options; declarations that share a key (as views that read one @AppStorage key do) must agree on all of them, because the registry registers one default for the key: make them agree, or give one another key"
            : "duplicate preference key '\(key)': also declared at \(earlier.file):\(earlier.line):\(earlier.column); rename one property, or give one an explicit key with @Preference(key: \"…\")",
          at: later)
        diagnostics.append(
          Diagnostic(
            .note, "'\(key)' first declared here", file: earlier.file, line: earlier.line,
            column: earlier.column))
      }
    }
    diagnostics += renames(plans, byKey: byKey)
    return diagnostics
  }

  /// Whether two declarations of one key, one of which names it with `key:`, declare the same
  /// preference: the same default and options, and no two different types, so that one default
  /// is registered and every reader sees one value (views that read one `@AppStorage` key each
  /// declare it). The text of the defaults decides, whatever the expression: where the scanner
  /// does not know a type (`NSPoint(x: 0.5, y: 0.8)`), the compiler types both alike. A default
  /// written `.case` and one written `Type.case` agree; so do declarations under different `#if`
  /// conditions (a macOS-only panel that reads a key the shared views read).
  static func agree(_ a: PreferencePlan, _ b: PreferencePlan) -> Bool {
    if let x = a.valueType, let y = b.valueType, x != y { return false }
    let type = a.valueType ?? b.valueType
    func normalized(_ plan: PreferencePlan) -> String? {
      guard let text = plan.syntax.defaultValue?.text else { return nil }
      guard let type, text.hasPrefix(type + ".") else { return text }
      return String(text.dropFirst(type.count))
    }
    let (x, y) = (a.syntax.arguments, b.syntax.arguments)
    return normalized(a) == normalized(b) && x.store?.text == y.store?.text && x.format == y.format
      && x.syncs == y.syncs && x.inSettings == y.inSettings && x.isExported == y.isExported
      && x.renamedFrom == y.renamedFrom
      && x.movedFrom?.text == y.movedFrom?.text
  }

  /// `renamedFrom:` must not take a value away from a live declaration, be claimed twice, or go
  /// round in a circle.
  private static func renames(_ plans: [PreferencePlan], byKey: [String: [Int]]) -> [Diagnostic] {
    var diagnostics: [Diagnostic] = []
    var claimed: [String: PreferencePlan] = [:]
    for plan in plans {
      for old in plan.syntax.arguments.renamedFrom {
        if old == plan.key { continue }
        if let live = byKey[old]?.first.map({ plans[$0] }) {
          let mutual = live.syntax.arguments.renamedFrom.contains(plan.key)
          diagnostics.append(
            Diagnostic(
              .error,
              mutual
                ? "@Preference '\(plan.property)' (\(plan.key)) and '\(live.property)' at \(live.file):\(live.line):\(live.column) (\(live.key)) are each renamed from the other, which would swap their stored values; remove the renamedFrom: that is not a real rename"
                : "@Preference '\(plan.property)' is renamedFrom '\(old)', which the declaration at \(live.file):\(live.line):\(live.column) still uses; the rename would move that live value away. Remove renamedFrom: \"\(old)\", or rename that declaration too",
              file: plan.file, line: plan.line, column: plan.column))
        }
        if let other = claimed[old], other.key != plan.key {
          diagnostics.append(
            Diagnostic(
              .error,
              "@Preference '\(plan.property)' and the declaration at \(other.file):\(other.line):\(other.column) are both renamedFrom '\(old)'; only one of them can receive its stored value. Keep renamedFrom: \"\(old)\" on one, and copy the value in code for the other",
              file: plan.file, line: plan.line, column: plan.column))
        } else {
          claimed[old] = plan
        }
      }
    }
    return diagnostics
  }

  /// The declarations of one key that can be compiled together with an earlier one, each with
  /// that earlier declaration. Declarations in different files always can; in one file, two can
  /// unless they sit in different branches of one `#if` group.
  ///
  /// Linear in the declarations and the `#if` branches around them: each declaration marks the
  /// branches from its own up to the first one an earlier declaration marked, with the group it
  /// came through (or itself, where it sits). Two declarations meet at that branch; they are
  /// exclusive only if both came through the same group (different branches of it).
  static func duplicates(_ declarations: [PreferencePlan], files: [FileSyntax]) -> [(
    PreferencePlan, PreferencePlan
  )] {
    enum Via: Equatable {
      case itself
      case group(Int)
    }
    var found: [(PreferencePlan, PreferencePlan)] = []
    struct Place: Hashable {
      var file: Int
      var branch: Int  // -1: outside every #if
    }
    var marks: [Place: (via: Via, declaration: PreferencePlan)] = [:]
    var firstByFile: [(file: Int, declaration: PreferencePlan)] = []
    for declaration in declarations {
      if let other = firstByFile.first(where: { $0.file != declaration.fileIndex }) {
        found.append((declaration, other.declaration))
        continue
      }
      if !firstByFile.contains(where: { $0.file == declaration.fileIndex }) {
        firstByFile.append((declaration.fileIndex, declaration))
      }
      let branches = files[declaration.fileIndex].branches
      var node = declaration.syntax.branch
      var via = Via.itself
      while true {
        let place = Place(file: declaration.fileIndex, branch: node ?? -1)
        if let mark = marks[place] {
          if via == .itself || mark.via == .itself || mark.via != via {
            found.append((declaration, mark.declaration))
          }
          break
        }
        marks[place] = (via, declaration)
        guard let branch = node else { break }
        via = .group(branches[branch].group)
        node = branches[branch].parent
      }
    }
    return found
  }

  /// Whether two declarations can be compiled together: not in different branches of one
  /// `#if` group of the same file.
  static func coexist(_ a: PreferencePlan, _ b: PreferencePlan, files: [FileSyntax]) -> Bool {
    duplicates([a, b], files: files).count == 1
  }

  /// Why `key` cannot be used as a store key, or `nil` if it can.
  private static let notPrintableASCII = String.ByteSet(Array(1...0x1F) + Array(0x7F...0xFF))

  package static func keyProblem(_ key: String) -> String? {
    if key.isEmpty { return "a key cannot be empty" }
    // Spaces are fine (a type named `Theme Settings` derives one); other whitespace is not.
    // The C library's search (see `containsByte(from:)`): a closure per byte is slow in the debug
    // builds the scanner runs as, and this runs for every declaration.
    let printableASCII = !key.containsByte(from: notPrintableASCII)
    if !printableASCII,
      key.unicodeScalars.contains(where: {
        ($0.properties.isWhitespace && $0 != " ") || $0.value < 0x20 || $0.value == 0x7F
      })
    {
      return "a key cannot contain line breaks, tabs or control characters"
    }
    if key.first == " " || key.last == " " { return "a key cannot start or end with a space" }
    if key.hasPrefix("-") {
      return "a key cannot start with '-' (it could not be overridden by a launch argument)"
    }
    if key.utf8.count > 1024 { return "a key cannot be longer than 1,024 bytes" }
    return nil
  }
}
