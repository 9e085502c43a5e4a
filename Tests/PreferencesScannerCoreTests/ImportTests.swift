import Foundation
import Testing

@testable import PreferencesScannerCore

/// The generated registry evaluates defaults and store expressions in a file of its own, so it
/// repeats the imports of the files that declare preferences.
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
    let imports = result.imports.map {
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
    #expect(result.imports.first?.module == "Foundation")
    #expect(result.imports[2].module == "Dates")
  }

  @Test func theRegistryRepeatsTheImportsOfDeclaringFiles() {
    let declaring = ScannedImport(path: "Foundation", file: "A.swift")
    let elsewhere = ScannedImport(path: "Networking", file: "B.swift")
    let lines = RegistryRenderer.importLines([declaring, elsewhere], declaringFiles: ["A.swift"])
    #expect(lines == "import Preferences\nimport Foundation\n")
  }

  @Test func explicitAccessLevelsEverywhereMakeTheRegistryImportInternal() {
    // Swift 6 rejects a module imported with an explicit level in one file and implicitly in
    // another, so the registry follows what the module's files do.
    let imports = [
      ScannedImport(path: "Foundation", accessLevel: "internal", file: "A.swift"),
      ScannedImport(path: "Foundation", accessLevel: "private", file: "B.swift"),
      ScannedImport(path: "Preferences", accessLevel: "internal", file: "A.swift"),
      ScannedImport(path: "Models", accessLevel: "public", file: "A.swift"),
      ScannedImport(path: "Models", file: "C.swift"),
    ]
    let lines = RegistryRenderer.importLines(imports, declaringFiles: ["A.swift"])
    #expect(lines == "internal import Preferences\ninternal import Foundation\nimport Models\n")
  }

  @Test func attributesMergeAndExportsAreNotRepeated() {
    let imports = [
      ScannedImport(path: "App", attributes: ["@testable"], file: "A.swift"),
      ScannedImport(path: "App", file: "B.swift"),
      ScannedImport(path: "Legacy", attributes: ["@_exported", "@preconcurrency"], file: "B.swift"),
      ScannedImport(path: "Hidden", attributes: ["@_implementationOnly"], file: "A.swift"),
      ScannedImport(path: "Shared", attributes: ["@_implementationOnly"], file: "A.swift"),
      ScannedImport(path: "Shared", file: "C.swift"),
    ]
    let lines = RegistryRenderer.importLines(imports, declaringFiles: ["A.swift", "B.swift"])
    #expect(
      lines == """
        import Preferences
        @testable import App
        @_implementationOnly import Hidden
        @preconcurrency import Legacy
        import Shared

        """)
  }

  @Test func conditionalImportsKeepTheirConditionsUnlessAnyFileImportsUnconditionally() {
    let imports = [
      ScannedImport(path: "UIKit", condition: "(canImport(UIKit))", file: "A.swift"),
      ScannedImport(path: "Glibc", condition: "(os(Linux))", file: "A.swift"),
      ScannedImport(path: "Glibc", file: "B.swift"),
      ScannedImport(path: "UIKit", condition: "(os(iOS))", file: "B.swift"),
    ]
    let lines = RegistryRenderer.importLines(imports, declaringFiles: ["A.swift", "B.swift"])
    #expect(
      lines == """
        import Preferences
        import Glibc
        #if (canImport(UIKit))
        import UIKit
        #endif
        #if (os(iOS))
        import UIKit
        #endif

        """)
  }

  @Test func aDefaultFromAnotherModuleCompilesInTheRegistry() {
    let result = scan(
      """
      import Foundation
      import SharedModels

      struct View {
        @Preference var accent: Accent = .blue
        @Preference var started = Date()
      }
      """)
    let rendered = RegistryRenderer.render(result.preferences, module: "App", imports: result.imports)
    #expect(rendered.contains("import Preferences\nimport Foundation\nimport SharedModels\n"))
  }
}

extension ImportTests {
  @Test(arguments: ["testable import A", "import", "@import A", ") import A", "(x) import A", "@a(import A"])
  func truncatedImportsAtTheStartOfAFileAreSafe(source: String) {
    let result = scan(source)
    #expect(result.imports.count <= 1)
  }
}
