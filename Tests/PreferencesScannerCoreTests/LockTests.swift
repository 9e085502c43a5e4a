import Foundation
import Testing

@testable import PreferencesScannerCore

/// `Preferences.lock`: every refactor that would lose or move a shipped value is caught.
@Suite struct LockTests {
  let lockPath = "Sources/App/Preferences.lock"

  @Test func theLockRoundTripsWithTypesStoresRenamesAndRetiredKeys() {
    let text = """
      # comment
      ContentView.theme: Theme
      ContentView.username: String renamed-from: ContentView.userName, userName
      Shared.flag: Bool store: .suite("group.example")
      Sizes.map: [String: Int]
      retired Old.flag: Bool
      Unknown.type: ?
      """
    let lockFile = PreferenceLock.parse(text)
    #expect(lockFile.malformed.isEmpty && lockFile.conflictMarkers.isEmpty)
    #expect(lockFile.entries["ContentView.username"]?.renamedFrom == ["ContentView.userName", "userName"])
    #expect(lockFile.entries["Shared.flag"]?.store == #".suite("group.example")"#)
    #expect(lockFile.entries["Sizes.map"]?.type == "[String: Int]")
    #expect(lockFile.entries["Old.flag"]?.isRetired == true)
    #expect(lockFile.entries["Unknown.type"]?.type == nil)
    // Rendering sorts the entries, so only their lines differ.
    func withoutLines(_ entries: [String: PreferenceLock.Entry]) -> [String: PreferenceLock.Entry] {
      entries.mapValues { entry in
        var entry = entry
        entry.line = 0
        return entry
      }
    }
    #expect(
      withoutLines(PreferenceLock.parse(lockFile.render()).entries) == withoutLines(lockFile.entries))
  }

  /// Keys with spaces (a type named `Theme Settings`) or the format's punctuation are quoted.
  @Test func keysWithSpacesAndPunctuationAreQuotedAndRoundTrip() {
    var lockFile = PreferenceLock()
    let keys = ["default.Theme Settings.class", "a: b", "x,y", #"say "hi""#, #"back\slash"#, "retired key"]
    for (offset, key) in keys.enumerated() {
      lockFile.entries[key] = PreferenceLock.Entry(
        key: key, type: "Int", renamedFrom: offset == 0 ? ["old key", "plain.old"] : [], line: 0)
    }
    let text = lockFile.render()
    #expect(text.contains(#""default.Theme Settings.class": Int renamed-from: "old key", plain.old"#))
    let parsed = PreferenceLock.parse(text)
    #expect(parsed.malformed.isEmpty, "\(parsed.malformed)")
    #expect(Set(parsed.entries.keys) == Set(keys))
    #expect(parsed.entries["default.Theme Settings.class"]?.renamedFrom == ["old key", "plain.old"])
    #expect(parsed.entries["retired key"]?.isRetired == false)
    // A bare key cannot hold a space: that line is reported, not misread.
    #expect(PreferenceLock.parse("two words: Int\n").malformed.map(\.0) == [1])
    #expect(PreferenceLock.parse(#""unterminated: Int"#).malformed.map(\.0) == [1])
  }

  @Test func typesNamedWithSpacesDeriveKeysWithSpaces() {
    let result = scan("enum `default` { struct `Theme Settings` { @Preference var `class` = 1 } }")
    #expect(errors(result).isEmpty, "\(errors(result))")
    #expect(result.plans.map(\.key) == ["default.Theme Settings.class"])
  }

  @Test func mergeConflictsAreReadAsTheUnionAndReported() {
    let text = """
      A.a: Int
      <<<<<<< HEAD
      B.b: String
      C.c: Int renamed-from: c1
      =======
      C.c: Int renamed-from: c2
      D.d: Bool
      >>>>>>> feature
      """
    let lockFile = PreferenceLock.parse(text)
    #expect(Set(lockFile.entries.keys) == ["A.a", "B.b", "C.c", "D.d"])
    #expect(lockFile.entries["C.c"]?.renamedFrom == ["c1", "c2"])
    #expect(lockFile.conflictMarkers == [2, 5, 8])
    #expect(lockFile.disagreements.isEmpty)
    let result = scan("struct A { @Preference var a = 1 }", lock: text)
    #expect(
      errors(result).first?.contains(
        "Preferences.lock:2:1: error: Preferences.lock has unresolved merge conflict markers; run 'swift package --allow-writing-to-package-directory preferences lock'"
      ) == true)
  }

  @Test func aLockWithoutDeclarationsForItsKeysFailsWithTheFixes() {
    let result = scan("struct Renamed { @Preference var name = \"\" }", lock: "Profile.name: String\n")
    #expect(
      errors(result) == [
        "Sources/App/Preferences.lock:1:1: error: preference key 'Profile.name' (String) was shipped but no declaration uses it any more, so users' stored values would be lost. If you renamed it, add @Preference(renamedFrom: \"Profile.name\") to the new declaration; to move it elsewhere, add it to \"migrations\" in preferences-config.json; to drop it on purpose, run 'swift package --allow-writing-to-package-directory preferences lock --retire Profile.name'"
      ])
    // Each fix works.
    #expect(
      errors(
        scan(
          "struct Renamed { @Preference(renamedFrom: \"Profile.name\") var name = \"\" }",
          lock: "Profile.name: String\n")
      ).isEmpty)
    #expect(
      errors(
        scan(
          "struct Renamed { @Preference var name = \"\" }",
          configuration: ScannerConfiguration(migrations: ["Profile.name": "Renamed.name"]),
          lock: "Profile.name: String\n")
      ).isEmpty)
    #expect(
      errors(scan("struct Renamed { @Preference var name = \"\" }", lock: "retired Profile.name: String\n"))
        .isEmpty)
  }

  @Test func migrationsMoveValuesThroughTheRenameChain() {
    let result = scan(
      "struct Renamed { @Preference var name = \"\" }",
      configuration: ScannerConfiguration(migrations: ["Profile.name": "Renamed.name"]),
      lock: "Profile.name: String renamed-from: name\n")
    #expect(result.plans.first?.renamedFrom == ["Profile.name", "name"])
  }

  @Test func aWrittenRetypeFailsTheBuild() {
    let result = scan("struct C { @Preference var count = \"42\" }", lock: "C.count: Int\n")
    #expect(
      errors(result).first?.contains(
        "error: preference 'C.count' was shipped as Int (Preferences.lock) and is now declared as String")
        == true)
    #expect(
      errors(scan("struct C { @Preference var count: Int64 = 1 }", lock: "C.count: Int\n")).isEmpty,
      "widths are compatible")
    #expect(errors(scan("struct C { @Preference var count: Int? = nil }", lock: "C.count: Int\n")).isEmpty)
  }

  /// A lock written with one spelling of a type, and a declaration (or a scanner) that spells it
  /// another way, name one type: `Array<String>` is `[String]`.
  @Test func spellingsOfOneTypeAreNoRetype() {
    #expect(typesAreCompatible("Array<String>", "[String]"))
    #expect(typesAreCompatible("Dictionary<String, Array<Int>>", "[String: [Int]]"))
    #expect(typesAreCompatible("Swift.Optional<Int>", "Int"))
    #expect(typesAreCompatible("Kit.Box<(x: Int, y: Int)>", "Kit.Box<(x: Int, y: Int)>"))
    #expect(!typesAreCompatible("[String]", "Set<String>"))
    #expect(!typesAreCompatible("Kit.Box<(x: Int, y: Int)>", "Kit.Box<(Int, Int)>"))
    let source =
      "enum Defaults { static let tags: Array<String> = [] }\nstruct S { @Preference var tags = Defaults.tags }"
    #expect(errors(scan(source, lock: "S.tags: Array<String>\n")).isEmpty)
    #expect(errors(scan(source, lock: "S.tags: [String]\n")).isEmpty)
    #expect(errors(scan(source, lock: "S.tags: [Int]\n")).first?.contains("was shipped as [Int]") == true)
  }

  /// `@Preference var launchCount = Counters.defaultText`: the type is never written at the
  /// declaration, but the index follows the static.
  @Test func aRetypeThroughAStaticIsSeen() {
    let result = scan(
      "enum Counters { static let defaultText = \"42\" }\nstruct S { @Preference var launchCount = Counters.defaultText }",
      lock: "S.launchCount: Int\n")
    #expect(
      errors(result).first?.contains("was shipped as Int (Preferences.lock) and is now declared as String")
        == true)
  }

  @Test func aRetypeThroughAStaticFunctionIsSeen() {
    let source = """
      enum Counters {
        static func compute() async throws -> String { "7" }
        static func make(_ seed: Int) -> Int { seed }
        static func make() -> Int { 0 }
        static func mixed() -> Int { 0 }
        static func mixed(_ text: String) -> String { text }
        static func generic<T>() -> T { fatalError() }
      }
      struct S {
        @Preference var computed = Counters.compute()
        @Preference var made = Counters.make(3)
        @Preference var mixed = Counters.mixed()
        @Preference var generic: Int = Counters.generic()
      }
      """
    let result = scan(source, lock: "S.computed: Int\nS.made: Int\nS.mixed: Int\nS.generic: Int\n")
    #expect(
      errors(result).first?.contains(
        "preference 'S.computed' was shipped as Int (Preferences.lock) and is now declared as String") == true
    )
    #expect(errors(result).count == 1)
    let types = Dictionary(uniqueKeysWithValues: result.plans.map { ($0.key, $0.valueType) })
    #expect(types["S.made"] == "Int", "every overload returns Int")
    #expect(types["S.mixed"] == .some(nil), "overloads disagree: left to the compiler")
  }

  /// A written type made of standard names only is compared by the scanner; one that names
  /// another type at any depth is left to generated code.
  @Test func writtenStandardTypesAreTheScannersToCompare() {
    let result = scan(
      """
      struct S {
        @Preference var counts: [String: [Int]]? = nil
        @Preference var names: Set<String> = []
        @Preference var themes: [String: Theme] = [:]
        @Preference var boxed: Box<Int>? = nil
      }
      """,
      lock:
        "S.counts: [String: [Int]]?\nS.names: Set<String>\nS.themes: [String: Theme]\nS.boxed: Box<Int>?\n")
    #expect(errors(result).isEmpty)
    #expect(result.lockedTypes["S.counts"] == nil)
    #expect(result.lockedTypes["S.names"] == nil)
    #expect(result.lockedTypes["S.themes"] != nil, "'Theme' is not a standard name")
    #expect(result.lockedTypes["S.boxed"] != nil, "'Box' is not a standard name")
  }

  /// Where the scanner cannot see the type, the generated code makes the compiler check it.
  @Test func typesTheScannerCannotSeeAreCheckedByGeneratedCode() throws {
    let result = scan(
      "struct S {\n  @Preference var count = Counters.compute()\n  @Preference var plain = 1\n  @Preference var theme: Theme = .dark\n}",
      lock: "S.count: Int\nS.plain: Int\nS.theme: Theme\n")
    #expect(errors(result).isEmpty)
    #expect(result.lockedTypes["S.count"]?.family == .integer)
    #expect(result.lockedTypes["S.plain"] == nil, "a literal's type is the scanner's to check")
    #expect(result.lockedTypes["S.theme"]?.type == "Theme")
    let rendered = RegistryRenderer.fileTable(
      for: result.files[0], plans: result.plans, locks: result.lockedTypes)
    #expect(
      rendered.contains("@available(*, unavailable, message: \"preference 'S.count' was shipped as Int"))
    #expect(rendered.contains("#sourceLocation(file: \"Sources/App/File.swift\", line: 2)"))
  }

  /// Where the lock has the default a key shipped with (`type(of: …)`, the scanner could not tell
  /// its type), generated code passes that default with the key path, so the compiler compares
  /// the two types, whatever the declaration says now; the scanner compares nothing.
  @Test func aShippedDefaultIsComparedByTheCompiler() throws {
    let result = scan(
      "struct S {\n  @Preference var since = Date.distantPast\n  @Preference var cap = 0\n  @Preference var gone = hidden\n}\nprivate let hidden = Date.now",
      lock: "S.since: type(of: Date.distantPast)\nS.cap: type(of: Int.max)\nS.gone: type(of: hidden)\n")
    #expect(
      errors(result).isEmpty, "a literal of another type is the compiler's to compare: \(errors(result))")
    #expect(result.lockedTypes["S.since"]?.family == .typeOfShippedDefault)
    #expect(result.lockedTypes["S.cap"]?.type == "Int.max")
    #expect(result.lockedTypes["S.gone"] == nil, "generated code cannot name a private constant")
    let rendered = RegistryRenderer.fileTable(
      for: result.files[0], plans: result.plans, locks: result.lockedTypes)
    #expect(rendered.contains("fileprivate static func _preferenceLock_cap<V>(_: KeyPath<S, V>, _: V) {}"))
    #expect(rendered.contains("fileprivate static func _preferenceLock_cap<V>(_: KeyPath<S, V?>, _: V) {}"))
    #expect(
      rendered.contains(
        "@available(*, unavailable, message: \"preference 'S.cap' was shipped as type(of: Int.max) (Preferences.lock)"
      ))
    #expect(
      rendered.contains(
        "_preferenceLock_cap<Declared, Shipped>(_: KeyPath<S, Declared>, _: Shipped) {}"))
    #expect(
      rendered.contains(
        "#sourceLocation(file: \"Sources/App/File.swift\", line: 3)\n    _preferenceLock_cap(\\S.cap, Int.max)\n"
      ))
  }

  /// Each lock rule is worded once: the build's error, the check generated code places at the
  /// declaration, and the `lock` command's refusal name the same fixes, spelled the same way.
  @Test func aRetypeIsWordedTheSameEverywhere() throws {
    let accept =
      "'swift package --allow-writing-to-package-directory preferences lock --accept-retype S.count'"
    let retire = "'swift package --allow-writing-to-package-directory preferences lock --retire S.count'"
    let build = errors(scan("struct S { @Preference var count = \"x\" }", lock: "S.count: Int\n")).first ?? ""
    let checked = scan("struct S { @Preference var count = Counters.compute() }", lock: "S.count: Int\n")
    let generated = RegistryRenderer.fileTable(
      for: checked.files[0], plans: checked.plans, locks: checked.lockedTypes)
    let refusal = LockFinding.retyped(key: "S.count", shipped: "Int", declared: "String").refusal
    for text in [build, generated, refusal] {
      #expect(text.contains(accept) && text.contains(retire), "\(text)")
    }
    let moved = LockFinding.moved(key: "S.flag", shipped: ".default", declared: ".suite(\"g\")")
    for text in [moved.buildMessage, moved.refusal] {
      #expect(
        text.contains(
          "'swift package --allow-writing-to-package-directory preferences lock --accept-move S.flag'"))
    }
  }

  @Test func movingAPreferenceToAnotherStoreIsAnErrorUnlessTheMoveIsDeclared() {
    let moved = "struct S { @Preference(store: .suite(\"group.x\")) var flag = false }"
    let result = scan(moved, lock: "S.flag: Bool\n")
    #expect(
      errors(result).first?.contains(
        "error: preference 'S.flag' was shipped in store .default (Preferences.lock) and is now declared in store .suite(\"group.x\")"
      ) == true)
    let declared =
      "struct S { @Preference(store: .suite(\"group.x\"), movedFrom: .standard) var flag = false }"
    #expect(errors(scan(declared, lock: "S.flag: Bool\n")).isEmpty)
    #expect(errors(scan(moved, lock: "S.flag: Bool store: PreferenceStore.suite(\"group.x\")\n")).isEmpty)
  }

  @Test func aSeparatorChangeIsOneSummaryWithTheFixThatMovesThemAll() {
    let source =
      "struct A { struct B {\n@Preference var c = 1\n@Preference var d = 2\n@Preference var e = 3\n} }"
    let lock = "A.B.c: Int\nA.B.d: Int\nA.B.e: Int\n"
    let result = scan(source, configuration: ScannerConfiguration(separator: "_"), lock: lock)
    #expect(errors(result).count == 1)
    #expect(
      errors(result).first?.contains("3 shipped keys changed form: did \"separator\" from \".\" to \"_\"")
        == true)
    #expect(
      errors(result).first?.contains("Add \"previousKeys\": {\"separator\": \".\", \"prefix\": \"\"}") == true
    )
    let fixed = scan(
      source, configuration: ScannerConfiguration(separator: "_", previousKeys: (".", "")), lock: lock)
    #expect(errors(fixed).isEmpty)
    #expect(fixed.plans.first?.renamedFrom == ["A.B.c"])
  }

  @Test func aRetiredKeyDeclaredAgainIsKeptAndSaidSo() {
    let result = scan(
      "struct S { @Preference var flag = true }", lock: "retired S.flag: Bool\nretired Gone.key: Int\n")
    #expect(result.retiredKeys == ["Gone.key"], "a declared key is never purged")
    #expect(
      warnings(result).first?.contains("'S.flag' is retired in Preferences.lock but declared again") == true)
  }

  @Test func renamesFromKeysThatNeverShippedSuggestTheNearestOne() {
    let result = scan(
      "struct S { @Preference(renamedFrom: \"S.userNmae\") var name = \"\" }", lock: "S.userName: String\n")
    #expect(
      warnings(result).contains {
        $0.contains(
          "renamedFrom 'S.userNmae', which Preferences.lock does not list as shipped; did you mean 'S.userName'?"
        )
      })
  }

  @Test func aTargetWithoutALockIsWarnedOnceUnlessItOptsOut() {
    let source = "struct S {\n  @Preference var a = 1\n  @Preference var b = 2\n}"
    let result = PreferenceScanner(module: "App", expectedLockPath: "Sources/App/Preferences.lock").scan(
      files: [
        ("Sources/App/File.swift", Array(source.utf8))
      ])
    #expect(warnings(result).count == 1)
    #expect(warnings(result).first?.contains("this target has no Preferences.lock") == true)
    let optedOut = PreferenceScanner(
      module: "App", configuration: ScannerConfiguration(requireLock: false),
      expectedLockPath: "Sources/App/Preferences.lock"
    ).scan(files: [("Sources/App/File.swift", Array(source.utf8))])
    #expect(warnings(optedOut).isEmpty)
    // A scan outside a build, which does not know where the lock belongs, is not warned.
    #expect(warnings(scan(source)).isEmpty)
  }

  @Test func malformedLinesNameTheLineAndAFixThatWorks() {
    let result = scan("struct S { @Preference var a = 1 }", lock: "S.a: Int\nthis is not an entry\n")
    #expect(
      errors(result).first?.contains(
        "Preferences.lock:2:1: error: line 2 of Preferences.lock is not 'KEY: TYPE'") == true)
  }
}

/// The `lock` command: what it writes, and what it refuses.
@Suite struct LockCommandTests {
  final class Package {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("lock-\(UUID().uuidString)")
    var sources: URL { root.appendingPathComponent("Sources/App") }
    var lock: URL { sources.appendingPathComponent("Preferences.lock") }
    init(_ source: String) throws {
      try FileManager.default.createDirectory(at: sources, withIntermediateDirectories: true)
      try write(source)
    }
    deinit { try? FileManager.default.removeItem(at: root) }
    func write(_ source: String) throws {
      try Data(source.utf8).write(to: sources.appendingPathComponent("Settings.swift"))
    }
    func run(_ extra: [String] = []) -> (status: Int32, output: String, errors: String) {
      var output = ""
      var errors = ""
      let status = ScannerCommand(standardOutput: { output += $0 }, standardError: { errors += $0 }).run(
        ["lock", "--lock", lock.path] + extra + [sources.path])
      return (status, output, errors)
    }
    var lockText: String { (try? String(contentsOf: lock, encoding: .utf8)) ?? "" }
  }

  @Test func lockRecordsNewKeysAndRefusesAnIncompatibleRetypeUnlessTold() throws {
    let package = try Package(
      "enum Counters { static let value = 42 }\nstruct S { @Preference var launchCount = Counters.value }")
    #expect(package.run().status == 0)
    #expect(package.lockText.contains("S.launchCount: Int\n"))
    try package.write(
      "enum Counters { static let value = \"42\" }\nstruct S { @Preference var launchCount = Counters.value }"
    )
    let refused = package.run()
    #expect(refused.status == 1)
    #expect(
      refused.errors.contains(
        "lock refuses to record the new type of shipped key 'S.launchCount' (Int → String): values users stored as Int would read the default instead"
      ))
    #expect(refused.errors.contains("--accept-retype S.launchCount"))
    #expect(package.lockText.contains("S.launchCount: Int\n"), "nothing was written")
    #expect(package.run(["--accept-retype", "S.launchCount"]).status == 0)
    #expect(package.lockText.contains("S.launchCount: String\n"))
  }

  /// A default whose type the scanner cannot tell is recorded as itself, `type(of: DEFAULT)`,
  /// without a warning, and kept while the declaration changes: the build's compiler compares.
  /// `--accept-retype` records the declaration as it is now.
  @Test func lockRecordsTheDefaultWhoseTypeOnlyTheCompilerKnows() throws {
    let package = try Package("struct S { @Preference var since = Date.distantPast }")
    let first = package.run()
    #expect(first.status == 0)
    #expect(package.lockText.contains("S.since: type(of: Date.distantPast)\n"), "\(package.lockText)")
    #expect(!first.errors.contains("cannot tell the type"), "\(first.errors)")
    try package.write("struct S { @Preference var since = 0 }")
    #expect(package.run().status == 0)
    #expect(package.lockText.contains("S.since: type(of: Date.distantPast)\n"), "kept for the compiler")
    #expect(package.run(["--accept-retype", "S.since"]).status == 0)
    #expect(package.lockText.contains("S.since: Int\n"))
    // A shipped type is not replaced by a default the scanner cannot type: the build compares.
    try package.write("struct S { @Preference var since = Date.distantPast }")
    let kept = package.run()
    #expect(kept.status == 0)
    #expect(package.lockText.contains("S.since: Int\n"), "\(package.lockText)")
    #expect(package.run(["--accept-retype", "S.since"]).status == 0)
    #expect(package.lockText.contains("S.since: type(of: Date.distantPast)\n"))
  }

  @Test func lockResolvesMergeConflictsAsTheUnionAndDropsUnreadableLinesSayingSo() throws {
    let package = try Package("struct S {\n  @Preference var a = 1\n  @Preference var b = 2\n}")
    try Data("<<<<<<< HEAD\nS.a: Int\n=======\nS.b: Int\n>>>>>>> other\ngarbage line\n".utf8).write(
      to: package.lock)
    let run = package.run()
    #expect(run.status == 0, "\(run.errors)")
    #expect(
      run.errors.contains("line 6 ('garbage line') is not 'KEY: TYPE'; it is left out of the rewritten lock"))
    #expect(package.lockText.contains("S.a: Int\nS.b: Int\n"))
    #expect(!package.lockText.contains("<<<<<<<"))
  }

  @Test func lockRefusesAStoreMoveUnlessDeclaredOrAccepted() throws {
    let package = try Package("struct S { @Preference var flag = true }")
    #expect(package.run().status == 0)
    try package.write("struct S { @Preference(store: .suite(\"g\")) var flag = true }")
    #expect(package.run().status == 1)
    #expect(package.run(["--accept-move", "S.flag"]).status == 0)
    #expect(package.lockText.contains("S.flag: Bool store: .suite(\"g\")\n"))
  }
}
