import Foundation
import Testing

@_spi(Generated) @testable import Preferences

/// The record reader at the edges of what JSON allows and what a record may hold: numbers that
/// are not integers or do not fit, every escape a JSON writer may use, and values of the
/// generator's form that do not decode. Each malformed record fails with a clear message,
/// never a wrong value.
@Suite struct GeneratedRecordEdgeTests {
  /// A complete record of the compact form, with `member` (a JSON member, or members) added.
  static func record(_ member: String) -> String {
    #"[{"key":"A.b","defaultValue":"1","line":1,"column":1,"index":0,"# + member + "}]"
  }

  /// Both ways of reading `text` fail, with a message that contains `message`.
  static func expectFailure(
    _ text: String, _ message: String, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    do {
      let records = try GeneratedRecordReader.records(in: text, tableFileID: "M/T.swift")
      Issue.record("\(text) read as \(records)", sourceLocation: sourceLocation)
    } catch let failure as GeneratedRecordReader.Failure {
      #expect(failure.description.contains(message), "\(text): \(failure)", sourceLocation: sourceLocation)
    } catch {
      Issue.record("\(text): \(error)", sourceLocation: sourceLocation)
    }
    do {
      try GeneratedRecordReader.readCores(in: text, tableFileID: "M/T.swift") { _ in }
      Issue.record("\(text) read at launch", sourceLocation: sourceLocation)
    } catch let failure as GeneratedRecordReader.Failure {
      #expect(
        failure.description.contains(message), "\(text), at launch: \(failure)",
        sourceLocation: sourceLocation)
    } catch {
      Issue.record("\(text), at launch: \(error)", sourceLocation: sourceLocation)
    }
  }

  /// An integer member holds an integer: a lone minus sign, a fraction or an exponent is not
  /// one, and fails rather than reading as some other number.
  @Test func aNumberThatIsNotAnIntegerFailsWhereAnIntegerIsExpected() {
    for text in [
      #"[{"key":"A.b","defaultValue":"1","line":-,"column":1,"index":0}]"#,
      #"[{"key":"A.b","defaultValue":"1","line":1.5,"column":1,"index":0}]"#,
      #"[{"key":"A.b","defaultValue":"1","line":1e3,"column":1,"index":0}]"#,
      Self.record(#""registeredValue":{"integer":2.5}"#),
      Self.record(#""registeredValue":{"integer":-}"#),
      Self.record(#""registeredValue":{"unsignedInteger":+7}"#),
    ] {
      Self.expectFailure(text, "expected an integer")
    }
  }

  /// An integer one past its type's range fails, including where only the last digit takes it
  /// past (`9223372036854775808`), rather than wrapping around to the other end of the range.
  @Test func anIntegerOnePastItsRangeFails() throws {
    for text in [
      Self.record(#""registeredValue":{"integer":9223372036854775808}"#),
      Self.record(#""registeredValue":{"integer":-9223372036854775809}"#),
      Self.record(#""registeredValue":{"unsignedInteger":18446744073709551616}"#),
      #"[{"key":"A.b","defaultValue":"1","line":9223372036854775808,"column":1,"index":0}]"#,
    ] {
      Self.expectFailure(text, "does not fit")
    }
    // The ends of each range read.
    let ends = try GeneratedRecordReader.records(
      in: Self.record(
        #""registeredValue":{"array":[{"integer":9223372036854775807},{"integer":-9223372036854775808},"#
          + #"{"unsignedInteger":18446744073709551615}]}"#),
      tableFileID: "M/T.swift")
    #expect(ends.first?.registeredValue == .array([.integer(.max), .integer(.min), .unsignedInteger(.max)]))
  }

  /// Every escape JSON has reads as its character, in the record's text and in its stored
  /// default alike, whichever case a writer uses for the hexadecimal digits of `\u`.
  @Test func everyEscapeReadsAsItsCharacter() throws {
    let escaped = #"q\"b\\s\/b\bf\fn\nr\rt\tl\u00e9U\u00C9p\uD83E\uDD8Ae"#
    let expected = "q\"b\\s/b\u{8}f\u{C}n\nr\rt\tléUÉp🦊e"
    let text =
      #"[{"key":"A.b","defaultValue":""# + escaped + #"","line":1,"column":1,"index":0,"#
      + #""registeredValue":{"string":""# + escaped + #""}}]"#
    let records = try GeneratedRecordReader.records(in: text, tableFileID: "M/T.swift")
    #expect(records.first?.descriptor.defaultValueSource == expected)
    #expect(records.first?.registeredValue == .string(expected))
    var cores: [GeneratedRecordCore] = []
    try GeneratedRecordReader.readCores(in: text, tableFileID: "M/T.swift") { cores.append($0) }
    #expect(cores.first?.registeredValue == .string(expected), "launch reads the same default")
    // What `JSONSerialization` writes for the same text reads back as it.
    let written = String(
      decoding: try JSONSerialization.data(withJSONObject: ["string": expected]), as: UTF8.self)
    let rewritten = try GeneratedRecordReader.records(
      in: Self.record(#""registeredValue":"# + written), tableFileID: "M/T.swift")
    #expect(rewritten.first?.registeredValue == .string(expected))
  }

  /// Data that is not Base64 and a date that is not ISO 8601 fail; they never read as empty
  /// data or some fixed date.
  @Test func dataAndDatesThatDoNotDecodeFail() throws {
    Self.expectFailure(Self.record(#""registeredValue":{"data":"not base64!"}"#), "not Base64")
    Self.expectFailure(Self.record(#""registeredValue":{"date":"yesterday"}"#), "not ISO 8601")
    let valid = try GeneratedRecordReader.records(
      in: Self.record(#""registeredValue":{"array":[{"data":"AQI="},{"date":"2001-01-01T00:00:00Z"}]}"#),
      tableFileID: "M/T.swift")
    #expect(
      valid.first?.registeredValue
        == .array([.data(Data([1, 2])), .date(Date(timeIntervalSinceReferenceDate: 0))]))
  }
}

/// A store guarded against the first-unlock loss, at the edges of what it holds back while
/// locked and what it leaves behind.
@Suite struct HeldChangesAtUnlockTests {
  /// The user's settings as an earlier launch stored them (with the sentinel).
  static let stored: [String: PropertyListValue] = [
    ProtectedDataBackend.sentinelKey: .bool(true), "Settings.theme": .string("dark"),
    "Account.token": .string("t0k3n"),
  ]

  /// A removal of every value while locked, with no write after it, is still made at unlock:
  /// a sign-out before the first unlock removes the token.
  @Test func aRemovalWithNoWriteAfterItIsMadeAtUnlock() {
    let device = SimulatedDevice()
    let base = LockedUntilUnlockBackend(Self.stored, device: device)
    let guarded = ProtectedDataBackend(base, signal: device)
    let store = PreferenceStore(backend: guarded, arguments: [])
    #expect(guarded.isLocked)
    store.removeAllValues()
    device.unlock()
    #expect(!guarded.isLocked)
    #expect(base.inner.value(forKey: "Account.token") == nil, "the token is gone")
    #expect(base.inner.value(forKey: "Settings.theme") == nil)
    #expect(store.value(forKey: "Account.token", default: "") == "")
    #expect(base.inner.value(forKey: ProtectedDataBackend.sentinelKey) == .bool(true))
  }

  /// The record of held writes is removed once they are applied: the next start reports no
  /// loss (the writes were made).
  @Test func theRecordOfHeldWritesGoesOnceTheyAreApplied() {
    Diagnostics.start()
    let directory = TemporaryDirectory()
    let record = directory.file("held")
    let device = SimulatedDevice()
    let location = "applied-\(UUID().uuidString)"
    let base = NamedBackend(location)
    let guarded = ProtectedDataBackend(base, signal: device, usesSentinel: true, heldWritesRecord: record)
    let store = PreferenceStore(backend: guarded, arguments: [])
    store.set("dark", forKey: "Settings.theme")
    #expect(FileManager.default.fileExists(atPath: record.path))
    device.unlock()
    #expect(base.inner.value(forKey: "Settings.theme") == .string("dark"))
    #expect(!FileManager.default.fileExists(atPath: record.path), "nothing is held any more")
    // The next start, before the first unlock.
    _ = ProtectedDataBackend(
      NamedBackend(location), signal: SimulatedDevice(), usesSentinel: true, heldWritesRecord: record)
    #expect(Diagnostics.reported(mentioning: location).isEmpty, "no loss is reported")
  }

  /// Removing every value of a readable store keeps the sentinel: a later launch before the
  /// first unlock reads the store (values written after the removal) rather than holding it back
  /// as possibly unreadable.
  @Test func removingEveryValueKeepsTheSentinel() {
    let base = InMemoryBackend(Self.stored)
    let unlocked = SimulatedDevice()
    unlocked.unlock()
    let store = PreferenceStore(backend: ProtectedDataBackend(base, signal: unlocked), arguments: [])
    store.removeAllValues()
    store.set("light", forKey: "Settings.theme")
    #expect(base.value(forKey: "Account.token") == nil)
    #expect(base.value(forKey: ProtectedDataBackend.sentinelKey) == .bool(true))
    // A later launch in the background, before the first unlock (the store itself is readable).
    let later = ProtectedDataBackend(base, signal: SimulatedDevice())
    #expect(!later.isLocked)
    #expect(
      PreferenceStore(backend: later, arguments: []).value(forKey: "Settings.theme", default: "") == "light")
  }
}

/// Keys of an enum that the edge tests below read with hand-written typed keys.
enum OptionalEdgeKeys: String, PreferenceKeys {
  case nickname = "OptionalEdgeKeys.nickname"
  case motto = "OptionalEdgeKeys.motto"

  var defaultValue: any PreferenceValue {
    switch self {
    case .nickname: "Anonymous"
    case .motto: "carpe diem" as String?
    }
  }
}

/// A hand-written typed key that names the declared type's optional, or an optional key's
/// wrapped type: both are what the key holds, so the read returns the declared default and
/// reports no mismatch.
@Suite struct OptionalTypedKeyTests {
  /// A `String` key read as `String?` reads its default, unreported.
  @Test func aKeyReadAsItsOptionalIsNoMismatch() {
    Diagnostics.start()
    let keys = PreferenceStore.inMemory().keyed(by: OptionalEdgeKeys.self)
    #expect(keys.value(for: TypedPreferenceKey<OptionalEdgeKeys, String?>(.nickname)) == "Anonymous")
    #expect(Diagnostics.reported(mentioning: "OptionalEdgeKeys.nickname").isEmpty)
  }

  /// An optional key with a default, read as its wrapped type, reads that default, unreported.
  @Test func anOptionalKeyReadAsItsWrappedTypeIsNoMismatch() {
    Diagnostics.start()
    let keys = PreferenceStore.inMemory().keyed(by: OptionalEdgeKeys.self)
    #expect(keys.value(for: TypedPreferenceKey<OptionalEdgeKeys, String>(.motto)) == "carpe diem")
    #expect(Diagnostics.reported(mentioning: "OptionalEdgeKeys.motto").isEmpty)
  }
}

/// Keys whose default is evaluated anew each time it is asked for, as `Date.now` is.
enum CountedDefaultKeys: String, PreferenceKeys {
  case stamp = "CountedDefaultKeys.stamp"

  static let evaluations = Locked(0)
  static func nextStamp() -> Int {
    evaluations.withLock {
      $0 += 1; return $0
    }
  }

  var defaultValue: any PreferenceValue {
    switch self {
    case .stamp: Self.nextStamp() as Int
    }
  }
}

/// A keyed view registers its keys' defaults once per store: a default evaluated anew (a
/// timestamp) stays the one first registered, however many views are made.
@Suite struct KeyedRegistrationOnceTests {
  /// A second keyed view of the same store registers nothing again.
  @Test func aSecondKeyedViewKeepsTheRegisteredDefault() {
    let store = PreferenceStore.inMemory()
    let first = store.keyed(by: CountedDefaultKeys.self)
    let registered = store.registeredDefault(forKey: CountedDefaultKeys.stamp.rawValue)
    #expect(registered != nil)
    _ = store.keyed(by: CountedDefaultKeys.self)
    #expect(store.registeredDefault(forKey: CountedDefaultKeys.stamp.rawValue) == registered)
    #expect(
      PropertyListValue.integer(Int64(first.value(for: TypedPreferenceKey(.stamp)) as Int)) == registered)
  }
}

/// A file table whose one declaration's default follows the module's default isolation, in a
/// store the test sets.
enum IsolationEdgeTable {
  static let store = Locked<PreferenceStore?>(nil)
  /// Whether the default was evaluated on the main thread, each time it was.
  static let onMainThread = Locked<[Bool]>([])

  static let table = PreferenceFileTable(
    fileID: "Tests/IsolationEdge.swift",
    records: {
      [
        "["
          + FakeTables.record(
            key: "IsolationEdge.width", index: 0, line: 1, fileID: "Tests/IsolationEdge.swift", store: "s",
            registration: "defaultIsolation") + "]"
      ]
    },
    registration: { _ in
      .defaultIsolation {
        onMainThread.withLock { $0.append(Thread.isMainThread) }
        return .integer(640)
      }
    },
    store: { _ in store.withLock { $0 } })
}

/// Registration in a module whose default isolation is nonisolated (Swift 6 packages).
@Suite(.serialized) struct NonisolatedModuleRegistrationTests {
  /// A default that follows the module's default isolation is evaluated where registration runs,
  /// with every other default, when that isolation is nonisolated: registered at once, off the
  /// main thread, not left to the main actor's next turn.
  @Test func aDefaultOfTheDefaultIsolationIsRegisteredAtOnceOffTheMainThread() {
    let store = PreferenceStore.inMemory()
    IsolationEdgeTable.store.withLock { $0 = store }
    IsolationEdgeTable.onMainThread.withLock { $0 = [] }
    let catalog = RegistryCatalog(tables: [IsolationEdgeTable.table], mainActorIsDefaultIsolation: false)
    let done = DispatchSemaphore(value: 0)
    let registered = Locked<PropertyListValue?>(nil)
    Thread {
      catalog.ensureRegistered(in: store)
      registered.withLock { $0 = store.registeredDefault(forKey: "IsolationEdge.width") }
      done.signal()
    }.start()
    done.wait()
    #expect(registered.withLock { $0 } == .integer(640), "registered with the others")
    #expect(IsolationEdgeTable.onMainThread.withLock { $0 } == [false], "evaluated where registration ran")
  }
}

/// A preference stored as JSON text, in a store of its own.
struct JSONDefaultSettings {
  nonisolated static let store = PreferenceStore.inMemory()
  @Preference(store: JSONDefaultSettings.store, format: .json) var tags = ["swift", "linux"]
  @Preference(store: JSONDefaultSettings.store, format: .json) var folder = "Inbox"
}

/// The declared default of a preference stored as JSON text, read through its projection.
@Suite struct JSONFormatDefaultTests {
  /// `$folder.defaultValue` is the declared default, decoded from its JSON form (`"Inbox"`
  /// with its quotes), never that form read as a plain string.
  @Test func theProjectionsDefaultOfAJSONPreferenceIsTheDeclaredOne() {
    let settings = JSONDefaultSettings()
    #expect(settings.$folder.defaultValue == "Inbox")
    #expect(settings.folder == "Inbox")
    #expect(settings.$tags.defaultValue == ["swift", "linux"])
    #expect(settings.tags == ["swift", "linux"])
  }
}

/// Two modules that name one key in one store.
@Suite struct SharedKeyOfTwoModulesTests {
  /// A catalog of `module` whose one declaration names `key` with `key:`, of type `valueType`
  /// (`nil`: unknown to the scanner), default `false`, in `store`.
  func module(_ module: String, valueType: String?, key: String, store: PreferenceStore) -> RegistryCatalog {
    let fileID = "\(module)/Settings.swift"
    let type = valueType.map { "\"\($0)\"" } ?? "null"
    let record = """
      [{"key":"\(key)","isKeyDerived":false,"property":"showGrid","declaringType":"Settings",\
      "valueType":\(type),"defaultValue":"false","documentation":null,"fileID":"\(fileID)",\
      "line":3,"column":3,"condition":null,"syncs":false,"inSettings":false,"store":"Self.store",\
      "format":"propertyList","renamedFrom":[],"registration":"registry","registrationNote":null,"index":0}]
      """
    let table = PreferenceFileTable(
      fileID: StaticString("Settings.swift"), records: { [record] },
      registration: { _ in .registry { nil } }, store: { _ in store })
    return RegistryCatalog(tables: [table])
  }

  /// Both name the key and agree on its default; one's type is unknown (the scanner could not
  /// infer it): they may share it, and nothing is reported.
  @Test func aTypeOneModuleDoesNotKnowIsNoConflict() {
    Diagnostics.start()
    let key = "SharedKeyOfTwoModules.showGrid"
    let store = PreferenceStore.inMemory()
    module("App", valueType: "Bool", key: key, store: store).ensureRegistered(in: store)
    module("Feature", valueType: nil, key: key, store: store).ensureRegistered(in: store)
    #expect(Diagnostics.reported(mentioning: "'\(key)'").isEmpty)
  }
}

/// A main-actor default, in a store of its own, that counts its evaluations.
enum LaterDefaultTable {
  static let store = Locked<PreferenceStore?>(nil)
  static let evaluations = Locked(0)
  static let table = PreferenceFileTable(
    fileID: "Tests/Later.swift",
    records: {
      [
        "["
          + FakeTables.record(
            key: "Later.onMain", index: 0, line: 1, fileID: "Tests/Later.swift", store: "s",
            registration: "mainActor") + "]"
      ]
    },
    registration: { index in
      guard index == 0 else { return .none }
      return .mainActor {
        LaterDefaultTable.evaluations.withLock { $0 += 1 }
        return .integer(7)
      }
    },
    store: { _ in LaterDefaultTable.store.withLock { $0 } })
}

@Suite(.serialized) struct MainActorDefaultOnceTests {
  /// A main-actor default that a registration off the main actor left to the main actor's next
  /// turn is evaluated once for the process: a test's stand-in store registered afterwards gets
  /// the value evaluated then, not a second evaluation.
  @Test func aDefaultLeftToTheMainActorIsEvaluatedOnceForTheProcess() async {
    let store = PreferenceStore.inMemory()
    LaterDefaultTable.store.withLock { $0 = store }
    let catalog = RegistryCatalog(tables: [LaterDefaultTable.table])
    let before = LaterDefaultTable.evaluations.withLock { $0 }
    await Task.detached { catalog.ensureRegistered(in: store) }.value
    await MainActor.run {}  // the main actor's next turn, queued after the registration's
    #expect(store.registeredDefault(forKey: "Later.onMain") == .integer(7))
    let standIn = await Task.detached { () -> PreferenceStore in
      let standIns = PreferenceStandIns()
      return standIns.run {
        let standIn = standIns.store(standingInFor: store)
        catalog.ensureRegistered(in: standIn)
        return standIn
      }
    }.value
    await MainActor.run {}
    #expect(standIn.registeredDefault(forKey: "Later.onMain") == .integer(7))
    #expect(LaterDefaultTable.evaluations.withLock { $0 } == before + 1, "evaluated once for the process")
  }
}
