import Foundation
import Testing

@testable import Preferences

/// Counts the evaluations of the defaults below.
enum DefaultEvaluations {
  static let counts = Locked<[String: Int]>([:])

  static func count<Value>(_ name: String, _ value: Value) -> Value {
    counts.withLock { $0[name, default: 0] += 1 }
    return value
  }

  static func count(of name: String) -> Int { counts.withLock { $0[name] ?? 0 } }
}

/// Defaults that do work: one the registry evaluates, and one it cannot reach (a private member),
/// which the declaration keeps.
struct CostlyDefaults {
  nonisolated static let store = PreferenceStore.inMemory()
  @Preference(store: CostlyDefaults.store) var stamp = DefaultEvaluations.count("stamp", 7)
  @Preference(store: CostlyDefaults.store) var limit = CostlyDefaults.hiddenLimit()
  @Preference(store: CostlyDefaults.store) var title = "Untitled"
  @Preference(store: CostlyDefaults.store) var note: String?

  private static func hiddenLimit() -> Int { DefaultEvaluations.count("limit", 3) }
}

extension CostlyDefaults {
  var stampWrapper: Preference<Int> { _stamp }
}

@Suite(.serialized) struct DeclarationDefaultsTests {
  /// Creating a value that declares preferences evaluates no default: a view created a thousand
  /// times evaluates `Date()` or a decoder once, when the registry registers it.
  @Test func creatingAValueEvaluatesNoDefaultAndEachDefaultRunsOnce() throws {
    // The module's first read registers its defaults in every store it names, so another
    // test's read may have evaluated this one already: once at most.
    let registered = DefaultEvaluations.count(of: "stamp")
    #expect(registered <= 1)
    let values = (0..<1_000).map { _ in CostlyDefaults() }
    #expect(DefaultEvaluations.count(of: "stamp") == registered, "creating values evaluates nothing")
    #expect(
      DefaultEvaluations.count(of: "limit") == 1,
      "a default the registry cannot reach is kept by the declaration's first initialization")
    let plan = try #require(PreferenceRegistry.preference(forKey: "CostlyDefaults.limit"))
    #expect(plan.registration == .firstRead, "the fixture is what it means to be")

    #expect(values.allSatisfy { $0.stamp == 7 && $0.limit == 3 && $0.title == "Untitled" && $0.note == nil })
    #expect(DefaultEvaluations.count(of: "stamp") == 1, "the registry evaluated it once")
    #expect(DefaultEvaluations.count(of: "limit") == 1)
    let store = CostlyDefaults.store
    #expect(store.registeredDefault(forKey: "CostlyDefaults.stamp") == .integer(7))
    #expect(
      store.registeredDefault(forKey: "CostlyDefaults.limit") == .integer(3), "registered by its first read")

    // Reads after writes and removals take the same defaults, evaluating nothing again.
    let value = CostlyDefaults()
    value.stamp = 8
    value.limit = 4
    #expect(CostlyDefaults().stamp == 8 && CostlyDefaults().limit == 4)
    value.$stamp.removeValue()
    value.$limit.removeValue()
    #expect(value.stamp == 7 && value.limit == 3)
    #expect(
      value.$stamp.defaultValue == 7 && value.$limit.defaultValue == 3 && value.$note.defaultValue == nil)
    #expect(DefaultEvaluations.count(of: "stamp") == 1 && DefaultEvaluations.count(of: "limit") == 1)
  }

  /// A stored value of another type, or a default another module registered under the key with
  /// another type, reads as this declaration's own default, reported, never a substitute.
  @Test func aValueOfAnotherTypeReadsTheDeclarationsOwnDefault() {
    Diagnostics.start()
    let value = CostlyDefaults()
    let store = CostlyDefaults.store
    _ = value.stamp
    store.backend.setValue(.string("seven"), forKey: "CostlyDefaults.stamp")
    store.externalChange(["CostlyDefaults.stamp"])
    #expect(value.stamp == 7)
    #expect(value.title == "Untitled")
    store.backend.setValue(.bool(true), forKey: "CostlyDefaults.title")
    store.externalChange(["CostlyDefaults.title"])
    #expect(value.title == "Untitled")
    store.backend.setValue(nil, forKey: "CostlyDefaults.title")
    store.externalChange(["CostlyDefaults.title"])
    // Another module's default of another type, registered last, wins the key's registration.
    store.register(defaults: ["CostlyDefaults.title": 42])
    #expect(value.title == "Untitled")
    #expect(value.$title.defaultValue == "Untitled")
    #expect(!Diagnostics.reported(mentioning: "CostlyDefaults.stamp").isEmpty, "a mismatch is reported")
    #expect(!Diagnostics.reported(mentioning: "CostlyDefaults.title").isEmpty)
    store.backend.setValue(nil, forKey: "CostlyDefaults.stamp")
    store.register(defaults: ["CostlyDefaults.title": "Untitled"])
  }

  /// A value that holds only preferences is as small as their locations: two words each.
  @Test func aWrapperHoldsOnlyWhereItWasDeclared() {
    #expect(MemoryLayout<Preference<String>>.size == 2 * MemoryLayout<UInt>.size)
    #expect(MemoryLayout<Preference<[String: [Int]]>>.size == 2 * MemoryLayout<UInt>.size)
    #expect(_isPOD(Preference<String>.self), "nothing to retain or release")
    #expect(CostlyDefaults().stampWrapper == CostlyDefaults().stampWrapper)
  }
}
