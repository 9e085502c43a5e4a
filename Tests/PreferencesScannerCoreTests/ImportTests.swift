import Foundation
import Testing

@testable import PreferencesScannerCore

/// Generated code evaluates defaults and stores in files of its own, so it repeats the imports
/// of the files that declare preferences, and imports `Preferences` as the module does.
@Suite struct ImportTests {
  @Test func importsAreReadWithAttributesAccessLevelsKindsAndConditions() {
    let result = scan(
      """
      import Foundation
      @testable @preconcurrency import App.Models
      internal import struct Dates.Calendar
      @_spi(Internal) public import Kit; import Second
      #if canImport(UIKit)
        import UIKit
      #elseif os(Linux)
        import Glibc
      #endif
      // import Commented
      let text = "import InString"
      struct S {
        func f() { let x = 1 }
      }
      """)
    let imports = result.files[0].imports.map {
      [
        $0.attributes.joined(separator: " "), $0.accessLevel ?? "", $0.kind ?? "", $0.path,
        $0.condition ?? "",
      ]
    }
    #expect(
      imports == [
        ["", "", "", "Foundation", ""],
        ["@testable @preconcurrency", "", "", "App.Models", ""],
        ["", "internal", "struct", "Dates.Calendar", ""],
        ["@_spi(Internal)", "public", "", "Kit", ""],
        ["", "", "", "Second", ""],
        ["", "", "", "UIKit", "(canImport(UIKit))"],
        ["", "", "", "Glibc", "!(canImport(UIKit)) && (os(Linux))"],
      ])
  }

  @Test func aFilesTableRepeatsItsImportsWithConditionsButNotExports() {
    let result = scan(
      """
      @_exported import Legacy
      import Foundation
      #if canImport(UIKit)
      import UIKit
      #endif
      struct S { @Preference var when = Date() }
      """)
    let lines = RegistryRenderer.importLines(result.files, preferences: "@_spi(Generated) import Preferences")
    #expect(
      lines == """
        @_spi(Generated) import Preferences
        import Legacy
        import Foundation
        #if (canImport(UIKit))
        import UIKit
        #endif

        """)
  }

  /// Table files declare nothing public: a module imported `public` or `package` is imported
  /// `internal` there (a public import unused by public declarations is a compiler warning, as
  /// swift-syntax's `public import SwiftSyntax` showed), one line per module whatever levels
  /// the files chose; implicit imports stay implicit.
  @Test func aTableImportsExplicitlyImportedModulesInternally() {
    let result = PreferenceScanner(module: "M").scan(files: [
      (
        "A.swift",
        Array(
          """
          public import SwiftSyntax
          package import Kit
          import Foundation
          struct A { @Preference var a = 1 }
          """.utf8)
      ),
      (
        "B.swift",
        Array(
          """
          internal import SwiftSyntax
          private import Kit
          @preconcurrency public import Legacy
          struct B { @Preference var b = 1 }
          """.utf8)
      ),
    ])
    let preferences = "@_spi(Generated) import Preferences"
    #expect(
      RegistryRenderer.importLines(result.files, preferences: preferences) { _ in true } == """
        @_spi(Generated) import Preferences
        internal import SwiftSyntax
        internal import Kit
        import Foundation
        @preconcurrency internal import Legacy

        """)
    #expect(
      RegistryRenderer.importLines(result.files, preferences: preferences).contains(
        "public import SwiftSyntax"),
      "the single file, whose typed keys may be public, keeps the levels")
    var tables = ""
    _ = RegistryRenderer.files(result, module: "M", tableFiles: ["T.swift"], plannedName: { _ in "T.swift" })
    {
      tables += $1
    }
    #expect(tables.contains("internal import SwiftSyntax") && !tables.contains("public import SwiftSyntax"))
  }

  /// Swift 6 rejects a module imported implicitly in one file and with an explicit level in
  /// another; `public` preferences need a public import for the `@usableFromInline` alias.
  @Test(
    arguments: [
      ([nil], "@_spi(Generated) public import Preferences", true, "@_spi(Generated) import Preferences"),
      (
        ["internal"], "@_spi(Generated) internal import Preferences", false,
        "@_spi(Generated) internal import Preferences"
      ),
      (
        ["public", "internal"], "@_spi(Generated) public import Preferences", true,
        "@_spi(Generated) internal import Preferences"
      ),
      ([], "@_spi(Generated) public import Preferences", true, "@_spi(Generated) import Preferences"),
    ] as [([String?], String, Bool, String)])
  func preferencesIsImportedAsTheModuleImportsIt(
    levels: [String?], index: String, usable: Bool, table: String
  ) {
    let imports = levels.map {
      ImportSyntax(
        path: "Preferences", kind: nil, attributes: [], accessLevel: $0, condition: nil)
    }
    let chosen = RegistryRenderer.PreferencesImport(imports)
    #expect(chosen.index == index)
    #expect(chosen.usableFromInline == usable)
    #expect(chosen.table == table)
  }

  @Test(arguments: ["testable import A", "import", "@import A", ") import A", "(x) import A", "@a(import A"])
  func truncatedImportsAtTheStartOfAFileAreSafe(source: String) {
    #expect(scan(source).files[0].imports.count <= 1)
  }
}
