import Testing

@testable import PreferencesScannerCore

/// Types with `@available` attributes: generated code that names them repeats their
/// availability, and does not name a deprecated one.
@Suite struct AvailabilityTests {
  @Test func attributesAreReadInEveryForm() {
    let short = Availability(["@available(iOS 17, macOS 14.2, *)"])
    #expect(short.condition == "iOS 17, macOS 14.2, *")
    #expect(!short.isDeprecated)

    // The long form, one platform per attribute; a type nested in another takes the later
    // version of each platform, in the order first named.
    let nested = Availability([
      "@available(iOS, introduced: 15.0)",
      "@available(macOS, introduced: 12, deprecated: 14, message: \"Use B, or C\")",
      "@available(iOS 17.1, *)",
    ])
    #expect(nested.condition == "iOS 17.1, macOS 12, *")
    #expect(nested.isDeprecated, "a platform's deprecation deprecates")
    #expect(!nested.isUnavailable)

    #expect(Availability(["@available(*, deprecated, message: \"Use (B), not A\")"]).isDeprecated)
    let unavailable = Availability(["@available(*, unavailable)"])
    #expect(unavailable.isUnavailable && !unavailable.isDeprecated)
    #expect(Availability(["@available(watchOS, unavailable)"]).isUnavailable)
    #expect(Availability(["@available(iOS, introduced: 12, obsoleted: 17)"]).isUnavailable)
    // Where `#if` can tell, the condition under which code may name it.
    #expect(unavailable.compiledCondition == "false")
    #expect(Availability(["@available(watchOS, unavailable)"]).compiledCondition == "!os(watchOS)")
    #expect(
      Availability(["@available(watchOS, unavailable)", "@available(tvOS, unavailable, message: \"No\")"])
        .compiledCondition == "!(os(watchOS) || os(tvOS))")
    #expect(Availability(["@available(iOS, introduced: 12, obsoleted: 17)"]).compiledCondition == nil)
    #expect(Availability(["@available(iOSApplicationExtension, unavailable)"]).compiledCondition == nil)
    #expect(nested.compiledCondition == nil)
    #expect(Availability(["@available(*, deprecated)"]).condition == nil)
    #expect(!Availability(["@available(*, noasync)"]).isDeprecated)
    // What `#available` does not take, or does not check at run time: nothing to guard.
    #expect(Availability(["@available(iOSApplicationExtension 14, *)"]).condition == nil)
    #expect(Availability(["@available(swift 5.9)"]).condition == nil)
    #expect(Availability([]).attributes.isEmpty)
    #expect(Availability(["@available(iOS 17, *)", "@available(iOS 17, *)"]).attributes.count == 1)
  }

  @Test func generatedCodeRepeatsATypesAvailabilityAndChecksItBeforeNamingTheType() {
    let result = scan(
      """
      @available(iOS 17, macOS 14, *)
      enum Mode: String { case a, b }

      @available(iOS 17, macOS 14, *)
      struct NewSettings {
        static let initial = Mode.a
        static let shared = PreferenceStore.standard
        @Preference var mode = Self.initial
        @Preference(store: .suite("group.app")) var count = 1
        @Preference(store: Self.shared) var total = 1
      }

      struct Outer {
        @available(iOS, introduced: 18)
        struct Inner {
          static let start = 2
          @Preference var level = Self.start
        }
      }
      """)
    #expect(errors(result).isEmpty)
    let code = RegistryRenderer.singleFile(result, module: "App")
    let check = "if #available(iOS 17, macOS 14, *) {"
    #expect(code.contains("\(check) return NewSettings._preferenceDefault_mode() } else { return nil }"))
    #expect(code.contains("\(check) return NewSettings._preference_store_count() } else { return nil }"))
    // A store the main actor may have to create (a `static let` in a default-isolation target):
    // on an OS older than the type, which never runs its code, the default store stands in.
    #expect(
      code.contains(
        "\(check) return NewSettings._preference_store_total() } else { return _Preferences.Store.default }"))
    #expect(code.contains("@available(iOS 17, macOS 14, *)\nextension NewSettings {"))
    #expect(code.contains("@available(iOS 17, macOS 14, *) extension Mode: "), "the conformance too")
    #expect(code.contains("@available(iOS, introduced: 18)\nextension Outer.Inner {"))
    #expect(code.contains("if #available(iOS 18, *) { return Outer.Inner._preferenceDefault_level() }"))
  }

  /// A `PreferenceKeys` enum available from a later OS version, or deprecated, or inside such a
  /// type: the typed keys' extensions name it, so each repeats its attributes (else the
  /// compiler says it is only available in a later version, or warns that it is deprecated).
  @Test func typedKeysRepeatTheirEnumsAvailability() {
    let result = scan(
      """
      @available(iOS 17, macOS 14, *)
      enum NewKeys: String, PreferenceKeys {
        case name, count
        var defaultValue: any PreferenceValue {
          switch self {
          case .name: "Anonymous"
          case .count: 0
          }
        }
      }

      @available(*, deprecated, message: "Use NewKeys")
      enum LegacyKeys: String, PreferenceKeys {
        case name
        var defaultValue: any PreferenceValue { switch self { case .name: "x" } }
      }

      @available(iOS, introduced: 18)
      struct Screen {
        enum Keys: String, PreferenceKeys {
          case zoom
          var defaultValue: any PreferenceValue { switch self { case .zoom: 1.0 } }
        }
      }

      enum PlainKeys: String, PreferenceKeys {
        case on
        var defaultValue: any PreferenceValue { switch self { case .on: true } }
      }
      """)
    #expect(errors(result).isEmpty, "\(errors(result))")
    let text = RegistryRenderer.typedKeys(result.typedKeys)
    let new = "@available(iOS 17, macOS 14, *)\nextension _Preferences.TypedKey where Keys == NewKeys"
    #expect(text.contains(new + ", Value == Int {\n"))
    #expect(text.contains(new + ", Value == String {\n"))
    #expect(
      text.contains(
        "@available(*, deprecated, message: \"Use NewKeys\")\nextension _Preferences.TypedKey where Keys == LegacyKeys, Value == String {\n"
      ))
    #expect(
      text.contains(
        "@available(iOS, introduced: 18)\nextension _Preferences.TypedKey where Keys == Screen.Keys, Value == Double {\n"
      ), "the enclosing type's")
    #expect(text.contains("}\nextension _Preferences.TypedKey where Keys == PlainKeys, Value == Bool {\n"))
  }

  /// A deprecated type's defaults and stores are evaluated by the registry, as any other type's:
  /// in the type's extension, which repeats its attributes, called from a table function and an
  /// index function that are deprecated too, so that none draws the compiler's warning (the
  /// integration test builds such a type and fails on any warning in generated code).
  @Test func aDeprecatedTypeIsNamedOnlyFromCodeAsDeprecatedAsIt() {
    let result = scan(
      """
      @available(*, deprecated, message: "Use Options")
      struct LegacyOptions {
        static let standard = 10
        @Preference var timeout = Self.standard
        @Preference(store: .suite("group.legacy")) var retries = 3
      }
      """)
    #expect(errors(result).isEmpty)
    #expect(result.plan("LegacyOptions.timeout")?.registrationKind == "defaultIsolation")
    let code = RegistryRenderer.singleFile(result, module: "App")
    let deprecated = RegistryRenderer.deprecatedCaller
    #expect(code.contains("@available(*, deprecated, message: \"Use Options\")\nextension LegacyOptions {"))
    #expect(code.contains(deprecated + "nonisolated func _Preferences_File() -> _Preferences.FileTable {"))
    #expect(
      code.contains(
        "  " + deprecated + "  @usableFromInline nonisolated static func _preferenceFiles() -> [Any] {"))
    #expect(code.contains("case 0: return .defaultIsolation { LegacyOptions._preferenceDefault_timeout() }"))
    #expect(code.contains("case 1: return LegacyOptions._preference_store_retries()"))

    // A table that names no deprecated type, and an index that calls no such table, are not.
    let plain = RegistryRenderer.singleFile(
      scan("struct Options {\n  static let standard = 10\n  @Preference var timeout = Self.standard\n}"),
      module: "App")
    #expect(!plain.contains("deprecated"))
    // Nor is a deprecated type's table that names nothing (every default a literal).
    let literal = RegistryRenderer.singleFile(
      scan("@available(*, deprecated)\nstruct Old {\n  @Preference var count = 1\n}"), module: "App")
    #expect(!literal.contains(deprecated))
  }

  @Test func attributesAreReadAsWrittenAndKeptByTheParseCache() throws {
    let source = Array(
      """
      @available(iOS 17, /* the first with it */ macOS 14,
                 *)
      @MainActor public struct A {
        @available(*, deprecated, message: "Use B")
        struct Inner {}
        @available(*, deprecated, message: "Use limit")
        @Preference var oldLimit = 5
        @MainActor @Preference @available(*, deprecated /* gone */) var oldCount = 1
        @Preference var limit = 10
      }
      """.utf8)
    let syntax = FileParser.parse(path: "A.swift", module: "App", contents: source)
    #expect(
      syntax.scopes.map(\.availability) == [
        ["@available(iOS 17, macOS 14, *)"], [#"@available(*, deprecated, message: "Use B")"#],
      ])
    #expect(
      syntax.preferences.map(\.availability) == [
        [#"@available(*, deprecated, message: "Use limit")"#], ["@available(*, deprecated )"], [],
      ], "a preference's own, before or after @Preference")
    var writer = ArchiveWriter()
    writer.item(syntax)
    var reader = ArchiveReader(writer.bytes)
    let decoded = try reader.item(FileSyntax.self)
    #expect(decoded.scopes.map(\.availability) == syntax.scopes.map(\.availability))
    #expect(decoded.preferences.map(\.availability) == syntax.preferences.map(\.availability))
  }

  /// A type unavailable on some platform (`@available(watchOS, unavailable)` in a multiplatform
  /// app) may be named only by code unavailable there too, which the index's protocol witness
  /// cannot be: its defaults are kept at first creation and registered at the first read, and no
  /// generated code outside its extension names it.
  @Test func aTypeUnavailableOnSomePlatformIsNotNamedByTheRegistry() {
    let result = scan(
      """
      @available(watchOS, unavailable)
      struct DesktopSettings {
        static let columns = 3
        @Preference var layout = Self.columns
        @Preference var zoom = 1.0
        @Preference(store: .suite("group.desktop")) var zoomed = false
      }
      """)
    #expect(errors(result).isEmpty)
    #expect(result.plan("DesktopSettings.layout")?.registrationKind == "firstRead")
    #expect(result.plan("DesktopSettings.zoom")?.registrationKind == "registry", "a literal needs no code")
    let code = RegistryRenderer.singleFile(result, module: "App")
    #expect(!code.contains(RegistryRenderer.deprecatedCaller))
    // Its store, named in a table's closure only where the type is available.
    #expect(
      code.contains(
        "#if !os(watchOS)\n      case 2: return DesktopSettings._preference_store_zoomed()\n#endif\n"))
    #expect(code.components(separatedBy: "DesktopSettings._").count == 2, "named nowhere else")
    #expect(code.contains("case 4: return true"), "the declaration keeps its default: \(code)")
  }

  /// A deprecated preference: generated code that names it (the lock's check of its type) is
  /// deprecated alike, and so is the table that evaluates its default, so that neither draws the
  /// compiler's warning.
  @Test func aDeprecatedPreferenceIsNamedOnlyFromCodeAsDeprecatedAsIt() {
    let result = scan(
      """
      struct Limits {
        static let standard = 5
        @available(*, deprecated, message: "Use limit")
        @Preference var oldLimit = Self.standard
        @Preference var limit = 10
      }
      """, lock: "Limits.oldLimit: Int\nLimits.limit: Int\n")
    #expect(errors(result).isEmpty, "\(errors(result))")
    let code = RegistryRenderer.singleFile(result, module: "App")
    // `limit` (a literal default, its type checked by the compiler) needs none.
    #expect(code.components(separatedBy: "\nextension Limits {").count == 2, "one extension: \(code)")
    let deprecatedExtension = "@available(*, deprecated, message: \"Use limit\")\nextension Limits {"
    #expect(code.contains(deprecatedExtension))
    let deprecated = code.components(separatedBy: deprecatedExtension)[1].components(separatedBy: "\n}\n")[0]
    #expect(deprecated.contains("_preferenceLock_oldLimit_check()"))
    #expect(deprecated.contains("_preferenceDefault_oldLimit()"))
    #expect(code.contains(RegistryRenderer.deprecatedCaller + "nonisolated func _Preferences_File()"))
  }
}
