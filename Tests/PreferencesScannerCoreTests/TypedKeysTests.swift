import Testing

@testable import PreferencesScannerCore

/// The typed keys the registry declares for each `PreferenceKeys` enum, read from its
/// `defaultValue` switch. That they make a wrong-typed read or write fail to compile, and a
/// right-typed one need no annotation, is held by `Scripts/integration-test.sh`.
@Suite struct TypedKeysTests {
  func keys(_ result: PreferenceScanner.Result, _ enumName: String) -> [String: String] {
    Dictionary(
      uniqueKeysWithValues: result.typedKeys.first { $0.keysType == enumName }?.keys.map {
        ($0.caseName, $0.valueType)
      } ?? [])
  }

  @Test func eachCaseTakesItsDefaultsType() {
    let result = scan(
      """
      enum Theme: String { case light, dark }
      enum AppKeys: String, PreferenceKeys {
        case name, emailAddress, launchCount, rate, encoding, theme, tags, flags, legacy, scale, limit, ratio, port, `default`
        case other = "other.key"
        var defaultValue: any PreferenceValue {
          switch self {
          case .name, .legacy: "Anonymous"
          case .emailAddress: String?.none
          case .launchCount: 0
          case .rate: 0 as Double
          case .encoding: Int(String.Encoding.utf8.rawValue)
          case .theme: Theme.dark
          case .tags: [String]()
          case .flags: ["a": true]
          case .scale:
            return Optional<Double>.none
          case .limit: Int.max
          case .ratio: CGFloat.zero
          case .port: Int("8080")
          default: false
          }
        }
      }
      """)
    #expect(errors(result).isEmpty, "\(errors(result))")
    // What only the compiler knows (an initializer's overload, a static member's type of another
    // module: `Int("8080")` is an `Int?`) the compiler infers, from the default itself.
    func inferred(_ name: String) -> String { "AppKeys._PreferenceKeyType_\(name)._PreferenceKeyValue" }
    #expect(
      keys(result, "AppKeys") == [
        "name": "String", "legacy": "String", "emailAddress": "String?", "launchCount": "Int",
        "rate": "Double",
        "encoding": inferred("encoding"), "theme": "Theme", "tags": "[String]", "flags": "[String: Bool]",
        "scale": "Double?",
        "limit": inferred("limit"), "ratio": inferred("ratio"), "port": inferred("port"), "default": "Bool",
        "other": "Bool",
      ])
    let text = RegistryRenderer.typedKeys(result.typedKeys)
    #expect(text.contains("extension _Preferences.TypedKey where Keys == AppKeys, Value == String {\n"))
    #expect(text.contains("  nonisolated static var name: Self { Self(AppKeys.name) }\n"))
    #expect(text.contains("  nonisolated static var `default`: Self { Self(AppKeys.`default`) }\n"))
  }

  /// A module type a key holds conforms as a `@Preference` of that type does, with no
  /// conformance to write (the keys enum's `defaultValue` returns `any PreferenceValue`, which
  /// needs it); a type both stored and held gets one extension; one the registry cannot conform
  /// is an error at its case that names the fix.
  @Test func moduleTypesAKeyHoldsGetTheirConformances() {
    let result = scan(
      """
      import Foundation
      enum Theme: String { case light, dark }
      enum Pane: String { case general, advanced }
      struct Layout: Codable { var columns = 2 }
      struct Tag: RawRepresentable { var rawValue: String }
      final class Session {}
      struct Screen { @Preference var theme = Theme.dark }
      enum AppKeys: String, PreferenceKeys {
        case theme, layout, widths, tags, session, visits
        var defaultValue: any PreferenceValue {
          switch self {
          case .theme: Theme.light
          case .layout: Layout()
          case .widths: [Pane: Int]()
          case .tags: [Tag]()
          case .session: Session()
          case .visits: [URL: Int]()
          }
        }
      }
      """)
    #expect(
      errors(result) == [
        "Sources/App/File.swift:16:5: error: 'AppKeys.session' holds Session, but 'Session' does not conform to PreferenceValue, and the registry cannot add the conformance: 'Session' is a class; make it a final class that is Sendable, and add 'extension Session: PreferenceValue {}' in the file that declares it",
        "Sources/App/File.swift:17:5: error: 'AppKeys.visits' holds [URL: Int], a dictionary keyed by URL, but a stored dictionary is keyed by text (as property lists are): String, a number, Bool, Character, UUID, or your enum with a String, number or Character raw value; key it by one of those, or store a Codable type that holds it (stored as JSON text)",
      ])
    #expect(result.conformances.map(\.typeName).sorted() == ["Layout", "Pane", "Tag", "Theme"])
    let text = RegistryRenderer.conformances(result.conformances)
    #expect(text.components(separatedBy: "extension Theme:").count == 2)
    #expect(text.contains("extension Pane: @unchecked Sendable, _Preferences.DictionaryKey {}"))
    #expect(
      text.contains("extension Layout: @unchecked Sendable, _Preferences.Value {}  // stored as JSON text"))
  }

  /// The conformance and the defaults may sit in extensions, in other files; the enum may be
  /// nested, public, or declared under `#if`; a getter or one expression for every case works.
  @Test func keysAreFoundWhereverTheEnumAndItsDefaultsAre() {
    let result = scan([
      ("Sources/App/A.swift", "enum Settings { public enum Keys: String { case volume, muted } }"),
      ("Sources/App/B.swift", "extension Settings.Keys: PreferenceKeys {}"),
      (
        "Sources/App/C.swift",
        """
        extension Settings.Keys {
          var defaultValue: any PreferenceValue {
            get {
              switch self {
              case .volume: 0.5
              case .muted: false
              }
            }
          }
        }
        #if os(macOS)
        enum MacKeys: String, PreferenceKeys {
          case count
          var defaultValue: any PreferenceValue { 0 }
        }
        #endif
        """
      ),
    ])
    #expect(errors(result).isEmpty, "\(errors(result))")
    #expect(keys(result, "Settings.Keys") == ["volume": "Double", "muted": "Bool"])
    #expect(result.typedKeys.first { $0.keysType == "Settings.Keys" }?.access == "public ")
    #expect(keys(result, "MacKeys") == ["count": "Int"])
    #expect(result.typedKeys.first { $0.keysType == "MacKeys" }?.condition == "(os(macOS))")
    #expect(
      RegistryRenderer.typedKeys(result.typedKeys).contains(
        "#if (os(macOS))\nextension _Preferences.TypedKey where Keys == MacKeys, Value == Int {"))
  }

  /// What the plugin cannot read from a default's text the compiler types: generated code
  /// declares the default beside the enum, at the clause's line, and the key's type is what the
  /// compiler infers. A default generated code cannot evaluate outside the user's file (`self`,
  /// an instance member, a name private to its file) is one warning at the clause, asking for
  /// `as`. An enum the registry cannot name is an error.
  /// Keys of one platform: each clause is read whatever `#if` block it is in or follows, a key
  /// is declared under its case's condition, and a case whose branches give it two types is
  /// left untyped with a warning that says so.
  @Test func clausesUnderIfAreReadAndTheirKeysKeepTheCondition() {
    let result = scan(
      """
      enum AppKeys: String, PreferenceKeys {
        case name
        #if os(iOS)
        case haptics
        #endif
        case both, mixed, lastOpened, fallback, idiom, elsewhere
        var defaultValue: any PreferenceValue {
          switch self {
          case .name: "x"
          #if os(iOS)
          case .haptics: 2
          case .idiom: "phone"
          #elseif os(macOS)
          case .elsewhere: "mac"
          #endif
          #if DEBUG
          case .both: 1
          case .mixed: 1
          #else
          case .both: 2
          case .mixed: "two"
          #endif
          case .lastOpened: 1.5
          @unknown default: false
          }
        }
      }
      """)
    #expect(errors(result).isEmpty, "\(errors(result))")
    // `idiom` is a String on iOS and takes the `default:` clause's Bool elsewhere, `elsewhere` a
    // String on macOS (`!(os(iOS)) && (os(macOS))`) and a Bool elsewhere: no one type. `both`
    // has a clause in each branch of its `#if`/`#else`, which agree, and the default never
    // applies to it.
    #expect(
      keys(result, "AppKeys") == [
        "name": "String", "haptics": "Int", "both": "Int", "lastOpened": "Double", "fallback": "Bool",
      ])
    let warnings = result.diagnostics.filter { $0.severity == .warning }.map(\.message)
    #expect(warnings.count == 3, "\(warnings)")
    for name in ["mixed", "idiom", "elsewhere"] {
      #expect(warnings.contains { $0.contains("'AppKeys.\(name)', whose defaults in the '#if' branches") })
    }
    let text = RegistryRenderer.typedKeys(result.typedKeys)
    // A key under a condition is declared in an extension of its own under it, whose value type
    // may exist only there.
    #expect(
      text.contains(
        "#if (os(iOS))\nextension _Preferences.TypedKey where Keys == AppKeys, Value == Int {\n  nonisolated static var haptics: Self { Self(AppKeys.haptics) }\n}\n#endif\n"
      ), "\(text)")
    #expect(text.contains("  nonisolated static var lastOpened: Self { Self(AppKeys.lastOpened) }\n"))
  }

  @Test func aDefaultWhoseTypeCannotBeReadIsTypedByTheCompiler() {
    let result = scan(
      """
      enum AppKeys: String, PreferenceKeys {
        case encoding, name, computed, set, largest, themes, all, count, secret
        var defaultValue: any PreferenceValue {
          switch self {
          case .encoding: String.Encoding.utf8.rawValue
          case .name: "x"
          case .computed: makeDefault()
          case .set: Set([1, 2])
          case .largest: max(1, 2)
          case .themes: [Theme.dark, .light]
          case .all: Theme.allCases
          case .count: rawValue.count
          case .secret: hiddenDefault()
          }
        }
      }
      enum Theme: String, CaseIterable { case light, dark }
      private func hiddenDefault() -> Int { 0 }
      private enum Hidden: String, PreferenceKeys {
        case a
        var defaultValue: any PreferenceValue { 1 }
      }
      enum Looked: String, PreferenceKeys {
        case a
        var defaultValue: any PreferenceValue { Self.table[self]! }
      }
      """)
    let messages = warnings(result)
    #expect(messages.count == 3, "\(messages)")
    #expect(
      messages.contains(
        "Sources/App/File.swift:12:5: warning: the build plugin cannot read the type of 'AppKeys.count' from its default 'rawValue.count', so the key has no type and the keyed store cannot read or write it; write the type with 'as' ('rawValue.count as T') or as a conversion ('T(rawValue.count)')"
      ), "an instance member: only the case can evaluate it")
    #expect(
      messages.contains { $0.contains("'AppKeys.secret' from its default 'hiddenDefault()'") }, "private")
    #expect(messages.contains { $0.contains("the type of 'Looked.a' from its default 'Self.table[self]!'") })
    #expect(errors(result).count == 1)
    #expect(
      errors(result).first?.contains("typed keys for 'Hidden': 'Hidden' is private to its file") == true)
    #expect(
      keys(result, "AppKeys") == [
        "name": "String", "themes": "[Theme]", "all": "[Theme]",
        "encoding": "AppKeys._PreferenceKeyType_encoding._PreferenceKeyValue",
        "computed": "AppKeys._PreferenceKeyType_computed._PreferenceKeyValue",
        "set": "AppKeys._PreferenceKeyType_set._PreferenceKeyValue",
        "largest": "AppKeys._PreferenceKeyType_largest._PreferenceKeyValue",
      ])
    let generated = RegistryRenderer.typedKeys(result.typedKeys)
    #expect(
      generated.contains(
        """
        extension AppKeys {
        #sourceLocation(file: "Sources/App/File.swift", line: 7)
          nonisolated enum _PreferenceKeyType_computed: _Preferences.KeyDefaultType { static let _preferenceKeyDefault = { @MainActor @Sendable in makeDefault() } }
        """), "\(generated)")
    #expect(
      generated.contains(
        "extension _Preferences.TypedKey where Keys == AppKeys, Value == AppKeys._PreferenceKeyType_set._PreferenceKeyValue {\n  nonisolated static var set: Self { Self(AppKeys.set) }"
      ), "\(generated)")
    #expect(result.typedKeys.first { $0.keysType == "AppKeys" }?.namesImportedTypes == true)
  }

  /// An argument's label is not a name the default reads (`rawValue:` is not the case's raw
  /// value), and the module types a compiler-typed default names are made storable, where it
  /// stores them or keys a dictionary by them.
  @Test func labelsAreNotReadsAndTheTypesACompilerTypedDefaultNamesConform() {
    let result = scan(
      """
      enum AppKeys: String, PreferenceKeys {
        case tint, fallback, flags, keyed
        var defaultValue: any PreferenceValue {
          switch self {
          case .tint: KitTint(rawValue: "red")
          case .fallback: KitTint(rawValue: "x") ?? .blue
          case .flags: pick([Mode.on: true])
          case .keyed: pick(["a": 1, hiddenKey: 2])
          }
        }
      }
      enum Mode: String { case on, off }
      private let hiddenKey = "b"
      """)
    // A dictionary's key is a read, not a label: `hiddenKey` is private to its file.
    #expect(warnings(result).count == 1)
    #expect(warnings(result).first?.contains("the type of 'AppKeys.keyed'") == true)
    #expect(errors(result) == [])
    #expect(result.typedKeys.first?.witnesses.map(\.caseName) == ["fallback", "flags", "tint"])
    let mode = result.conformances.first { $0.typeName == "Mode" }
    #expect(mode?.storage == .rawValue)
    #expect(mode?.keyStorage == .rawValue)
  }

  /// The generated index names each key's value type, so it repeats the imports of a keys file
  /// whose types come from another module (`Date` from Foundation), even a file without a
  /// preference; keys of standard and the module's own types need none. Levels follow
  /// `importLines`: kept for public keys, `internal` otherwise.
  @Test(arguments: [
    ("import Foundation", "", "Date(timeIntervalSince1970: 0)", ["import Foundation"]),
    ("import Foundation", "", "0.5", []),
    ("import Foundation", "", "Theme.dark", []),
    ("import Foundation", "", "[String: Date]()", ["import Foundation"]),
    (
      "public import Foundation", "public ", "URL(string: \"https://swift.org\")!",
      ["public import Foundation"]
    ),
    ("public import Foundation", "", "Data()", ["internal import Foundation"]),
  ])
  func theIndexRepeatsTheImportsOfKeysOfImportedTypes(
    importLine: String, access: String, value: String, expected: [String]
  ) {
    let result = scan([
      (
        "Sources/App/Keys.swift",
        """
        \(importLine)
        \(access)enum Theme: String { case light, dark }
        \(access)enum AppKeys: String, PreferenceKeys {
          case name, value
          \(access)var defaultValue: any PreferenceValue {
            switch self {
            case .name: "Anonymous"
            case .value: \(value)
            }
          }
        }
        """
      ),
      ("Sources/App/Screen.swift", "import Kit\nstruct Screen { @Preference var shown = true }"),
    ])
    let index = RegistryRenderer.files(result, module: "App", tableFiles: [], plannedName: { _ in nil }) {
      _, _ in
    }
    .index
    let imports = index.split(separator: "\n").filter {
      $0.contains("import ") && !$0.contains("Preferences")
    }
    #expect(imports.map(String.init) == expected, "\(index)")
    // The single file (tools, fixtures) repeats the keys file's imports too, at their levels.
    let single = RegistryRenderer.singleFile(result, module: "App")
    #expect(single.contains("import Foundation") == !expected.isEmpty, "\(single)")
  }
}
