import Foundation
import Testing

@testable import Preferences

/// No diagnostic carries a stored value: they are printed to standard error and logged to the
/// system log, where other people and tools read them, and a stored value may be a token. Each
/// case stores a secret where a read, a decode, an encode or a launch argument fails, and checks
/// every diagnostic reported for its key.
@Suite struct DiagnosticsPrivacyTests {
  enum Plan: String, PreferenceValue { case free, pro }
  struct Session: Codable, Equatable, PreferenceValue {
    var token: String
    var expires: Date
  }
  struct Measurement: Codable, PreferenceValue {
    var label: String
    var value: Double
  }

  private let secret = "sk-SECRET-\(UUID().uuidString)"

  private func diagnostics(for key: String) -> [String] {
    Diagnostics.reported(mentioning: "'\(key)'").map(\.description)
  }

  @Test func anUnknownRawValueIsReportedWithoutIt() {
    Diagnostics.start()
    let key = "Privacy.plan.\(UUID().uuidString)"
    let store = PreferenceStore.inMemory([key: secret])
    #expect(store.value(forKey: key, default: Plan.free) == .free)
    let reported = diagnostics(for: key)
    #expect(!reported.isEmpty, "the mismatch is reported")
    #expect(reported.allSatisfy { !$0.contains(secret) }, "\(reported)")
  }

  @Test func aValueThatFailsToDecodeIsReportedWithoutIt() {
    Diagnostics.start()
    let dateKey = "Privacy.date.\(UUID().uuidString)"
    let jsonKey = "Privacy.json.\(UUID().uuidString)"
    let store = PreferenceStore.inMemory([
      dateKey: #"{"token":"x","expires":"\#(secret)"}"#,
      jsonKey: #"{"token": \#(secret)}"#,
    ])
    let fallback = Session(token: "", expires: Date(timeIntervalSince1970: 0))
    #expect(store.value(forKey: dateKey, default: fallback) == fallback)
    #expect(store.value(forKey: jsonKey, default: fallback) == fallback)
    for key in [dateKey, jsonKey] {
      let reported = diagnostics(for: key)
      #expect(!reported.isEmpty, "the failure is reported")
      #expect(reported.allSatisfy { !$0.contains(secret) }, "\(reported)")
    }
  }

  @Test func aValueThatFailsToEncodeIsReportedWithoutIt() {
    Diagnostics.start()
    let key = "Privacy.encode.\(UUID().uuidString)"
    let store = PreferenceStore.inMemory()
    // JSON cannot hold an infinity: the encoder's error quotes the value it refused.
    store.set(Measurement(label: secret, value: .infinity), forKey: key)
    let reported = diagnostics(for: key)
    #expect(!reported.isEmpty, "the failure is reported")
    #expect(reported.allSatisfy { !$0.contains(secret) && !$0.contains("inf") }, "\(reported)")
  }

  @Test func aLaunchArgumentThatDoesNotReadIsReportedWithoutIt() {
    Diagnostics.start()
    let key = "Privacy.argument.\(UUID().uuidString)"
    let store = PreferenceStore(backend: InMemoryBackend(), arguments: ["app", "-\(key)", secret])
    #expect(store.value(forKey: key, default: 0) == 0)
    let reported = diagnostics(for: key)
    #expect(!reported.isEmpty, "the mismatch is reported")
    #expect(reported.allSatisfy { !$0.contains(secret) }, "\(reported)")
  }
}
