import Foundation
import Testing

@testable import Preferences

/// Numbers the evaluations of the defaults below: each evaluation yields another value.
enum DefaultEvaluations {
  static let counts = Locked<[String: Int]>([:])

  static func next(_ name: String) -> Int {
    counts.withLock { counts in
      counts[name, default: 0] += 1
      return counts[name]!
    }
  }

  static func count(of name: String) -> Int { counts.withLock { $0[name] ?? 0 } }
}

/// Defaults that differ at each evaluation: one the registry evaluates, and one it cannot reach
/// (a private member), which the declaration keeps.
struct CostlyDefaults {
  nonisolated static let store = PreferenceStore.inMemory()
  @Preference(store: CostlyDefaults.store) var stamp = DefaultEvaluations.next("stamp")
  @Preference(store: CostlyDefaults.store) var limit = CostlyDefaults.hiddenLimit()
  @Preference(store: CostlyDefaults.store) var title = "Untitled"
  @Preference(store: CostlyDefaults.store) var note: String?

  private static func hiddenLimit() -> Int { DefaultEvaluations.next("limit") }
}

extension CostlyDefaults {
  var stampWrapper: Preference<Int> { _stamp }
}

@Suite(.serialized) struct DeclarationDefaultsTests {
  /// Every instance reads one default, the registry's, however many times the declaration's
  /// initial value is evaluated (as a stored property's, at each creation); a default the
  /// registry cannot reach is the one the first creation kept, registered by the first read.
  @Test func everyInstanceReadsOneDefaultWhateverEachCreationEvaluated() throws {
    let plan = try #require(PreferenceRegistry.preference(forKey: "CostlyDefaults.limit"))
    #expect(plan.registration == .firstRead, "the fixture is what it means to be")
    let values = (0..<100).map { _ in CostlyDefaults() }
    #expect(DefaultEvaluations.count(of: "limit") >= 100, "evaluated at each creation")
    let store = CostlyDefaults.store
    // The registry evaluated `stamp` once, when the module first registered (in this test or
    // before it); every instance reads that.
    let stamp = values[50].stamp
    #expect(store.registeredDefault(forKey: "CostlyDefaults.stamp") == .integer(Int64(stamp)))
    #expect(
      values.allSatisfy { $0.stamp == stamp && $0.limit == 1 && $0.title == "Untitled" && $0.note == nil })
    #expect(
      store.registeredDefault(forKey: "CostlyDefaults.limit") == .integer(1), "registered by its first read")
    #expect(CostlyDefaults().stamp == stamp && CostlyDefaults().limit == 1)

    // Reads after writes and removals read the same defaults.
    let value = CostlyDefaults()
    value.stamp = -1
    value.limit = -1
    #expect(values[7].stamp == -1 && values[7].limit == -1)
    value.$stamp.removeValue()
    value.$limit.removeValue()
    #expect(value.stamp == stamp && value.limit == 1)
    #expect(
      value.$stamp.defaultValue == stamp && value.$limit.defaultValue == 1 && value.$note.defaultValue == nil)
  }

  /// A default is evaluated once per process: a second store (here a test's stand-in of the
  /// declared store) registers the same value, not a new evaluation.
  @Test func everyStoreRegistersTheOneEvaluationOfADefault() throws {
    _ = CostlyDefaults().title  // the module registered
    let first = try #require(CostlyDefaults.store.registeredDefault(forKey: "CostlyDefaults.stamp"))
    PreferenceStandIns().run {
      #expect(PropertyListValue.integer(Int64(CostlyDefaults().stamp)) == first)
    }
  }

  /// A stored value of another type, or a default another module registered under the key with
  /// another type, reads as this declaration's own default, reported, never a substitute.
  @Test func aValueOfAnotherTypeReadsTheDeclarationsOwnDefault() {
    Diagnostics.start()
    let value = CostlyDefaults()
    let store = CostlyDefaults.store
    let stamp = value.stamp
    store.backend.setValue(.string("seven"), forKey: "CostlyDefaults.stamp")
    store.externalChange(["CostlyDefaults.stamp"])
    #expect(value.stamp == stamp)
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
