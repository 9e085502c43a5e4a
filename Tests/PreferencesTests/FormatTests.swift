import Foundation
import Testing

@testable import Preferences

/// A settings model ported from `@AppStorage`, whose previous version stored arrays and
/// dictionaries as JSON text (`extension Array: RawRepresentable`).
struct PortedSettings {
  nonisolated static let store = PreferenceStore.inMemory()
  @Preference(key: "recently_used_languages", store: PortedSettings.store, format: .json)
  var recentLanguages: [String] = ["en"]
  @Preference(key: "column_widths", store: PortedSettings.store, format: .json) var widths = ["main": 300]
  @Preference(key: "plain_list", store: PortedSettings.store) var plainList: [String] = []
}

/// The previous app version's reader: `@AppStorage`'s `RawRepresentable` idiom.
private func previousVersionReads<Value: Decodable>(_ stored: PropertyListValue?, as type: Value.Type)
  -> Value?
{
  guard case .string(let text)? = stored else { return nil }
  return try? JSONDecoder().decode(Value.self, from: Data(text.utf8))
}

/// What the previous version wrote.
private func previousVersionWrote<Value: Encodable>(_ value: Value) throws -> PropertyListValue {
  .string(String(decoding: try JSONEncoder().encode(value), as: UTF8.self))
}

@Suite(.serialized) struct FormatTests {
  init() { PortedSettings.store.removeAllValues() }

  @Test func jsonDeclarationsReadWhatThePreviousVersionStoredAndWriteWhatItReads() throws {
    let store = PortedSettings.store
    store.backend.setValue(try previousVersionWrote(["fr", "de"]), forKey: "recently_used_languages")
    store.externalChange(["recently_used_languages"])
    let settings = PortedSettings()
    #expect(settings.recentLanguages == ["fr", "de"])
    settings.recentLanguages.append("it")
    let stored = store.backend.value(forKey: "recently_used_languages")
    #expect(previousVersionReads(stored, as: [String].self) == ["fr", "de", "it"], "a rollback reads it")
    // A fresh store over the same data reads it too.
    let fresh = PreferenceStore.inMemory()
    fresh.backend.setValue(stored, forKey: "recently_used_languages")
    #expect(fresh.value(forKey: "recently_used_languages", default: [String]()) == ["fr", "de", "it"])
  }

  @Test func jsonDefaultsAreRegisteredAsJSONText() throws {
    let settings = PortedSettings()
    #expect(settings.widths == ["main": 300])
    let registered = PortedSettings.store.registeredDefault(forKey: "recently_used_languages")
    #expect(previousVersionReads(registered, as: [String].self) == ["en"])
    #expect(
      previousVersionReads(
        PortedSettings.store.registeredDefault(forKey: "column_widths"), as: [String: Int].self) == [
          "main": 300
        ])
    #expect(!settings.$recentLanguages.hasStoredValue)
  }

  @Test func aJSONDeclarationReadsThePropertyListFormToo() {
    let store = PortedSettings.store
    store.backend.setValue(.array([.string("nl")]), forKey: "recently_used_languages")
    store.externalChange(["recently_used_languages"])
    #expect(PortedSettings().recentLanguages == ["nl"])
  }

  @Test func anyDeclarationReadsJSONTextOtherCodeStored() throws {
    let store = PortedSettings.store
    store.backend.setValue(try previousVersionWrote(["a", "b"]), forKey: "plain_list")
    store.externalChange(["plain_list"])
    let settings = PortedSettings()
    #expect(settings.plainList == ["a", "b"])
    // Without format: .json, a write stores the property-list form.
    settings.plainList = ["c"]
    #expect(store.backend.value(forKey: "plain_list") == .array([.string("c")]))
  }

  @Test func theSameKeyConversionRunsOnceAndLeavesWhatItCannotRead() throws {
    let store = PreferenceStore.inMemory()
    store.backend.setValue(try previousVersionWrote(["x", "y"]), forKey: "languages")
    store.set("not a list", forKey: "other")
    #expect(store.convertStoredValue(forKey: "languages", as: [String].self, to: .propertyList))
    #expect(store.backend.value(forKey: "languages") == .array([.string("x"), .string("y")]))
    #expect(!store.convertStoredValue(forKey: "languages", as: [String].self, to: .propertyList), "run once")
    #expect(!store.convertStoredValue(forKey: "other", as: [String].self, to: .propertyList))
    #expect(store.backend.value(forKey: "other") == .string("not a list"))
    #expect(!store.convertStoredValue(forKey: "missing", as: [String].self, to: .json))
    // And back, for a rollback-safe representation.
    #expect(store.convertStoredValue(forKey: "languages", as: [String].self, to: .json))
    #expect(previousVersionReads(store.backend.value(forKey: "languages"), as: [String].self) == ["x", "y"])
  }

  @Test func aStoreKeyCanBeSetToJSONWithoutTheWrapper() throws {
    let store = PreferenceStore.inMemory()
    store.useFormat(.json, forKeys: ["tags"])
    store.set(["a"], forKey: "tags")
    #expect(store.backend.value(forKey: "tags") == .string(#"["a"]"#))
    #expect(store.value(forKey: "tags", default: [String]()) == ["a"])
    store.set([String]?.none, forKey: "tags")
    #expect(!store.hasStoredValue(forKey: "tags"), "nil removes in every format")
  }
}
