import Foundation
import Testing

@testable import Preferences

private func remoteEntry(_ value: PropertyListValue, at seconds: TimeInterval) -> PropertyListValue {
  PreferenceSync.Entry(value: value, modified: Date(timeIntervalSince1970: seconds)).encoded
}

/// A remote store whose change notifications the test sends itself.
private final class HandDrivenRemoteStore: RemoteKeyValueStore {
  let values = Locked<[String: PropertyListValue]>([:])
  let handlers = Locked<[@Sendable (RemoteChange) -> Void]>([])
  func value(forKey key: String) -> PropertyListValue? { values.withLock { $0[key] } }
  func setValue(_ value: PropertyListValue?, forKey key: String) { values.withLock { $0[key] = value } }
  func observeChanges(_ handler: @escaping @Sendable (RemoteChange) -> Void) -> PreferenceObservation {
    handlers.withLock { $0.append(handler) }
    return PreferenceObservation {}
  }
  var limits: RemoteStoreLimits { .unlimited }
  func usage() -> (keys: Int, bytes: Int) { values.withLock { ($0.count, 0) } }
  func send(_ change: RemoteChange) { for handler in handlers.withLock({ $0 }) { handler(change) } }
}

/// Launch-argument overrides (`-key value`) at the edges of the argument list and of each type's text.
@Suite struct LaunchArgumentParsingTests {
  /// `-5` before `-count 3` is a value with no key: the override of `count` still applies.
  @Test func aNegativeNumberIsAValueNotAKey() {
    let store = PreferenceStore(backend: InMemoryBackend(), arguments: ["app", "-5", "-count", "3"])
    #expect(store.value(forKey: "count", default: 0) == 3)
  }

  /// Everything after `--` is the app's own: no override.
  @Test func argumentsAfterADoubleDashAreNotOverrides() {
    let store = PreferenceStore(backend: InMemoryBackend(), arguments: ["app", "--", "-count", "3"])
    #expect(store.value(forKey: "count", default: 0) == 0)
    #expect(store.overrides.isEmpty)
  }

  /// A last `-flag` with no value is no override, and reading past the end never traps.
  @Test func aFlagWithoutAValueAtTheEndIsSkipped() {
    let store = PreferenceStore(backend: InMemoryBackend(), arguments: ["app", "-count", "3", "-flag"])
    #expect(store.overrides == ["count": "3"])
  }

  /// An override that does not read as the type yields the default and one diagnostic, however often it is read.
  @Test func anArgumentThatDoesNotReadIsReportedOnce() {
    Diagnostics.start()
    let key = "arg\(UUID().uuidString.prefix(8))"
    let store = PreferenceStore(backend: InMemoryBackend(), arguments: ["app", "-\(key)", "abc"])
    #expect(store.value(forKey: key, default: 5) == 5)
    #expect(store.value(forKey: key, default: 5) == 5)
    #expect(Diagnostics.reported(mentioning: key).count == 1)
  }

  /// A number given for a `Date` is seconds since 1970, as `UserDefaults` reads it.
  @Test func aDateArgumentIsSecondsSince1970() {
    #expect(Date(launchArgument: "86400") == Date(timeIntervalSince1970: 86400))
  }

  /// `1E-2` and `25E-1` are decimals, as `1e-2` is.
  @Test func aDecimalReadsAnUppercaseExponent() {
    #expect(Decimal(launchArgument: "1E-2") == Decimal(string: "0.01"))
    let store = PreferenceStore(backend: InMemoryBackend(["d": .string("25E-1")]), arguments: [])
    #expect(store.value(forKey: "d", default: Decimal(0)) == Decimal(string: "2.5"))
  }
}

/// Sync against a remote store's limits, and the reasons a remote change gives.
@Suite struct SyncQuotaTests {
  /// At the key limit, a key already in the remote store is still updated: it adds no key.
  @Test func anExistingKeyIsUpdatedAtTheKeyLimit() {
    let remote = InMemoryRemoteStore(
      limits: RemoteStoreLimits(maximumKeys: 2, maximumTotalBytes: 1_000_000, maximumKeyBytes: 64))
    let clock = TestClock()
    let device = Device(remote: remote, keys: ["a", "b"], clock: clock)
    device.sync.start()
    device.store.set(1, forKey: "a")
    device.store.set(2, forKey: "b")
    clock.advance()
    device.store.set(3, forKey: "a")
    #expect(PreferenceSync.Entry(remote.value(forKey: "a"))?.value == .integer(3))
  }

  /// An update near the byte quota counts what it adds, not its whole size.
  @Test func anUpdateCountsOnlyItsGrowthAgainstTheByteQuota() {
    let remote = InMemoryRemoteStore(
      limits: RemoteStoreLimits(maximumKeys: 10, maximumTotalBytes: 100, maximumKeyBytes: 64))
    let clock = TestClock()
    let device = Device(remote: remote, keys: ["a"], clock: clock)
    device.sync.start()
    device.store.set(String(repeating: "x", count: 40), forKey: "a")
    clock.advance()
    device.store.set(String(repeating: "y", count: 40), forKey: "a")
    #expect(
      PreferenceSync.Entry(remote.value(forKey: "a"))?.value == .string(String(repeating: "y", count: 40)))
  }

  /// A key of exactly the maximum length (64 bytes) is within the limit.
  @Test func aKeyOfExactlyTheMaximumLengthIsPushed() {
    let remote = InMemoryRemoteStore()
    let key = String(repeating: "k", count: 64)
    let device = Device(remote: remote, keys: [key], clock: TestClock())
    device.sync.start()
    device.store.set(1, forKey: key)
    #expect(PreferenceSync.Entry(remote.value(forKey: key))?.value == .integer(1))
  }

  /// A dictionary's size counts its keys' bytes as well as its values'.
  @Test func aDictionarysSizeCountsItsKeys() {
    #expect(PropertyListValue.dictionary(["ab": .bool(true)]).approximateByteCount == 3)
  }

  /// A synced key the remote store already holds is counted once against the key limit.
  @Test func keysAlreadyInTheRemoteStoreAreNotCountedTwice() {
    let remote = InMemoryRemoteStore(
      limits: RemoteStoreLimits(maximumKeys: 2, maximumTotalBytes: 1_000_000, maximumKeyBytes: 64))
    remote.setValue(remoteEntry(.integer(1), at: 1_000), forKey: "a", from: nil)
    let device = Device(remote: remote, keys: ["a", "b"], clock: TestClock())
    device.sync.start()
    remote.waitUntilDelivered()
    device.store.set(2, forKey: "b")
    #expect(PreferenceSync.Entry(remote.value(forKey: "b"))?.value == .integer(2))
  }

  /// An account change that names no keys (a store that does not list them) reconciles every synced key.
  @Test func anAccountChangeThatNamesNoKeysReconcilesEveryKey() {
    let remote = HandDrivenRemoteStore()
    let store = PreferenceStore.inMemory()
    let sync = PreferenceSync(local: store, remote: remote, keys: ["theme"], clock: { Date() })
    sync.start()
    store.set("dark", forKey: "theme")
    remote.values.withLock { $0 = ["theme": remoteEntry(.string("sepia"), at: 1_000)] }
    remote.send(RemoteChange(reason: .accountChange, keys: []))
    #expect(store.value(forKey: "theme", default: "") == "sepia")
    withExtendedLifetime(sync) {}
  }
}

/// Stored values at the edges of each type's conversion.
@Suite struct ValueConversionBoundaryTests {
  /// Integer text with spaces around it (Unicode ones too) reads as the integer, as `UserDefaults.integer(forKey:)` reads it.
  @Test func integerTextReadsWithSpacesAroundIt() {
    let store = PreferenceStore(
      backend: InMemoryBackend(["n": .string(" 42 "), "m": .string("\u{00A0}42\u{2009}")]), arguments: [])
    #expect(store.value(forKey: "n", default: 0) == 42)
    #expect(store.value(forKey: "m", default: 0) == 42)
  }

  /// A set is stored in one order (false before true), so that every version of the library and every device writes the same value for the same set (sync compares digests of values).
  @Test func aSetOfBooleansIsStoredInOneOrder() throws {
    #expect(try Set([true, false]).propertyListValue() == .array([.bool(false), .bool(true)]))
  }

  /// A `Duration` stored as seconds reads to the nearest nanosecond, not truncated.
  @Test func aDurationReadsToTheNearestNanosecond() {
    let backend = InMemoryBackend(["d": .double(1.001)])
    let store = PreferenceStore(backend: backend, arguments: [])
    #expect(store.value(forKey: "d", default: Duration.zero) == .milliseconds(1001))
    store.set(Duration.milliseconds(1003), forKey: "e")
    let fresh = PreferenceStore(backend: InMemoryBackend(backend.allValues()), arguments: [])
    #expect(fresh.value(forKey: "e", default: Duration.zero) == .milliseconds(1003))
  }

  /// An unsigned value that no `Int` holds yields the default and a diagnostic, never a wrapped number.
  @Test func anUnsignedValueAboveIntMaxIsAMismatch() {
    Diagnostics.start()
    let key = "u-\(UUID().uuidString)"
    let store = PreferenceStore(backend: InMemoryBackend([key: .unsignedInteger(.max)]), arguments: [])
    #expect(store.value(forKey: key, default: 7) == 7)
    #expect(Diagnostics.reported(mentioning: key).count == 1)
  }

  /// An ISO 8601 fraction that rounds to a whole second carries into the seconds.
  @Test func aFractionThatRoundsUpCarriesIntoTheSecond() {
    #expect(ISO8601.format(Date(timeIntervalSince1970: 0.9999996)) == "1970-01-01T00:00:01Z")
  }

  /// A real number read as a `Decimal` is the decimal its shortest text says (0.07, not 0.07000000000000001024).
  @Test func aDecimalFromARealIsItsShortestText() {
    let store = PreferenceStore(
      backend: InMemoryBackend(["d": .double(0.15), "e": .double(0.07)]), arguments: [])
    #expect(store.value(forKey: "d", default: Decimal(0)) == Decimal(string: "0.15"))
    #expect(store.value(forKey: "e", default: Decimal(0)) == Decimal(string: "0.07"))
  }

  /// An integer other than 0 or 1 is not a `Bool`: the default and a diagnostic.
  @Test func onlyZeroAndOneAreBooleans() {
    Diagnostics.start()
    let key = "b-\(UUID().uuidString)"
    let store = PreferenceStore(backend: InMemoryBackend([key: .integer(2)]), arguments: [])
    #expect(store.value(forKey: key, default: false) == false)
    #expect(Diagnostics.reported(mentioning: key).count == 1)
  }

  /// A `PropertyListValue` in JSON names exactly one kind.
  @Test func aValueWithTwoKindsDoesNotDecode() {
    #expect(throws: DecodingError.self) {
      try JSONDecoder().decode(PropertyListValue.self, from: Data(#"{"integer":1,"string":"x"}"#.utf8))
    }
  }

  /// A descriptor written before `isExported` and the newer fields existed reads with their defaults.
  @Test func aDescriptorWithoutTheNewerFieldsTakesTheirDefaults() throws {
    let json = #"""
      {"key":"k","property":"p","declaringType":"T","defaultValue":"0","fileID":"M/F.swift","line":1,
       "column":2,"syncs":false,"inSettings":false,"format":"propertyList","renamedFrom":[],
       "registration":"registry"}
      """#
    let descriptor = try JSONDecoder().decode(PreferenceDescriptor.self, from: Data(json.utf8))
    #expect(descriptor.isExported)
    #expect(descriptor.isKeyDerived)
    #expect(!descriptor.storeIsKeptByDeclaration)
  }
}

/// Store APIs where registered defaults, sync bookkeeping and paths meet.
@Suite struct StoreBoundaryTests {
  /// `dictionaryRepresentation()` shows a stored value over the registered default of its key.
  @Test func theDictionaryRepresentationShowsTheStoredValueOverTheRegistered() {
    let store = PreferenceStore.inMemory()
    store.register(defaults: ["k": 1])
    store.set(2, forKey: "k")
    #expect(store.dictionaryRepresentation()["k"] == .integer(2))
  }

  /// `dictionaryRepresentation()` leaves out the sync bookkeeping keys.
  @Test func theDictionaryRepresentationHidesSyncBookkeeping() {
    let remote = InMemoryRemoteStore()
    let device = Device(remote: remote, keys: ["name"], clock: TestClock())
    device.store.set("Paul", forKey: "name")
    #expect(device.backend.value(forKey: SyncMetadata.modifiedKey) != nil)
    #expect(Set(device.store.dictionaryRepresentation().keys) == ["name"])
  }

  /// `removeAllValues()` removes the app's values and keeps the sync bookkeeping.
  @Test func removeAllValuesKeepsSyncBookkeeping() {
    let agreement: PropertyListValue = .dictionary([
      "x": .dictionary(["digest": .integer(1), "modified": .date(Date(timeIntervalSince1970: 5))])
    ])
    let store = PreferenceStore(
      backend: InMemoryBackend(["a": .integer(1), SyncMetadata.syncedKey: agreement]), arguments: [])
    store.removeAllValues()
    #expect(store.backend.value(forKey: "a") == nil)
    #expect(store.backend.value(forKey: SyncMetadata.syncedKey) == agreement)
  }

  /// One file named through two paths (`sub/../p.plist`) is one store, with one cache.
  @Test func oneFileThroughTwoPathsIsOneStore() {
    let directory = TemporaryDirectory()
    let direct = directory.file("p.plist")
    let indirect = directory.url.appendingPathComponent("sub/../p.plist")
    #expect(PreferenceStore.propertyList(at: indirect) === PreferenceStore.propertyList(at: direct))
  }

  /// A keyed store takes an optional of the key's declared type.
  @Test func anOptionalOfAKeysTypeIsWritten() {
    let store = PreferenceStore.inMemory().keyed(by: AppKeys.self)
    #expect(store.set(String?.some("Paul"), for: TypedPreferenceKey<AppKeys, String?>(.name)))
    #expect(store.string(for: .name) == "Paul")
  }

  /// Storing the value a read already returned (its default, nothing stored or registered) invalidates no observer.
  @Test func storingTheReadersDefaultOverNothingInvalidatesNothing() {
    let store = PreferenceStore.inMemory()
    let key = "v-\(UUID().uuidString)"
    #expect(
      !isInvalidated(reading: { _ = store.value(forKey: key, default: 0.5) }) { store.set(0.5, forKey: key) })
  }

  /// `changes(forKeys:)` yields no key for a write of an equal value.
  @Test func changesSkipsAWriteOfAnEqualValue() async {
    let store = PreferenceStore.inMemory(["k": 1])
    let stream = store.changes(forKeys: ["k", "m"])
    store.set(1, forKey: "k")
    store.set(5, forKey: "m")
    var iterator = stream.makeAsyncIterator()
    #expect(await iterator.next() == "m")
  }
}
