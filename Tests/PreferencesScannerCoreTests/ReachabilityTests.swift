import Testing

@testable import PreferencesScannerCore

/// The registry evaluates defaults and stores in a file of its own and off the main actor; what
/// it cannot reach is registered at first read (defaults) or reported (stores).
@Suite struct ReachabilityTests {
  func blockers(_ source: String) -> [String: String] {
    var result: [String: String] = [:]
    for preference in scan(source).preferences {
      result[preference.key] = preference.registrationBlocker ?? "registered"
    }
    return result
  }

  @Test func defaultsUsingPrivateNamesAreRegisteredAtFirstRead() {
    let found = blockers(
      """
      struct Screen {
        private static let hidden = 5
        fileprivate static func make() -> Int { 1 }
        private(set) static var visible = 2
        @Preference var a = Self.hidden
        @Preference var b = Screen.make()
        @Preference var c = Self.visible
        @Preference var d = helper()
        @Preference var e = Limits.maximum
        @Preference var f = Layout(count: 2)
        private var count = 0
      }
      private func helper() -> Int { 9 }
      private enum Limits { static let maximum = 3 }
      """)
    #expect(found["Screen.a"] == "its default uses 'hidden', which is private to its file")
    #expect(found["Screen.b"] == "its default uses 'make', which is private to its file")
    #expect(found["Screen.c"] == "registered")
    #expect(found["Screen.d"] == "its default uses 'helper', which is private to its file")
    #expect(found["Screen.e"] == "its default uses 'Limits', which is private to its file")
    #expect(found["Screen.f"] == "registered", "an argument label is not a reference")
  }

  @Test func defaultsReadingMembersOfMainActorTypesAreRegisteredAtFirstRead() {
    let found = blockers(
      """
      @MainActor
      struct Isolated {
        static let columns = 3
        nonisolated static let rows = 2
        @Preference var a = Self.columns
        @Preference var b = Isolated.rows
        @Preference var c = "literal"
        @Preference var d = Theme.dark
      }
      @available(macOS 14, *) @MainActor final class Controller {
        static let base = 1
        @Preference static var e = base
        @Preference static var f = 7
      }
      struct ContentView: View {
        static let spacing = 8.0
        @Preference var g = Self.spacing
      }
      struct Plain {
        static let columns = 3
        @Preference var h = Self.columns
      }
      @MainActor struct Outer {
        static let size = 1
        struct Inner {
          @Preference var i = Outer.size
        }
      }
      """)
    #expect(found["Isolated.a"] == "its default reads 'Self.columns' of a type isolated by @MainActor")
    #expect(found["Isolated.b"] == "registered")
    #expect(found["Isolated.c"] == "registered")
    #expect(found["Isolated.d"] == "registered")
    #expect(found["Controller.e"] == "its default reads 'base' of a type isolated by @MainActor")
    #expect(found["Controller.f"] == "registered")
    #expect(found["ContentView.g"] == "its default reads 'Self.spacing' of a type isolated by View")
    #expect(found["Plain.h"] == "registered")
    #expect(found["Outer.Inner.i"] == "its default reads 'Outer.size' of a type isolated by @MainActor")
  }

  @Test func storesTheRegistryCannotReachAreErrorsThatNameTheFix() {
    let result = scan(
      """
      struct Screen {
        private static let group = PreferenceStore.suite("g")
        @Preference(store: Self.group) var a = 1
      }
      @MainActor struct Isolated {
        static let shared = PreferenceStore.inMemory()
        nonisolated static let free = PreferenceStore.inMemory()
        @Preference(store: Self.shared) var b = 1
        @Preference(store: Self.free) var c = 1
      }
      """)
    #expect(
      errors(result) == [
        "Sources/App/File.swift:3:4: error: the store of @Preference 'a' uses 'group', which is private to this file, but the generated registry creates the store in another file; make 'group' internal",
        "Sources/App/File.swift:8:4: error: the store of @Preference 'b' reads 'Self.shared' of a type isolated by @MainActor, but the generated registry creates stores off the main actor; declare it 'nonisolated static let', or move it to a type without actor isolation",
      ])
  }
}

extension ReachabilityTests {
  @Test func typesNestedInAGenericTypeDeclaredInAnotherFileAreRegisteredAtFirstRead() {
    let result = PreferenceScanner(module: "App").scan(files: [
      (
        "Sources/App/Holder.swift",
        Array("struct Holder<Element> { struct Direct { @Preference var a = 1 } }".utf8)
      ),
      (
        "Sources/App/Config.swift",
        Array(
          """
          extension Holder {
            struct Config { @Preference var pageSize = 20 }
          }
          extension Other {
            struct Config { @Preference var b = 2 }
          }
          """.utf8)
      ),
    ])
    let blockers = Dictionary(
      uniqueKeysWithValues: result.preferences.map { ($0.key, $0.registrationBlocker ?? "registered") })
    #expect(blockers["Holder.Config.pageSize"] == "'Holder' is generic")
    #expect(blockers["Holder.Direct.a"] == "'Holder' is generic")
    #expect(blockers["Other.Config.b"] == "registered")
  }
}

extension ReachabilityTests {
  /// Found by the fuzzer: a generic type with an empty (backticked) name.
  @Test(arguments: [
    "struct ``<T> { struct I { @Preference var a = 1 } }",
    "struct `.`<T> {}\nstruct S { @Preference var a = 1 }",
  ])
  func oddGenericTypeNamesAreSafe(source: String) {
    #expect(scan(source).preferences.count == 1)
  }
}

extension ReachabilityTests {
  @Test func privateTypesAndMembersOfPrivateExtensionsAreUnreachable() {
    let found = blockers(
      """
      struct Screen {
        private enum Mode: String { case a, b }
        @Preference var mode: Mode = .a
        @Preference var limit = Self.defaultLimit
        @Preference var size = Self.defaultSize
      }
      private extension Screen {
        static let defaultLimit = 3
      }
      extension Screen {
        static let defaultSize = 4
      }
      """)
    #expect(found["Screen.mode"] == "its type uses 'Mode', which is private to its file")
    #expect(found["Screen.limit"] == "its default uses 'defaultLimit', which is private to its file")
    #expect(found["Screen.size"] == "registered")
  }
}

extension ReachabilityTests {
  @Test func membersOfMainActorTypesDeclaredInOtherFilesAreUnreachable() {
    let result = PreferenceScanner(module: "App").scan(files: [
      (
        "Sources/App/Constants.swift",
        Array(
          """
          @MainActor enum Constants {
            static let columns = 3
            nonisolated static let rows = 2
            case a = "x", b = -1
            case c(Int), d
          }
          struct ContentView: View { static let spacing = 8.0 }
          enum Free { static let size = 1 }
          """.utf8)
      ),
      (
        "Sources/App/Settings.swift",
        Array(
          """
          struct Settings {
            @Preference var columns = Constants.columns
            @Preference var rows = Constants.rows
            @Preference var spacing = ContentView.spacing
            @Preference var size = Free.size
            @Preference var first = Constants.a
            @Preference var last = Constants.d
            @Preference var made = Constants()
          }
          """.utf8)
      ),
    ])
    let found = Dictionary(
      uniqueKeysWithValues: result.preferences.map { ($0.key, $0.registrationBlocker ?? "registered") })
    #expect(
      found["Settings.columns"] == "its default reads 'Constants.columns' of a type isolated by @MainActor")
    #expect(found["Settings.rows"] == "registered")
    #expect(found["Settings.spacing"] == "its default reads 'ContentView.spacing' of a type isolated by View")
    #expect(found["Settings.size"] == "registered")
    #expect(found["Settings.first"] == "registered", "enum cases are never isolated")
    #expect(found["Settings.last"] == "registered")
    #expect(found["Settings.made"] == "its default reads 'Constants(…)' of a type isolated by @MainActor")
  }
}
