import Foundation
import Testing

@testable import PreferencesScannerCore

/// The syntax stage: what one file declares, read from its tokens alone.
@Suite struct FileParserTests {
  @Test func theMissionExample() throws {
    let result = scan("struct ContentView {\n    @Preference var username = \"Anonymous\"\n}\n")
    let plan = try #require(result.plans.first)
    #expect(plan.key == "ContentView.username")
    #expect(plan.enclosingType == "ContentView")
    #expect(plan.valueType == "String")
    #expect(plan.defaultText == "\"Anonymous\"")
    #expect((plan.line, plan.column) == (2, 6))
    #expect(plan.fileID == "App/File.swift")
    #expect(result.diagnostics.isEmpty)
  }

  @Test func nothingInsideCommentsStringsOrRegexLiteralsIsADeclaration() {
    let source = #"""
      struct A {
        // @Preference var a = 1
        /* @Preference var b = 2 /* nested @Preference var c = 3 */ @Preference var d = 4 */
        let s = "@Preference var e = 5 } }"
        let m = """
          @Preference var f = 6 }
          \(call("}")) \"""
          """
        let r = #"@Preference var g = "7" \(x) }"#
        let i = "\(x.map { "}" })"
        let x = #/@Preference var h = 1 }/#
        let y = /@Preference var i = 1 }/
        @Preference var real = 8
      }
      """#
    #expect(keys(source) == ["A.real"])
  }

  /// Two declarations on one line are read (and then refused: the wrapper finds a declaration by
  /// its file and line).
  @Test func attributesModifiersAndSeveralDeclarationsPerLine() {
    let source = """
      public final class Settings {
        @Preference private(set) var a = 1; @Preference public var b = 2
        @MainActor
        @Preference
        nonisolated(unsafe) var c = true
        @Preference @available(iOS 17, *) var d = 0.5
        @Preference var `default`: Int = 5
        @Preference(key: "HighScore") var highScore = 0
        class var notAType: Int { 1 }
        @Preference var afterClassVar = ""
        @Preference static var shared = 1
      }
      """
    let result = scan(source)
    #expect(
      result.plans.map(\.key) == [
        "Settings.a", "Settings.b", "Settings.c", "Settings.d", "Settings.default", "HighScore",
        "Settings.afterClassVar", "Settings.shared",
      ])
    #expect(result.plans[2].line == 4)
    #expect(result.plans[4].property == "default")
    #expect(result.plans[1].syntax.access == .public)
    #expect(result.plans[7].syntax.isStatic)
    #expect(
      result.diagnostics.map(\.description) == [
        "Sources/App/File.swift:2:40: error: @Preference 'b' is on the same line as 'a' (column 4); a preference is found by its file and line, so each needs a line of its own: move it to the next line"
      ])
  }

  @Test func nestedAndExtendedTypes() {
    let source = """
      struct Outer {
        struct Inner<T: Equatable> where T: Sendable {
          enum Deepest { @Preference var property = 1 }
        }
        actor Worker { @Preference var busy = false }
      }
      extension Outer.Middle {
        final class Leaf { @Preference var leaf = "" }
      }
      indirect enum Tree { case leaf; @Preference static var depth = 3 }
      enum `default` { enum Options { @Preference var found = 1 } }
      """
    #expect(
      keys(source) == [
        "Outer.Inner.Deepest.property", "Outer.Worker.busy", "Outer.Middle.Leaf.leaf", "Tree.depth",
        "default.Options.found",
      ])
  }

  /// A type's name may follow its keyword on the next line (and its modifiers and attributes
  /// precede it on lines of their own). `actor` is a contextual keyword: a variable of that name
  /// can end a statement, so a name after it on the next line is not a type's.
  @Test func aTypesNameOnTheLineAfterItsKeyword() {
    let source = """
      struct
        Settings {
        @Preference var volume = 1
      }
      enum Outer {
        @MainActor
        final
        class
        Inner<T>
        {
          @Preference var level = 2
        }
      }
      protocol
        Unrelated {}
      struct Holder {
        func run() {
          let a = actor
          Launch { }
        }
        @Preference var flag = true
      }
      """
    let result = scan(source)
    #expect(keys(source) == ["Settings.volume", "Outer.Inner.level", "Holder.flag"])
    #expect(result.diagnostics.isEmpty)
    #expect(result.plans.first { $0.key == "Outer.Inner.level" }?.enclosingType == "Outer.Inner")
    let syntax = FileParser.parse(path: "File.swift", module: "App", contents: Array(source.utf8))
    #expect(
      syntax.scopes.compactMap(\.names.last).filter { $0 != "run" } == [
        "Settings", "Outer", "Inner", "Unrelated", "Holder",
      ])
  }

  @Test func theDeprecatedClassConstraintIsNoClass() {
    let source = """
      protocol Themed: class where Self: Equatable {
        var name: String { get }
      }
      struct Settings {
        @Preference var volume = 1
      }
      """
    #expect(keys(source) == ["Settings.volume"])
    let syntax = FileParser.parse(path: "File.swift", module: "App", contents: Array(source.utf8))
    #expect(syntax.scopes.compactMap(\.names.last) == ["Themed", "Settings"])
  }

  @Test func multiLineDefaultsEndWhereTheExpressionEnds() {
    let source = """
      struct S {
        @Preference var list = [
          "a",
          "b",
        ]
        @Preference var map: [String: Int] = ["a": 1,
                                               "b": 2]
        @Preference var computed = makeDefault()
          .trimmed()
        @Preference var closure = { () -> Int in
          let x = 1
          return x
        }()
        @Preference var observed = 1 {
          didSet { print(observed) }
        }
        @Preference var sum = 1 +
          2
        @Preference var negative = -1
        @Preference var flag = true
        var notPreference = 2
      }
      """
    let result = scan(source)
    #expect(
      result.plans.map(\.property) == [
        "list", "map", "computed", "closure", "observed", "sum", "negative", "flag",
      ])
    #expect(result.plans[0].defaultText == "[\n    \"a\",\n    \"b\",\n  ]")
    #expect(result.plans[0].valueType == "[String]")
    #expect(result.plans[1].valueType == "[String: Int]")
    #expect(result.plans[2].defaultText == "makeDefault()\n    .trimmed()")
    #expect(result.plans[3].defaultText?.hasSuffix("}()") == true)
    #expect(result.plans[4].defaultText == "1")
    #expect(result.plans[5].defaultText == "1 +\n    2")
    #expect(result.plans[6].valueType == "Int")
    #expect(result.diagnostics.isEmpty)
  }

  @Test func conditionalBranchesAreNotDuplicatesAndCarryTheirCondition() {
    let source = """
      struct P {
        #if os(iOS)
        @Preference var platform = "ios"
        #elseif os(macOS) /* a comment */ || os(visionOS)
        @Preference var platform = "mac"
        #else
        @Preference var platform = "other"
        #endif
        #if DEBUG ||
          TESTING
        @Preference var verbose = true
        #endif
      }
      """
    let result = scan(source)
    #expect(errors(result).isEmpty)
    #expect(
      result.plans.map(\.condition) == [
        "(os(iOS))", "!(os(iOS)) && (os(macOS) || os(visionOS))",
        "!(os(iOS)) && !(os(macOS) || os(visionOS))",
        "(DEBUG || TESTING)",
      ])
  }

  @Test func typesDeclaredDifferentlyPerBranchKeepTheirNesting() {
    let source = """
      #if os(iOS)
      struct Screen: UIViewRepresentable {
      #else
      struct Screen {
      #endif
        @Preference var zoom = 1.0
      }
      struct After { @Preference var ok = 1 }
      """
    #expect(keys(source) == ["Screen.zoom", "After.ok"])
  }

  /// The compiler reports the file and line a `#sourceLocation` directive names; so does the
  /// scanner, for the registry to find the declaration.
  @Test func sourceLocationDirectivesMoveTheReportedLocation() throws {
    let result = scan(
      """
      struct Q {
      #sourceLocation(file: "/generated/Gen.gyb", line: 40)
        @Preference var a = 1

        @Preference var b = 2
      #sourceLocation()
        @Preference var c = 3
      }
      """)
    let locations = result.plans.map {
      "\($0.reportedLocation.fileID):\($0.reportedLocation.line):\($0.column)"
    }
    #expect(locations == ["App/Gen.gyb:40:4", "App/Gen.gyb:42:4", "App/File.swift:7:4"])
    #expect(result.plans.map(\.line) == [3, 5, 7], "diagnostics point at the real lines")
  }

  @Test func aByteOrderMarkChangesNothingButColumns() {
    let source = "\u{FEFF}import Foundation\nstruct A { @Preference var when = Date() }\n"
    let result = scan(source)
    #expect(result.plans.map(\.key) == ["A.when"])
    #expect(result.files[0].imports.map(\.path) == ["Foundation"])
    let sameLine = scan("\u{FEFF}struct B { @Preference var x = 1 }")
    #expect(sameLine.plans.first?.column == 13 + 3)
    #expect(sameLine.diagnostics.isEmpty)
  }

  @Test func declarationsOutsideTypesAreErrorsThatNameTheFix() {
    let result = scan(
      """
      @Preference var topLevel = 1
      struct S {
        func f() {
          @Preference var local = 2
        }
        var body: some View {
          @Preference var inBody = 3
        }
        @Preference var noDefault: Int
        @Preference let constant = 1
      }
      protocol P { @Preference var p: Int }
      """)
    let messages = errors(result)
    #expect(messages.count == 6)
    #expect(
      messages[0].hasPrefix(
        "Sources/App/File.swift:1:2: error: @Preference 'topLevel' is declared at top level"))
    #expect(messages[1].contains("4:6: error: @Preference 'local' is a local variable"))
    #expect(messages[2].contains("'inBody' is a local variable"))
    #expect(
      messages[3].contains(
        "9:4: error: @Preference 'noDefault' has no default value; add one (@Preference var noDefault: Int = …)"
      ))
    #expect(messages[4].contains("requires 'var', not 'let'"))
    #expect(messages[5].contains("declared in a protocol"))
  }

  /// Another property wrapper on the same property, before or after `@Preference`, is an error
  /// that names what to remove; attributes and macros that are not wrappers are not.
  @Test func anotherPropertyWrapperOnThePropertyIsAnErrorThatNamesTheFix() {
    let result = scan(
      """
      final class Model: ObservableObject {
        @Published @Preference var count = 1
        @Preference @AppStorage("legacy") var legacy = 2
        @MainActor @ObservationIgnored @Preference(key: "k") @available(*, deprecated) var fine = 3
        @State
        @Preference var split = 4
      }
      """)
    #expect(
      errors(result) == [
        "Sources/App/File.swift:2:15: error: @Preference is the property's storage and cannot be combined with the property wrapper @Published, which would never see its writes; remove @Published (SwiftUI views and @Observable models that read a preference already update when it changes)",
        #"Sources/App/File.swift:3:16: error: @Preference is the property's storage and cannot be combined with the property wrapper @AppStorage, which would never see its writes; remove @AppStorage (to keep reading the values it stored, give @Preference that key: @Preference(key: "…"))"#,
        "Sources/App/File.swift:6:4: error: @Preference is the property's storage and cannot be combined with the property wrapper @State, which would never see its writes; remove @State (SwiftUI views and @Observable models that read a preference already update when it changes)",
      ])
    #expect(result.plans.map(\.key) == ["Model.count", "Model.legacy", "k", "Model.split"])
  }

  /// A declared type ends at the line's end after `?`, `!` or `>`; `&` and `->` continue it.
  @Test func declaredTypesEndWhereTheLineEnds() {
    let result = scan(
      """
      struct Outer {
        @Preference var search: String?

        struct Inner {
          @Preference var depth = 2
        }
        @Preference var forced: Int!
        struct A { @Preference var list: Optional<Array<Int>>
          struct B {}
        }
        @Preference var handler: (Int) ->
          Int = { $0 }
      }
      """)
    // The function type is read across the line break whole (and is no storable type).
    #expect(
      errors(result) == [
        "Sources/App/File.swift:11:4: error: @Preference 'handler' stores (Int) -> Int: a function type cannot conform to PreferenceValue, so no store can hold it; store the data it is made from instead (a Codable struct is stored as JSON text)"
      ])
    #expect(
      result.plans.map(\.key) == [
        "Outer.search", "Outer.Inner.depth", "Outer.forced", "Outer.A.list", "Outer.handler",
      ])
    #expect(
      result.plans.map { $0.syntax.declaredType ?? "-" } == [
        "String?", "-", "Int!", "Optional<Array<Int>>", "(Int) -> Int",
      ])
  }

  /// A type's own attributes are part of it (found in the Composable Architecture's examples:
  /// `var requestAuthorization: @Sendable () async -> Status = { .notDetermined }` was read as
  /// having no type and no default); the next declaration's attribute is not.
  @Test func attributedTypesAreReadWhole() {
    let result = scan(
      """
      struct Client {
        @Preference var a: @Sendable () async -> Int = { 1 }
        @Preference var b: @MainActor (Int) -> Int = f
        @Preference var c: () -> @Sendable () -> Void = g
        @Preference var d: @convention(c) (Int32) -> Int32 = h
        @Preference var e: any P & Sendable = Impl()
        @Preference var f: sending @Sendable () -> Void = {}
        @Preference var g: Int? @Preference var h = 1
        @Preference var i: (Int) ->
          @Sendable (Int) -> Int = j
      }
      """)
    #expect(
      result.plans.map { "\($0.property): \($0.syntax.declaredType ?? "-") = \($0.defaultText ?? "-")" } == [
        "a: @Sendable () async -> Int = { 1 }", "b: @MainActor (Int) -> Int = f",
        "c: () -> @Sendable () -> Void = g", "d: @convention(c) (Int32) -> Int32 = h",
        "e: any P & Sendable = Impl()",
        "f: sending @Sendable () -> Void = {}", "g: Int? = nil", "h: - = 1",
        "i: (Int) -> @Sendable (Int) -> Int = j",
      ])
    // Each function type is read whole, so it is reported as what no store can hold (and `e` as
    // a protocol type); `h` is read as its own declaration, and is on `g`'s line.
    #expect(
      errors(result).filter { $0.contains(": a function type cannot conform to PreferenceValue") }.count == 6,
      "\(errors(result))")
    #expect(errors(result).contains { $0.contains("'e' stores any P & Sendable: a protocol type ('any P')") })
    #expect(errors(result).count == 8)
    #expect(errors(result).contains { $0.contains("'h' is on the same line as 'g'") }, "\(errors(result))")
  }

  @Test func optionalsWithoutADefaultDefaultToNilAtTheCompilersLocation() {
    let result = scan(
      """
      struct O {
        @Preference var plain: String?
        @Preference(key: "K") var keyed: Optional<Int>
        @Preference(
          renamedFrom: "old") var renamed: [String]?
        @Preference var required: Int
      }
      """)
    let found = result.plans.map { "\($0.property) \($0.line):\($0.column) \($0.defaultText ?? "-")" }
    // Without `wrappedValue:`, the compiler reports the argument list's `(` when there is one.
    #expect(found == ["plain 2:4 nil", "keyed 3:14 nil", "renamed 4:14 nil", "required 6:4 -"])
    #expect(
      errors(result) == [
        "Sources/App/File.swift:6:4: error: @Preference 'required' has no default value; add one (@Preference var required: Int = …), or declare an optional type, which defaults to nil"
      ])
  }

  @Test func invalidKeysAndArgumentsAreErrors() {
    let result = scan(
      """
      struct K {
        @Preference(key: "") var empty = 1
        @Preference(key: " padded") var spaced = 1
        @Preference(key: "-dash") var dash = 1
        @Preference(key: someConstant) var notLiteral = 1
        @Preference(colour: .red) var unknown = 1
        @Preference(format: .yaml) var format = 1
        @Preference(key: "NSWindowFrame") var reserved = 1
      }
      """)
    let messages = errors(result)
    #expect(messages.count == 6)
    #expect(messages[0].contains("invalid preference key '': a key cannot be empty"))
    #expect(messages[1].contains("cannot start or end with a space"))
    #expect(messages[2].contains("cannot start with '-'"))
    #expect(messages[3].contains("must be a plain string literal"))
    #expect(
      messages[4].contains(
        "has no argument 'colour:'; use wrappedValue:, key:, store:, movedFrom:, format:, sync:, settings:, exported:, renamedFrom:"
      ))
    #expect(messages[5].contains("format: argument of @Preference must be .propertyList or .json"))
    // An explicit key is the user's choice, a system key included: no warning.
    #expect(warnings(result).isEmpty, "\(warnings(result))")
    #expect(result.plan("NSWindowFrame") != nil)
  }

  @Test func argumentsAreRecorded() {
    let result = scan(
      #"""
      struct A {
        @Preference(store: .suite("group.example"), renamedFrom: "A.old", "A.older") var current = 1
        @Preference(key: #"legacy"key"#, format: .json) var legacy = [""]
        @Preference(wrappedValue: 5) var viaArgument: Int
      }
      """#)
    #expect(errors(result).isEmpty)
    #expect(result.plans[0].storeText == #".suite("group.example")"#)
    #expect(result.plans[0].renamedFrom == ["A.old", "A.older"])
    #expect(result.plans[1].key == #"legacy"key"#)
    #expect(result.plans[1].format == "json")
    #expect(result.plans[2].key == "A.viaArgument")
  }

  @Test func docCommentsAreRecorded() {
    let result = scan(
      """
      struct A {
        /// The user's name.
        /// Second line.
        @MainActor @Preference var name = ""
        /** Block doc. */
        @Preference
        public var other = 1
        // Not documentation.
        @Preference var plain = 1
      }
      """)
    #expect(result.plans.map(\.documentation) == ["The user's name.\nSecond line.", "Block doc.", nil])
  }

  /// A file the scanner cannot read to the end is refused, not half-registered.
  @Test(arguments: [
    "struct A {\n  @Preference var a = 1\n", "#if DEBUG\nstruct A {}\n", "}\nstruct A {}", "let s = \"open\n",
    "/* open", "struct R { let r = #/open\n }",
  ])
  func filesTheScannerCannotReadWithCertaintyAreErrors(source: String) {
    #expect(!errors(scan(source)).isEmpty, "\(source)")
  }

  @Test func configurationSetsSeparatorAndPrefix() {
    let source = "struct A { struct B { @Preference var c = 1; @Preference(key: \"Exact\") var d = 1 } }"
    let result = scan(source, configuration: ScannerConfiguration(separator: "_", prefix: "app:"))
    #expect(result.plans.map(\.key) == ["app:A_B_c", "Exact"])
  }

  @Test func configurationFilesAreValidated() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = directory.appendingPathComponent(ScannerConfiguration.fileName).path
    try Data(
      #"{"separator": ":", "prefix": "x.", "migrations": {"old": "A.new"}, "previousKeys": {"separator": "."}, "requireLock": false}"#
        .utf8
    ).write(to: URL(fileURLWithPath: file))
    let loaded = try ScannerConfiguration.load(from: file)
    #expect(loaded.separator == ":" && loaded.prefix == "x." && loaded.migrations == ["old": "A.new"])
    #expect(loaded.previousKeys?.separator == "." && loaded.previousKeys?.prefix == "" && !loaded.requireLock)
    for bad in [#"{"separator": ""}"#, #"{"sep": "_"}"#, "[1]", "{not json", #"{"migrations": ["a"]}"#] {
      try Data(bad.utf8).write(to: URL(fileURLWithPath: file))
      #expect(throws: Diagnostic.self, "\(bad)") { try ScannerConfiguration.load(from: file) }
    }
  }
}
