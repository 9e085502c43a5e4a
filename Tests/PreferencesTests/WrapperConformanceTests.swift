import Foundation
import Testing

@testable import Preferences

/// A type whose synthesized `Hashable` (and so `Equatable`) conformance covers preferences.
struct SearchFilter: Hashable {
  nonisolated static let store = PreferenceStore.inMemory()
  var text = ""
  @Preference(store: SearchFilter.store) var ascending = true
  @Preference(store: SearchFilter.store) var pageSize = 20
}

/// Another declaration of the same value type, to tell declarations apart.
struct OtherFilter {
  nonisolated static let store = PreferenceStore.inMemory()
  @Preference(store: OtherFilter.store) var ascending = true
}

/// What `print` shows of a type that declares a preference.
struct Greeting {
  nonisolated static let store = PreferenceStore.inMemory()
  @Preference(store: Greeting.store) var name = "Anonymous"
  var punctuation = "!"
}

// The wrappers themselves (backing storage is private to the type and this file's extensions).
extension SearchFilter {
  var ascendingWrapper: Preference<Bool> { _ascending }
  var pageSizeWrapper: Preference<Int> { _pageSize }
}
extension OtherFilter {
  var ascendingWrapper: Preference<Bool> { _ascending }
}
extension Greeting {
  var nameWrapper: Preference<String> { _name }
}

@Suite struct WrapperConformanceTests {
  @Test func aTypeThatDeclaresPreferencesComparesAndHashesByItsOtherProperties() {
    var first = SearchFilter()
    let second = SearchFilter()
    first.$ascending.removeValue()
    #expect(first == second)
    #expect(first.hashValue == second.hashValue)

    first.text = "swift"
    #expect(first != second)
    #expect(Set([first, second, SearchFilter()]).count == 2)

    // A preference is one stored value for every instance: a write changes what both read, and
    // they stay equal.
    first.text = ""
    first.ascending = false
    #expect(second.ascending == false)
    #expect(first == second)
  }

  @Test func wrappersAreEqualExactlyWhenTheyComeFromOneDeclaration() {
    let filter = SearchFilter()
    #expect(filter.ascendingWrapper == SearchFilter().ascendingWrapper)
    #expect(filter.pageSizeWrapper == SearchFilter().pageSizeWrapper)
    // The same value type, another declaration: another line of this file, and another file's
    // line in the next check.
    #expect(filter.ascendingWrapper != OtherFilter().ascendingWrapper)
    #expect(filter.ascendingWrapper.hashValue != OtherFilter().ascendingWrapper.hashValue)
    let elsewhere = Greeting().nameWrapper
    #expect(Set([elsewhere, Greeting().nameWrapper]).count == 1)
  }

  @Test func printingShowsTheKeyAndTheCurrentValue() {
    let greeting = Greeting()
    greeting.$name.removeValue()  // as a fresh store has it, however often the test runs
    #expect(String(describing: greeting.nameWrapper) == #""Greeting.name": "Anonymous""#)
    greeting.name = "Paul"
    #expect(String(reflecting: greeting.nameWrapper) == #"Preference("Greeting.name": "Paul")"#)
    #expect(
      String(describing: greeting)
        == #"Greeting(_name: Preference("Greeting.name": "Paul"), punctuation: "!")"#)
    var dumped = ""
    dump(greeting, to: &dumped)
    #expect(dumped.contains(#"- key: "Greeting.name""#))
    #expect(dumped.contains(#"- value: "Paul""#))
    #expect(!dumped.contains("fileIDAddress"))
  }
}
