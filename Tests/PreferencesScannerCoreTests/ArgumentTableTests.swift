import Foundation
import Testing

@testable import PreferencesScannerCore

/// `PreferenceArguments.labels` is the one table of `@Preference`'s arguments that the parser, its
/// messages, the docs and the generated initializers follow. The library declares only the two
/// initializers without options; the registry generates one for each combination of options a
/// module's declarations write. This holds the three together: the library's initializers, the
/// generated ones (every label of the table, in its order, with its type), and the parser's rule
/// that labels come once each, in that order, as Swift requires of a call.
@Suite struct ArgumentTableTests {
  /// The argument labels of each `init(…)` declared in `source`, location defaults left out.
  static func initializerLabels(in source: String) -> [[String]] {
    parameters(in: source).map { parameters in
      parameters.compactMap { parameter -> String? in
        let word = parameter.prefix {
          $0.isLetter || $0 == "_"
        }
        return word.isEmpty || word == "_" ? nil : String(word)
      }
      .filter { !["fileID", "line", "column"].contains($0) }
    }
  }

  /// The parameters, as written, of each ` init(…)` declared in `source`.
  static func parameters(in source: String) -> [[String]] {
    var result: [[String]] = []
    var rest = Substring(source)
    while let start = rest.range(of: " init(") {
      var depth = 1
      var index = start.upperBound
      var parameter = ""
      var parameters: [String] = []
      var previous: Character = " "
      while index < rest.endIndex, depth > 0 {
        let character = rest[index]
        switch character {
        case "(", "[", "<": depth += 1
        case ")", "]": depth -= 1
        case ">" where previous != "-": depth -= 1  // not the arrow of a function type
        default: break
        }
        previous = character
        if depth == 1, character == "," {
          parameters.append(parameter)
          parameter = ""
        } else if depth > 0 {
          parameter.append(character)
        }
        index = rest.index(after: index)
      }
      parameters.append(parameter)
      result.append(parameters.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) })
      rest = rest[index...]
    }
    return result
  }

  @Test func theLibraryDeclaresOnlyTheInitializersWithoutOptions() throws {
    let source = try String(
      contentsOf: packageRoot.appendingPathComponent("Sources/Preferences/Wrapper/DerivedPreference.swift"),
      encoding: .utf8)
    let initializers = Self.initializerLabels(
      in: source.split(separator: "\n").filter { $0.contains("public init(") }.joined(separator: "\n"))
    #expect(initializers == [["wrappedValue"], []], "found \(initializers)")
  }

  /// What each label's parameter is declared as: the type its argument is checked against.
  static let parameterTypes = [
    "wrappedValue": "Value", "key": "Swift.StaticString",
    "store": "@autoclosure () -> _Preferences.Store",
    "movedFrom": "@autoclosure () -> _Preferences.Store?", "format": "_Preferences.Format",
    "sync": "Swift.Bool", "settings": "Swift.Bool", "exported": "Swift.Bool",
    "renamedFrom": "Swift.StaticString...",
  ]

  @Test func aDeclarationWritingEveryOptionGetsAnInitializerTakingEveryLabelInOrder() throws {
    let table = PreferenceArguments.labels.map(\.label)
    #expect(Set(table) == Set(Self.parameterTypes.keys), "every label has a type here")
    let result = scan(
      """
      struct S {
        @Preference(key: "a", store: .default, movedFrom: nil, format: .json, sync: true, settings: true, exported: false, renamedFrom: "x", "y") var a = "a"
        @Preference(key: "b", store: .default, movedFrom: nil, format: .json, sync: true, settings: true, exported: false, renamedFrom: "z") var b: String?
      }
      """)
    #expect(errors(result) == [])
    let generated = RegistryRenderer.initializers(result.files, access: .internal)
    let parameters = Self.parameters(in: generated)
    #expect(parameters.count == 2, "\(generated)")
    #expect(Self.initializerLabels(in: generated) == [table, Array(table.dropFirst())])
    for parameter in parameters.joined() where !parameter.hasPrefix("fileID") && !parameter.hasPrefix("line")
    {
      let label = String(parameter.prefix { $0 != ":" })
      #expect(parameter == "\(label): \(Self.parameterTypes[label] ?? "?")")
    }
    #expect(generated.contains("where Value: Swift.ExpressibleByNilLiteral {"), "the optional's form")
    #expect(generated.contains("fileID: Swift.StaticString = #fileID, line: Swift.UInt = #line)"))
  }

  @Test func eachCombinationIsGeneratedOnceAndOnlyWhatIsWritten() {
    let result = scan(
      """
      struct S {
        @Preference var plain = 1
        @Preference var none: Int?
        @Preference(key: "a") var a = 1
        @Preference(key: "b") var b = 2
        @Preference(wrappedValue: 3, key: "c") var c: Int
        @Preference(key: "d") var d: Int?
        @Preference(store: .default) var e = 1
        @Preference(sync: false) var f = 1
      }
      """)
    #expect(errors(result) == [])
    let generated = RegistryRenderer.initializers(result.files, access: .internal)
    #expect(
      Self.initializerLabels(in: generated) == [
        ["wrappedValue", "key"], ["key"], ["wrappedValue", "store"], ["wrappedValue", "sync"],
      ])
    #expect(
      RegistryRenderer.initializers(scan("struct S { @Preference var a = 1 }").files, access: .internal) == ""
    )
  }

  @Test func declarationsInEveryBranchCount() {
    let result = scan(
      """
      struct S {
        #if os(iOS)
        @Preference(settings: true) var a = true
        #else
        @Preference(sync: true) var a = true
        #endif
      }
      """)
    #expect(errors(result) == [])
    #expect(
      Self.initializerLabels(in: RegistryRenderer.initializers(result.files, access: .internal)) == [
        ["wrappedValue", "sync"], ["wrappedValue", "settings"],
      ])
  }

  @Test func theInitializersTakeTheRegistrysAccess() {
    let files = scan(#"public struct S { @Preference(key: "a") public var a = 1 }"#).files
    #expect(RegistryRenderer.initializers(files, access: .public).contains("  public nonisolated init("))
    #expect(
      RegistryRenderer.initializers(files, access: .usableFromInline).contains(
        "  @usableFromInline nonisolated init("))
    #expect(RegistryRenderer.initializers(files, access: .internal).contains("\n  nonisolated init("))
  }

  @Test func labelsComeOnceEachInTheTablesOrder() {
    let outOfOrder = errors(scan(#"struct S { @Preference(store: .default, key: "k") var a = 1 }"#))
    #expect(outOfOrder.count == 1)
    #expect(outOfOrder.first?.contains("argument 'key:' of @Preference must precede 'store:'") == true)
    #expect(
      outOfOrder.first?.contains(
        "key:, store:, movedFrom:, format:, sync:, settings:, exported:, renamedFrom:") == true,
      "names the order")
    let twice = errors(scan(#"struct S { @Preference(key: "k", key: "l") var a = 1 }"#))
    #expect(twice.count == 1)
    #expect(twice.first?.contains("@Preference takes 'key:' once; remove the second") == true)
    #expect(errors(scan(#"struct S { @Preference(renamedFrom: "a", "b", "c") var a = 1 }"#)) == [])
  }
}
