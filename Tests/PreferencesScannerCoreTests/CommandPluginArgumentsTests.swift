import Testing

@testable import PreferencesScannerCore

/// `swift package preferences`' arguments: every one is used, or the command stops with an error
/// that names it, before it scans or writes anything.
@Suite struct CommandPluginArgumentsTests {
  private func parse(_ arguments: [String]) throws(PreferencesCommandRequest.UsageError)
    -> PreferencesCommandRequest?
  {
    try PreferencesCommandRequest.parse(arguments)
  }

  private func message(_ arguments: [String]) -> String? {
    do {
      _ = try parse(arguments)
      return nil
    } catch {
      return error.message
    }
  }

  @Test func listIsTheDefault() throws {
    #expect(try parse([]) == PreferencesCommandRequest())
    #expect(try parse(["--target", "App"]) == PreferencesCommandRequest(targets: ["App"]))
    #expect(
      try parse(["list", "--format=json", "--target", "App", "--target=Kit"])
        == PreferencesCommandRequest(verb: .list, targets: ["App", "Kit"], format: "json"))
  }

  @Test func eachSubcommandTakesItsOptions() throws {
    #expect(
      try parse([
        "lock", "--retire", "Old.key", "--drop", "Gone.key", "--accept-retype", "A.b", "--accept-move", "C.d",
        "--retire", "Other.key",
      ])
        == PreferencesCommandRequest(
          verb: .lock, retire: ["Old.key", "Other.key"], drop: ["Gone.key"], acceptRetype: ["A.b"],
          acceptMove: ["C.d"]))
    #expect(
      try parse([
        "--target", "App", "export", "--format", "settings-plist", "--output", "Settings.bundle/Root.plist",
      ])
        == PreferencesCommandRequest(
          verb: .export, targets: ["App"], format: "settings-plist", output: "Settings.bundle/Root.plist"))
    #expect(
      try parse(["export-values", "--plist", "prefs.plist", "--output", "values.json", "--target", "App"])
        == PreferencesCommandRequest(
          verb: .exportValues, targets: ["App"], output: "values.json", plist: "prefs.plist"))
    #expect(
      try parse([
        "import-values", "--plist=prefs.plist", "--document", "values.json", #"--store=.suite("group.a")"#,
      ])
        == PreferencesCommandRequest(
          verb: .importValues, plist: "prefs.plist", document: "values.json", store: #".suite("group.a")"#))
    #expect(
      try parse(["reset-values", "--plist", "p"]) == PreferencesCommandRequest(verb: .resetValues, plist: "p")
    )
    // The same option given twice with one value is not a conflict.
    #expect(try parse(["export", "--format", "json", "--format=json"])?.format == "json")
  }

  @Test func helpIsAskedForAnywhere() throws {
    for arguments in [["--help"], ["-h"], ["help"], ["lock", "--help"], ["export", "--formt", "x", "-h"]] {
      #expect(try parse(arguments) == nil, "\(arguments)")
    }
    // A target named like the subcommand is a value, not a request for help.
    #expect(try parse(["--target", "help"]) == PreferencesCommandRequest(targets: ["help"]))
    #expect(PreferencesCommandRequest.help.contains("--accept-retype KEY"))
  }

  @Test func whatIsNotUsedIsAnErrorThatNamesIt() {
    let cases: [([String], String)] = [
      (["list", "--formt", "json"], "unknown option '--formt'"),
      (
        ["lsit"],
        "unknown subcommand 'lsit'; the subcommands are list, lock, export, export-values, import-values, reset-values"
      ),
      (["lock", "list"], "unexpected argument 'list'"),
      (["lock", "Old.key"], "unexpected argument 'Old.key'"),
      (["list", "--retire", "A.b"], "--retire is not an option of 'list'; it takes --format, --target"),
      (
        ["lock", "--format", "json"],
        "--format is not an option of 'lock'; it takes --accept-move, --accept-retype, --drop, --retire, --target"
      ),
      (
        ["export", "--format", "json", "--drop", "A.b"],
        "--drop is not an option of 'export'; it takes --format, --output, --target"
      ),
      (["export"], "export needs --format json, markdown or settings-plist"),
      (["export", "--format", "text"], "export --format must be json, markdown, settings-plist, not 'text'"),
      (["list", "--format", "plist"], "list --format must be text, json, markdown, not 'plist'"),
      (
        ["export", "--format", "json", "--format", "markdown"],
        "--format is given twice ('json' and 'markdown')"
      ),
      (["export-values"], "export-values needs --plist FILE, the preferences file"),
      (
        ["import-values", "--plist", "p"],
        "import-values needs --document PATH, the values document to import"
      ),
      (
        ["reset-values", "--plist", "p", "--output", "o"],
        "--output is not an option of 'reset-values'; it takes --plist, --store, --target"
      ),
      (
        ["export-values", "--plist", "p", "--document", "d"],
        "--document is not an option of 'export-values'; it takes --output, --plist, --store, --target"
      ),
      (
        ["import-values", "--plist", "a", "--plist", "b", "--document", "d"],
        "--plist is given twice ('a' and 'b')"
      ),
      (["lock", "--retire"], "--retire needs a value"),
      (["lock", "--retire", "--drop", "A.b"], "--retire needs a value"),
    ]
    for (arguments, expected) in cases {
      #expect(message(arguments) == expected, "\(arguments)")
    }
  }

  @Test func anErrorShowsTheUsage() {
    let error = PreferencesCommandRequest.UsageError(message: "unknown option '--x'")
    #expect(
      error.description
        == "unknown option '--x'\nUSAGE: swift package preferences [list|lock|export|export-values|import-values|reset-values] [options]; 'swift package preferences --help' lists them"
    )
  }
}
