import Foundation
import Testing

@testable import Preferences

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

@Suite struct CrashSafetyTests {
  /// A child writes ten keys in a loop, flushing each round; it is killed with SIGKILL at random
  /// moments. After every kill the file parses and holds, for every key, the value of the last
  /// round or the one before: never a partial or empty file. Until the child has committed a
  /// round, each kill waits for the file first (a loaded machine may start the child more slowly
  /// than the longest random delay), so that the run cannot pass without the child writing.
  @Test func sigkillDuringWritesNeverCorruptsTheFile() throws {
    let directory = TemporaryDirectory()
    let url = directory.file("killed.plist")
    var random = SystemRandomNumberGenerator()
    var previousMinimum = 0
    var checked = 0
    var rounds = 0
    for _ in 0..<Intensity.rounds(quick: 50, long: 200) {
      let process = Process()
      process.executableURL = helperURL
      process.arguments = ["kill-loop", url.path]
      try process.run()
      if rounds == 0 { waitUntil { FileManager.default.fileExists(atPath: url.path) } }
      // Not synchronization: the random delay picks when, in the child's write loop, the kill lands.
      usleep(UInt32.random(in: 5_000...40_000, using: &random))
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
      guard FileManager.default.fileExists(atPath: url.path) else { continue }
      checked += 1
      let data = try Data(contentsOf: url)
      let object = try PropertyListSerialization.propertyList(from: data, format: nil)
      let values = try #require(object as? [String: Int], "the file parses to a dictionary of integers")
      #expect(values.count == 10)
      let minimum = values.values.min() ?? 0
      let maximum = values.values.max() ?? 0
      #expect(maximum - minimum <= 1, "each key holds the old or the new round: \(values)")
      #expect(minimum >= previousMinimum, "a committed round is never lost")
      previousMinimum = minimum
      rounds = maximum
    }
    #expect(checked > 0, "the file was there to check after the kills")
    #expect(rounds > 0, "the child made progress between kills")
    // Temporary files of killed writers are cleaned up by the next flush.
    let store = PreferenceStore(backend: PropertyListFileBackend(url: url), arguments: [])
    store.set(-1, forKey: "after")
    try store.flush()
    #expect(directory.contents().filter { $0.hasSuffix(".tmp") }.isEmpty, "\(directory.contents())")
  }

  @Test func aFailedWriteKeepsTheValuesAndTheFile() throws {
    Diagnostics.start()
    let directory = TemporaryDirectory()
    let blocker = directory.file("not-a-directory")
    try Data("x".utf8).write(to: blocker)
    let url = blocker.appendingPathComponent("prefs.plist")
    let store = PreferenceStore(backend: PropertyListFileBackend(url: url), arguments: [])
    store.set("kept", forKey: "k")
    #expect(throws: PreferenceError.self) { try store.flush() }
    #expect(store.value(forKey: "k", default: "") == "kept", "the value stays in memory, pending")
    #expect(try Data(contentsOf: blocker) == Data("x".utf8))
  }
}

@Suite struct HostileValueTests {
  @Test(arguments: [StoreKind.xmlFile, .binaryFile, .userDefaults, .memory])
  func largeNestedAndUnusualValuesRoundTrip(kind: StoreKind) {
    let directory = TemporaryDirectory()
    let (store, reopen) = kind.make(in: directory)
    let big = Data((0..<10_000_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
    store.set(big, forKey: "big")
    var nested: PropertyListValue = .string("leaf")
    for depth in 0..<200 { nested = depth.isMultiple(of: 2) ? .array([nested]) : .dictionary(["d": nested]) }
    store.set(nested, forKey: "nested")
    let keys = [
      "emoji 🎉 key", "dots.and/slashes", "tab\there", "ü-ñ-中文", "  spaced  ", "=", "$0", "a\"quote",
    ]
    for key in keys { store.set(key, forKey: key) }
    store.set(Double.infinity, forKey: "inf")
    store.set(-Double.infinity, forKey: "-inf")
    store.set(Double.nan, forKey: "nan")
    store.set(Date(timeIntervalSince1970: -62_000_000_000), forKey: "past")  // year 5
    store.set(Date(timeIntervalSince1970: 253_000_000_000), forKey: "future")  // year 9987
    let fresh = reopen()
    #expect(fresh.value(forKey: "big", default: Data()) == big)
    // Compared outside #expect, which would describe a 200-level value on failure at length.
    let nestedRoundTrips = fresh.value(forKey: "nested", default: PropertyListValue.string("")) == nested
    #expect(nestedRoundTrips)
    for key in keys { #expect(fresh.value(forKey: key, default: "") == key, "\(key)") }
    #expect(fresh.value(forKey: "inf", default: 0.0) == .infinity)
    #expect(fresh.value(forKey: "-inf", default: 0.0) == -.infinity)
    #expect(fresh.value(forKey: "nan", default: 0.0).isNaN)
    #expect(fresh.value(forKey: "past", default: Date()).timeIntervalSince1970 == -62_000_000_000)
    #expect(fresh.value(forKey: "future", default: Date()).timeIntervalSince1970 == 253_000_000_000)
  }

  @Test func valuesThatCannotBeEncodedFailClearlyAndStoreNothing() {
    Diagnostics.start()
    struct Reading: Codable, PreferenceValue { var value: Double }
    let store = PreferenceStore.inMemory()
    let key = "reading-\(UUID().uuidString)"
    store.set(Reading(value: 1), forKey: key)
    store.set(Reading(value: .infinity), forKey: key)
    #expect(store.value(forKey: key, default: Reading(value: 0)).value == 1, "the earlier value is intact")
    #expect(Diagnostics.reported(mentioning: key).first?.description.contains("could not be encoded") == true)
  }
}
