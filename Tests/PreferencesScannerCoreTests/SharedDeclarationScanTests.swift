import Foundation
import Testing

@testable import PreferencesScannerCore

/// `@Preference(\Settings.showFooter) var showFooter`: a declaration that shares another's
/// preference, found by the scanner and listed in that declaration's record.
@Suite struct SharedDeclarationScanTests {
  static let settings = """
    struct Settings {
      @Preference(key: "showFooter", store: .suite("group.example")) var showFooter = true
      @Preference var scale = Settings.defaultScale()
      static func defaultScale() -> Double { 1.5 }
      enum Panel {
        @MainActor @Preference static var width = 240
      }
    }
    """

  func scanWithView(_ view: String) -> PreferenceScanner.Result {
    scan([("Sources/App/Settings.swift", Self.settings), ("Sources/App/View.swift", view)])
  }

  @Test func theDeclarationItNamesListsItsLocation() throws {
    let result = scanWithView(
      """
      struct FooterView {
        @Preference(\\Settings.showFooter) var showFooter
        @Preference(\\Settings.Panel.Type.width) var width
      }
      extension Settings {
        struct Preview {
          @Preference(\\Panel.Type.width) var width: Int
        }
      }
      """)
    #expect(errors(result) == [])
    // Sharing declarations are not preferences of their own.
    #expect(result.plans.map(\.key) == ["showFooter", "Settings.scale", "Settings.Panel.width"])
    #expect(result.plan("showFooter")?.references == [.init(fileID: "App/View.swift", line: 2)])
    // `scan --format text` lists them under the declaration they share.
    #expect(
      ScanOutput.text(result).split(separator: "\n").prefix(2).map(String.init) == [
        "Sources/App/Settings.swift:2:4: showFooter: Bool = true", "  shared at App/View.swift:2",
      ])
    #expect(
      result.plan("Settings.Panel.width")?.references == [
        .init(fileID: "App/View.swift", line: 3), .init(fileID: "App/View.swift", line: 7),
      ])
    #expect(result.plan("Settings.scale")?.references == [])
    let record = PreferenceRecord.json(try #require(result.plan("showFooter")), extras: .generator).text
    #expect(record.contains(#""referencedAt":["App/View.swift:2"]"#))
  }

  @Test func theRegistryDeclaresTheInitializerOnlyWhereADeclarationShares() {
    let shared = PreferenceScanner.renderAll(
      scanWithView("struct V {\n  @Preference(\\Settings.scale) var scale\n}\n"), module: "App")
    #expect(shared.contains("init<Root>(_ preference: Swift.KeyPath<Root, Value>"))
    #expect(shared.contains("Self._sharing(fileID: fileID, line: line)"))
    let alone = PreferenceScanner.renderAll(scan(Self.settings), module: "App")
    #expect(!alone.contains("KeyPath<Root, Value>"))
  }

  @Test func aLocationUnderSourceLocationIsTheOneTheCompilerReports() {
    let result = scanWithView(
      """
      #sourceLocation(file: "Elsewhere.swift", line: 100)
      struct V { @Preference(\\Settings.scale) var scale }
      #sourceLocation()
      """)
    #expect(errors(result) == [])
    #expect(result.plan("Settings.scale")?.references == [.init(fileID: "App/Elsewhere.swift", line: 100)])
  }

  @Test func whatCannotBeSharedIsAnErrorThatNamesTheFix() {
    let cases: [(String, String)] = [
      (
        "@Preference(\\Nowhere.value) var value",
        "View.swift:2:14: error: @Preference 'value' shares 'Nowhere.value', but this target declares no type 'Nowhere'"
      ),
      (
        "@Preference(\\Settings.missing) var missing: Int",
        "View.swift:2:14: error: @Preference 'missing' shares 'Settings.missing', which is not a @Preference; declare '@Preference var missing = …' in 'Settings'"
      ),
      (
        "@Preference(\\Settings.Panel.width) var width",
        "which is not a @Preference of that kind; it is a static preference: write @Preference(\\Settings.Panel.Type.width)"
      ),
      (
        "@Preference(\\Settings.Type.scale) var scale",
        "it is an instance preference: write @Preference(\\Settings.scale)"
      ),
      (
        "@Preference(\\Settings.scale) var scale = 2.0",
        "View.swift:2:4: error: @Preference 'scale' shares 'Settings.scale', whose default it reads; remove the default here"
      ),
      (
        "@Preference(\\Settings.scale, key: \"s\") var scale",
        "@Preference 'scale' shares 'Settings.scale', whose key, store and options it takes; remove 'key:'"
      ),
      (
        "@Preference(\\.scale) var scale: Double",
        "View.swift:2:4: error: @Preference(\\…) names the declaration it shares as a key path with its type: @Preference(\\Settings.showFooter)"
      ),
    ]
    for (declaration, expected) in cases {
      let found = errors(scanWithView("struct V {\n  \(declaration)\n}\n"))
      #expect(found.count == 1, "\(declaration): \(found)")
      #expect(found.contains { $0.contains(expected) }, "\(declaration): \(found)")
    }
  }

  @Test func aSharingDeclarationNeedsALineOfItsOwn() {
    let found = errors(
      scanWithView(
        "struct V {\n  @Preference(\\Settings.scale) var a; @Preference(\\Settings.showFooter) var b\n  @Preference var c = 1; @Preference(\\Settings.scale) var d\n}\n"
      ))
    #expect(found.count == 2, "\(found)")
    #expect(found.allSatisfy { $0.contains("each needs a line of its own") }, "\(found)")
  }

  @Test func aPublicSharingDeclarationMakesTheWrapperPublic() {
    let result = scanWithView(
      "public struct V {\n  @Preference(\\Settings.scale) public var scale: Double\n}\n")
    #expect(errors(result) == [])
    #expect(PreferenceScanner.renderAll(result, module: "App").contains("public typealias Preference<"))
  }

  @Test func aDefaultOnlyAnInstanceCanGiveCannotBeShared() {
    let result = scan([
      (
        "Sources/App/Settings.swift",
        "struct Settings {\n  private static let start = 3\n  @Preference var count = start\n}\n"
      ),
      ("Sources/App/View.swift", "struct V {\n  @Preference(\\Settings.count) var count\n}\n"),
    ])
    let found = errors(result)
    #expect(found.count == 1)
    #expect(
      found.first?.contains(
        "View.swift:2:14: error: @Preference 'count' shares 'Settings.count', whose default the generated registry cannot evaluate"
      ) == true, "\(found)")
    // Where one `#if` branch's declaration can give it and another's cannot, likewise.
    let branches = scan([
      (
        "Sources/App/Settings.swift",
        "struct Settings {\n  private static let start = 3\n#if os(iOS)\n  @Preference var count = 1\n#else\n  @Preference var count = start\n#endif\n}\n"
      ),
      ("Sources/App/View.swift", "struct V {\n  @Preference(\\Settings.count) var count\n}\n"),
    ])
    #expect(errors(branches).count == 1, "\(errors(branches))")
  }

  @Test func theSyntaxCacheKeepsTheReference() throws {
    let source = "struct V {\n  @Preference(\\Settings.Panel.Type.width) var width\n}\n"
    let parsed = FileParser.parse(path: "V.swift", module: "App", contents: Array(source.utf8))
    var writer = ArchiveWriter()
    writer.item(parsed.preferences[0].arguments)
    var reader = ArchiveReader(writer.bytes)
    let read: PreferenceArguments = try reader.item()
    #expect(read.reference == ["Settings", "Panel", "Type", "width"])
  }
}
