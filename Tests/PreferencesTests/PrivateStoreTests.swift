import Foundation
import Testing

@testable import Preferences

/// A store only this file sees: a run-time choice (a UI-test suite) kept `private`.
struct PrivateStoreScreen {
  private static let uiTests = PreferenceStore.inMemory()
  @Preference(store: Self.uiTests) var draft = "empty"
  @Preference(store: .screenLocal) var zoom = 1.5

  static var uiTestsForTests: PreferenceStore { uiTests }
}

extension PreferenceStore {
  fileprivate static let screenLocal = PreferenceStore.inMemory()
  static var screenLocalForTests: PreferenceStore { screenLocal }
}

/// `@Preference(store:)` naming a `private` or `fileprivate` store: the declaration evaluates it
/// (generated code cannot see it) and hands it to the registry when it is first created.
@Suite struct PrivateStoreTests {
  @Test func aPrivateStoreHoldsTheDeclarationsValues() throws {
    var screen = PrivateStoreScreen()
    let store = PrivateStoreScreen.uiTestsForTests
    #expect(screen.$draft.store === store)
    #expect(screen.$zoom.store === PreferenceStore.screenLocalForTests)
    #expect(screen.draft == "empty")
    // Its default is registered there, as every other preference's is in its store.
    #expect(store.registeredDefault(forKey: "PrivateStoreScreen.draft") == .string("empty"))
    screen.draft = "Dear Paul"
    screen.zoom = 2
    #expect(store.value(forKey: "PrivateStoreScreen.draft", default: "") == "Dear Paul")
    #expect(PreferenceStore.screenLocalForTests.value(forKey: "PrivateStoreScreen.zoom", default: 0.0) == 2)
    #expect(!PreferenceStore.default.hasStoredValue(forKey: "PrivateStoreScreen.draft"))
    // A second value of the type shares the one store.
    #expect(PrivateStoreScreen().draft == "Dear Paul")
    // The registry knows the store once a value was created: export includes the value.
    let descriptor = try #require(PreferenceRegistry.preference(forKey: "PrivateStoreScreen.draft"))
    #expect(descriptor.storeIsKeptByDeclaration)
    #expect(PreferenceRegistry.exportValues().values["PrivateStoreScreen.draft"] == .string("Dear Paul"))
  }
}
