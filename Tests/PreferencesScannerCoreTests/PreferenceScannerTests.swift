import Foundation
import Testing

@testable import PreferencesScannerCore

@Suite struct PreferenceScannerTests {
  @Test func theMissionExample() throws {
    let result = scan("struct ContentView {\n    @Preference var username = \"Anonymous\"\n}\n")
    let preference = try #require(result.preferences.first)
    #expect(preference.key == "ContentView.username")
    #expect(preference.enclosingType == "ContentView")
    #expect(preference.type == "String")
    #expect(preference.defaultValue == "\"Anonymous\"")
    #expect((preference.line, preference.column) == (2, 6))
    #expect(preference.fileID == "App/File.swift")
    #expect(result.diagnostics.isEmpty)
  }

  @Test func nothingInsideCommentsOrStringsIsADeclaration() {
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
        @Preference var real = 8
      }
      """#
    #expect(keys(source) == ["A.real"])
  }

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
      }
      """
    let result = scan(source)
    #expect(
      result.preferences.map(\.key) == [
        "Settings.a", "Settings.b", "Settings.c", "Settings.d", "Settings.default", "HighScore",
        "Settings.afterClassVar",
      ])
    #expect(result.preferences[2].line == 4)
    #expect(result.preferences[4].property == "default")
    #expect(result.diagnostics.isEmpty)
  }

  @Test func nestedGenericAndExtendedTypes() {
    let source = """
      struct Outer {
        struct Inner<T: Equatable> where T: Sendable {
          enum Deepest {
            @Preference var property = 1
          }
        }
        actor Worker { @Preference var busy = false }
      }
      extension Outer.Middle {
        final class Leaf { @Preference var leaf = "" }
      }
      indirect enum Tree { case leaf; @Preference static var depth = 3 }
      """
    let result = scan(source)
    #expect(
      result.preferences.map(\.key) == [
        "Outer.Inner.Deepest.property", "Outer.Worker.busy", "Outer.Middle.Leaf.leaf", "Tree.depth",
      ])
    #expect(
      result.preferences[0].registrationBlocker != nil,
      "a generic enclosing type cannot be extended by the registry")
    #expect(result.preferences[1].registrationBlocker == nil)
    #expect(result.preferences[3].isStatic)
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
      result.preferences.map(\.property) == [
        "list", "map", "computed", "closure", "observed", "sum", "negative", "flag",
      ])
    #expect(result.preferences[0].defaultValue == "[\n    \"a\",\n    \"b\",\n  ]")
    #expect(result.preferences[0].type == "[String]")
    #expect(result.preferences[1].type == "[String: Int]")
    #expect(result.preferences[2].defaultValue == "makeDefault()\n    .trimmed()")
    #expect(result.preferences[3].defaultValue?.hasSuffix("}()") == true)
    #expect(result.preferences[4].defaultValue == "1")
    #expect(result.preferences[5].defaultValue == "1 +\n    2")
    #expect(result.preferences[6].type == "Int")
    #expect(result.diagnostics.isEmpty)
  }

  @Test func inferredTypesComeOnlyFromLiterals() {
    let source = """
      struct T {
        @Preference var a = "s"
        @Preference var b = 1
        @Preference var c = 1.5
        @Preference var d = false
        @Preference var e = Theme.dark
        @Preference var f: Theme = .dark
        @Preference var g = [1, 2.5]
        @Preference var h = ["k": ["x"]]
        @Preference var i = #"raw"#
        @Preference var j: String? = nil
        @Preference var k = 0x1F
        @Preference var l = 1e3
      }
      """
    #expect(
      scan(source).preferences.map(\.type) == [
        "String", "Int", "Double", "Bool", nil, "Theme", "[Double]", "[String: [String]]", "String",
        "String?", "Int", "Double",
      ])
  }

  @Test func conditionalBranchesAreNotDuplicatesAndCarryTheirCondition() {
    let source = """
      struct P {
        #if os(iOS)
        @Preference var platform = "ios"
        #elseif os(macOS)
        @Preference var platform = "mac"
        #else
        @Preference var platform = "other"
        #endif
        #if DEBUG
        @Preference var verbose = true
        #endif
      }
      """
    let result = scan(source)
    #expect(errors(result).isEmpty)
    #expect(
      result.preferences.map(\.condition) == [
        "(os(iOS))", "!(os(iOS)) && (os(macOS))", "!(os(iOS)) && !(os(macOS))", "(DEBUG)",
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

  @Test func duplicatesNameBothLocations() {
    let result = scan(
      "struct D {\n  @Preference var x = 1\n}\nextension D {\n  struct E {}\n}\nstruct F { @Preference(key: \"D.x\") var y = 2 }\n"
    )
    #expect(
      errors(result) == [
        #"Sources/App/File.swift:7:13: error: duplicate preference key 'D.x': also declared at Sources/App/File.swift:2:4; rename one property, or give one an explicit key with @Preference(key: "…")"#
      ])
    #expect(result.diagnostics.contains { $0.severity == .note && $0.line == 2 })
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
    let found = result.preferences.map { "\($0.property) \($0.line):\($0.column) \($0.defaultValue ?? "-")" }
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
        @Preference(key: "has space") var spaced = 1
        @Preference(key: "-dash") var dash = 1
        @Preference(key: someConstant) var notLiteral = 1
        @Preference(colour: .red) var unknown = 1
        @Preference(key: "NSWindowFrame") var reserved = 1
      }
      """)
    let messages = errors(result)
    #expect(messages.count == 5)
    #expect(messages[0].contains("invalid preference key '': a key cannot be empty"))
    #expect(messages[1].contains("cannot contain spaces"))
    #expect(messages[2].contains("cannot start with '-'"))
    #expect(messages[3].contains("must be a plain string literal"))
    #expect(messages[4].contains("has no argument 'colour:'"))
    #expect(
      result.diagnostics.contains { $0.severity == .warning && $0.message.contains("reserved by the system") }
    )
  }

  @Test func argumentsAreRecorded() throws {
    let result = scan(
      #"""
      struct A {
        @Preference(store: .suite("group.example"), renamedFrom: "A.old", "A.older") var current = 1
        @Preference(key: #"legacy"key"#) var legacy = ""
        @Preference(wrappedValue: 5) var viaArgument: Int
      }
      """#)
    #expect(errors(result).isEmpty)
    #expect(result.preferences[0].storeExpression == #".suite("group.example")"#)
    #expect(result.preferences[0].renamedFrom == ["A.old", "A.older"])
    #expect(result.preferences[1].key == #"legacy"key"#)
    #expect(result.preferences[2].defaultValue == "5")
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
    #expect(result.preferences.map(\.documentation) == ["The user's name.\nSecond line.", "Block doc.", nil])
  }

  @Test func configurationSetsSeparatorAndPrefix() {
    let source = "struct A { struct B { @Preference var c = 1; @Preference(key: \"Exact\") var d = 1 } }"
    let result = scan(source, configuration: ScannerConfiguration(separator: "_", prefix: "app:"))
    #expect(result.preferences.map(\.key) == ["app:A_B_c", "Exact"])
  }

  @Test func configurationFilesAreValidated() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = directory.appendingPathComponent(ScannerConfiguration.fileName).path
    try Data(#"{"separator": ":", "prefix": "x."}"#.utf8).write(to: URL(fileURLWithPath: file))
    #expect(try ScannerConfiguration.load(from: file) == ScannerConfiguration(separator: ":", prefix: "x."))
    for bad in [#"{"separator": ""}"#, #"{"sep": "_"}"#, "[1]", "{not json"] {
      try Data(bad.utf8).write(to: URL(fileURLWithPath: file))
      #expect(throws: Diagnostic.self, "\(bad)") { try ScannerConfiguration.load(from: file) }
    }
  }
}
