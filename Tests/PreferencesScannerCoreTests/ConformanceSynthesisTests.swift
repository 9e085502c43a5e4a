import Testing

@testable import PreferencesScannerCore

/// Module types stored by `@Preference` without a written conformance: the registry writes the
/// conformance (a raw-value enum stored as its raw value, a `Codable` type as JSON text), stating
/// `Sendable` only where the scanner proves it, and otherwise reports one error that names the fix.
/// That the generated lines compile, in Swift 6, Swift 5 and Xcode 26's default-MainActor targets,
/// is held by the integration package (`Scripts/integration-test.sh`), whose apps store such types
/// across two processes.
@Suite struct ConformanceSynthesisTests {
  func generated(_ result: PreferenceScanner.Result) -> String {
    RegistryRenderer.conformances(result.conformances)
  }

  /// How conformances and qualified names are read, by bytes: the last word or component of a
  /// written conformance, and the components of a qualified name, as splitting by `Character`
  /// gave them.
  @Test(arguments: [
    ("Codable", "Codable"), ("Swift.Codable", "Codable"), ("@unchecked Sendable", "Sendable"),
    ("nonisolated Swift.Codable", "Codable"), ("Foundation.Data ", "Data"), ("A.B.Célèbre", "Célèbre"),
    ("", ""), ("Équipe", "Équipe"),
  ])
  func aConformanceIsNamedByItsLastComponent(written: String, name: String) {
    #expect(ModuleIndex.lastComponent(written) == name)
  }

  @Test(arguments: ["Outer.Inner", "Outer", "", "A.B.C", ".A", "A..B", "Équipe.Membre"])
  func aQualifiedNameSplitsAtItsDots(name: String) {
    #expect(ModuleIndex.dotted(name) == name.split(separator: ".").map(String.init))
  }

  /// A type stored through a type alias is the type the alias stands for (found in Yams:
  /// `typealias Options = Emitter.Options` got no conformance, so the compiler asked for one).
  @Test func aTypeStoredThroughATypeAliasGetsItsConformance() {
    let result = scan(
      """
      struct Emitter {
        struct Options: Codable { var width = 80 }
        enum Mode: String { case a }
        enum Style: String { case plain }
      }
      typealias Opts = Emitter.Options
      struct Yaml {
        typealias Options = Emitter.Options
        typealias Modes = [Mode]
        typealias Mode = Emitter.Mode
        typealias Loop = Loop2
        typealias Loop2 = Loop
        typealias Box<T> = [T]
        @Preference var options: Options = .init()
        @Preference var opts: Opts = Opts()
        @Preference var modes: Modes = []
        @Preference var loop: Loop = 1
        @Preference var styles: Box<Emitter.Style> = []
      }
      struct Grid: Codable { var rows = 1 }
      struct Screen {
        typealias Layout = Grid
        @Preference var layout = Layout()
      }
      """)
    #expect(errors(result).isEmpty, "\(errors(result))")
    // `Box<Emitter.Style>` names a generic alias, which is not followed (left to the compiler).
    #expect(result.conformances.map(\.typeName) == ["Emitter.Mode", "Emitter.Options", "Grid"])
    #expect(result.plan("Screen.layout")?.valueType == "Grid")
  }

  @Test func rawValueEnumsAndCodableTypesNeedNoWrittenConformance() {
    let result = scan(
      """
      enum Theme: String { case light, dark }
      enum Size: Int { case small = 12 }
      struct Layout: Codable { var columns = 2; var name: String; let tags: [String: [Int]]; var created = Date() }
      struct Account: Codable, Hashable { let id: UUID; var handle: String?; var size: Size; var computed: Int { 1 }; var tags = [String](); var scores = [String: Double]() }
      enum Outer {
        enum Density: Double { case compact = 0.5 }
        struct Grid: Codable { var rows = 1 }
        struct Card: Codable { var width = 1; static let standard = Card() }
      }
      enum Sort: Codable { case name(ascending: Bool), date(Date, [String: Int]), none }
      enum Tint: String { case red }
      enum Separator: Character { case comma = ",", tab = "\\t" }
      struct S {
        @Preference var separator = Separator.comma
        @Preference var tints: Dictionary<String, Tint> = [:]
        @Preference var grid = Outer.Grid()
        @Preference var card = Outer.Card.standard
        @Preference var theme = Theme.dark
        @Preference var size: Size = .small
        @Preference var layout: Layout? = nil
        @Preference var accounts: [Account] = []
        @Preference var densities: [String: Outer.Density] = [:]
        @Preference var sort = Sort.none
        @Preference var byName = Sort.name(ascending: true)
      }
      """)
    #expect(result.plan("S.byName")?.valueType == "Sort")
    #expect(errors(result).isEmpty, "\(errors(result))")
    #expect(
      result.conformances.map(\.typeName) == [
        "Account", "Layout", "Outer.Card", "Outer.Density", "Outer.Grid", "Separator", "Size", "Sort",
        "Theme",
        "Tint",
      ])
    #expect(
      result.conformances.map(\.storage) == [
        .json, .json, .json, .rawValue, .json, .rawValue, .rawValue, .json, .rawValue, .rawValue,
      ])
    #expect(result.conformances.allSatisfy { $0.statesSendable && $0.condition == nil })
    let text = generated(result)
    #expect(
      text.contains("extension Theme: @unchecked Sendable, _Preferences.Value {}  // stored as its raw value")
    )
    #expect(text.contains("extension Outer.Density: @unchecked Sendable, _Preferences.Value {}"))
    #expect(text.contains("// Sendable: a raw-value enum has no payloads"))
    #expect(
      text.contains("extension Layout: @unchecked Sendable, _Preferences.Value {}  // stored as JSON text"))
  }

  /// Stored properties as Codable structs are commonly written: several bindings on one line,
  /// names sharing the type written after the last, and initial values that name a case or a
  /// static property (`var frame = WindowFrame(), x = 0.0, y = 0.0`, `var sort = Sort.name`,
  /// `var opened = Date.now`). Each binding is proven; what names a member of another type, a
  /// case with a payload (a function) or a member the type does not declare is not.
  @Test func severalBindingsAndMemberValuesAreProvenSendable() {
    let result = scan(
      """
      enum Sort: Codable { case name, size(Int); static let standard: Sort = .name; static let count = 2 }
      final class Manager { static let shared = Manager() }
      struct Window: Codable {
        var x = 0.0, y = 0.0
        var red, green, blue: Double
        var isFullScreen = false, title = "", tags = Set<String>(), counts = Dictionary<String, Int>()
        var sort = Sort.name, fallback = Sort.standard
        var opened = Date.now, zone = TimeZone.current, limit = Int.max
      }
      struct Pair: Codable { var first = 0, manager = Manager.shared }
      struct Sized: Codable { var sort = Sort.size }
      struct Counted: Codable { var count = Sort.count }
      struct Missing: Codable { var sort = Sort.missing }
      struct Trailing: Codable { var a, b: Int, c = Manager() }
      struct S {
        @Preference var window = Window()
        @Preference var pair = Pair()
        @Preference var sized = Sized()
        @Preference var counted = Counted()
        @Preference var missing = Missing()
        @Preference var trailing = Trailing()
      }
      """)
    #expect(result.conformances.map(\.typeName) == ["Window"], "\(errors(result))")
    let messages = errors(result)
    #expect(messages.count == 5, "\(messages)")
    for property in ["pair", "sized", "counted", "missing", "trailing"] {
      #expect(
        messages.contains { $0.contains("@Preference '\(property)'") && $0.contains("cannot prove") },
        "\(property)")
    }
  }

  /// Initial values whose type syntax proves, as real apps' settings write them: arithmetic on
  /// number literals, a range between two, a failable initializer forced, a standard type's
  /// static function. A forced initializer of a class, or a module enum's case with a payload,
  /// proves nothing.
  @Test func computedInitialValuesAreProvenSendable() {
    let result = scan(
      """
      import Foundation
      enum Shape: Codable { case circle(Double) }
      final class Box { init?(x: Int) {} }
      struct Layout: Codable {
        var ratio = 16.0 / 9.0, minutes = 60 * 24
        var range = 0...10, steps = 0..<1.5
        var url = URL(string: "https://example.com")!
        var timeout = Duration.seconds(5)
      }
      struct Boxed: Codable { var box = Box(x: 1)! }
      struct Shaped: Codable { var shape = Shape.circle(2) }
      struct S {
        @Preference var layout = Layout()
        @Preference var boxed = Boxed()
        @Preference var shaped = Shaped()
      }
      """)
    #expect(result.conformances.map(\.typeName) == ["Layout"], "\(errors(result))")
    let messages = errors(result)
    for property in ["boxed", "shaped"] {
      #expect(
        messages.contains { $0.contains("@Preference '\(property)'") && $0.contains("cannot prove") },
        "\(property)")
    }
  }

  /// A `RawRepresentable` struct (an `OptionSet`, the "extensible enum" `struct Tag:
  /// RawRepresentable`) is stored as its raw value, as `@AppStorage` stores it. The raw type is
  /// read from `rawValue` (stored or computed) or the `RawValue` alias, and may be any type: the
  /// compiler decides whether it is a preference value (`CGPoint`, `UUID`, the module's own
  /// `Tag`); where syntax does not show one, the user writes the conformance.
  @Test func rawRepresentableStructsAreStoredAsTheirRawValue() {
    let result = scan(
      """
      struct ShippingOptions: OptionSet { let rawValue: UInt8; static let fast = ShippingOptions(rawValue: 1) }
      struct Tag: RawRepresentable, Hashable { var rawValue: String }
      struct Mood: RawRepresentable {
        typealias RawValue = String
        var rawValue: RawValue
        init(rawValue: String) { self.rawValue = rawValue }
      }
      struct Level: RawRepresentable {
        private var stored: Int
        var rawValue: Swift.Int { stored }
        init?(rawValue: Int) { stored = rawValue }
      }
      protocol Flags: OptionSet {}
      struct Modifiers: Flags { let rawValue: Int }
      struct Point2: RawRepresentable { var rawValue: CGPoint }
      struct Wrapped: RawRepresentable { var rawValue: Tag }
      struct Token: RawRepresentable { var rawValue: UUID }
      struct Unwritten: RawRepresentable { let rawValue = 1 }
      struct Named { var rawValue: String }
      enum Filter: RawRepresentable, Hashable {
        case all, tag(String)
        init?(rawValue: String) { self = rawValue == "all" ? .all : .tag(rawValue) }
        var rawValue: String {
          switch self {
          case .all: "all"
          case .tag(let name): name
          }
        }
      }
      struct S {
        @Preference var filters: [Filter: Bool] = [.all: true]
        @Preference var shipping: ShippingOptions = [.fast]
        @Preference var tag = Tag(rawValue: "a")
        @Preference var mood: Mood? = nil
        @Preference var levels: [Level] = []
        @Preference var modifiers: Modifiers = []
        @Preference var point: Point2? = nil
        @Preference var wrapped: Wrapped? = nil
        @Preference var token: Token? = nil
        @Preference var unwritten: Unwritten? = nil
        @Preference var named: Named? = nil
      }
      """)
    #expect(
      result.conformances.map(\.typeName) == [
        "Filter", "Level", "Modifiers", "Mood", "Point2", "ShippingOptions", "Tag", "Token", "Wrapped",
      ],
      "\(errors(result))")
    #expect(
      result.conformances.dropFirst().allSatisfy { $0.storage == .rawRepresentable && $0.statesSendable })
    // An enum with payloads that writes its raw value is a dictionary key as that raw value.
    #expect(result.conformances.first?.keyStorage == .rawRepresentable)
    #expect(result.conformances.first?.storage == nil)
    let messages = errors(result)
    #expect(messages.count == 2, "\(messages)")
    for property in ["unwritten", "named"] {
      #expect(
        messages.contains {
          $0.contains("'\(property)'")
            && $0.contains("nor RawRepresentable (an OptionSet, say) with its rawValue's type written")
        },
        "\(property): \(messages)")
    }
    // Where the default isolation is MainActor the conformance needs a nonisolated type: the
    // compiler reports the line at the type's declaration, with the fix beside it.
    let text = generated(result)
    #expect(
      text.contains(
        """
        #sourceLocation(file: "Sources/App/File.swift", line: 1)
        extension ShippingOptions: @unchecked Sendable, _Preferences.Value {}  // stored as its raw value. Not conforming? Where the default isolation is MainActor, or conformances are inferred isolated, declare the type or its conformance nonisolated
        """), "\(text)")
  }

  /// A `RawRepresentable` type that is also `Codable` is stored as its raw value only where the
  /// raw type surely is a preference value; otherwise Codable's implementation applies (JSON
  /// text), and the conformance is judged as a Codable one.
  @Test func aCodableRawRepresentableOfAnotherRawTypeIsStoredAsJSON() {
    let result = scan(
      """
      struct Stamp: RawRepresentable, Codable { var rawValue: Date }
      struct Code: RawRepresentable, Codable { var rawValue: String }
      struct S {
        @Preference var stamp: Stamp? = nil
        @Preference var code: Code? = nil
      }
      """)
    #expect(errors(result).isEmpty, "\(errors(result))")
    let storage = Dictionary(uniqueKeysWithValues: result.conformances.map { ($0.typeName, $0.storage) })
    #expect(storage["Stamp"] == .json)
    #expect(storage["Code"] == .rawRepresentable)
  }

  /// A public raw-value enum has no payloads and never can: the registry states it `Sendable`
  /// as for an internal one (IceCubes' public settings enums), where a public struct must say so
  /// itself (see the next tests).
  @Test func aPublicRawValueEnumNeedsNoWrittenConformance() {
    let result = scan(
      """
      public enum StatusAction: String, CaseIterable { case reply, boost }
      public enum Pane: Int { case left }
      public struct Settings {
        @Preference public var action = StatusAction.reply
        @Preference public var panes: [Pane: Bool] = [:]
      }
      """)
    #expect(errors(result).isEmpty, "\(errors(result))")
    #expect(result.conformances.map(\.typeName) == ["Pane", "StatusAction"])
    #expect(result.conformances.allSatisfy { $0.statesSendable })
    #expect(
      RegistryRenderer.conformances(result.conformances).contains(
        "extension StatusAction: @unchecked Sendable, _Preferences.Value {}  // stored as its raw value"))
  }

  @Test func aTypeDeclaredSendableOrIsolatedIsNotStatedSendableAgain() {
    let result = scan(
      """
      enum Theme: String, Sendable { case light }
      @MainActor enum Mode: Int { case a }
      public enum Public: String, Sendable { case a }
      struct Model: Codable {}
      extension Model: Sendable {}
      struct S {
        @Preference var theme = Theme.light
        @Preference var mode = Mode.a
        @Preference public var p = Public.a
        @Preference var model = Model()
      }
      """)
    #expect(errors(result).isEmpty, "\(errors(result))")
    #expect(result.conformances.map(\.typeName) == ["Mode", "Model", "Public", "Theme"])
    #expect(result.conformances.allSatisfy { !$0.statesSendable })
    #expect(generated(result).contains("extension Theme: _Preferences.Value {}"))
  }

  /// A conformance the user wrote anywhere, in any file, is never repeated; one written under an
  /// `#if` is supplied where that condition is false; a type declared under an `#if` gets its
  /// conformance under the same condition.
  @Test func writtenConformancesAndConditionsAreRespected() {
    let result = scan([
      (
        "Sources/App/Types.swift",
        """
        enum Written: String { case a }
        enum OnlyOnIOS: String { case a }
        #if os(Linux) || os(macOS)
        enum Desktop: String { case a }
        #elseif os(iOS)
        enum Desktop: Int { case a }
        #endif
        """
      ),
      (
        "Sources/App/Conformances.swift",
        """
        extension Written: PreferenceValue {}
        #if os(iOS)
        extension OnlyOnIOS: Preferences.PreferenceValue {}
        #endif
        """
      ),
      (
        "Sources/App/S.swift",
        """
        struct S {
          @Preference var written = Written.a
          @Preference var ios = OnlyOnIOS.a
          #if os(Linux) || os(macOS) || os(iOS)
          @Preference var desktop = Desktop.a
          #endif
        }
        """
      ),
    ])
    #expect(errors(result).isEmpty, "\(errors(result))")
    #expect(result.conformances.map(\.typeName) == ["Desktop", "OnlyOnIOS"])
    #expect(
      result.conformances.map(\.condition) == [
        "((!(os(Linux) || os(macOS)) && (os(iOS))) || ((os(Linux) || os(macOS))))", "!(os(iOS))",
      ])
    #expect(generated(result).contains("#if !(os(iOS))\n// Sendable"))
  }

  /// Where the compiler would not accept the conformance from another file: one error at each
  /// declaration that stores the type, naming the fix, and nothing generated for it.
  @Test func whatTheRegistryCannotConformIsOneErrorThatNamesTheFix() {
    let result = scan(
      """
      public struct PublicMode: Codable { public var columns = 2 }
      final class Box: Codable {}
      enum NoRaw { case a }
      struct Holder: Codable { var box: Box }
      enum Payload: Codable { case a(Int), b(label: Box) }
      struct Generic<T>: Codable {}
      private enum Hidden: String { case a }
      struct Wrapped: Codable { @Clamped var value: Int }
      final class Tag: RawRepresentable, Codable { let rawValue: String; init(rawValue: String) { self.rawValue = rawValue } }
      final class Subclass: ForeignBase {}
      struct S {
        @Preference public var publicMode = PublicMode()
        @Preference var box = Box()
        @Preference var noRaw = NoRaw.a
        @Preference var holder: Holder? = nil
        @Preference var payload: Payload? = nil
        @Preference var generic: Generic<Int>? = nil
        @Preference var hidden = Hidden.a
        @Preference var wrapped: Wrapped? = nil
        @Preference var again = NoRaw.a
        @Preference var tag: Tag? = nil
        @Preference var subclass: Subclass? = nil
      }
      """)
    let messages = errors(result)
    #expect(result.conformances.isEmpty, "\(result.conformances)")
    #expect(messages.count == 10, "\(messages)")
    func message(_ property: String) -> String {
      messages.first { $0.contains("@Preference '\(property)'") } ?? ""
    }
    #expect(
      message("publicMode").hasSuffix(
        "'PublicMode' does not conform to PreferenceValue, and the registry cannot add the conformance: 'PublicMode' is public and not declared Sendable; declare it 'struct PublicMode: …, Sendable', or add 'extension PublicMode: PreferenceValue {}' in the file that declares it"
      ))
    #expect(message("box").contains("'Box' is a class; make it a final class that is Sendable"))
    #expect(
      message("noRaw").contains(
        "neither an enum with a String, number or Character raw value, nor RawRepresentable (an OptionSet, say) with its rawValue's type written, nor Codable; declare it Codable"
      ))
    #expect(
      message("again")
        == message("noRaw").replacingOccurrences(of: "noRaw", with: "again").replacingOccurrences(
          of: ":14:", with: ":20:"))
    for property in ["holder", "payload", "wrapped"] {
      #expect(message(property).contains("cannot prove"), "\(property)")
      #expect(message(property).contains(": …, Sendable'"), "\(property)")
    }
    #expect(
      message("generic").hasSuffix(
        "'Generic' is generic, and its declaration does not state Sendable; declare it 'struct Generic<…>: …, Sendable', or add 'extension Generic: PreferenceValue where …' with the constraints that make it storable"
      ), "\(messages)")
    #expect(message("hidden").contains("'Hidden' is private to its file"))
    // A protocol listed first is not a superclass (Yams' `Anchor`); an unknown name may be one,
    // from another module, which may conform: left to the compiler.
    #expect(message("tag").contains("'Tag' is a class"), "\(messages)")
    #expect(message("subclass").isEmpty)
  }

  /// A generic type whose declaration states `Codable` and `Sendable` is both for any arguments,
  /// so the registry conforms it (`Pair<Int>`, with its arguments written or inferred); one that
  /// is so only through a conditional extension, or does not state `Sendable`, is an error that
  /// names the fix, not the compiler's "requires that 'Pair<Int>' conform".
  @Test func aGenericCodableTypeDeclaredSendableIsConformed() {
    let source = """
      struct Pair<T: Codable & Sendable>: Codable, Sendable { var first: T; var second: T }
      nonisolated struct Wrap<T: Codable & Sendable>: Encodable, Decodable, Sendable { var value: T }
      public struct Shared<T: Codable & Sendable>: Codable, Sendable { public var value: T }
      struct Loose<T: Codable>: Codable { var value: T }
      struct Cond<T> { var value: T }
      extension Cond: Codable where T: Codable {}
      extension Cond: Sendable where T: Sendable {}
      struct Own<T: Codable & Sendable>: Codable, Sendable { var value: T }
      extension Own: PreferenceValue {}
      enum Outer { struct Box<T: Codable & Sendable>: Codable, Sendable { var value: T } }
      struct S {
        @Preference var pair = Pair<Int>(first: 1, second: 2)
        @Preference var typed: Pair<String>? = nil
        @Preference var wrap = Wrap(value: 2.5)
        @Preference var wraps = [Wrap<Int>]()
        @Preference var shared = Shared<[String]>(value: [])
        @Preference var loose = Loose<Int>(value: 1)
        @Preference var cond = Cond<Int>(value: 1)
        @Preference var own = Own<Int>(value: 1)
        @Preference var boxed = Outer.Box<Int>(value: 1)
      }
      """
    let result = scan(source)
    let messages = errors(result)
    #expect(result.plan("S.pair")?.valueType == "Pair<Int>")
    #expect(result.plan("S.boxed")?.valueType == "Outer.Box<Int>")
    #expect(result.conformances.map(\.typeName) == ["Outer.Box", "Pair", "Shared", "Wrap"], "\(messages)")
    #expect(result.conformances.allSatisfy { !$0.statesSendable && $0.storage == .json })
    #expect(generated(result).contains("extension Pair: _Preferences.Value {}"))
    #expect(messages.count == 2, "\(messages)")
    #expect(
      messages.contains { $0.contains("'Loose' is generic, and its declaration does not state Sendable") })
    #expect(
      messages.contains { $0.contains("'Cond' is generic; add 'extension Cond: PreferenceValue where …'") })
    // Where the default isolation is MainActor, its Codable conformance must be nonisolated too.
    var mainActor = ScannerConfiguration()
    mainActor.defaultIsolation = .mainActor
    let isolated = scan(source, configuration: mainActor)
    #expect(isolated.conformances.map(\.typeName) == ["Wrap"], "\(errors(isolated))")
    #expect(errors(isolated).contains { $0.contains("declare it 'nonisolated struct Pair: …'") })
  }

  /// Thousands of declarations of one type (a bad merge) give one conformance, decided once.
  @Test func aTypeStoredByManyDeclarationsIsConformedOnce() {
    let source =
      "enum E: String { case a }\n" + String(repeating: "struct T { @Preference var e = E.a }\n", count: 500)
    let result = scan(source)
    #expect(result.conformances.map(\.typeName) == ["E"])
  }

  /// A raw-value enum nested in a generic type, named with the outer type's arguments
  /// (`Box<Int>.Mode`) or without: the scanner's error with the one-line fix (the conformance
  /// needs no constraints), not the compiler's, which names no fix.
  @Test func anEnumNestedInAGenericTypeIsTheScannersErrorWithTheFix() {
    let source = """
      struct Box<T> {
        enum Mode: String { case a, b }
        @Preference var inside = Mode.a
      }
      struct Settings {
        @Preference var written: Box<Int>.Mode = .a
        @Preference var nested: Box<[String: Int]>.Mode? = nil
      }
      """
    let messages = errors(scan(source))
    let fix = "'Box' is generic; add 'extension Box.Mode: PreferenceValue {}' in the file that declares it"
    #expect(messages.count == 3, "\(messages)")
    #expect(messages.allSatisfy { $0.contains(fix) }, "\(messages)")
  }

  /// A default whose type only the compiler knows (a function's result, a dictionary literal
  /// keyed by a case): the raw-value enums it names conform, as values and keys, so that
  /// whichever it stores compiles. A type merely named never draws an error or a conformance that
  /// could fail: not one that conforms already, nor one stored as JSON (whose conformance the
  /// target's isolation may make isolated), nor a class.
  @Test func theTypesADefaultTheCompilerTypesNamesConformWhereTheyCan() {
    let result = scan(
      """
      struct Settings {
        @Preference var shown = [Pane.sidebar: true]
        @Preference var count = Pane.allCases.count + Layout.Inner.columns
        @Preference var made = makeFrame(Frame.standard)
        @Preference var themes = Theme.allCases.count + Keyed.all.count
      }
      enum Theme: String, CaseIterable, PreferenceValue { case light, dark }
      enum Keyed: String, PreferenceDictionaryKey { case a; static let all = [Keyed.a] }
      enum Pane: String, CaseIterable { case sidebar, inspector }
      enum Layout { struct Inner: Codable { var x = 0; static let columns = 2 } }
      final class Frame { static let standard = Frame() }
      func makeFrame(_ frame: Frame) -> Int { 1 }
      """)
    #expect(errors(result) == [])
    let pane = result.conformances.first { $0.typeName == "Pane" }
    #expect(pane?.storage == .rawValue && pane?.keyStorage == .rawValue)
    #expect(
      !result.conformances.contains { ["Frame", "Layout", "Layout.Inner"].contains($0.typeName) },
      "\(result.conformances.map(\.typeName))")
    let value = result.conformances.first { $0.typeName == "Theme" }
    #expect(value?.storage == nil && value?.keyStorage == .rawValue, "already a value: a key only")
    let theme = result.conformances.first { $0.typeName == "Keyed" }
    #expect(theme?.storage == .rawValue && theme?.keyStorage == nil, "already a key: a value only")
  }
}

/// Types nested in collections, read through one model of the written type (`WrittenType`): the
/// element of `[[String: Theme]]` is `Theme`, not the text after its first colon.
@Suite struct NestedCollectionConformanceTests {
  @Test func typesInsideNestedCollectionsConformAndAreProvenSendable() {
    let result = scan(
      """
      enum Theme: String { case light, dark }
      enum Tint: String { case red }
      enum Mode: String { case a }
      struct Board: Codable { var cells: [[String: Int]]; var marks: [Int: [String]]? }
      struct S {
        @Preference var grid: [[String: Theme]] = []
        @Preference var tints: [String: [Tint]] = [:]
        @Preference var modes: [[Mode]?] = []
        @Preference var board: Board? = nil
      }
      """)
    #expect(errors(result).isEmpty, "\(errors(result))")
    #expect(result.conformances.map(\.typeName) == ["Board", "Mode", "Theme", "Tint"])
    #expect(result.conformances.first { $0.typeName == "Board" }?.statesSendable == true)
  }

  /// A type nested in a generic one, named with an argument the model does not take apart.
  @Test func aTypeInAGenericNamedWithAnExistentialArgumentGetsTheFix() {
    let result = scan(
      """
      struct Box<T> { enum Mode: String { case a, b } }
      struct S {
        @Preference var mode: Box<any Codable>.Mode = .a
      }
      """)
    // As for `Box<Int>.Mode`: the scanner's error names the one-line fix (it said nothing, and
    // the compiler's error named none, while the argument made the whole type unreadable).
    #expect(errors(result).count == 1)
    #expect(
      errors(result).first?.contains("add 'extension Box.Mode: PreferenceValue {}'") == true,
      "\(errors(result))")
  }

  /// A tuple or function type among another generic type's arguments is not what the preference
  /// stores: not the shape error, which was reported for any tuple anywhere in the text.
  @Test func aTupleInsideAGenericTypesArgumentsIsNotTheStoredShape() {
    let result = scan(
      """
      struct Box<T> { enum Mode: String { case a, b } }
      struct S {
        @Preference var mode: Box<(Int, Int)>.Mode = .a
        @Preference var cache: Box<() -> Void>.Mode = .b
      }
      """)
    #expect(errors(result).count == 2, "\(errors(result))")
    #expect(
      errors(result).allSatisfy { $0.contains("add 'extension Box.Mode: PreferenceValue {}'") },
      "\(errors(result))")
  }

  /// A nested type that must be written in backticks (`` Item.`Type` ``) is the module's type:
  /// generated code names it in backticks, and the registry writes its conformance.
  @Test func aTypeNamedInBackticksIsTheModulesType() {
    let result = scan(
      """
      struct Item {
        enum `Type`: String { case a, b }
        static let standard: `Type` = .a
      }
      struct S {
        @Preference var kind = Item.standard
        @Preference var written: Item.`Type` = .b
      }
      """)
    #expect(errors(result).isEmpty, "\(errors(result))")
    #expect(result.plans.map(\.valueType) == ["Item.`Type`", "Item.`Type`"])
    #expect(result.conformances.map(\.typeName) == ["Item.Type"])
  }
}
