import Testing

@testable import PreferencesScannerCore

/// The analysis stage: how each default reaches the store, decided by what the module index can
/// prove about the names it uses.
@Suite struct PlannerTests {
  func how(_ source: String) -> [String: String] {
    Dictionary(uniqueKeysWithValues: scan(source).plans.map { ($0.key, $0.how) })
  }

  @Test func literalsOfStandardTypesAreEncodedByTheScanner() throws {
    let result = scan(
      """
      struct T {
        @Preference var a = "s"
        @Preference var b = 1_000
        @Preference var c = -1.5
        @Preference var d = false
        @Preference var e: Double = 2
        @Preference var f = ["x": [1, 2]]
        @Preference var g: Float = 0x10
        @Preference var h: String? = nil
        @Preference var i = "interpolated \\(1)"
      }
      """)
    func literal(_ key: String) -> PlistLiteral? {
      if case .literal(let value)? = result.plan(key)?.registration { return value }
      return nil
    }
    #expect(literal("T.a") == .string("s"))
    #expect(literal("T.b") == .integer(1000))
    #expect(literal("T.c") == .double(-1.5))
    #expect(literal("T.d") == .bool(false))
    #expect(literal("T.e") == .double(2))
    #expect(literal("T.f") == .dictionary(["x": .array([.integer(1), .integer(2)])]))
    #expect(literal("T.g") == .double(16))
    #expect(result.plan("T.h")?.how == "none")
    #expect(result.plan("T.i")?.how == "registry", "an interpolation is evaluated, not encoded")
    #expect(literal("T.a")?.json.text == #"{"string":"s"}"#)
  }

  /// Enum cases and standard values need no actor; the module's other members follow the
  /// module's default isolation (main-actor isolated where Xcode 26 makes that the default, which
  /// generated code asks at run time), unless declared `nonisolated`; what may inherit an
  /// isolation the scanner cannot see (another module's protocol or superclass, or name) needs
  /// the main actor.
  @Test func isolationDecidesWhereADefaultIsEvaluated() {
    let found = how(
      """
      import Foundation
      enum Theme: String { case light, dark }
      struct Screen {
        static let columns = 3
        nonisolated static let rows = 2
        @Preference var a: Theme = .dark
        @Preference var b = Theme.light
        @Preference var c = Date(timeIntervalSince1970: 0)
        @Preference var d = URL(string: "https://example.com")!
        @Preference var e = Self.columns
        @Preference var f = Screen.rows
        @Preference var g = Layout(columns: 2)
        @Preference var h = makeDefault()
        @Preference var i = Theme(rawValue: "dark")!
        @Preference var j = ContentView.spacing
        @Preference var k = Model.shared
        @Preference var l = UIFont.systemFontSize
        @Preference var m = Codec.version
        @Preference var n = CGSize(width: 800, height: 600)
        @Preference var o = Decimal(string: "2.5")!
        @Preference var p = TimeZone(identifier: "GMT")!
      }
      struct Layout { var columns: Int }
      func makeDefault() -> Int { 1 }
      struct ContentView: View { static let spacing = 8.0 }
      @MainActor final class Model { static let shared = 1 }
      struct Codec: Codable, Hashable { static let version = 2 }
      """)
    #expect(found["Screen.a"] == "registry")
    #expect(found["Screen.b"] == "registry")
    #expect(found["Screen.c"] == "registry")
    #expect(found["Screen.d"] == "registry")
    #expect(found["Screen.e"] == "defaultIsolation")
    #expect(found["Screen.f"] == "registry")
    #expect(found["Screen.g"] == "defaultIsolation")
    #expect(found["Screen.h"] == "defaultIsolation")
    #expect(found["Screen.i"] == "defaultIsolation")
    #expect(found["Screen.j"] == "mainActor", "View may make it main-actor isolated")
    #expect(found["Screen.k"] == "mainActor")
    #expect(found["Screen.l"] == "mainActor", "another module's name")
    #expect(found["Screen.m"] == "defaultIsolation", "Codable and Hashable add no isolation")
    #expect(found["Screen.n"] == "registry")
    #expect(found["Screen.o"] == "registry")
    #expect(found["Screen.p"] == "registry")
  }

  /// A module type named with generic arguments is the same type: creating one, or reading its
  /// member, follows its isolation (Swinject's `ThreadSafeDictionary<ServiceKey, …>()` was
  /// evaluated off the main actor in a target whose default isolation is `MainActor`).
  @Test func genericArgumentsDoNotHideAType() {
    let found = how(
      """
      final class Box<K: Hashable, V> {
        init() {}
        static let empty = 0
      }
      nonisolated struct Free<T> { init() {} }
      struct Key: Hashable {}
      struct Screen {
        @Preference var a = Box<Key, [Int?]>()
        @Preference var b = Box<Int, Box<Int, Int>>.empty
        @Preference var c = Free<Int>()
        @Preference var d = Array<Int>()
      }
      """)
    #expect(found["Screen.a"] == "defaultIsolation")
    #expect(found["Screen.b"] == "defaultIsolation")
    #expect(found["Screen.c"] == "registry")
    #expect(found["Screen.d"] == "registry")
  }

  /// Which attributes name a global actor is decided from the module's declarations: a
  /// `@globalActor` type of any name is one; a type the module declares otherwise is not, even
  /// one named like an actor; an undeclared `…Actor` (another module's) is assumed to be one.
  @Test func globalActorsAreTheOnesTheModuleDeclares() {
    let found = how(
      """
      @globalActor actor Storage { static let shared = Storage() }
      @propertyWrapper struct LoggingActor<T> { var wrappedValue: T }
      @Storage enum Cache { static let size = 3 }
      enum Plain { @LoggingActor static var count = 1 }
      @DatabaseActor enum Remote { static let limit = 2 }
      struct Screen {
        @Preference var a = Cache.size
        @Preference var b = Plain.count
        @Preference var c = Remote.limit
      }
      """)
    #expect(found["Screen.a"] == "firstRead: 'Cache.size' is isolated to @Storage")
    #expect(found["Screen.b"] == "defaultIsolation", "a property wrapper named like an actor is not one")
    #expect(found["Screen.c"] == "firstRead: 'Remote.limit' is isolated to @DatabaseActor")
  }

  @Test func whatGeneratedCodeCannotReachIsRegisteredAtFirstRead() {
    let found = how(
      """
      struct Screen {
        private static let hidden = 5
        fileprivate static func make() -> Int { 1 }
        @Preference var a = Self.hidden
        @Preference var b = Screen.make()
        @Preference var c = helper()
        @Preference var d = Limits.maximum
        @Preference var e = Worker.shared
        private enum Mode: String { case a, b }
        @Preference var mode: Mode = .a
      }
      private func helper() -> Int { 9 }
      private enum Limits { static let maximum = 3 }
      @DatabaseActor enum Worker { static let shared = 4 }
      struct Box<Element> {
        static var base: Int { 1 }
        @Preference var literal = "box"
        @Preference var computed = Self.base
      }
      """)
    #expect(found["Screen.a"] == "firstRead: 'Self.hidden' is private to its file")
    #expect(found["Screen.b"] == "firstRead: 'Screen.make' is private to its file")
    #expect(found["Screen.c"] == "firstRead: 'helper' is private to its file")
    #expect(found["Screen.d"] == "firstRead: 'Limits' is private to its file")
    #expect(found["Screen.e"] == "firstRead: 'Worker.shared' is isolated to @DatabaseActor")
    #expect(found["Screen.mode"] == "firstRead: 'Screen.Mode' is private to its file")
    #expect(found["Box.literal"] == "literal", "a literal needs no extension of the generic type")
    #expect(found["Box.computed"] == "firstRead: 'Box' is generic")
  }

  /// Type aliases and types of a `private extension` are private to the file (found in Ink:
  /// `@Preference private var rows = [Row]()` with `private extension Table { typealias Row = … }`
  /// put `[Row]()` in generated code, which did not compile).
  @Test func privateTypeAliasesAndTypesOfPrivateExtensionsAreRegisteredAtFirstRead() {
    let found = how(
      """
      struct Table {
        @Preference var rows = [Row]()
        @Preference var cells = [Table.Cell]()
        @Preference var kinds: [Kind] = []
        @Preference var aliased = Alias()
        @Preference var shared = [Shared]()
        @Preference var first = Self.First.value
      }
      private extension Table {
        typealias Row = [String]
        typealias Cell = String
        enum Kind: String { case a }
      }
      extension Table {
        fileprivate typealias Alias = Table.Kind
        typealias Shared = Int
        typealias First = Defaults
      }
      enum Defaults { static let value = [1] }
      """)
    #expect(found["Table.rows"] == "firstRead: 'Row' is private to its file")
    #expect(found["Table.cells"] == "firstRead: 'Table.Cell' is private to its file")
    #expect(found["Table.kinds"] == "firstRead: 'Table.Kind' is private to its file")
    #expect(found["Table.aliased"] == "firstRead: 'Alias' is private to its file")
    #expect(found["Table.shared"] == "registry")
    #expect(found["Table.first"] == "registry")
  }

  /// The registry cannot write a conformance for a type of a `private extension` either.
  @Test func aTypeOfAPrivateExtensionGetsNoWrittenConformance() {
    let result = scan(
      """
      struct Table { @Preference var kind: Kind = .a }
      private extension Table { enum Kind: String { case a } }
      """)
    #expect(result.conformances.isEmpty)
    #expect(errors(result).count == 1)
    #expect(
      errors(result).first?.contains("'Table.Kind' is private to its file") == true, "\(errors(result))")
  }

  /// A name that resolves only from where the declaration sits (a member of an enclosing type)
  /// is written qualified, so generated code in an extension of the declaring type resolves it
  /// the same way.
  @Test func namesOfEnclosingTypesAreQualified() throws {
    let result = scan(
      """
      struct Player {
        static let limit = 5
        struct Queue {
          static let defaultLength = 10
          @Preference var length = Queue.defaultLength
          @Preference var cap: Config = Config(limit: limit)
          @Preference var inClosure = { Queue.defaultLength }()
        }
      }
      extension Player { struct Config { var limit: Int } }
      """)
    func evaluation(_ key: String) -> String? {
      switch result.plan(key)?.registration {
      case .registry(let evaluation)?, .mainActor(let evaluation)?, .defaultIsolation(let evaluation)?:
        return [evaluation.type, evaluation.expression].compactMap { $0 }.joined(separator: " = ")
      default: return nil
      }
    }
    #expect(evaluation("Player.Queue.length") == "Player.Queue.defaultLength")
    #expect(evaluation("Player.Queue.cap") == "Player.Config = Player.Config(limit: Player.limit)")
    #expect(result.plan("Player.Queue.inClosure")?.how.hasPrefix("firstRead") == true)
  }

  /// Forms of real apps' defaults where the scanner once guessed wrong and the generated code did
  /// not compile: a cast of one branch of a ternary, a static function returning a nested type,
  /// a nested type alias, the module's own name, a `.member` of the declared type that the main
  /// actor isolates while another enum has a case of that name.
  @Test func typesAndIsolationAreNamedAsTheCompilerNamesThem() {
    let result = scan(
      """
      import Foundation
      enum Density: String { case compact, standard }
      enum Mode: String {
        case light, dark
        @MainActor static var standard: Mode { .light }
      }
      enum Theme: String { case light, dark }
      struct Library {
        enum Sort: String { case name, date }
        typealias Columns = [String]
        typealias Handler = () -> Void
        static func defaultSort() -> Sort { .date }
        static let defaultColumns: Columns = ["title"]
      }
      struct Tint: Codable, Sendable { @MainActor static let accent = Tint() }
      struct Outer {
        struct Tint: Codable, Sendable { static let accent = Tint() }
        @Preference var tint = App.Tint.accent
      }
      struct S {
        @Preference var fallbackTheme = Theme(rawValue: "x") as Theme? ?? .light
        @Preference var fontSize = ProcessInfo.processInfo.isMacCatalystApp ? 13 as Double : 17
        @Preference var small = ProcessInfo.processInfo.isMacCatalystApp ? 13 : 17 as Double
        @Preference var sort = Library.defaultSort()
        @Preference var columns = Library.defaultColumns
        @Preference var theme = App.Theme.dark
        @Preference var written: App.Theme = .light
        @Preference var mode: Mode = .standard
        @Preference var density: Density = .standard
        @Preference var since: Date = .distantPast
        @Preference var none: Theme? = .none
        @Preference var size = Int64(0)
        @Preference var scale = Double(1)
        @Preference var amount = Decimal(1)
        @Preference var separator = Character(",")
        @Preference var empty = Int()
        @Preference var parsed = Int("42")
        @Preference var flag = Bool("true")
      }
      """)
    #expect(errors(result).isEmpty, "\(errors(result))")
    func type(_ key: String) -> String? { result.plan(key)?.valueType }
    #expect(type("S.fontSize") == nil, "'13 as Double : 17' is no type; the compiler infers it")
    #expect(type("S.small") == "Double")
    #expect(type("S.sort") == "Library.Sort")
    #expect(type("S.columns") == "[String]")
    #expect(type("S.theme") == "App.Theme")
    // A literal argument picks an initializer that cannot fail; text can fail to convert.
    #expect(
      ["size", "scale", "amount", "separator", "empty", "parsed", "flag"].map { type("S.\($0)") } == [
        "Int64", "Double", "Decimal", "Character", "Int", nil, nil,
      ])
    #expect(
      result.conformances.map(\.typeName).sorted() == ["Density", "Library.Sort", "Mode", "Theme", "Tint"],
      "\(result.conformances.map(\.typeName))")
    func how(_ key: String) -> String? { result.plan(key)?.how.components(separatedBy: ":").first }
    #expect(how("S.mode") == "mainActor", "'Mode.standard' is isolated to the main actor")
    #expect(how("S.density") == "registry")
    #expect(how("S.theme") == "registry", "'App.Theme.dark' is a case, as 'Theme.dark' is")
    #expect(how("S.written") == "registry")
    #expect(how("S.since") == "registry")
    #expect(how("S.none") == "registry")
    #expect(how("Outer.tint") == "mainActor", "'App.Tint' is the module's top-level 'Tint', not 'Outer.Tint'")
    #expect(type("Outer.tint") == "App.Tint")
    // A member the module adds to a standard type may be isolated: the main actor, to be safe.
    let extended = scan(
      """
      import Foundation
      extension Date { @MainActor static var appEpoch: Date { .distantPast } }
      struct S { @Preference var epoch: Date = .appEpoch }
      """)
    #expect(extended.plan("S.epoch")?.how == "mainActor")
    #expect(type("S.fallbackTheme").map { !$0.contains("??") } ?? true, "\(type("S.fallbackTheme") ?? "nil")")
  }

  /// A store expression is evaluated where its names allow: anywhere, in the module's default
  /// isolation (a plain `static let`, which Xcode 26's default makes main-actor isolated), or on
  /// the main actor; only what generated code cannot reach is an error.
  @Test func storesAreEvaluatedWhereTheirNamesAllow() {
    let result = scan(
      """
      struct Screen {
        private static let group = PreferenceStore.suite("g")
        static let shared = PreferenceStore.inMemory()
        nonisolated static let free = PreferenceStore.inMemory()
        @Preference(store: Self.group) var a = 1
        @Preference(store: Self.shared) var b = 1
        @Preference(store: Self.free) var c = 1
        @Preference(store: .suite("group.example")) var d = 1
        @Preference(store: Stores.main) var e = 1
        @Preference(store: .suite("new"), movedFrom: Self.shared) var f = 1
      }
      @MainActor enum Stores { static let main = PreferenceStore.inMemory() }
      """)
    let messages = errors(result)
    #expect(messages.count == 1, "\(messages)")
    #expect(
      messages.first?.contains(
        "10:4: error: the movedFrom: argument of @Preference 'f' reads 'Self.shared', which may be isolated to the main actor"
      ) == true)
    // A private store is evaluated by the declaration, which sees it.
    #expect(result.plan("Screen.a")?.storeKeptByDeclaration == true)
    #expect(result.plan("Screen.b")?.storeKeptByDeclaration == false)
    #expect(result.plan("Screen.b")?.storeIsolation == .defaultIsolation)
    #expect(result.plan("Screen.c")?.storeIsolation == .nonisolated)
    #expect(result.plan("Screen.d")?.storeIsolation == .nonisolated)
    #expect(result.plan("Screen.e")?.storeIsolation == .mainActor)
    let generated = PreferenceScanner.renderAll(result, module: "App")
    #expect(
      generated.contains(
        "case 1: return _Preferences.IsolatedStore(followsDefaultIsolation: true) { Screen._preference_store_b() }"
      ))
    #expect(
      generated.contains("@MainActor fileprivate static func _preference_store_b() -> _Preferences.Store {"))
  }

  /// A `store:` that names what only the declaring file sees (a private static, a member of a
  /// `fileprivate extension`, a file-private global, a private type's static) is evaluated by the
  /// declaration: no generated store code, the record says so, and the registry names the line.
  /// A declaration that would share such a preference is refused; `movedFrom:` still must be
  /// reachable.
  @Test func aPrivateStoreIsKeptByItsDeclaration() throws {
    let result = scan([
      (
        "Sources/App/Screen.swift",
        """
        struct Screen {
          private static let uiTests = PreferenceStore.inMemory()
          @Preference(store: Self.uiTests) var a = 1
          @Preference(store: .local) var b = "x"
          @Preference(store: fileStore) var c = 2.5
          @Preference(store: Hidden.store) var d = false
        }
        fileprivate extension PreferenceStore { static let local = PreferenceStore.suite("local") }
        private let fileStore = PreferenceStore.inMemory()
        private enum Hidden { static let store = PreferenceStore.inMemory() }
        """
      ),
      (
        "Sources/App/View.swift",
        """
        struct View {
          @Preference(\\Screen.a) var a
        }
        """
      ),
    ])
    let messages = errors(result)
    #expect(messages.count == 1, "\(messages)")
    #expect(
      messages.first?.contains(
        "View.swift:2:14: error: @Preference 'a' shares 'Screen.a', whose store: argument 'Self.uiTests' names what only its own file sees"
      ) == true, "\(messages)")
    for key in ["Screen.a", "Screen.b", "Screen.c", "Screen.d"] {
      #expect(result.plan(key)?.storeKeptByDeclaration == true, "\(key)")
      #expect(result.plan(key)?.store == nil)
    }
    let generated = PreferenceScanner.renderAll(result, module: "App")
    #expect(
      generated.contains(
        "static func _keepsStore(line: UInt) -> Bool {\n    switch line {\n    case 3, 4, 5, 6: return true"))
    #expect(generated.contains(#""storeKeptByDeclaration":true"#))
    #expect(generated.contains("default: wrappedValue, store: store())"))
    #expect(!generated.contains("_preference_store_a"))
  }

  @Test func valueTypesAreInferredWhereTheyAreUnambiguous() {
    let result = scan(
      """
      import Foundation
      enum StatusAction: String, PreferenceValue { case favorite, boost }
      struct Counters { static let defaultText = 42; static let named: String = "x" }
      struct Layout: Codable, PreferenceValue { var columns = 1; init?(text: String) { nil } ; init() {} }
      struct S {
        @Preference var a = StatusAction.favorite
        @Preference var b = Counters.defaultText
        @Preference var c = Counters.named
        @Preference var d = Date()
        @Preference var e = URL(string: "x")!
        @Preference var f = URL(string: "x")
        @Preference var g = Layout()
        @Preference var h = makeSomething()
        @Preference var i = URL(fileURLWithPath: "/tmp")
        @Preference var j = URL(filePath: "/tmp")
        @Preference var k = UUID()
        @Preference var l = UUID(uuidString: "x")
        @Preference var m = URL(fileURLWithPath: "/tmp", isDirectory: true)
        @Preference var n = StatusAction(rawValue: "boost")
        @Preference var o = StatusAction(rawValue: "boost")!
        @Preference var p = Outer.Inner()
        @Preference var q = Outer.Mode(rawValue: "x")
        @Preference var r = Outer.Mode(rawValue: "x")!
        @Preference var s = Outer.Inner.init()
        @Preference var t = Outer.make()!
        @Preference var u = Outer.Inner.standard
        @Preference var v = Outer.Inner.written
        @Preference var w = Outer.Mode.fallback
        @Preference var x = Outer.Mode.again
        @Preference var y = Outer.Mode.parsed
        @Preference var z = Outer.Inner.loop
        @Preference var list = [StatusAction.favorite, .boost]
        @Preference var named = ["main": Outer.Inner(), "side": Outer.Inner.standard]
        @Preference var every = Tone.allCases
        @Preference var mixed = [StatusAction.favorite, Outer.Mode.x]
        @Preference var implicit: [StatusAction] = [.favorite]
        @Preference var unknown = [StatusAction.favorite, makeSomething()]
        @Preference var largest = max(1, 2)
        @Preference var set = Set([1, 2])
        @Preference var wrapped = Optional(StatusAction.boost)
        @Preference var home = NSHomeDirectory()
        @Preference var cast = makeSomething() as Outer.Inner
        @Preference var coalesced = StatusAction(rawValue: "x") ?? .boost
        @Preference var coalescedUnknown = makeSomething() ?? .boost
        @Preference var none = StatusAction?.none
        @Preference var global = defaultAction
        @Preference var globalWritten = writtenAction
        @Preference var allInner = Outer.Inner.all
        @Preference var chained = makeSomething()?.none
        @Preference var selfTyped = Outer.Inner.current
        @Preference var selfCalled = Outer.Inner.empty
      }
      let defaultAction = StatusAction.boost
      let writtenAction: StatusAction? = nil
      enum Tone: String, CaseIterable { case warm, cool }
      struct Outer {
        struct Inner: Codable {
          static let standard = Inner()
          static let written: Inner = .init()
          static let loop = Inner.loop
          static let all = [Inner(), Inner.standard]
          static var current: Self { .init() }
          static let empty = Self()
        }
        enum Mode: String {
          case x
          static let fallback = Mode.x
          static let again = Self.fallback
          static let parsed = Mode(rawValue: "x")
        }
        static func make() -> Inner? { nil }
      }
      """)
    // An enum's `init(rawValue:)` is failable, so its value is an optional. `Layout()` calls its
    // type's non-failable initializer, but which one a call picks is the compiler's to say: where
    // a type declares a failable one, the type is left unknown.
    #expect(
      result.plans.map(\.valueType) == [
        "StatusAction", "Int", "String", "Date", "URL", nil, nil, nil, "URL", "URL", "UUID", nil, "URL",
        "StatusAction?", "StatusAction", "Outer.Inner", "Outer.Mode?", "Outer.Mode", "Outer.Inner", nil,
        // Static properties: written or inferred from their initial value where they are declared,
        // and named as the module names them (`Inner` inside `Outer` is `Outer.Inner`); a
        // property defined by itself stays unknown.
        "Outer.Inner", "Outer.Inner", "Outer.Mode", "Outer.Mode", "Outer.Mode?", nil,
        // Collection literals of one inferred element type, `allCases`; calls of generic types
        // and functions are not typed by their names.
        "[StatusAction]", "[String: Outer.Inner]", "[Tone]", nil, "[StatusAction]", nil, nil, nil, nil,
        "String",
        // `as T`, `a ?? b` (the type `a` unwraps to), `T?.none`, a file-scope constant.
        "Outer.Inner", "StatusAction", nil, "StatusAction?", "StatusAction", "StatusAction?",
        // A static collection, its element type named as the module names it.
        "[Outer.Inner]", nil,
        // A static property of type `Self`, or initialized by `Self(…)`: the type declaring it.
        "Outer.Inner", "Outer.Inner",
      ])
  }

  /// Arithmetic on number literals alone has the type Swift gives it with no other context, so
  /// `@Preference var interval = 60 * 5` is locked as `Int` without a written type (`%` of a
  /// `Double`, names, calls and other operators stay unknown: the lock asks for a written type).
  @Test func arithmeticOnNumberLiteralsIsTyped() {
    let result = scan(
      """
      struct S {
        @Preference var interval = 60 * 5
        @Preference var ratio = 1.0 / 3
        @Preference var signed = -(2 + 3) * -4
        @Preference var hex = 0x10 + 1_000
        @Preference var exponent = 2 * 1e3
        @Preference var parenthesized = (5)
        @Preference var remainder = 7 % 2.5
        @Preference var named = 2 * limit
        @Preference var call = 2 * abs(-3)
        @Preference var shifted = 1 << 4
      }
      """)
    #expect(
      result.plans.map(\.valueType) == ["Int", "Double", "Int", "Int", "Double", "Int", nil, nil, nil, nil])
    // Registered by the generated code, which evaluates the expression.
    #expect(result.plans.prefix(6).allSatisfy { if case .registry = $0.registration { true } else { false } })
  }

  /// Statics whose initial values are collections of other statics fan out: following three
  /// levels of 30 would take 27,000 steps. Inferring one default's type takes a bounded number,
  /// beyond which the type is left unknown (the compiler still knows it).
  @Test func inferringATypeTakesBoundedWork() {
    func level(_ name: String, of next: String) -> String {
      "enum \(name) { static let a = [" + Array(repeating: "\(next).a", count: 30).joined(separator: ", ")
        + "] }\n"
    }
    let result = scan(
      "enum L3: String { case a }\n" + level("L2", of: "L3") + level("L1", of: "L2") + level("L0", of: "L1")
        + "struct S {\n  @Preference var shallow = L2.a\n  @Preference var deep = L0.a\n}\n")
    #expect(result.plans.map(\.valueType) == ["[L3]", nil])
  }

  @Test func typesNestedInAGenericTypeDeclaredInAnotherFileAreRegisteredAtFirstRead() {
    let result = scan([
      ("Sources/App/Holder.swift", "struct Holder<Element> { struct Direct { @Preference var a = Date() } }"),
      (
        "Sources/App/Config.swift",
        """
        extension Holder {
          struct Config { @Preference var pageSize = Date() }
        }
        extension Other {
          struct Config { @Preference var b = Date() }
        }
        """
      ),
    ])
    #expect(result.plan("Holder.Config.pageSize")?.how == "firstRead: 'Holder' is generic")
    #expect(result.plan("Holder.Direct.a")?.how == "firstRead: 'Holder' is generic")
    #expect(result.plan("Other.Config.b")?.how == "registry")
  }

  @Test func membersOfOtherFilesTypesKeepTheirIsolation() {
    let result = scan([
      (
        "Sources/App/Constants.swift",
        """
        @MainActor enum Constants {
          static let columns = 3
          nonisolated static let rows = 2
          case a = "x", b = -1
          case c(Int), d
        }
        @DatabaseActor enum Remote { static let size = 1 }
        nonisolated enum Free { static let size = 1 }
        """
      ),
      (
        "Sources/App/Settings.swift",
        """
        struct Settings {
          @Preference var columns = Constants.columns
          @Preference var rows = Constants.rows
          @Preference var first = Constants.a
          @Preference var remote = Remote.size
          @Preference var free = Free.size
        }
        """
      ),
    ])
    #expect(result.plan("Settings.columns")?.how == "mainActor")
    #expect(result.plan("Settings.rows")?.how == "registry")
    #expect(result.plan("Settings.first")?.how == "registry", "enum cases are never isolated")
    #expect(result.plan("Settings.remote")?.how == "firstRead: 'Remote.size' is isolated to @DatabaseActor")
    #expect(result.plan("Settings.free")?.how == "registry")
  }

  /// Found by the fuzzer: generic types with odd names.
  @Test(arguments: [
    "struct ``<T> { struct I { @Preference var a = 1 } }",
    "struct `.`<T> {}\nstruct S { @Preference var a = 1 }",
  ])
  func oddGenericTypeNamesAreSafe(source: String) {
    #expect(scan(source).plans.count == 1)
  }

  /// Another module's type inferred through a static keeps what it was written with: a tuple's
  /// labels, a function type's attributes and effects, an inline array's arguments.
  @Test func anotherModulesTypeIsWrittenAsItWas() {
    let result = scan(
      """
      enum Defaults {
        static let pairs: Kit.Box<(x: Int, y: Int)> = .init()
        static let handlers: Kit.Box<@Sendable () throws -> Void> = .init()
        static let grid: Kit.Box<InlineArray<2, Int>> = .init()
        static let tags: Array<String> = []
      }
      struct S {
        @Preference var pairs = Defaults.pairs
        @Preference var handlers = Defaults.handlers
        @Preference var grid = Defaults.grid
        @Preference var tags = Defaults.tags
      }
      """)
    #expect(
      result.plans.map(\.valueType) == [
        "Kit.Box<(x: Int, y: Int)>", "Kit.Box<@Sendable () throws -> Void>", "Kit.Box<InlineArray<2,Int>>",
        "[String]",
      ])
  }
}

/// Which standard types a property list stores as integers and reals: one pair of traits in
/// `StandardTypes`, read by the literal encoder and the lock's comparison of types.
@Suite struct NumericStandardTypesTests {
  @Test(arguments: ["Int", "Int8", "Int16", "Int32", "Int64", "UInt", "UInt8", "UInt16", "UInt32", "UInt64"])
  func integersAreEncodedAndComparedAsInt(type: String) {
    #expect(PlistLiteral.encode(ExpressionSyntax(text: "7"), as: WrittenType(parsing: type)) == .integer(7))
    #expect(normalizedType(type) == "Int")
    #expect(normalizedType(type + "?") == "Int")
  }

  @Test(arguments: ["Double", "Float", "Float32", "Float64", "CGFloat", "TimeInterval"])
  func realsAreEncodedAndComparedAsDouble(type: String) {
    #expect(PlistLiteral.encode(ExpressionSyntax(text: "7"), as: WrittenType(parsing: type)) == .double(7))
    #expect(normalizedType(type) == "Double")
  }

  @Test func otherTypesAreThemselves() {
    #expect(normalizedType("Float16") == "Float16", "not stored as a property list's real")
    #expect(normalizedType("[Int]") == "[Int]")
    #expect(PlistLiteral.encode(ExpressionSyntax(text: "7"), as: WrittenType(parsing: "Float16")) == nil)
  }
}
