import Foundation
import Preferences
import Testing

/// Every test here shares the process-wide default store; it is set to memory once, before any
/// preference is read, so nothing reaches the user's real defaults.
enum TestStore {
  static let shared: PreferenceStore = {
    let store = PreferenceStore.inMemory()
    PreferenceStore.default = store
    return store
  }()
}

@Suite(.serialized) struct RegistryIntegrationTests {
  init() { _ = TestStore.shared }

  @Test @MainActor func everyDeclarationResolvesToItsKey() {
    let showcase = Showcase()
    #expect(showcase.$username.key == "Showcase.username")
    #expect(showcase.$highScore.key == "HighScore")
    #expect(showcase.$theme.key == "Showcase.theme")
    #expect(showcase.$default.key == "Showcase.default")
    #expect(showcase.$separate.key == "Showcase.separate")
    #expect(showcase.$sameLine.key == "Showcase.sameLine")
    #expect(Showcase.Inner().$depth.key == "Showcase.Inner.depth")
    #expect(showcase.$build.key == "Showcase.build")
    #expect(Flags.$beta.key == "Flags.beta")
    #expect(Box<Int>().$generic.key == "Box.generic")
    #expect(readHidden().key == "Hidden.secret")
  }

  /// On the main actor, as an app's first read is: defaults that need it are registered too.
  @Test @MainActor func readsReturnDefaultsAndRegisterEveryDefaultCentrally() {
    let showcase = Showcase()
    #expect(showcase.username == "Anonymous")
    let store = TestStore.shared
    #expect(store.registeredDefault(forKey: "Showcase.username") == .string("Anonymous"))
    #expect(store.registeredDefault(forKey: "Showcase.theme") == .string("dark"))
    #expect(store.registeredDefault(forKey: "Showcase.layout") == .string(#"{"columns":2}"#))
    #expect(store.registeredDefault(forKey: "Showcase.default") == .double(0.8))
    #expect(store.registeredDefault(forKey: "Showcase.tags") == .array([.string("a"), .string("b")]))
    #expect(store.registeredDefault(forKey: "Showcase.nickname") == nil)
    #expect(store.registeredDefault(forKey: "Showcase.Inner.depth") == .integer(1))
    #expect(store.registeredDefault(forKey: "Showcase.build") == .string(isDebug ? "debug" : "release"))
    // Defaults of a preference with its own store are registered there, not here.
    #expect(store.registeredDefault(forKey: "Showcase.separate") == nil)
    #expect(showcase.separate == 1.5)
    #expect(Showcase.separateStore.registeredDefault(forKey: "Showcase.separate") == .double(1.5))
    // A private or generic enclosing type cannot be extended by the registry: its default is
    // registered by the first read instead.
    #expect(readHidden().value == 42)
    #expect(store.registeredDefault(forKey: "Hidden.secret") == .integer(42))
  }

  @Test @MainActor func defaultsTheRegistryCannotReachAreRegisteredAtFirstRead() {
    let store = TestStore.shared
    PreferenceRegistry.registerDefaults()
    // A nonisolated member is reachable; a main-actor one and a private one are not.
    #expect(store.registeredDefault(forKey: "IsolatedScreen.rowCount") == .integer(2))
    let blocked = ["IsolatedScreen.columnCount", "PrivateDefaults.limit"]
    let screen = IsolatedScreen()
    let limits = PrivateDefaults()
    #expect(blocked.allSatisfy { PreferenceRegistry.preference(forKey: $0) != nil })
    #expect(screen.columnCount == 3)
    #expect(limits.limit == 10)
    #expect(store.registeredDefault(forKey: "IsolatedScreen.columnCount") == .integer(3))
    #expect(store.registeredDefault(forKey: "PrivateDefaults.limit") == .integer(10))
    #expect(Box<Int>.Config().pageSize == 20)
    #expect(DependentScreen().columns == 4)
    #expect(store.registeredDefault(forKey: "Box.Config.pageSize") == .integer(20))
    #expect(store.registeredDefault(forKey: "DependentScreen.columns") == .integer(4))
  }

  /// A table generated as two static strings (every declaration of its file needs no code)
  /// resolves and registers like a table value.
  @Test func aTableOfStaticStringsResolvesAndRegisters() {
    let literal = LiteralDefaults()
    #expect(literal.$count.key == "LiteralDefaults.count")
    #expect(literal.$enabled.key == "Literal.enabled")
    #expect(literal.count == 3)
    #expect(literal.title == #"Hello, "world""#)
    #expect(literal.lastSearch == nil)
    let store = TestStore.shared
    #expect(store.registeredDefault(forKey: "LiteralDefaults.ratio") == .double(0.25))
    #expect(store.registeredDefault(forKey: "Literal.enabled") == .bool(true))
    #expect(PreferenceRegistry.preference(forKey: "Literal.enabled")?.renamedFrom == ["enabled"])
    literal.ratio = 0.5
    #expect(LiteralDefaults().ratio == 0.5)
    literal.$ratio.removeValue()
    #expect(literal.ratio == 0.25)
  }

  @Test func writesGoToTheStoreAndTheProjectionResets() {
    let showcase = Showcase()
    showcase.username = "Paul"
    showcase.theme = .light
    showcase.layout = Showcase.Layout(columns: 4)
    showcase.nickname = "P"
    #expect(Showcase().username == "Paul")
    #expect(TestStore.shared.backend.value(forKey: "Showcase.username") == .string("Paul"))
    #expect(Showcase().theme == .light)
    #expect(Showcase().layout.columns == 4)
    #expect(showcase.$username.hasStoredValue)
    showcase.$username.removeValue()
    #expect(!showcase.$username.hasStoredValue)
    #expect(showcase.username == "Anonymous")
    showcase.nickname = nil
    #expect(!showcase.$nickname.hasStoredValue)
    showcase.separate = 3
    #expect(Showcase.separateStore.value(forKey: "Showcase.separate", default: 0.0) == 3)
    #expect(TestStore.shared.backend.value(forKey: "Showcase.separate") == nil)
  }

  @Test func theRegistryListsEveryPreference() throws {
    let preferences = PreferenceRegistry.preferences
    // 33 declarations in two files; only one of Showcase's two #if branches is compiled.
    #expect(preferences.count == 32)
    let username = try #require(PreferenceRegistry.preference(forKey: "Showcase.username"))
    #expect(username.documentation == "The user's name.")
    #expect(username.valueType == "String")
    #expect(username.defaultValueSource == "\"Anonymous\"")
    #expect(username.fileID == "RegistryIntegrationTests/Showcase.swift")
    #expect((username.line, username.column) == (10, 4))
    #expect(username.isKeyDerived)
    #expect(PreferenceRegistry.preference(forKey: "HighScore")?.isKeyDerived == false)
    #expect(preferences.filter { $0.key == "Showcase.build" }.count == 1)
    #expect(
      PreferenceRegistry.preference(forKey: "Showcase.build")?.condition == (isDebug ? "(DEBUG)" : "!(DEBUG)")
    )
  }
}

extension RegistryIntegrationTests {
  @Test func renamesMigrateTheNewestOldValueOnceAtRegistration() {
    let showcase = Showcase()
    let store = Showcase.renameStore
    #expect(showcase.displayName == "Newer")
    #expect(store.backend.value(forKey: "Showcase.displayName") == .string("Newer"))
    #expect(!store.hasStoredValue(forKey: "Showcase.userName"))
    #expect(store.value(forKey: "userName", default: "") == "Oldest", "older leftovers are kept, never lost")
    // Once: a value written under the old key later is not moved again.
    store.set("Later", forKey: "Showcase.userName")
    #expect(Showcase().displayName == "Newer")
  }

  @Test func defaultsOfTypesFromOtherModulesAreRegistered() {
    let links = Links()
    #expect(links.homepage == URL(string: "https://example.com"))
    #expect(TestStore.shared.registeredDefault(forKey: "Links.homepage") == .string("https://example.com"))
    #expect(
      TestStore.shared.registeredDefault(forKey: "Links.since") == .date(Date(timeIntervalSince1970: 0)))
  }

  @Test func optionalsWithoutADefaultResolveAndReadNil() {
    let optionals = Optionals()
    #expect(optionals.$lastSearch.key == "Optionals.lastSearch")
    #expect(optionals.$token.key == "LegacyToken")
    #expect(optionals.$spread.key == "Spread")
    #expect(optionals.lastSearch == nil)
    #expect(optionals.spread == nil)
    optionals.spread = 4
    #expect(TestStore.shared.backend.value(forKey: "Spread") == .integer(4))
    #expect(Optionals().spread == 4)
    optionals.spread = nil
    #expect(!optionals.$spread.hasStoredValue)
  }

  @Test func everyOptionReachesTheRegistryThroughTheGeneratedInitializers() {
    let every = EveryOption()
    #expect(every.$font.key == "EveryOption.font")
    #expect(every.$font.store === EveryOption.store)
    #expect(every.font == "Helvetica")
    every.font = "Menlo"
    #expect(
      EveryOption.store.backend.value(forKey: "EveryOption.font") == .string(#""Menlo""#), "stored as JSON")
    #expect(PreferenceRegistry.syncedKeys.contains("EveryOption.font"))
    #expect(!PreferenceRegistry.syncedKeys.contains("EveryOption.motto"))
    #expect(every.$motto.key == "EveryOption.motto")
    #expect(every.$motto.store === EveryOption.store)
    #expect(every.motto == "Carpe diem", "moved from the previous store")
    #expect(!EveryOption.previous.hasStoredValue(forKey: "EveryOption.motto"))
    #expect(PreferenceRegistry.preference(forKey: "EveryOption.motto")?.isExported == false)
    #expect(PreferenceRegistry.preference(forKey: "EveryOption.font")?.isExported == true)
  }

  @Test func wrapperReadsSeeWritesMadeByKey() {
    let showcase = Showcase()
    let store = TestStore.shared
    #expect(showcase.highScore == 0)
    store.set(12, forKey: "HighScore")
    #expect(showcase.highScore == 12)
    #expect(Showcase().highScore == 12)
    store.removeValue(forKey: "HighScore")
    #expect(showcase.highScore == 0)
    showcase.highScore = 3
    store.removeAllValues()
    #expect(showcase.highScore == 0)
    #expect(showcase.$highScore.defaultValue == 0)
  }

  @Test func writesThroughTheWrapperNotifyObserversOnce() {
    let showcase = Showcase()
    let heard = Locked([String]())
    let observation = showcase.$username.observe { value in heard.withLock { $0.append(value) } }
    showcase.username = "Observed"
    showcase.username = "Observed"
    showcase.$username.removeValue()
    #expect(heard.withLock { $0 } == ["Observed", "Anonymous"])
    withExtendedLifetime(observation) {}
  }
}

/// A tiny lock for the tests' recorders.
final class Locked<Value>: @unchecked Sendable {
  // @unchecked: every access to `value` holds `lock`.
  private let lock = NSLock()
  private var value: Value
  init(_ value: Value) { self.value = value }
  func withLock<R>(_ body: (inout Value) -> R) -> R {
    lock.lock()
    defer { lock.unlock() }
    return body(&value)
  }
}

#if DEBUG
  let isDebug = true
#else
  let isDebug = false
#endif
