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
    "(Int, String)", "() -> Int", "any Codable", "some View", "[Int", "Pair<Int", "Int]", "[Int: ]", "",
    "Array<Int, Int>.Type<", "1Bad",
  ])
  func leavesWhatItCannotReadAsOther(written: String) {
    guard case .other = WrittenType(parsing: written) else {
      Issue.record("\(written) was read as \(WrittenType(parsing: written))")
      return
    }
  }

  /// A generic argument the model does not take apart keeps the names around it.
  @Test func argumentsItCannotReadKeepTheComponentsAroundThem() {
    #expect(WrittenType(parsing: "Box<(Int, Int)>.Mode").componentNames == ["Box", "Mode"])
    #expect(WrittenType(parsing: "Cache<() -> Void>.Policy").componentNames == ["Cache", "Policy"])
    #expect(WrittenType(parsing: "Box<any Codable, [Int]>.Mode").text == "Box<any Codable,[Int]>.Mode")
    #expect(
      WrittenType(parsing: "Pair<any P>") == .named([.init(name: "Pair", arguments: [.other("any P")])]))
    #expect(WrittenType(parsing: "Box<(Int>.Mode") == .other("Box<(Int>.Mode"))
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
