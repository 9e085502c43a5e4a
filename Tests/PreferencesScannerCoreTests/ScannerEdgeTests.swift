import Testing

@testable import PreferencesScannerCore

/// Declarations written in shapes real code uses and the other suites do not: what each one
/// means is what the compiler takes it to mean.
@Suite struct DeclarationShapeTests {
  /// An actor with an inheritance clause is a type: its preferences are keyed by its name,
  /// nested or at file scope.
  @Test func anActorWithAnInheritanceClauseDeclaresItsPreferences() {
    let source = """
      struct Outer {
        actor Worker: Sendable { @Preference var busy = false }
      }
      actor Store: Identifiable {
        @Preference var level = 1
      }
      """
    #expect(keys(source) == ["Outer.Worker.busy", "Store.level"])
  }

  /// An extension of a type nested two or more levels deep names the whole path.
  @Test func anExtensionOfADeeplyNestedTypeKeysByItsWholePath() {
    let source = """
      extension Outer.Middle.Inner {
        struct Leaf { @Preference var leaf = "" }
      }
      extension A.B.C.D {
        @Preference static var depth = 4
      }
      """
    #expect(keys(source) == ["Outer.Middle.Inner.Leaf.leaf", "A.B.C.D.depth"])
  }

  /// A type's `@available` is kept however many attributes and modifiers follow it, so that the
  /// generated extension of the type repeats it.
  @Test func aTypesAvailabilityIsKeptBeforeManyAttributesAndModifiers() throws {
    let result = scan(
      """
      @available(macOS 14, iOS 17, *)
      @MainActor
      @objcMembers
      public final class Settings: NSObject {
        @Preference var stamp = Date()
      }
      """)
    let plan = try #require(result.plan("Settings.stamp"))
    #expect(plan.availability.attributes == ["@available(macOS 14, iOS 17, *)"])
    let table = RegistryRenderer.fileTable(for: result.files[0], plans: result.plans)
    #expect(table.contains("@available(macOS 14, iOS 17, *)\nextension Settings {"), "\(table)")
  }

  /// `private(set)` restricts the setter only: the declaration keeps the access written beside
  /// it, and a public one makes the registry public (which a public preference needs to compile).
  @Test func privateSetDoesNotChangeAPreferencesAccess() throws {
    let result = scan(
      """
      public struct S {
        @Preference public private(set) var shown = 1
        @Preference private(set) var hidden = 2
        @Preference fileprivate(set) public var both = 3
      }
      """)
    #expect(result.plans.map(\.syntax.access) == [.public, nil, .public])
    #expect(
      RegistryRenderer.IndexAccess(result.plans, preferencesImport: .init([])) == .public)
  }

  /// A key written as a raw string with an interpolation is not a literal the scanner can read:
  /// it is an error, not a key holding the interpolation's text.
  @Test func aRawStringKeyWithAnInterpolationIsRefused() {
    let result = scan(
      ##"""
      struct S {
        @Preference(key: #"user.\#(name)"#) var count = 1
      }
      """##)
    #expect(result.plans.allSatisfy { $0.key != ##"user.\#(name)"## })
    #expect(
      errors(result).contains {
        $0.contains("the key: argument of @Preference must be a plain string literal")
      },
      "\(errors(result))")
  }

  /// A line comment inside an interpolation of a multi-line string ends at the line's end: a quote
  /// or parenthesis in it opens nothing.
  @Test func aCommentInAnInterpolationHidesItsQuotesAndParentheses() {
    let result = scan(
      #"""
      struct A {
        let m = """
          \(panel // the 12" panel (the default
          )
          """
        @Preference var real = 8
      }
      """#)
    #expect(result.plans.map(\.key) == ["A.real"])
    #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
  }

  /// `////` is a plain comment, not documentation.
  @Test func fourSlashesAreNotADocComment() {
    let result = scan(
      """
      struct A {
        //// The old name, kept for reference.
        @Preference var name = ""
      }
      """)
    #expect(result.plans.map(\.documentation) == [nil])
  }

  /// A ternary default whose line ends with `:` goes on to the next line.
  @Test func aDefaultGoesOnAfterAColonThatEndsItsLine() throws {
    let result = scan(
      """
      struct S {
        static let compact = true
        @Preference var columns = Self.compact ? 2 :
          3
      }
      """)
    let plan = try #require(result.plan("S.columns"))
    #expect(
      (plan.defaultText ?? "").split(whereSeparator: \.isWhitespace).joined(separator: " ")
        == "Self.compact ? 2 : 3")
    #expect(errors(result).isEmpty, "\(errors(result))")
  }

  /// An octal literal default is encoded with its value.
  @Test func anOctalDefaultIsEncodedWithItsValue() {
    let result = scan("struct S {\n  @Preference var mode = 0o17\n  @Preference var mask = 0b101\n}\n")
    func literal(_ key: String) -> PlistLiteral? {
      if case .literal(let value)? = result.plan(key)?.registration { return value }
      return nil
    }
    #expect(literal("S.mode") == .integer(15))
    #expect(literal("S.mask") == .integer(5))
  }

  /// A type declared in a function cannot be named by the generated registry: its default is
  /// kept by the declaration, and no extension of it is generated.
  @Test func aTypeInAFunctionKeepsItsDefault() throws {
    let result = scan(
      """
      struct Host {
        func run() {
          struct Local { @Preference var made = Date() }
        }
      }
      """)
    let plan = try #require(result.plans.first)
    #expect(plan.how.hasPrefix("firstRead"), "\(plan.how)")
    #expect(plan.how.contains("inside a function"), "\(plan.how)")
    let table = RegistryRenderer.fileTable(for: result.files[0], plans: result.plans)
    #expect(!table.contains("extension Local"), "\(table)")
  }
}

/// Generated code that names what input declares compiles, whatever the names.
@Suite struct GeneratedNameTests {
  /// A nested type named `` `Type` `` is written in backticks: `Outer.Type` is a metatype.
  @Test func aNestedTypeNamedTypeIsBackticked() {
    let result = scan("enum Outer {\n  enum `Type` {\n    @Preference var made = Date()\n  }\n}\n")
    #expect(result.plans.map(\.key) == ["Outer.Type.made"])
    let table = RegistryRenderer.fileTable(for: result.files[0], plans: result.plans)
    #expect(table.contains("extension Outer.`Type` {"), "\(table)")
  }

  /// An instance and a static preference of one name get functions of different names.
  @Test func instanceAndStaticPreferencesOfOneNameGetTheirOwnFunctions() {
    let result = scan(
      """
      struct S {
        @Preference(key: "instanceCount") var count = Counters.compute()
        @Preference(key: "typeCount") static var count = Counters.compute()
      }
      """,
      lock: "instanceCount: Int\ntypeCount: Int\n")
    #expect(errors(result).isEmpty, "\(errors(result))")
    let table = RegistryRenderer.fileTable(
      for: result.files[0], plans: result.plans, locks: result.lockedTypes)
    #expect(table.contains("static func _preferenceDefault_count() ->"), "\(table)")
    #expect(table.contains("static func _preferenceDefault_count_static() ->"), "\(table)")
    #expect(table.contains("static func _preferenceLock_count_check()"), "\(table)")
    #expect(table.contains("static func _preferenceLock_count_static_check()"), "\(table)")
  }

  /// Distinct file names give distinct table functions, even where one spells the other's
  /// escape (`_u2d_` is how `-` is written).
  @Test func tableNamesOfDistinctFilesDiffer() {
    #expect(
      RegistryRenderer.tableName(forFileID: "App/a_u2d_b.swift")
        != RegistryRenderer.tableName(forFileID: "App/a-b.swift"))
    #expect(RegistryRenderer.tableName(forFileID: "App/Settings_View.swift") == "_Preferences_Settings__View")
  }

  /// A file name with a DEL character, which a Swift string literal cannot hold as it is, is
  /// written escaped.
  @Test func aDeleteCharacterInAFileNameIsEscaped() {
    let result = scan("struct S { @Preference var a = 1 }\n", file: "Sources/App/Odd\u{7F}.swift")
    let table = RegistryRenderer.fileTable(for: result.files[0], plans: result.plans)
    #expect(!table.utf8.contains(0x7F))
    #expect(table.contains(#""App/Odd\u{7f}.swift""#), "\(table)")
  }
}

/// Lock checks are generated where generated code can form the key path, and only there.
@Suite struct LockCheckPlacementTests {
  /// A private preference cannot be named from the generated file: no key path to it is written.
  @Test func aPrivatePreferenceGetsNoKeyPathCheck() {
    let result = scan(
      "struct S {\n  @Preference private var count = Counters.compute()\n}\n", lock: "S.count: Int\n")
    let table = RegistryRenderer.fileTable(
      for: result.files[0], plans: result.plans, locks: result.lockedTypes)
    #expect(!table.contains(#"\S.count"#), "\(table)")
  }

  /// A main-actor type's preference is checked: the check runs on the main actor.
  @Test func aMainActorTypesPreferenceIsChecked() {
    let result = scan(
      "@MainActor struct S {\n  @Preference var count = Counters.compute()\n}\n", lock: "S.count: Int\n")
    let table = RegistryRenderer.fileTable(
      for: result.files[0], plans: result.plans, locks: result.lockedTypes)
    #expect(table.contains("_preferenceLock_count(\\S.count)"), "\(table)")
  }
}

/// Keys the stores cannot hold, and declarations of one key that disagree, are errors.
@Suite struct KeyRuleTests {
  /// A key that ends with a space is refused, like one that starts with one.
  @Test func aKeyEndingWithASpaceIsRefused() {
    let result = scan("struct S { @Preference(key: \"Theme \") var theme = 1 }")
    #expect(
      errors(result).contains { $0.contains("a key cannot start or end with a space") }, "\(errors(result))")
  }

  /// A key may be 1,024 bytes long and no longer.
  @Test func aKeyIsAtMost1024Bytes() {
    let fits = String(repeating: "k", count: 1024)
    let long = fits + "k"
    #expect(errors(scan("struct S { @Preference(key: \"\(fits)\") var a = 1 }")).isEmpty)
    #expect(
      errors(scan("struct S { @Preference(key: \"\(long)\") var a = 1 }")).contains {
        $0.contains("a key cannot be longer than 1,024 bytes")
      })
  }

  /// Two declarations that share a key must agree on `sync:`: the key is synced or it is not.
  @Test func declarationsOfOneKeyMustAgreeOnSync() {
    let result = scan(
      """
      struct A { @Preference(key: "Shared") var a = 1 }
      struct B { @Preference(key: "Shared", sync: true) var b = 1 }
      """)
    #expect(
      errors(result).contains { $0.contains("preference key 'Shared' is also declared at") },
      "\(errors(result))")
  }
}
