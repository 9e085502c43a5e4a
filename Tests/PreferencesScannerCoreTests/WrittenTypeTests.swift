import Testing

@testable import PreferencesScannerCore

/// The one model the analyses read written types through.
@Suite struct WrittenTypeTests {
  @Test(arguments: [
    ("Int", "Int"),
    ("Kit.Theme", "Kit.Theme"),
    ("Theme?", "Theme?"),
    ("Theme!", "Theme?"),
    ("Optional<Theme>", "Theme?"),
    ("Swift.Optional<Int>", "Int?"),
    ("[Int]", "[Int]"),
    ("Array<Int>", "[Int]"),
    ("Set<Kit.Theme>", "Set<Kit.Theme>"),
    ("[String: Int]", "[String:Int]"),
    ("Dictionary<String, [Int]>", "[String:[Int]]"),
    ("[[String: Theme]]", "[[String:Theme]]"),
    ("[String: [String: Theme?]]?", "[String:[String:Theme?]]?"),
    ("Pair<Int, [String]>", "Pair<Int,[String]>"),
    ("Box<Int>.Mode", "Box<Int>.Mode"),
    ("Dictionary<\n  String,\n  Int\n>", "[String:Int]"),
  ])
  func readsEveryPartAndWritesItBack(written: String, text: String) {
    #expect(WrittenType(parsing: written).text == text)
  }

  @Test func takesCollectionsApartAtTheirOwnBrackets() {
    #expect(
      WrittenType(parsing: "[[String: Theme]]")
        == .array(.dictionary(key: .named([.init(name: "String")]), value: .named([.init(name: "Theme")]))))
    #expect(
      WrittenType(parsing: "[String: [Int: Kit.Theme]]")
        == .dictionary(
          key: .named([.init(name: "String")]),
          value: .dictionary(
            key: .named([.init(name: "Int")]), value: .named([.init(name: "Kit"), .init(name: "Theme")]))))
    #expect(
      WrittenType(parsing: "Box<Int>.Mode")
        == .named([.init(name: "Box", arguments: [.named([.init(name: "Int")])]), .init(name: "Mode")]))
    #expect(WrittenType(parsing: "Kit.Theme").componentNames == ["Kit", "Theme"])
    #expect(WrittenType(parsing: "[Int]").componentNames == nil)
  }

  /// What the model does not take apart is left, as written, to the compiler.
  @Test(arguments: [
    "~Copyable", "[Int", "Pair<Int", "Int]", "[Int: ]", "", "Array<Int, Int>.Type<", "1Bad", "(Int, String",
    "() async", "Int & ", "@ Int",
  ])
  func leavesWhatItCannotReadAsOther(written: String) {
    guard case .other = WrittenType(parsing: written) else {
      Issue.record("\(written) was read as \(WrittenType(parsing: written))")
      return
    }
  }

  /// Tuples, function types, protocol types, metatypes and inline arrays: each what the checks of
  /// a stored value tell apart.
  @Test(arguments: [
    ("()", "()"),
    ("(Int, String)", "(Int, String)"),
    ("(x: Double,\n y: [String: Int])?", "(x: Double, y: [String: Int])?"),
    ("(Int)", "Int"),
    ("(Int)?", "Int?"),
    ("() -> Int", "() -> Int"),
    (
      "@Sendable (Int, _ b: String) async throws -> Void", "@Sendable (Int, _ b: String) async throws -> Void"
    ),
    ("@convention(c) (Int32) -> Int32", "@convention(c) (Int32) -> Int32"),
    ("sending @Sendable () -> Void", "sending @Sendable () -> Void"),
    ("(() -> Void)?", "(() -> Void)?"),
    ("(Int) throws(MyError) -> @Sendable (Int) -> Int", "(Int) throws(MyError) -> @Sendable (Int) -> Int"),
    ("(Int...) -> Int", "(Int...) -> Int"),
    ("any Codable", "any Codable"),
    ("any P & Sendable", "any P&Sendable"),
    ("P & Q", "P&Q"),
    ("some P", "some P"),
    ("P.Type", "P.Type"),
    ("Kit.P.Protocol", "Kit.P.Protocol"),
    ("any P.Type", "any P.Type"),
    ("(any P).Type", "(any P).Type"),
    ("[Int].Type?", "[Int].Type?"),
    ("[3 of Int]", "[3 of Int]"),
    ("[count of Element]", "[count of Element]"),
    ("Swift.InlineArray<2, Bool>", "Swift.InlineArray<2,Bool>"),
    ("Item.`Type`", "Item.`Type`"),
  ])
  func readsTheShapesNoStoreCanHold(written: String, text: String) {
    #expect(WrittenType(parsing: written).text == text)
  }

  @Test func takesFunctionsAndProtocolTypesApart() {
    let int = WrittenType.named([.init(name: "Int")])
    #expect(WrittenType(parsing: "(Int, Int)") == .tuple([int, int], written: "(Int, Int)"))
    #expect(
      WrittenType(parsing: "@MainActor (Int) -> Int")
        == .function(parameters: [int], result: int, written: "@MainActor (Int) -> Int"))
    #expect(
      WrittenType(parsing: "any P.Type")
        == .existential(.metatype(.named([.init(name: "P")]), isProtocol: false)))
    #expect(
      WrittenType(parsing: "(any P).Type")
        == .metatype(.existential(.named([.init(name: "P")])), isProtocol: false))
    #expect(
      WrittenType(parsing: "Box<Int>.Type")
        == .metatype(.named([.init(name: "Box", arguments: [int])]), isProtocol: false))
    #expect(WrittenType(parsing: "[Int.Type: Int]").text == "[Int.Type:Int]")
    // A name in backticks is the name, written in backticks again.
    #expect(WrittenType(parsing: "Item.`Type`").path == ["Item", "Type"])
    #expect(WrittenType(parsing: "InlineArray<2, T>").leadingNames == ["InlineArray", "T"])
  }

  /// Generated code writes a type with Swift's spacing, and what was written by hand as it was.
  @Test func codeIsWrittenAsSwiftSpacesIt() {
    #expect(WrittenType(parsing: "[String:Array<Int>]?").code == "[String: [Int]]?")
    #expect(WrittenType(parsing: "Pair<Int,String>").code == "Pair<Int, String>")
    #expect(
      WrittenType(parsing: "Box<@Sendable (x: Int) throws -> Void>").code
        == "Box<@Sendable (x: Int) throws -> Void>")
    #expect(WrittenType(parsing: "Box<(x: Int, y: Int)>").code == "Box<(x: Int, y: Int)>")
    #expect(WrittenType(parsing: "Item.`Type`?").code == "Item.`Type`?")
  }

  /// A generic argument the model does not take apart keeps the names around it.
  @Test func argumentsItCannotReadKeepTheComponentsAroundThem() {
    #expect(WrittenType(parsing: "Box<(Int, Int)>.Mode").componentNames == ["Box", "Mode"])
    #expect(WrittenType(parsing: "Cache<() -> Void>.Policy").componentNames == ["Cache", "Policy"])
    #expect(WrittenType(parsing: "Box<any Codable, [Int]>.Mode").text == "Box<any Codable,[Int]>.Mode")
    #expect(
      WrittenType(parsing: "Vector<3, Int>")
        == .named([.init(name: "Vector", arguments: [.other("3"), .named([.init(name: "Int")])])]))
    #expect(WrittenType(parsing: "Box<(Int>.Mode") == .other("Box<(Int>.Mode"))
  }

  /// The names a type's paths start with, where each resolves, at any depth.
  @Test func leadingNamesAreThoseOfEveryPath() {
    #expect(WrittenType(parsing: "Kit.Box<Int, [T: U.Element]>?").leadingNames == ["Kit", "Int", "T", "U"])
    #expect(WrittenType(parsing: "(T) -> Kit.Mode").leadingNames == ["T", "Kit"])
    #expect(WrittenType(parsing: "some View<T.Element>").leadingNames == ["View", "T"])
  }

  /// `Self` in a path is replaced whole, arguments and all.
  @Test func pathsAreMappedAtEveryDepth() {
    let mapped = WrittenType(parsing: "[Self: (Self.Mode, Int)]?").mappingPaths { components in
      components[0].name == "Self"
        ? [.init(name: "Outer"), .init(name: "Grid")] + components.dropFirst() : components
    }
    #expect(mapped.text == "[Outer.Grid:(Outer.Grid.Mode,Int)]?")
  }

  @Test func nestingPastTheLimitIsOther() {
    let optionals = "Int" + String(repeating: "?", count: 100)
    #expect(WrittenType(parsing: optionals) == .other(optionals))
    let deep = String(repeating: "[", count: 40) + "Int" + String(repeating: "]", count: 40)
    #expect(WrittenType(parsing: deep) == .other(deep))
    let shallow = String(repeating: "[", count: 20) + "Int" + String(repeating: "]", count: 20)
    #expect(WrittenType(parsing: shallow).text == shallow)
  }
}
