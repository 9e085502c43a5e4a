#if canImport(Testing)
  import Testing
  import Preferences

  /// A Swift Testing trait that runs each test with fresh in-memory stores in place of every
  /// preference store, and fails a test that wrote to a real one.
  ///
  /// Add it to a suite (it applies to every test in it, and to every case of a parameterized
  /// test) or to one test:
  ///
  /// ```swift
  /// import PreferencesTesting
  /// import Testing
  ///
  /// @Suite(.isolatedPreferences)
  /// struct SettingsTests {
  ///   @Test func signingOutClearsTheName() {
  ///     let settings = Settings()
  ///     settings.username = "Paul"
  ///     settings.signOut()
  ///     #expect(settings.username == "Anonymous")
  ///   }
  /// }
  /// ```
  ///
  /// Each test gets its own ``Preferences/PreferenceStandIns``: the default store, the stores that
  /// declarations name and the stores of `PreferenceStore.suite(_:)`, `.standard` and
  /// `.propertyList(at:)` all start empty (reads return the declared defaults), so tests that run
  /// in parallel and write the same preference never see each other's values. After the test, a
  /// write that reached a real store (one made directly from a backend), or the stand-in of a test
  /// that ended (a `static let` store first evaluated there), is recorded as an issue of the test.
  public struct IsolatedPreferencesTrait: TestTrait, SuiteTrait, TestScoping {
    /// Applies to every test of a suite, each with its own stores.
    public var isRecursive: Bool { true }

    /// Runs `function` with fresh stand-ins for every store, then records an issue for each write
    /// that reached a real store or another test's stand-in.
    public func provideScope(
      for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
      let standIns = PreferenceStandIns()
      // Also when the test throws.
      defer {
        for write in standIns.writesOutside {
          let fix =
            write.isOtherStandIn
            ? ": make the store a computed `static var` (`static var app: PreferenceStore { .suite(…) }`)"
            : ", not a stand-in: make the store with a factory (.suite, .propertyList(at:)) or in memory"
          Issue.record(Comment(rawValue: "\(write)\(fix)"), sourceLocation: test.sourceLocation)
        }
      }
      try await standIns.run { try await function() }
    }
  }

  extension Trait where Self == IsolatedPreferencesTrait {
    /// Fresh in-memory stores in place of every preference store, for each test; fails a test that
    /// wrote to a real store. See ``IsolatedPreferencesTrait``.
    public static var isolatedPreferences: Self { IsolatedPreferencesTrait() }
  }
#endif
