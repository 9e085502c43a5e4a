import Foundation
import Testing

@testable import PreferencesScannerCore

/// Checks across the module's declarations.
@Suite struct ValidationTests {
  @Test func duplicatesNameBothLocations() {
    let result = scan(
      "struct D {\n  @Preference var x = 1\n}\nextension D {\n  struct E {}\n}\nstruct F { @Preference(key: \"D.x\") var y = 2 }\n"
    )
    #expect(
      errors(result) == [
        "Sources/App/File.swift:7:13: error: preference key 'D.x' is also declared at Sources/App/File.swift:2:4 with another type, default or options; declarations that share a key (as views that read one @AppStorage key do) must agree on all of them, because the registry registers one default for the key: make them agree, or give one another key"
      ])
    #expect(result.diagnostics.contains { $0.severity == .note && $0.line == 2 })
  }

  /// Views that read one `@AppStorage` key each declare it; ported, they name the key and agree
  /// on its type, default and options, and share it. Declarations that disagree on any of them,
  /// or that both derive a key, are still errors.
  @Test func declarationsThatNameOneKeyAndAgreeShareIt() {
    let result = scan(
      """
      enum Scheme: String { case system, dark }
      struct ChatView {
        @Preference(key: "systemPrompt") var systemPrompt = ""
        @Preference(key: "colorScheme") var colorScheme: Scheme = .system
        @Preference(key: "model", settings: true) var model = "llama"
      }
      struct SettingsView {
        @Preference(key: "systemPrompt") var prompt = ""
        @Preference(key: "colorScheme") var colorScheme = Scheme.system
        @Preference(key: "model", settings: true) var model = "llama"
      }
      #if os(macOS)
      struct MacPanel {
        @Preference(key: "colorScheme") var scheme: Scheme = .system
      }
      #endif
      struct PromptPanel {
        @Preference(key: "systemPrompt") var systemPrompt = "Be brief"
        @Preference(key: "model") var model = "llama"
        @Preference(key: "ChatView.systemPrompt") var derived = 1
      }
      """)
    let messages = errors(result)
    #expect(messages.count == 2, "\(messages)")
    #expect(
      messages.contains { $0.contains("18:4: error: preference key 'systemPrompt' is also declared at") })
    #expect(messages.contains { $0.contains("19:4: error: preference key 'model' is also declared at") })
    #expect(result.plans.filter { $0.key == "systemPrompt" }.count == 3)
    var diagnostics: [Diagnostic] = []
    let settings = Exporter.settingsPlist(result.plans, diagnostics: &diagnostics)
    #expect(settings.components(separatedBy: "PSTextFieldSpecifier").count == 2, "one setting: \(settings)")
  }

  /// Two files may each have a private store spelled `Self.drafts`, which are two stores: the
  /// registry sees neither, so a key declared where one is kept is never shared.
  @Test func aKeyWhoseStoreIsPrivateToItsFileIsNotShared() {
    let declaration = """
      struct %@ {
        private static let drafts = PreferenceStore.inMemory()
        @Preference(key: "draft", store: Self.drafts) var draft = ""
      }

      """
    let result = scan([
      ("Sources/App/Compose.swift", declaration.replacingOccurrences(of: "%@", with: "Compose")),
      ("Sources/App/Reply.swift", declaration.replacingOccurrences(of: "%@", with: "Reply")),
    ])
    let messages = errors(result)
    #expect(messages.count == 1, "\(messages)")
    #expect(
      messages.first?.hasPrefix(
        "Sources/App/Reply.swift:3:4: error: preference key 'draft' is also declared at Sources/App/Compose.swift:3:4, and the store: argument 'Self.drafts' at Sources/App/Reply.swift:3:4 names what only its own file sees"
      ) == true, "\(messages)")
    // The same declarations with an internal store share the key.
    let shared = scan([
      (
        "Sources/App/Compose.swift",
        declaration.replacingOccurrences(of: "%@", with: "Compose").replacingOccurrences(
          of: "private static", with: "static"
        ).replacingOccurrences(of: "Self.drafts", with: "Compose.drafts")
      ),
      (
        "Sources/App/Reply.swift",
        "struct Reply {\n  @Preference(key: \"draft\", store: Compose.drafts) var draft = \"\"\n}\n"
      ),
    ])
    #expect(errors(shared).isEmpty, "\(errors(shared))")
  }

  /// `exported: false` is in the record (only then: every other record is unchanged), and two
  /// declarations of one key agree on it.
  @Test func exportedFalseIsRecordedAndAgreedOn() throws {
    let result = scan(
      """
      struct A {
        @Preference(key: "token", exported: false) var token = ""
        @Preference(key: "name") var name = ""
      }
      struct B {
        @Preference(key: "token") var token = ""
      }
      """)
    let messages = errors(result)
    #expect(
      messages.count == 1 && messages[0].contains("6:4: error: preference key 'token' is also declared"))
    let token = PreferenceRecord.json(try #require(result.plans.first), extras: .generator).text
    #expect(token.contains(#""isExported":false"#))
    let name = PreferenceRecord.json(try #require(result.plan("name")), extras: .generator).text
    #expect(!name.contains("isExported"))
    #expect(
      errors(scan("struct C { @Preference(exported: 0) var x = 1 }")).first?.contains(
        "the exported: argument of @Preference must be the literal true or false") == true)
  }

  /// Agreement is the text of the defaults and the options, whatever the expression: a default
  /// whose type the scanner cannot name (another module's initializer, a function call) agrees
  /// with the same text elsewhere, and a written type agrees with a default of that type.
  @Test func declarationsThatShareAKeyAgreeOnTheTextOfAnyDefault() {
    let result = scan(
      """
      struct MapView {
        @Preference(key: "windowPosition", store: .shared) var position = NSPoint(x: 0.5, y: 0.8)
        @Preference(key: "lastOpened") var lastOpened = makeDate(daysAgo: 3)
        @Preference(key: "origin") var origin: NSPoint = NSPoint(x: 0, y: 0)
        @Preference(key: "zoom") var zoom = Zoom.make(level: 2)
      }
      struct InspectorView {
        @Preference(key: "windowPosition", store: .shared) var position = NSPoint(x: 0.5, y: 0.8)
        @Preference(key: "lastOpened") var lastOpened = makeDate(daysAgo: 3)
        @Preference(key: "origin") var origin = NSPoint(x: 0, y: 0)
        @Preference(key: "zoom") var zoom = Zoom.make(level: 3)
      }
      struct Overlay {
        @Preference(key: "windowPosition") var position = NSPoint(x: 0.5, y: 0.8)
        @Preference(key: "origin") var origin: CGPoint = NSPoint(x: 0, y: 0)
      }
      """)
    let messages = errors(result)
    #expect(messages.count == 3, "\(messages)")
    #expect(messages.contains { $0.contains(":11:4: error: preference key 'zoom' is also declared at") })
    #expect(
      messages.contains { $0.contains(":14:4: error: preference key 'windowPosition' is also declared at") },
      "another store: the options differ")
    #expect(
      messages.contains { $0.contains(":15:4: error: preference key 'origin' is also declared at") },
      "two written types that differ")
  }

  @Test func declarationsInExclusiveBranchesOfNestedGroupsAreNotDuplicates() {
    let result = scan(
      """
      struct P {
        #if A
          #if B
          @Preference var x = 1
          #else
          @Preference var x = 2
          #endif
        #else
        @Preference var x = 3
        #endif
        #if C
        @Preference var x = 4
        #endif
      }
      """)
    #expect(errors(result).count == 1, "only the unconditional-looking #if C can clash")
    #expect(errors(result).first?.contains("12:4: error: duplicate preference key 'P.x'") == true)
  }

  @Test func sourceLocationsThatMakeTwoDeclarationsIndistinguishableAreErrors() {
    let result = scan(
      """
      struct Q {
      #sourceLocation(file: "Gen.gyb", line: 40)
        @Preference var a = 1
      #sourceLocation(file: "Gen.gyb", line: 40)
        @Preference var b = 2
      #sourceLocation()
      }
      """)
    #expect(errors(result).count == 1)
    #expect(errors(result).first?.contains("is reported at App/Gen.gyb:40, like the declaration at") == true)
  }

  /// The wrapper finds a declaration by its file and line (no `#column`): two on one line are an
  /// error at the second, naming the fix; one per line, or the same line in two files, is fine.
  @Test func twoDeclarationsOnOneLineAreAnErrorNamingTheFix() {
    let result = scan(
      """
      struct S {
        @Preference var a = 1; @Preference var b = 2
        @Preference var c = 3
      }
      struct T { @Preference var d = 4 }; struct U { @Preference var e = 5 }
      """)
    #expect(
      errors(result) == [
        "Sources/App/File.swift:2:27: error: @Preference 'b' is on the same line as 'a' (column 4); a preference is found by its file and line, so each needs a line of its own: move it to the next line",
        "Sources/App/File.swift:5:49: error: @Preference 'e' is on the same line as 'd' (column 13); a preference is found by its file and line, so each needs a line of its own: move it to the next line",
      ])
    let separate = PreferenceScanner(module: "App").scan(files: [
      ("Sources/App/One.swift", Array("struct V { @Preference var a = 1 }".utf8)),
      ("Sources/App/Two.swift", Array("struct W { @Preference var a = 1 }".utf8)),
    ])
    #expect(errors(separate).isEmpty)
  }

  /// `renamedFrom:` that would take a value from a live declaration, be claimed twice, or swap
  /// two values.
  @Test func renamesThatWouldMoveLiveValuesAreErrorsNamingBothDeclarations() {
    let result = scan(
      """
      struct R {
        @Preference var kept = 1
        @Preference(renamedFrom: "R.kept") var thief = 2
        @Preference(renamedFrom: "old") var first = 3
        @Preference(renamedFrom: "old") var second = 4
        @Preference(renamedFrom: "R.right") var left = 5
        @Preference(renamedFrom: "R.left") var right = 6
      }
      """)
    let messages = errors(result)
    #expect(
      messages.contains {
        $0.contains(
          "3:4: error: @Preference 'thief' is renamedFrom 'R.kept', which the declaration at Sources/App/File.swift:2:4 still uses"
        )
      })
    #expect(
      messages.contains {
        $0.contains(
          "5:4: error: @Preference 'second' and the declaration at Sources/App/File.swift:4:4 are both renamedFrom 'old'"
        )
      })
    #expect(
      messages.contains {
        $0.contains(
          "6:4: error: @Preference 'left' (R.left) and 'right' at Sources/App/File.swift:7:4 (R.right) are each renamed from the other"
        )
      })
    #expect(messages.count == 4, "\(messages)")
  }

  @Test func syncedKeysAreCheckedAgainstTheRemoteStoresLimits() {
    let long = String(repeating: "k", count: 65)
    let result = scan("struct S { @Preference(key: \"\(long)\", sync: true) var a = 1 }")
    #expect(errors(result).first?.contains("is 65 bytes; iCloud's key-value store allows 64") == true)
  }
}

/// Tuples and functions, which no type conformance can make storable.
@Suite struct UnstorableShapeTests {
  let tuple =
    "a tuple cannot conform to PreferenceValue, so no store can hold it; store a Codable struct that holds its values instead (stored as JSON text)"
  let function =
    "a function type cannot conform to PreferenceValue, so no store can hold it; store the data it is made from instead (a Codable struct is stored as JSON text)"

  @Test func aTupleOrAFunctionAnywhereInTheTypeIsAnErrorThatNamesTheFix() {
    let result = scan(
      """
      struct P {
        @Preference var origin: (Int, Int) = (0, 0)
        @Preference var size: (width: Double, height: [String: Int])? = nil
        @Preference var pairs: [(String, Int)] = []
        @Preference var nothing: () = ()
        @Preference var action: @Sendable () -> Void = {}
        @Preference var handlers: [String: (Int) -> Int] = [:]
        @Preference var point = (x: 1, y: [1, 2])
        @Preference var make = { 1 }
      }
      """)
    #expect(
      errors(result) == [
        "Sources/App/File.swift:2:4: error: @Preference 'origin' stores (Int, Int): \(tuple)",
        "Sources/App/File.swift:3:4: error: @Preference 'size' stores (width: Double, height: [String: Int])?: \(tuple)",
        "Sources/App/File.swift:4:4: error: @Preference 'pairs' stores [(String, Int)]: \(tuple)",
        "Sources/App/File.swift:5:4: error: @Preference 'nothing' stores (): \(tuple)",
        "Sources/App/File.swift:6:4: error: @Preference 'action' stores @Sendable () -> Void: \(function)",
        "Sources/App/File.swift:7:4: error: @Preference 'handlers' stores [String: (Int) -> Int]: \(function)",
        "Sources/App/File.swift:8:4: error: @Preference 'point' defaults to (x: 1, y: [1, 2]): \(tuple)",
        "Sources/App/File.swift:9:4: error: @Preference 'make' defaults to { 1 }: \(function)",
      ])
  }

  /// The same through the module's type aliases, which the compiler reported without naming the
  /// fix (found porting Spectre: `typealias Before = (() -> Void)`, `var befores = [Before]()`).
  /// An alias of a storable type is fine.
  @Test func aTupleOrAFunctionThroughATypeAliasIsTheSameError() {
    let result = scan(
      """
      typealias Pair = (Int, Int)
      struct Context {
        typealias Before = (() -> Void)
        typealias Befores = [Before]
        typealias Names = [String]
        @Preference var befores = [Before]()
        @Preference var all: Befores = []
        @Preference var pairs: [String: Pair] = [:]
        @Preference var names: Names = []
      }
      """)
    #expect(
      errors(result) == [
        "Sources/App/File.swift:6:4: error: @Preference 'befores' stores [Before]: \(function)",
        "Sources/App/File.swift:7:4: error: @Preference 'all' stores Befores: \(function)",
        "Sources/App/File.swift:8:4: error: @Preference 'pairs' stores [String: Pair]: \(tuple)",
      ])
  }

  @Test func aProtocolTypeIsAnErrorThatNamesTheFix() {
    let result = scan(
      """
      protocol Mixin {}
      struct Impl: Mixin {}
      struct P {
        @Preference var mixins: [String: Mixin] = [:]
        @Preference var one: any Mixin = Impl()
        @Preference var anything: (any Codable)? = nil
        @Preference var kind: Kind = .a
        @Preference var boxed: Box<Mixin> = Box()
        @Preference var boxedAny: Box<any Mixin>? = nil
        @Preference var nested: [Array<Optional<Mixin>>] = []
        enum Kind: String { case a }
      }
      struct Box<T>: Codable, PreferenceValue {}
      """)
    let fix =
      "cannot conform to PreferenceValue, so no store can hold it; store a concrete type instead: an enum with a case for each kind (stored as its raw value), or a Codable struct (stored as JSON text)"
    #expect(
      errors(result) == [
        "Sources/App/File.swift:4:4: error: @Preference 'mixins' stores [String: Mixin]: a protocol type ('Mixin') \(fix)",
        "Sources/App/File.swift:5:4: error: @Preference 'one' stores any Mixin: a protocol type ('any Mixin') \(fix)",
        "Sources/App/File.swift:6:4: error: @Preference 'anything' stores (any Codable)?: a protocol type ('any Codable') \(fix)",
        "Sources/App/File.swift:10:4: error: @Preference 'nested' stores [Array<Optional<Mixin>>]: a protocol type ('Mixin') \(fix)",
      ])
  }

  /// A module type or type alias named `Preference` at file scope (iina's settings keys are
  /// `struct Preference`) collides with the wrapper the registry declares: one error, at the
  /// type. A nested one hides the wrapper only where it is in scope: an error at each declaration
  /// there, none elsewhere.
  @Test func aTypeNamedPreferenceIsAnErrorThatNamesTheFix() {
    let clash = scan(
      """
      struct Preference {
        struct Key { static let volume = "volume" }
      }
      struct Player { @Preference var volume = 0.5 }
      struct Queue { @Preference var length = 1 }
      """)
    #expect(
      errors(clash) == [
        "Sources/App/File.swift:1:1: error: struct 'Preference' has the name of the @Preference property wrapper, which the build plugin declares for this module, so the two collide; rename the struct (for example to 'AppPreference')"
      ])

    let alias = scan([
      ("Sources/App/Alias.swift", "typealias Preference = UserDefaults\n"),
      ("Sources/App/File.swift", "struct Player {\n  @Preference var volume = 0.5\n}\n"),
    ])
    #expect(
      errors(alias) == [
        "Sources/App/File.swift:2:4: error: type alias 'Preference' (in Sources/App/Alias.swift) has the name of the @Preference property wrapper, which the build plugin declares for this module, so the two collide; rename the type alias (for example to 'AppPreference')"
      ])

    let nested = scan(
      """
      enum Settings {
        enum Preference: String { case volume }
        struct Audio { @Preference var volume = 0.5 }
      }
      struct Elsewhere { @Preference var length = 1 }
      struct Preferences { @Preference var shown = true }
      """)
    #expect(
      errors(nested) == [
        "Sources/App/File.swift:3:19: error: @Preference 'volume' names the type 'Settings.Preference' (Sources/App/File.swift:2), not the property wrapper: a nested type of that name hides the wrapper here; rename the type (for example to 'Settings.AppPreference')"
      ])
    #expect(nested.plans.count == 3)
  }

  /// A `key:` that names a constant, as ported `@AppStorage` declarations do (VirtualBuddy's
  /// `@AppStorage(kSelectedTabKey)`, IceCubes' `@AppStorage(ThemeKey.tint.rawValue)`), is an
  /// error that says which literal to write where syntax shows it, in any file of the module.
  @Test func aKeyThatNamesAConstantIsAnErrorThatSaysWhichLiteralToWrite() {
    let result = scan([
      (
        "Sources/App/Keys.swift",
        """
        let kSelectedTabKey = "SettingsScreen.selectedTab"
        enum ThemeKey: String { case tint, accent = "theme.accent" }
        enum Count: Int { case one }
        struct Keys {
          static let username = "user_name"
          static var mutable = "m"
        }
        """
      ),
      (
        "Sources/App/File.swift",
        """
        struct Settings {
          @Preference(key: kSelectedTabKey) var tab = 0
          @Preference(key: ThemeKey.tint.rawValue) var tint = "blue"
          @Preference(key: ThemeKey.accent.rawValue) var accent = "red"
          @Preference(key: Keys.username) var name = ""
          @Preference(key: Keys.mutable) var other = ""
          @Preference(key: Count.one.rawValue) var count = 1
          @Preference(key: "a" + "b") var sum = 1
          static let local = "local.key"
          @Preference(key: Self.local) var local = 2
        }
        """
      ),
    ])
    let write =
      "the key: argument of @Preference must be a string literal, which the build plugin reads from source; write key:"
    let unread =
      "the key: argument of @Preference must be a plain string literal, such as key: \"HighScore\"; the build plugin reads it from source, and cannot read the value of"
    #expect(
      errors(result) == [
        "Sources/App/File.swift:2:4: error: \(write) \"SettingsScreen.selectedTab\", the value of 'kSelectedTabKey'",
        "Sources/App/File.swift:3:4: error: \(write) \"tint\", the value of 'ThemeKey.tint.rawValue'",
        "Sources/App/File.swift:4:4: error: \(write) \"theme.accent\", the value of 'ThemeKey.accent.rawValue'",
        "Sources/App/File.swift:5:4: error: \(write) \"user_name\", the value of 'Keys.username'",
        "Sources/App/File.swift:6:4: error: \(unread) 'Keys.mutable'",
        "Sources/App/File.swift:7:4: error: \(unread) 'Count.one.rawValue'",
        "Sources/App/File.swift:8:4: error: the key: argument of @Preference must be a plain string literal, such as key: \"HighScore\"",
        "Sources/App/File.swift:10:4: error: \(write) \"local.key\", the value of 'Self.local'",
      ])
  }

  /// A generic type's preference has one key for every specialization: a value whose type
  /// depends on a generic parameter (SwiftSoup's `OrderedSet<T>` holding `[T]`) would be
  /// overwritten by another specialization's, each reading the other's as a mismatch. An error
  /// that names the parameter and the key; a type that does not depend on it is fine.
  @Test func aValueThatDependsOnAGenericParameterIsAnError() {
    let result = scan(
      """
      struct Holder<T: PreferenceValue> {
        @Preference var value: T? = nil
        @Preference var count = 0
        @Preference var other: Other.T = .init()
        struct Inner {
          @Preference var nested: [String: T] = [:]
        }
      }
      enum Other { struct T: Codable, Sendable {} }
      struct Plain { @Preference var list: [T] = [] }
      """)
    let dependent = { (property: String, type: String, key: String, line: Int, column: Int) in
      "Sources/App/File.swift:\(line):\(column): error: @Preference '\(property)' stores \(type), which depends on the generic parameter 'T' of 'Holder', but every 'Holder<…>' stores it under the one key '\(key)', so two specializations would overwrite each other's values; store a type that does not depend on 'T', or declare the preference in a type that is not generic"
    }
    #expect(
      errors(result) == [
        dependent("value", "T?", "Holder.value", 2, 4),
        dependent("nested", "[String: T]", "Holder.Inner.nested", 6, 6),
      ])
  }

  /// The same through the generic type's own type aliases, which the compiler reported and
  /// the scanner did not (found porting XMLCoder's `KeyedStorage<Key, Value>`, whose `keyMap =
  /// KeyMap()` stores `[Key: [Int]]`, and FlyingFox's actor nested in `AsyncBufferingSequence<
  /// Base>`, whose `[Element]` is `[Base.Element]`). An alias that names no parameter is fine.
  @Test func aValueThatDependsOnAGenericParameterThroughATypeAliasIsAnError() {
    let result = scan(
      """
      struct Storage<Key: Hashable, Base: Sequence> {
        typealias KeyMap = [Key: [Int]]
        typealias Element = Base.Element
        typealias Elements = [Element]
        typealias Counts = [String: Int]
        @Preference var keyMap = KeyMap()
        @Preference var counts: Counts = [:]
        @Preference var elements: Elements = []
      }
      extension Storage {
        final class Buffer {
          @Preference var buffer: [Element] = []
        }
      }
      struct Other { typealias KeyMap = [String: Int] }
      struct Plain { @Preference var map = Other.KeyMap() }
      """)
    let dependent = {
      (property: String, type: String, parameter: String, alias: String, key: String, line: Int, column: Int)
      in
      "Sources/App/File.swift:\(line):\(column): error: @Preference '\(property)' \(type.hasSuffix(")") ? "defaults to" : "stores") \(type), which depends on the generic parameter '\(parameter)' of 'Storage' (through its type alias '\(alias)'), but every 'Storage<…>' stores it under the one key '\(key)', so two specializations would overwrite each other's values; store a type that does not depend on '\(parameter)', or declare the preference in a type that is not generic"
    }
    #expect(
      errors(result) == [
        dependent("keyMap", "KeyMap()", "Key", "KeyMap", "Storage.keyMap", 6, 4),
        dependent("elements", "Elements", "Base", "Elements", "Storage.elements", 8, 4),
        dependent("buffer", "[Element]", "Base", "Element", "Storage.Buffer.buffer", 12, 6),
      ])
  }

  /// `@Observable` would store a preference a second time (the compiler says "invalid
  /// redeclaration of synthesized property '_sidebar'" in the macro's expansion): an error that
  /// names `@ObservationIgnored`, wherever that is written. Static preferences, other classes and
  /// ignored ones are left alone.
  @Test func aPreferenceInAnObservableClassNeedsObservationIgnored() {
    let result = scan(
      """
      import Observation
      @Observable final class Model {
        @Preference var sidebar = true
        @ObservationIgnored @Preference var width = 240.0
        @Preference @ObservationIgnored var height = 100.0
        @Preference static var shared = 1
        var other = 1
      }
      final class Plain { @Preference var x = 1 }
      @MainActor @Observable class Isolated {
        @Preference(key: "y") var y = 2
      }
      """)
    #expect(
      errors(result) == [
        "Sources/App/File.swift:3:4: error: @Preference 'sidebar' is in an @Observable class, whose macro would store it a second time; add @ObservationIgnored before @Preference (reads of a preference are tracked by Observation already, so views that read it still update)",
        "Sources/App/File.swift:11:4: error: @Preference 'y' is in an @Observable class, whose macro would store it a second time; add @ObservationIgnored before @Preference (reads of a preference are tracked by Observation already, so views that read it still update)",
      ])
  }

  /// The registry's own name and the library type the generated `Preference` names: a module
  /// type of either name is one error at it, with or without preferences (the registry is
  /// generated either way). Every other library name the generated code uses goes through
  /// `_Preferences` (the integration package's ScannerStress target declares them all).
  @Test func aTypeNamedAfterTheGeneratedRegistryIsAnErrorThatNamesTheFix() {
    let registry = scan(
      """
      final class PreferenceRegistry {}
      struct Player { @Preference var volume = 0.5 }
      """)
    #expect(
      errors(registry) == [
        "Sources/App/File.swift:1:1: error: class 'PreferenceRegistry' has the name of the registry of every @Preference, which the build plugin declares for this module, so the two collide; rename the class (for example to 'AppPreferenceRegistry')"
      ])

    let noPreferences = scan([
      ("Sources/App/Types.swift", "import Foundation\n\nenum DerivedPreference {}\n"),
      ("Sources/App/Alias.swift", "typealias PreferenceRegistry = [String: Any]\n"),
    ])
    #expect(
      errors(noPreferences) == [
        "Sources/App/Alias.swift:1:1: error: type alias 'PreferenceRegistry' has the name of the registry of every @Preference, which the build plugin declares for this module, so the two collide; rename the type alias (for example to 'AppPreferenceRegistry')",
        "Sources/App/Types.swift:3:1: error: enum 'DerivedPreference' has the name of the library type that the build plugin's @Preference stands for, so the two collide; rename the enum (for example to 'AppDerivedPreference')",
      ])

    let nested = scan(
      "enum Settings { struct PreferenceRegistry {} ; @Preference static var volume = 0.5 }\n")
    #expect(errors(nested).isEmpty)
  }

  /// A protocol of the standard library or Foundation written bare (`[CodingKey]`, found porting
  /// swift-argument-parser, and `Error?`) is a protocol type too; a module type of that name in
  /// scope (a nested `enum Error`) or an alias is a concrete type, left alone.
  @Test func aStandardProtocolTypeIsAnErrorThatNamesTheFix() {
    let result = scan(
      """
      struct Decoder1 {
        @Preference var codingPath: [CodingKey] = []
        @Preference var lastError: Error? = nil
        @Preference var failures: [String: Swift.Error] = [:]
        @Preference var payload: Encodable? = nil
        @Preference var label: CustomStringConvertible? = nil
      }
      struct Sync {
        enum Error: String { case offline }
        typealias Decoder = Int
        @Preference var lastError: Error? = nil
        @Preference var decoder: Decoder = 1
        @Preference var errors: [Error] = []
      }
      """)
    let fix =
      "cannot conform to PreferenceValue, so no store can hold it; store a concrete type instead: an enum with a case for each kind (stored as its raw value), or a Codable struct (stored as JSON text)"
    #expect(
      errors(result) == [
        "Sources/App/File.swift:2:4: error: @Preference 'codingPath' stores [CodingKey]: a protocol type ('CodingKey') \(fix)",
        "Sources/App/File.swift:3:4: error: @Preference 'lastError' stores Error?: a protocol type ('Error') \(fix)",
        "Sources/App/File.swift:4:4: error: @Preference 'failures' stores [String: Swift.Error]: a protocol type ('Swift.Error') \(fix)",
        "Sources/App/File.swift:5:4: error: @Preference 'payload' stores Encodable?: a protocol type ('Encodable') \(fix)",
        "Sources/App/File.swift:6:4: error: @Preference 'label' stores CustomStringConvertible?: a protocol type ('CustomStringConvertible') \(fix)",
      ])
    #expect(result.conformances.map(\.typeName) == ["Sync.Error"])
  }

  /// A metatype (`any Filter.Type`, `Screen.Type`) is a type, not a value: the fix stores which
  /// type it is. One inside another generic type's arguments is left to the compiler.
  @Test func aMetatypeIsAnErrorThatNamesTheFix() {
    let result = scan(
      """
      protocol Filter {}
      struct Screen {}
      struct S {
        @Preference var filter: (any Filter.Type)? = nil
        @Preference var screens: [Screen.Type] = []
        @Preference var exact: Filter.Protocol = Filter.self
        @Preference var nested: any Outer.Inner = Impl()
        @Preference var boxed: Box<Screen.Type> = Box()
        @Preference var typed: TypeName = .init()
      }
      struct Box<T>: Codable, PreferenceValue {}
      """)
    let fix =
      "cannot conform to PreferenceValue, so no store can hold it; store which type it is instead: an enum with a case for each (stored as its raw value), mapped to the type where you read it"
    #expect(
      errors(result) == [
        "Sources/App/File.swift:4:4: error: @Preference 'filter' stores (any Filter.Type)?: a metatype ('any Filter.Type') \(fix)",
        "Sources/App/File.swift:5:4: error: @Preference 'screens' stores [Screen.Type]: a metatype ('Screen.Type') \(fix)",
        "Sources/App/File.swift:6:4: error: @Preference 'exact' stores Filter.Protocol: a metatype ('Filter.Protocol') \(fix)",
        "Sources/App/File.swift:7:4: error: @Preference 'nested' stores any Outer.Inner: a protocol type ('any Outer.Inner') cannot conform to PreferenceValue, so no store can hold it; store a concrete type instead: an enum with a case for each kind (stored as its raw value), or a Codable struct (stored as JSON text)",
      ])
  }

  /// Swift 6.3 rejects a property wrapper in a `nonisolated` struct or class that is `Sendable`
  /// ("'nonisolated' cannot be applied to mutable stored properties", at the property, whatever
  /// the module's default isolation; the Swift 5 language mode warns, so the scanner, which
  /// cannot see the mode, warns too, naming the fix the compiler does not). Compiled in a target
  /// of each default isolation, the compiler rejects the first four types below and `Unknown`,
  /// and accepts the others. A struct that is not public is `Sendable` without saying so when its
  /// stored properties are (a preference's storage is); where syntax does not show a property's
  /// type (`Unknown`), that is left to the compiler.
  @Test func aPreferenceInANonisolatedSendableTypeIsWarnedOfWithTheFix() {
    let result = scan(
      """
      nonisolated struct Declared: @unchecked Sendable {
        @Preference var a = 1
      }
      nonisolated final class Shared: Sendable {
        @Preference var a = 1
      }
      package nonisolated struct Inferred {
        @Preference package var a = 1
        var count = 0
        let names: [String] = []
      }
      enum Outer {
        nonisolated struct Nested: Hashable {
          @Preference var a = 1
          static let shared = Nested()
        }
      }
      extension Outer.Nested: Sendable {}
      public nonisolated struct Public {
        @Preference public var a = 1
      }
      nonisolated final class Reader {
        @Preference var a = 1
      }
      struct Isolated: Sendable {
        @Preference var a = 1
      }
      nonisolated struct HoldsAClass {
        @Preference var a = 1
        var box = Box()
      }
      nonisolated struct Unknown {
        @Preference var a = 1
        var value = make()
      }
      nonisolated final class Box {}
      nonisolated func make() -> Int { 0 }
      """)
    let structFix =
      "and Swift 6 rejects a property wrapper there ('nonisolated' cannot be applied to mutable stored properties; the Swift 5 language mode warns); remove 'nonisolated' from"
    let classFix =
      "and Swift 6 rejects a property wrapper there ('nonisolated' cannot be applied to mutable stored properties; the Swift 5 language mode warns); remove 'Sendable' from 'Shared', and create an instance where you read them (every instance reads the same stored values)"
    let readers =
      "(its preferences then take the module's default isolation), or, for preferences read off the main actor, declare them in a 'nonisolated final class' that is not Sendable"
    #expect(errors(result).isEmpty)
    #expect(
      warnings(result) == [
        "Sources/App/File.swift:2:4: warning: @Preference 'a' is declared in 'Declared', a nonisolated struct that is declared Sendable, \(structFix) 'Declared' \(readers)",
        "Sources/App/File.swift:5:4: warning: @Preference 'a' is declared in 'Shared', a nonisolated class that is declared Sendable, \(classFix)",
        "Sources/App/File.swift:8:4: warning: @Preference 'a' is declared in 'Inferred', a nonisolated struct that is Sendable without saying so (a struct that is not public, of Sendable properties), \(structFix) 'Inferred' \(readers)",
        "Sources/App/File.swift:14:6: warning: @Preference 'a' is declared in 'Outer.Nested', a nonisolated struct that is declared Sendable, \(structFix) 'Outer.Nested' \(readers)",
      ])
  }

  /// What `UserDefaults.dictionary(forKey:)` returns, which a port meets first.
  @Test func anyIsAnErrorThatNamesPropertyListValue() {
    let result = scan(
      """
      struct S {
        @Preference var options: [String: Any] = [:]
        @Preference var items: [AnyObject]? = nil
        @Preference var plist: [String: PropertyListValue] = [:]
        @Preference var boxed: Box<Any> = Box()
        @Preference var seen: Set<AnyHashable> = []
        @Preference var last: AnyHashable? = nil
        @Preference var named: Box<AnyHashable> = Box()
      }
      struct Box<T>: Codable, PreferenceValue {}
      """)
    let fix =
      "cannot conform to PreferenceValue, so no store can hold it; store a Codable struct instead (stored as JSON text), or PropertyListValue for a value whose shape you handle yourself ([String: PropertyListValue] for a dictionary of any property-list values)"
    #expect(
      errors(result) == [
        "Sources/App/File.swift:2:4: error: @Preference 'options' stores [String: Any]: 'Any' \(fix)",
        "Sources/App/File.swift:3:4: error: @Preference 'items' stores [AnyObject]?: 'AnyObject' \(fix)",
        "Sources/App/File.swift:6:4: error: @Preference 'seen' stores Set<AnyHashable>: 'AnyHashable' \(fix)",
        "Sources/App/File.swift:7:4: error: @Preference 'last' stores AnyHashable?: 'AnyHashable' \(fix)",
      ])
  }

  /// A composition with `AnyObject`, and an opaque type of the module's protocol: what no store
  /// can hold, said with the fix.
  @Test func compositionsAndOpaqueTypesAreNamed() {
    let result = scan(
      """
      protocol Mixin {}
      struct S {
        @Preference var delegate: (AnyObject & Kit.Delegate)? = nil
        @Preference var mixin: some Mixin = Impl()
      }
      """)
    #expect(errors(result).count == 2, "\(errors(result))")
    #expect(errors(result).first?.contains("'AnyObject' cannot conform to PreferenceValue") == true)
    #expect(errors(result).last?.contains("a protocol type ('Mixin')") == true)
  }

  /// Swift 6.2's fixed-size arrays are not `Codable`: the compiler's error ("requires that '[3 of
  /// Int]' conform to 'PreferenceValue'") named no fix.
  @Test func anInlineArrayIsAnErrorThatNamesArray() {
    let result = scan(
      """
      struct S {
        @Preference var grid: [3 of Int] = [1, 2, 3]
        @Preference var rows: [[2 of Double]] = []
        @Preference var spelled: Swift.InlineArray<2, Bool>? = nil
        @Preference var boxed: Box<[3 of Int]> = Box()
        @Preference var of: [Int] = []
      }
      struct Box<T>: Codable, PreferenceValue {}
      """)
    let fix =
      "cannot conform to PreferenceValue, so no store can hold it; store an Array instead, and check its count where you read it"
    #expect(
      errors(result) == [
        "Sources/App/File.swift:2:4: error: @Preference 'grid' stores [3 of Int]: a fixed-size inline array ('[3 of Int]') \(fix)",
        "Sources/App/File.swift:3:4: error: @Preference 'rows' stores [[2 of Double]]: a fixed-size inline array ('[2 of Double]') \(fix)",
        "Sources/App/File.swift:4:4: error: @Preference 'spelled' stores Swift.InlineArray<2, Bool>?: a fixed-size inline array ('InlineArray') \(fix)",
      ])
  }

  @Test func parenthesesThatHoldOneTypeOrACallAreNotATuple() {
    let result = scan(
      """
      struct Q {
        @Preference var wrapped: (Dictionary<String, Int>) = [:]
        @Preference var optional: Optional<(Int)> = nil
        @Preference var larger = max(1, 2)
        @Preference var grouped = (1)
        @Preference var called = { 1 }()
        @Preference var generic: [String: Dictionary<String, Int>] = [:]
      }
      """)
    #expect(errors(result) == [])
    #expect(result.plans.count == 6)
  }
}

/// A type whose `Codable` conformance the compiler would synthesize from its stored properties, a
/// preference's wrapper among them.
@Suite struct SynthesizedCodingTests {
  @Test func aPreferenceInAStructWithSynthesizedCodingIsAnErrorThatNamesTheFix() {
    let result = scan(
      """
      protocol Model: Codable {}
      struct A: Codable { @Preference var a = 1 }
      struct B: Encodable { var x = 1
        @Preference var b = 1 }
      struct D: Model { @Preference var d = 1 }
      extension G: Codable {}
      struct G { @Preference var g = 1 }
      final class K: Codable { @Preference var k = 1 }
      class L: NSObject, Model { @Preference var l = 1 }
      """)
    func message(_ property: String, _ type: String, _ coding: String, _ kind: String = "struct") -> String {
      "@Preference '\(property)' is declared in '\(type)', whose synthesized \(coding) conformance cannot include a preference (its value is kept in a store, not in the \(kind)); declare the preference in a type that is not \(coding), or give '\(type)' a CodingKeys enum that lists only its other properties"
    }
    #expect(
      errors(result) == [
        "Sources/App/File.swift:2:22: error: \(message("a", "A", "Codable"))",
        "Sources/App/File.swift:4:4: error: \(message("b", "B", "Encodable"))",
        "Sources/App/File.swift:5:20: error: \(message("d", "D", "Codable"))",
        "Sources/App/File.swift:7:13: error: \(message("g", "G", "Codable"))",
        "Sources/App/File.swift:8:27: error: \(message("k", "K", "Codable", "instance"))",
        "Sources/App/File.swift:9:29: error: \(message("l", "L", "Codable", "instance"))",
      ])
  }

  /// What the compiler accepts (checked with `swiftc`): coding keys that leave the preference out,
  /// written coding, and a subclass of a `Codable` class (which inherits its coding).
  @Test func writtenCodingOrCodingKeysAreAccepted() {
    let result = scan(
      """
      struct C: Codable { @Preference var c = 1; var x = 1
        enum CodingKeys: CodingKey { case x } }
      struct E: Decodable { @Preference var e = 1
        init(from decoder: Decoder) throws {} }
      struct F: Encodable { @Preference var f = 1
        func encode(to encoder: Encoder) throws {} }
      class Base: Codable { var x = 1 }
      final class H: Base { @Preference var h = 1 }
      final class J: Codable { @Preference var j = 1
        required init(from decoder: Decoder) throws {}
        func encode(to encoder: Encoder) throws {} }
      @MainActor struct I: Codable { var name = ""
        @Preference static var launches = 0 }
      """)
    #expect(errors(result) == [])
    #expect(result.plans.count == 6)
  }
}

/// Dictionaries keyed by what cannot be stored as text, and the empty collections defaults name.
@Suite struct DictionaryKeyTests {
  static let fix =
    "but a stored dictionary is keyed by text (as property lists are): String, a number, Bool, Character, UUID, or your enum with a String, number or Character raw value; key it by one of those (a String for a URL, its absoluteString), or store a Codable type that holds it (stored as JSON text)"

  @Test func aDictionaryKeyedByWhatHasNoTextIsAnErrorThatNamesTheFix() {
    let result = scan(
      """
      struct Tag: Hashable {}
      final class Node: Hashable {}
      struct F {
        @Preference var byURL: [URL: String] = [:]
        @Preference var byTag = [Tag: [Tag: Int]]()
        @Preference var byNode: [Node: Bool]? = nil
        @Preference var nested: [String: [Data: Int]] = [:]
        @Preference var spelled = Dictionary<Date, [String]>()
      }
      """)
    #expect(
      errors(result) == [
        "Sources/App/File.swift:4:4: error: @Preference 'byURL' stores [URL: String], a dictionary keyed by URL, \(Self.fix)",
        "Sources/App/File.swift:5:4: error: @Preference 'byTag' stores [Tag: [Tag: Int]], a dictionary keyed by 'Tag', which does not conform to PreferenceDictionaryKey (a stored dictionary is keyed by text, as property lists are), and the registry cannot add the conformance: it is neither an enum with a String, number or Character raw value, nor RawRepresentable with its rawValue's type written, nor LosslessStringConvertible, so it has no text to be stored as; key the dictionary by its raw value or another text, or add 'extension Tag: PreferenceDictionaryKey {}' in the file that declares it and implement it",
        "Sources/App/File.swift:6:4: error: @Preference 'byNode' stores [Node: Bool]?, a dictionary keyed by 'Node', which does not conform to PreferenceDictionaryKey (a stored dictionary is keyed by text, as property lists are), and the registry cannot add the conformance: 'Node' is a class; make it a final class that is Sendable, and add 'extension Node: PreferenceDictionaryKey {}' in the file that declares it",
        "Sources/App/File.swift:7:4: error: @Preference 'nested' stores [String: [Data: Int]], a dictionary keyed by Data, \(Self.fix)",
        "Sources/App/File.swift:8:4: error: @Preference 'spelled' stores Dictionary<Date, [String]>, a dictionary keyed by Date, \(Self.fix)",
      ])
    #expect(result.conformances.isEmpty)
  }

  /// Keys a stored dictionary holds as their text: the standard keys, directly or through an
  /// alias, and the module's raw-value enums, `RawRepresentable` structs and
  /// `LosslessStringConvertible` types, whose `PreferenceDictionaryKey` conformance the registry
  /// writes (in one extension with `PreferenceValue` for a type that is also stored).
  @Test func aDictionaryKeyedByTextualKeysIsAccepted() {
    let result = scan(
      """
      typealias Identifier = Int
      struct Level: Hashable, LosslessStringConvertible {
        var value: Int
        init?(_ description: String) { guard let value = Int(description) else { return nil }; self.value = value }
        var description: String { String(value) }
      }
      enum Side: String { case left, right }
      enum Feature: Int, PreferenceDictionaryKey { case sync }
      struct Tag: RawRepresentable, Hashable { var rawValue: String }
      struct F {
        @Preference var byNumber: [Int: String] = [1: "one"]
        @Preference var byID: [Identifier: Bool] = [:]
        @Preference var byFlag: [Bool: [UInt64: Double]] = [:]
        @Preference var byLetter = Dictionary<Character, Int>()
        @Preference var byAccount: [UUID: String] = [:]
        @Preference var byLevel: [Level: String] = [:]
        @Preference var bySide: [Side: Side] = [.left: .right]
        @Preference var byFeature: [Feature: Bool] = [:]
        @Preference var byTag: [String: [Tag: Int]] = [:]
      }
      """)
    #expect(errors(result) == [], "\(errors(result))")
    #expect(result.plans.count == 9)
    #expect(result.conformances.map(\.typeName) == ["Level", "Side", "Tag"])
    #expect(result.conformances.map(\.keyStorage) == [.description, .rawValue, .rawRepresentable])
    #expect(result.conformances.map(\.storage) == [nil, .rawValue, nil])
    let text = RegistryRenderer.conformances(result.conformances)
    #expect(
      text.contains(
        "extension Side: @unchecked Sendable, _Preferences.Value, _Preferences.DictionaryKey {}  // stored as its raw value; a dictionary key as its raw value\n"
      ), "\(text)")
    #expect(
      text.contains(
        "extension Level: @unchecked Sendable, _Preferences.DictionaryKey {}  // a dictionary key as its description. Not conforming?"
      ), "\(text)")
  }

  @Test func aDictionaryKeyedByAGenericParameterIsAnError() {
    let result = scan(
      """
      struct Index<T: Hashable> {
        @Preference var positions: [T: Int] = [:]
        struct Page { @Preference var marks = Dictionary<T, [String]>() }
      }
      """)
    #expect(
      errors(result) == [
        "Sources/App/File.swift:2:4: error: @Preference 'positions' stores [T: Int], a dictionary keyed by T, \(Self.fix)",
        "Sources/App/File.swift:3:18: error: @Preference 'marks' stores Dictionary<T, [String]>, a dictionary keyed by T, \(Self.fix)",
      ])
  }

  @Test func aDictionaryKeyedThroughATypeAliasIsCheckedAsWhatTheAliasStandsFor() {
    let result = scan(
      """
      typealias Identifier = URL
      typealias Name = String
      struct Tag: Hashable {}
      struct F {
        typealias TagKey = Tag
        typealias Alias = Identifier
        @Preference var byID: [Identifier: String] = [:]
        @Preference var byTag: [TagKey: Int] = [:]
        @Preference var byAlias: [F.Alias: Int] = [:]
        @Preference var byName: [Name: Int] = [:]
      }
      """)
    #expect(
      errors(result).map {
        $0.components(separatedBy: ", but").first?.components(separatedBy: ", which").first ?? ""
      }
        == [
          "Sources/App/File.swift:7:4: error: @Preference 'byID' stores [Identifier: String], a dictionary keyed by Identifier",
          "Sources/App/File.swift:8:4: error: @Preference 'byTag' stores [TagKey: Int], a dictionary keyed by 'Tag'",
          "Sources/App/File.swift:9:4: error: @Preference 'byAlias' stores [F.Alias: Int], a dictionary keyed by F.Alias",
        ])
  }

  @Test func stringKeysAndNamesThatMayAliasStringAreAccepted() {
    let result = scan(
      """
      typealias Name = String
      struct G {
        @Preference var a: [String: Int] = [:]
        @Preference var b: [Name: Int] = [:]
        @Preference var c: [Swift.String: [String: Bool]] = [:]
        @Preference var d = Dictionary<String, Int>()
        @Preference var e: [Foreign.Key: Int] = [:]
        @Preference var f: [[String: Int]] = []
      }
      """)
    #expect(errors(result) == [])
    #expect(result.plans.count == 6)
  }

  @Test func anEmptyCollectionOfAWrittenTypeTypesTheDeclaration() {
    let result = scan(
      """
      enum Side: String { case left }
      struct H {
        @Preference var names = [String]()
        @Preference var counts = [String: Int]()
        @Preference var sides = Set<Side>()
        @Preference var table = Dictionary<String, [Int]>(), next = 1
      }
      """)
    #expect(result.plan("H.names")?.valueType == "[String]")
    #expect(result.plan("H.counts")?.valueType == "[String: Int]")
    #expect(result.plan("H.sides")?.valueType == "Set<Side>")
    #expect(result.plan("H.table")?.valueType == "Dictionary<String, [Int]>")
    // The comma inside the generic arguments is not the one between two properties.
    #expect(
      errors(result) == [
        "Sources/App/File.swift:6:54: error: @Preference applies to one property; declare 'table' and the next property separately"
      ])
  }

  @Test func anArgumentThatNamesAGenericTypeIsOneArgument() {
    let result = scan(
      """
      enum Box<A, B> { static let store = PreferenceStore.standard }
      struct K {
        @Preference(store: Box<Int, Int>.store) var x = 1
        @Preference(store: Box<Int, [String: Int]>.store, sync: true) var y = 2
      }
      """)
    #expect(errors(result) == [])
    #expect(result.plan("K.x")?.syntax.arguments.store?.text == "Box<Int, Int>.store")
    #expect(result.plan("K.y")?.syntax.arguments.store?.text == "Box<Int, [String: Int]>.store")
    #expect(result.plan("K.y")?.syntax.arguments.syncs == true)
  }

  @Test func aComparisonIsNotTakenForGenericArguments() {
    let result = scan(
      """
      struct J {
        static let a = 1, b = 2
        @Preference var flag = a < b, other = 3
        @Preference var tight = Self.a<Self.b
      }
      """)
    #expect(errors(result).count == 1)
    #expect(errors(result).first?.contains("3:31: error: @Preference applies to one property") == true)
    #expect(result.plan("J.tight")?.syntax.defaultValue?.text == "Self.a<Self.b")
  }
}
