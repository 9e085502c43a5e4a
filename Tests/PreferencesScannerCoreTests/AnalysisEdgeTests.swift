import Foundation
import Testing

@testable import PreferencesScannerCore

/// `Preferences.lock` as read and written: comments, both sides of a merge, keys that need
/// quoting, and spellings of the default store.
@Suite struct LockFileFormatTests {
  /// A line starting with `#` is a comment, with or without a space after the `#`.
  @Test func aCommentWithoutASpaceIsNotAMalformedLine() {
    let lock = PreferenceLock.parse("#note\nS.a: Int\n")
    #expect(lock.malformed.isEmpty)
    #expect(lock.entries.keys.sorted() == ["S.a"])
  }

  /// Two sides of a merge that record a key in different stores disagree; the build says so at
  /// the later side's line.
  @Test func aMergeThatDisagreesAboutTheStoreIsReportedAtTheLaterSide() {
    let text = "<<<<<<< HEAD\nS.flag: Bool\n=======\nS.flag: Bool store: .suite(\"g\")\n>>>>>>> other\n"
    #expect(PreferenceLock.parse(text).disagreements["S.flag"]?.count == 2)
    let result = scan("struct S { @Preference var flag = true }", lock: text)
    let disagreement = result.diagnostics.first { $0.message.contains("disagree about 'S.flag'") }
    #expect(disagreement?.line == 4)
  }

  /// A key retired on one side of a merge only is still live: the union keeps it declared.
  @Test func aKeyRetiredOnOneSideOfAMergeOnlyStaysLive() {
    let lock = PreferenceLock.parse("<<<<<<< HEAD\nretired S.a: Int\n=======\nS.a: Int\n>>>>>>> other\n")
    #expect(lock.entries["S.a"]?.isRetired == false)
  }

  /// A key that starts with `#`, and a renamed-from key holding a comma, are quoted and read
  /// back as written.
  @Test func keysStartingWithAHashOrHoldingACommaRoundTrip() {
    var lock = PreferenceLock()
    lock.entries["#draft"] = .init(key: "#draft", type: "Int")
    lock.entries["S.b"] = .init(key: "S.b", type: "Int", renamedFrom: ["a,b", "c"])
    let read = PreferenceLock.parse(lock.render())
    #expect(read.malformed.isEmpty)
    #expect(read.entries["#draft"]?.type == "Int")
    #expect(read.entries["S.b"]?.renamedFrom == ["a,b", "c"])
  }

  /// `store: .default` names the store a lock line without `store:` records: no move.
  @Test func theDefaultStoreSpelledOutIsNoMove() {
    for store in [".default", "PreferenceStore.default"] {
      let result = scan("struct S { @Preference(store: \(store)) var flag = true }", lock: "S.flag: Bool\n")
      #expect(errors(result).isEmpty, "\(store): \(errors(result))")
    }
  }
}

/// The `lock` command on keys that come back, and on new keys in another store.
@Suite struct LockCommandUpdateTests {
  /// A retired key that is declared again is recorded live again.
  @Test func aRetiredKeyDeclaredAgainIsRecordedLive() throws {
    let package = try LockCommandTests.Package("struct S { @Preference var a = 1 }")
    try Data("retired S.a: Int\n".utf8).write(to: package.lock)
    let run = package.run()
    #expect(run.status == 0, "\(run.errors)")
    #expect(package.lockText.contains("\nS.a: Int\n"), "\(package.lockText)")
    #expect(!package.lockText.contains("retired S.a"))
  }

  /// A key that never shipped is no move, whatever its store: it is recorded with it.
  @Test func aNewKeyInAnotherStoreIsRecordedWithItsStore() throws {
    let package = try LockCommandTests.Package("struct S { @Preference var a = 1 }")
    #expect(package.run().status == 0)
    try package.write(
      "struct S {\n  @Preference var a = 1\n  @Preference(store: .suite(\"g\")) var b = true\n}")
    let run = package.run()
    #expect(run.status == 0, "\(run.errors)")
    #expect(package.lockText.contains("S.b: Bool store: .suite(\"g\")\n"), "\(package.lockText)")
  }
}

/// `preferences-config.json` values the scanner refuses, each with its message.
@Suite struct ConfigurationFileErrorTests {
  /// The message of loading `json` as a configuration file, or `nil` where it loads.
  func problem(_ json: String) -> String? {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "config-\(UUID().uuidString).json")
    try? Data(json.utf8).write(to: url)
    defer { try? FileManager.default.removeItem(at: url) }
    do {
      _ = try ScannerConfiguration.load(from: url.path)
      return nil
    } catch {
      return error.message
    }
  }

  /// A separator holding a space or a line break would derive keys with it.
  @Test(arguments: [" ", "a b", "_\n"])
  func aSeparatorWithSpacesIsRefused(separator: String) {
    let json = "{\"separator\": \"\(separator.replacing("\n", with: "\\n"))\"}"
    #expect(problem(json)?.contains("\"separator\" must be a non-empty string without spaces") == true)
  }

  /// A migration from the empty key is no migration.
  @Test func aMigrationFromTheEmptyKeyIsRefused() {
    #expect(
      problem("{\"migrations\": {\"\": \"S.name\"}}")?.contains("\"migrations\" must map old keys") == true)
  }

  /// `previousKeys` holds `separator` and `prefix` only: a misspelt member is not ignored.
  @Test func anUnknownMemberOfPreviousKeysIsRefused() {
    #expect(
      problem("{\"previousKeys\": {\"separator\": \"_\", \"prefx\": \"x.\"}}")?.contains(
        "\"previousKeys\" must say how keys were formed before") == true)
    #expect(problem("{\"previousKeys\": {\"separator\": \"_\", \"prefix\": \"x.\"}}") == nil)
  }

  /// A misspelt option is refused with the list of every option the file takes, each of which
  /// loads.
  @Test func anUnknownOptionNamesEveryOption() {
    let message = problem("{\"defaultIsolaton\": \"MainActor\"}")
    #expect(
      message
        == "unknown option \"defaultIsolaton\" in preferences-config.json; the options are \"separator\", \"prefix\", \"migrations\", \"previousKeys\", \"requireLock\", \"defaultIsolation\", \"inferIsolatedConformances\""
    )
    #expect(problem("{\"inferIsolatedConformances\": true, \"defaultIsolation\": \"MainActor\"}") == nil)
  }
}

/// The command line's options and the messages of their misuse.
@Suite struct CommandLineOptionTests {
  func run(_ arguments: [String]) -> (status: Int32, output: String, errors: String) {
    var output = ""
    var errors = ""
    let status = ScannerCommand(standardOutput: { output += $0 }, standardError: { errors += $0 }).run(
      arguments)
    return (status, output, errors)
  }

  /// An option is never taken as the value of the option before it.
  @Test func anOptionIsNotTheValueOfTheOneBefore() {
    let run = run(["scan", "--module", "--format", "text", "Sources"])
    #expect(run.status == 2)
    #expect(run.errors.contains("error: --module needs a value"), "\(run.errors)")
  }

  /// A lone `-` is a path, not an option.
  @Test func aLoneDashIsAPath() throws {
    #expect(try ScannerCommand.parse(["scan", "-"]).paths == ["-"])
  }

  /// Only `export-values` writes a document to `--output`; `import-values` refuses it.
  @Test func importValuesTakesNoOutput() {
    let run = run([
      "import-values", "--plist", "a.plist", "--document", "d.json", "--output", "o.json", "Sources",
    ])
    #expect(run.status == 2)
    #expect(run.errors.contains("error: import-values takes no --output"), "\(run.errors)")
  }

  /// No arguments at all: the usage, and the exit status of invalid arguments.
  @Test func noArgumentsPrintTheUsageAndFail() {
    let run = run([])
    #expect(run.status == 2)
    #expect(run.output.hasPrefix("USAGE: preferences-scanner"))
  }
}

/// Conformances the registry adds where the user wrote one under a condition, or imports
/// `Preferences` without a level.
@Suite struct SynthesizedConformanceConditionTests {
  /// An `import Preferences` without a level is a public import: a public type conforms.
  @Test func anImplicitImportOfPreferencesLetsAPublicTypeConform() {
    let result = scan(
      "import Preferences\npublic enum Theme: String, Sendable { case light }\nstruct S { @Preference var theme = Theme.light }"
    )
    #expect(errors(result).isEmpty, "\(errors(result))")
    #expect(result.conformances.map(\.typeName) == ["Theme"])
  }

  /// A type stored as a value and as a dictionary key, conformed by the user on some platforms:
  /// the value and key conformances go on lines of their own, and `Sendable` is stated once.
  @Test func aTypeStoredAsValueAndKeyStatesSendableOnce() {
    let result = scan(
      """
      enum Mode: String { case a }
      #if os(iOS)
      extension Mode: PreferenceValue {}
      #endif
      struct S {
        @Preference var mode = Mode.a
        @Preference var counts: [Mode: Int] = [:]
      }
      """)
    #expect(errors(result).isEmpty, "\(errors(result))")
    #expect(result.conformances.count == 2, "\(result.conformances)")
    #expect(result.conformances.filter(\.statesSendable).count == 1, "\(result.conformances)")
  }

  /// A conformance the user wrote in an `#elseif` branch is supplied where that branch's whole
  /// condition is false, negated as one.
  @Test func aConformanceWrittenInAnElseifBranchIsNegatedWhole() {
    let result = scan(
      """
      enum Mode: String { case a }
      #if os(macOS)
      #elseif os(iOS)
      extension Mode: PreferenceValue {}
      #endif
      struct S { @Preference var mode = Mode.a }
      """)
    #expect(errors(result).isEmpty, "\(errors(result))")
    #expect(result.conformances.map(\.condition) == ["!(!(os(macOS)) && (os(iOS)))"])
  }
}

/// Which enums of a dependency the scanner knows the cases of.
@Suite struct DependencyEnumCaseTests {
  func enums(_ files: [String: String], names: Set<String>) throws -> (
    DependencyEnums, DependencyEnumsTests.Dependency
  ) {
    let dependency = try DependencyEnumsTests.Dependency(files)
    return (
      DependencyEnums(
        sources: dependency.arguments.map(DependencyEnums.Source.init), names: names, module: "App"),
      dependency
    )
  }

  /// A `package` enum of a dependency in the same package is visible, and its cases known.
  @Test func aPackageEnumsCasesAreKnown() throws {
    let (enums, _) = try enums(["Level.swift": "package enum Level { case low, high }"], names: ["Level"])
    #expect(enums.isCase("low", of: ["Level"], called: false, imports: ["Kit"]))
  }

  /// An enum declared twice (in files for different platforms) is known to have only the cases both declare alike: a
  /// case with a payload in one is no plain case.
  @Test func aCaseWithAPayloadInOneDeclarationOnlyIsNotKnown() throws {
    let (enums, _) = try enums(
      [
        "ModeApple.swift": "public enum Mode { case fast, slow }",
        "ModeLinux.swift": "public enum Mode { case fast(Int), slow }",
      ], names: ["Mode"])
    #expect(!enums.isCase("fast", of: ["Mode"], called: false, imports: ["Kit"]))
    #expect(enums.isCase("slow", of: ["Mode"], called: false, imports: ["Kit"]))
  }
}

/// The generated registry's `#if` structure and imports.
@Suite struct GeneratedConditionsAndImportsTests {
  /// Moving from an `#if` branch to a later `#elseif` passes through the empty branches between,
  /// so the later branch's code compiles only where its declarations do.
  @Test func anEmptyElseifBranchBetweenTwoIsKept() {
    let result = scan(
      """
      struct S {
        #if os(iOS)
        @Preference var a = Date()
        #elseif canImport(UIKit)
        #elseif DEBUG
        @Preference var b = Date()
        #endif
      }
      """)
    #expect(errors(result).isEmpty, "\(errors(result))")
    let rendered = RegistryRenderer.singleFile(result, module: "App")
    #expect(rendered.contains("#elseif canImport(UIKit)\n#elseif DEBUG\n"), "\(rendered)")
  }

  /// `package import Preferences` keeps the index's import at `package`.
  @Test func aPackageImportOfPreferencesIsKeptInTheIndex() {
    let result = scan("package import Preferences\nstruct S { @Preference var a = Date() }")
    #expect(
      RegistryRenderer.PreferencesImport(result.files.flatMap(\.imports)).index
        == "@_spi(Generated) package import Preferences")
  }

  /// A module one file imports unconditionally and another under `#if` is imported
  /// unconditionally.
  @Test func anImportUnconditionalInOneFileIsUnconditional() {
    let result = scan([
      ("Sources/App/A.swift", "import Kit\nstruct A { @Preference var a = Date() }"),
      ("Sources/App/B.swift", "#if os(iOS)\nimport Kit\n#endif\nstruct B { @Preference var b = Date() }"),
    ])
    let lines = RegistryRenderer.importLines(result.files, preferences: "@_spi(Generated) import Preferences")
    #expect(lines == "@_spi(Generated) import Preferences\nimport Kit\n", "\(lines)")
  }
}

/// Where a default that reads a static of a module type is evaluated.
@Suite struct InheritedIsolationTests {
  /// A static of a type that conforms to a main-actor protocol of the module is read on the main
  /// actor: the type inherits that isolation.
  @Test func aTypeConformingToAMainActorProtocolIsReadOnTheMainActor() {
    let result = scan(
      """
      @MainActor protocol Screen {}
      struct Home: Screen { static let start = Int.max }
      struct S { @Preference var page = Home.start }
      """)
    #expect(result.plans.map(\.how) == ["mainActor"])
  }
}
