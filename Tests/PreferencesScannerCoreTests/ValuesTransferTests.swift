import Foundation
import Testing

@testable import PreferencesScannerCore

/// `export-values`, `import-values` and `reset-values`: property lists read and written by hand
/// (checked against Foundation's), the values document the runtime reads and writes, and the
/// commands on real files.
@Suite struct ValuesTransferTests {
  typealias Directory = CommandTests.Directory

  /// 2026-11-28T11:00:00.5Z, in seconds since 2001.
  static let halfPast = 817_556_400.5

  /// A value of every kind, with lengths past each short form (15 elements, 255 bytes).
  static func everyKind(date: Double) -> [String: StoredValue] {
    [
      "on": .bool(true), "off": .bool(false), "one": .integer(1), "zero": .integer(0),
      "negative": .integer(-42), "large": .integer(Int64.max), "small": .integer(Int64.min),
      "word": .integer(70_000), "ratio": .double(0.25), "whole": .double(2), "text": .string("Paul"),
      "unicode": .string("Zoë 🎉 über"), "long": .string(String(repeating: "a", count: 300)),
      "empty": .string(""), "entities": .string("a < b & c > \"d\""),
      "data": .data(Array(0...255) + [1, 2, 3]), "when": .date(date),
      "list": .array((0..<20).map { .integer(Int64($0)) }),
      "nested": .dictionary(["w": .integer(3), "h": .double(1.5), "tags": .array([.string("x")])]),
      "none": .array([]), "nothing": .dictionary([:]),
    ]
  }

  /// What Foundation makes of `values`.
  static func foundation(_ value: StoredValue) -> Any {
    switch value {
    case .bool(let value): value
    case .integer(let value): NSNumber(value: value)
    case .unsignedInteger(let value): NSNumber(value: value)
    case .double(let value): value
    case .string(let value): value
    case .data(let bytes): Data(bytes)
    case .date(let seconds): Date(timeIntervalSinceReferenceDate: seconds)
    case .array(let values): values.map(foundation)
    case .dictionary(let values): values.mapValues(foundation)
    }
  }

  static func serialized(
    _ values: [String: StoredValue], _ format: PropertyListSerialization.PropertyListFormat
  )
    throws -> [UInt8]
  {
    [UInt8](
      try PropertyListSerialization.data(
        fromPropertyList: values.mapValues(foundation), format: format, options: 0))
  }

  @Test func readsWhatFoundationWritesInBothForms() throws {
    let values = Self.everyKind(date: Self.halfPast)
    #expect(try PropertyListCoding.readDictionary(Self.serialized(values, .binary)) == values)
    // XML keeps whole seconds of a date.
    let whole = Self.everyKind(date: Self.halfPast.rounded(.down))
    #expect(try PropertyListCoding.readDictionary(Self.serialized(whole, .xml)) == whole)
  }

  @Test func writesWhatFoundationReads() throws {
    let values = Self.everyKind(date: Self.halfPast.rounded(.down))
    let written = Data(PropertyListCoding.binary(.dictionary(values)))
    #expect(written.starts(with: Array("bplist00".utf8)))
    let object = try PropertyListSerialization.propertyList(from: written, options: [], format: nil)
    let dictionary = try #require(object as? [String: Any])
    #expect(dictionary["text"] as? String == "Paul")
    #expect(dictionary["unicode"] as? String == "Zoë 🎉 über")
    #expect((dictionary["small"] as? NSNumber)?.int64Value == Int64.min)
    #expect(dictionary["when"] as? Date == Date(timeIntervalSinceReferenceDate: Self.halfPast.rounded(.down)))
    // Each kind as Foundation read it, written again as XML and read here.
    let xml = try PropertyListSerialization.data(fromPropertyList: dictionary, format: .xml, options: 0)
    #expect(try PropertyListCoding.readDictionary([UInt8](xml)) == values)
  }

  @Test func aWrittenFileReadsBackExactly() throws {
    var values = Self.everyKind(date: Self.halfPast)
    values["huge"] = .unsignedInteger(UInt64.max)
    values["many"] = .array((0..<300).map { .string("item \($0)") })
    #expect(try PropertyListCoding.readDictionary(PropertyListCoding.binary(.dictionary(values))) == values)
  }

  @Test func aDamagedFileIsAnErrorNeverACrash() throws {
    let valid = PropertyListCoding.binary(.dictionary(Self.everyKind(date: Self.halfPast)))
    // Every truncation and a flip of every byte either reads or fails; none crashes or hangs.
    for length in 0..<valid.count {
      _ = try? PropertyListCoding.read(Array(valid[..<length]))
    }
    for index in valid.indices {
      var damaged = valid
      damaged[index] ^= 0xFF
      _ = try? PropertyListCoding.read(damaged)
    }
    // An array that holds itself.
    let circular: [UInt8] =
      Array("bplist00".utf8) + [0xA1, 0x00] + [8] + [0, 0, 0, 0, 0, 0, 1, 1] + [0, 0, 0, 0, 0, 0, 0, 1]
      + [0, 0, 0, 0, 0, 0, 0, 0] + [0, 0, 0, 0, 0, 0, 0, 10]
    #expect(throws: PropertyListCoding.Failure.self) { try PropertyListCoding.read(circular) }
    #expect(throws: PropertyListCoding.Failure.self) {
      try PropertyListCoding.read(Array("name = Paul".utf8))
    }
    #expect(throws: PropertyListCoding.Failure.self) {
      try PropertyListCoding.read(Array("<plist><dict><key>a</key><integer>x</integer></dict></plist>".utf8))
    }
    #expect(throws: PropertyListCoding.Failure.self) {
      try PropertyListCoding.readDictionary([UInt8]("x".utf8))
    }
    let list = try PropertyListSerialization.data(fromPropertyList: [1, 2], format: .binary, options: 0)
    #expect(throws: PropertyListCoding.Failure.self) { try PropertyListCoding.readDictionary([UInt8](list)) }
  }

  /// A binary file of one object (`object`), with the trailer that names it.
  static func binaryFile(_ objects: [[UInt8]]) -> [UInt8] {
    var out = Array("bplist00".utf8)
    var offsets: [UInt8] = []
    for object in objects {
      offsets.append(UInt8(out.count))
      out += object
    }
    let table = out.count
    return out + offsets + [0, 0, 0, 0, 0, 0, 1, 1] + [0, 0, 0, 0, 0, 0, 0, UInt8(objects.count)]
      + [0, 0, 0, 0, 0, 0, 0, 0] + [0, 0, 0, 0, 0, 0, 0, UInt8(table)]
  }

  /// Lengths near `Int.max`, each multiplied or added to an offset, are errors, never an
  /// overflow trap; a date that is not a number or beyond year 9999 is refused.
  @Test func hugeLengthsAndDatesAreErrors() {
    let huge: [UInt8] = [0x13, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]
    let quarter: [UInt8] = [0x13, 0x40, 0, 0, 0, 0, 0, 0, 0]
    for object in [
      [0x4F] + huge, [0x5F] + huge, [0x6F] + quarter, [0x6F] + huge, [0xAF] + quarter, [0xDF] + quarter,
    ]
      + [
        [0x33] + Array(Double.nan.bitPattern.bigEndianBytes), [0x33] + Array(1e300.bitPattern.bigEndianBytes),
      ]
    {
      #expect(throws: PropertyListCoding.Failure.self, "\(object)") {
        try PropertyListCoding.read(Self.binaryFile([object]))
      }
    }
    #expect(ISO8601Text.format(secondsSince1970: .nan) == "1970-01-01T00:00:00Z")
    #expect(ISO8601Text.format(secondsSince1970: 1e300) == "9999-12-31T23:59:59Z")
    #expect(ISO8601Text.format(secondsSince1970: -.infinity) == "0000-01-01T00:00:00Z")
    // Foundation's far dates, which Codable preferences hold, are inside and read back exactly.
    for date in [Date.distantPast, Date.distantFuture] {
      let text = ISO8601Text.format(secondsSince1970: date.timeIntervalSince1970)
      #expect(ISO8601Text.secondsSince1970(text) == date.timeIntervalSince1970, "\(text)")
    }
    #expect(
      ISO8601Text.format(secondsSince1970: Date.distantPast.timeIntervalSince1970) == "0000-12-30T00:00:00Z")
  }

  /// Forty arrays, each holding the next one twice, are 2^40 paths but 41 objects: each object
  /// is read once.
  @Test func anObjectReferredToManyTimesIsReadOnce() throws {
    var objects: [[UInt8]] = []
    for index in 0..<40 { objects.append([0xA2, UInt8(index + 1), UInt8(index + 1)]) }
    objects.append([0x09])
    var value = try PropertyListCoding.read(Self.binaryFile(objects))
    for _ in 0..<40 {
      guard case .array(let items) = value, items.count == 2 else {
        Issue.record("expected an array of two, got \(value)")
        return
      }
      value = items[1]
    }
    #expect(value == .bool(true))
  }

  /// `ValueRules.swift`'s dates, which the runtime's values and documents use too, against
  /// Foundation's formatter, over five centuries of instants.
  @Test func datesAreWrittenAndReadAsFoundationDoes() {
    let formatter = ISO8601DateFormatter()
    for step in 0..<2000 {
      let seconds = Double(Int64(step) * 7_919_993 - 11_000_000_000)
      let text = ISO8601Text.format(secondsSince1970: seconds)
      #expect(text == formatter.string(from: Date(timeIntervalSince1970: seconds)))
      #expect(ISO8601Text.secondsSince1970(text) == seconds)
    }
    #expect(ISO8601Text.format(secondsSince1970: 1_795_863_600.5) == "2026-11-28T11:00:00.5Z")
    #expect(ISO8601Text.format(secondsSince1970: 1_795_863_600.000_001) == "2026-11-28T11:00:00.000001Z")
    #expect(ISO8601Text.secondsSince1970("2026-11-28T12:00:00.5+01:00") == 1_795_863_600.5)
    #expect(ISO8601Text.secondsSince1970("2026-11-28 10:30:00-0030") == 1_795_863_600)
    for invalid in ["2026-13-01T00:00:00Z", "2026-11-28", "2026-11-28T11:00:00", "2026-11-28T11:00:00.Z", ""]
    {
      #expect(ISO8601Text.secondsSince1970(invalid) == nil, "\(invalid)")
    }
  }

  // MARK: The document

  static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Fixtures/Values")

  /// The values both fixtures hold; `ValueExportTests` in the runtime's tests holds the same.
  static let documentValues: [String: StoredValue] = [
    "Settings.name": .string("Paul"), "Settings.count": .integer(42),
    "Settings.big": .unsignedInteger(UInt64.max), "Settings.ratio": .double(0.25), "Settings.on": .bool(true),
    "Settings.blob": .data([0, 1, 2, 255]), "Settings.when": .date(halfPast),
    "Settings.tags": .array([.string("a"), .string("b")]),
    "Settings.size": .dictionary(["w": .integer(3), "h": .double(1.5)]),
  ]

  @Test func readsTheDocumentTheRuntimeWrites() throws {
    let data = try Data(contentsOf: Self.fixtures.appendingPathComponent("runtime-document.json"))
    #expect(try ValuesTransfer.values(ofDocument: [UInt8](data)) == Self.documentValues)
  }

  /// The runtime's tests read this file with `PreferenceValuesDocument(jsonData:)`.
  @Test func writesTheDocumentTheRuntimeReads() throws {
    let url = Self.fixtures.appendingPathComponent("scanner-document.json")
    if ProcessInfo.processInfo.environment["RECORD_SNAPSHOTS"] != nil {
      try ValuesTransfer.document(Self.documentValues).write(to: url, atomically: true, encoding: .utf8)
    }
    let fixture = try String(contentsOf: url, encoding: .utf8)
    #expect(ValuesTransfer.document(Self.documentValues) == fixture)
    #expect(try ValuesTransfer.values(ofDocument: Array(fixture.utf8)) == Self.documentValues)
  }

  @Test func aDocumentOfAnotherFormatOrANewerVersionIsRefused() {
    for (text, reason) in [
      (#"{"format": "swift-preferences.values", "version": 2, "values": {}}"#, "version 2"),
      (#"{"format": "other", "version": 1, "values": {}}"#, "format"),
      (#"{"format": "swift-preferences.values", "version": 1, "values": {"a": 1}}"#, "'a'"),
      (
        #"{"format": "swift-preferences.values", "version": 1, "values": {"a": {"date": "soon"}}}"#,
        "ISO 8601"
      ),
      ("[1, 2", "not JSON"),
    ] {
      #expect {
        try ValuesTransfer.values(ofDocument: Array(text.utf8))
      } throws: { error in
        (error as? PropertyListCoding.Failure)?.message.contains(reason) == true
      }
    }
  }

  // MARK: Export, import, reset, decided from the declarations

  static let source = """
    struct Settings {
      @Preference var name = "Anonymous"
      @Preference var volume = 0.5
      @Preference var lastOpened: Date? = nil
      @Preference var tags: [String] = []
      @Preference(renamedFrom: "Settings.oldTheme") var theme = "light"
      @Preference(exported: false) var deviceToken = ""
      @Preference(format: .json) var layout: Layout = Layout()
    }

    """

  static let lock = """
    Settings.name: String
    retired Settings.legacy: Bool

    """

  var transfer: ValuesTransfer { ValuesTransfer(scan(Self.source, lock: Self.lock)) }

  @Test func theDeclarationsSayWhatEachPreferenceStores() {
    let preferences = Dictionary(uniqueKeysWithValues: transfer.preferences.map { ($0.key, $0) })
    #expect(preferences["Settings.name"]?.sample == .string("Anonymous"))
    #expect(preferences["Settings.volume"]?.sample == .double(0.5))
    #expect(preferences["Settings.lastOpened"]?.sample == .date(0))
    #expect(preferences["Settings.tags"]?.sample == .array([]))
    #expect(preferences["Settings.layout"]?.sample == .string(""))
    #expect(preferences["Settings.theme"]?.renamedFrom == ["Settings.oldTheme"])
    #expect(preferences["Settings.deviceToken"]?.isExported == false)
    #expect(transfer.retiredKeys == ["Settings.legacy"])
  }

  @Test func exportLeavesOutDefaultsOtherCodeAndDeviceState() {
    let stored: [String: StoredValue] = [
      "Settings.name": .string("Paul"), "Settings.deviceToken": .string("secret"),
      "NSWindow Frame main": .string("0 0 100 100"), "Settings.oldTheme": .string("dark"),
    ]
    #expect(
      transfer.export(from: stored).values == [
        "Settings.name": .string("Paul"), "Settings.theme": .string("dark"),
      ])
  }

  @Test func importChecksEachValueAndReportsTheRest() {
    var stored: [String: StoredValue] = ["Other.key": .integer(1), "Settings.volume": .double(0.9)]
    let document: [String: StoredValue] = [
      "Settings.name": .string("Paul"), "Settings.oldTheme": .string("dark"),
      "Settings.volume": .string("loud"),
      "Settings.tags": .array([.string("a"), .integer(2)]), "Settings.lastOpened": .date(Self.halfPast),
      "Settings.deviceToken": .string("stolen"), "Settings.legacy": .bool(true), "Nobody.knows": .integer(3),
    ]
    let report = transfer.importValues(document, into: &stored)
    #expect(report.imported == ["Settings.lastOpened", "Settings.name", "Settings.theme"])
    #expect(report.renamed == ["Settings.oldTheme": "Settings.theme"])
    #expect(report.unknown == ["Nobody.knows"])
    #expect(report.retired == ["Settings.legacy"])
    #expect(report.notImported == ["Settings.deviceToken"])
    #expect(
      report.wrongType == [
        "Settings.volume": "the document holds text, but the preference stores number",
        "Settings.tags": "in the list: the document holds number, but the preference stores text",
      ])
    #expect(
      stored == [
        "Other.key": .integer(1), "Settings.volume": .double(0.9), "Settings.name": .string("Paul"),
        "Settings.theme": .string("dark"), "Settings.lastOpened": .date(Self.halfPast),
      ])
    #expect(report.problems.count == 5)
  }

  /// A value still under an old key goes too: the app would move it back at its next launch.
  @Test func resetRemovesTheUsersValuesOnly() {
    var stored: [String: StoredValue] = [
      "Settings.name": .string("Paul"), "Settings.tags": .array([]), "Settings.deviceToken": .string("t"),
      "Other.key": .integer(1), "Settings.oldTheme": .string("dark"),
    ]
    #expect(transfer.reset(&stored) == ["Settings.name", "Settings.tags", "Settings.theme"])
    #expect(stored == ["Settings.deviceToken": .string("t"), "Other.key": .integer(1)])
  }

  /// A file is one store's: the default store's, or the one `--store` names as declarations
  /// write it. A value of another store's preference is reported with the store to name.
  @Test func aFileHoldsOneStoresPreferences() {
    let source = """
      struct Shared {
        @Preference var local = 1
        @Preference(store: .suite("group.example")) var shared = 2
        @Preference(store: .suite( "group.example" )) var alsoShared = 3
      }

      """
    let result = scan(source)
    #expect(ValuesTransfer(result).preferences.map(\.key) == ["Shared.local"])
    let group = ValuesTransfer(result, store: #".suite("group.example")"#)
    #expect(group.preferences.map(\.key) == ["Shared.shared", "Shared.alsoShared"])
    var stored: [String: StoredValue] = [:]
    let report = ValuesTransfer(result).importValues(
      ["Shared.local": .integer(5), "Shared.shared": .integer(6)], into: &stored)
    #expect(report.imported == ["Shared.local"])
    #expect(report.otherStore == ["Shared.shared": #".suite("group.example")"#])
    #expect(
      report.problems == [
        #"'Shared.shared': this preference is declared in store .suite("group.example"); import it into that store's file with --store '.suite("group.example")'"#
      ])
    var groupStored: [String: StoredValue] = [:]
    let groupReport = group.importValues(
      ["Shared.local": .integer(5), "Shared.shared": .integer(6)], into: &groupStored)
    #expect(groupReport.imported == ["Shared.shared"])
    #expect(groupReport.problems.first?.contains("in the default store") == true)
  }

  /// What the app keeps in a file beside its UserDefaults store is left out of an export, and a
  /// value that large is not imported into a file directly.
  @Test func valuesTooLargeForADomainStayWithTheApp() {
    let marker = StoredValue.dictionary([
      ValuesTransfer.keptInFileMarker: .string("a1b2c3"), "bytes": .integer(5_000_000),
    ])
    let exported = transfer.export(from: ["Settings.name": marker, "Settings.volume": .double(1)])
    #expect(exported.values == ["Settings.volume": .double(1)])
    #expect(exported.keptInFile == ["Settings.name"])
    var stored: [String: StoredValue] = [:]
    let large = String(repeating: "x", count: ValuesTransfer.largeValueBytes + 1)
    let report = transfer.importValues(["Settings.name": .string(large)], into: &stored)
    #expect(report.tooLarge == ["Settings.name"])
    #expect(stored.isEmpty)
  }

  // MARK: The commands, on files

  func run(_ arguments: [String]) -> (Int32, String, String) { CommandTests().run(arguments) }

  @Test func exportThenImportIntoANewFileRestoresEveryValue() throws {
    let directory = Directory()
    directory.write("Sources/Settings.swift", Self.source)
    let source = directory.url.appendingPathComponent("old.plist")
    let original: [String: StoredValue] = [
      "Settings.name": .string("Paul"), "Settings.oldTheme": .string("dark"),
      "Settings.volume": .double(0.75),
      "Settings.deviceToken": .string("secret"), "Apple.key": .bool(true),
    ]
    try Data(Self.serialized(original, .binary)).write(to: source)
    let document = directory.url.appendingPathComponent("values.json").path
    let sources = directory.url.appendingPathComponent("Sources").path
    let (exported, _, exportErrors) = run([
      "export-values", "--plist", source.path, "--output", document, sources,
    ])
    #expect(exported == 0, "\(exportErrors)")
    // A value still under an old key (the app has not run since the rename) is exported under
    // the key now, as the app would have moved it.
    let values = [
      "Settings.name": StoredValue.string("Paul"), "Settings.volume": .double(0.75),
      "Settings.theme": .string("dark"),
    ]
    #expect(
      try ValuesTransfer.values(ofDocument: [UInt8](Data(contentsOf: URL(fileURLWithPath: document))))
        == values)

    let target = directory.url.appendingPathComponent("new.plist")
    let (imported, output, errors) = run([
      "import-values", "--plist", target.path, "--document", document, sources,
    ])
    #expect(imported == 0, "\(errors)")
    #expect(output.hasSuffix("new.plist: imported 3 of 3 values\n"))
    #expect(errors.isEmpty)
    let written = try Data(contentsOf: target)
    #expect(try PropertyListCoding.readDictionary([UInt8](written)) == values)
    // Foundation reads the file the app's store will read.
    let object = try PropertyListSerialization.propertyList(from: written, options: [], format: nil)
    #expect((object as? [String: Any])?["Settings.name"] as? String == "Paul")
  }

  @Test func importIntoAnExistingFileKeepsItsOtherValuesAndReports() throws {
    let directory = Directory()
    directory.write("Sources/Settings.swift", Self.source)
    let sources = directory.url.appendingPathComponent("Sources").path
    let file = directory.url.appendingPathComponent("prefs.plist")
    try Data(Self.serialized(["Apple.key": .bool(true), "Settings.name": .string("Ann")], .xml)).write(
      to: file)
    directory.write(
      "values.json",
      ValuesTransfer.document([
        "Settings.oldTheme": .string("dark"), "Settings.volume": .string("loud"), "Nobody.knows": .integer(1),
      ]))
    let (status, output, errors) = run([
      "import-values", "--plist", file.path, "--document",
      directory.url.appendingPathComponent("values.json").path,
      sources,
    ])
    #expect(status == 0)
    #expect(output.hasSuffix("imported 1 of 3 values (renamed: Settings.oldTheme → Settings.theme)\n"))
    #expect(errors.contains("values.json: warning: 'Nobody.knows': no preference has this key"))
    #expect(errors.contains("'Settings.volume': the document holds text, but the preference stores number"))
    #expect(
      try PropertyListCoding.readDictionary([UInt8](Data(contentsOf: file)))
        == ["Apple.key": .bool(true), "Settings.name": .string("Ann"), "Settings.theme": .string("dark")])
  }

  @Test func resetRemovesTheValuesFromTheFile() throws {
    let directory = Directory()
    directory.write("Sources/Settings.swift", Self.source)
    let file = directory.url.appendingPathComponent("prefs.plist")
    try Data(
      Self.serialized(
        ["Apple.key": .bool(true), "Settings.name": .string("Ann"), "Settings.deviceToken": .string("t")],
        .binary)
    ).write(to: file)
    let (status, output, _) = run([
      "reset-values", "--plist", file.path, directory.url.appendingPathComponent("Sources").path,
    ])
    #expect(status == 0)
    #expect(output.hasSuffix("prefs.plist: removed 1 values: Settings.name\n"))
    #expect(try PropertyListCoding.readDictionary([UInt8](Data(contentsOf: file)))["Settings.name"] == nil)
    #expect(
      try PropertyListCoding.readDictionary([UInt8](Data(contentsOf: file)))
        == ["Apple.key": .bool(true), "Settings.deviceToken": .string("t")])
  }

  /// A file that is not a property list, or a document that cannot be read, stops the command
  /// with a compiler-style error, and the file keeps its bytes.
  @Test func aCorruptFileIsLeftAsItIs() throws {
    let directory = Directory()
    directory.write("Sources/Settings.swift", Self.source)
    directory.write("prefs.plist", "<plist><dict><key>Settings.name</key><string>Paul</dict>")
    directory.write("values.json", ValuesTransfer.document(["Settings.name": .string("Ann")]))
    let file = directory.url.appendingPathComponent("prefs.plist").path
    let sources = directory.url.appendingPathComponent("Sources").path
    for arguments in [
      [
        "import-values", "--plist", file, "--document",
        directory.url.appendingPathComponent("values.json").path,
      ],
      ["reset-values", "--plist", file], ["export-values", "--plist", file],
    ] {
      let (status, _, errors) = run(arguments + [sources])
      #expect(status == 1)
      #expect(errors.contains("prefs.plist:1:1: error: not a property list"), "\(errors)")
      #expect(errors.contains("the file is left as it is"))
      #expect(directory.read("prefs.plist") == "<plist><dict><key>Settings.name</key><string>Paul</dict>")
    }
    // A path that exists but cannot be read as a file is not a missing file: nothing is written.
    let folder = directory.url.appendingPathComponent("folder.plist")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let (unreadable, _, unreadableErrors) = run([
      "import-values", "--plist", folder.path, "--document",
      directory.url.appendingPathComponent("values.json").path,
      sources,
    ])
    #expect(unreadable == 1)
    #expect(unreadableErrors.contains("folder.plist:1:1: error: cannot read the file"), "\(unreadableErrors)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    directory.write("newer.json", #"{"format": "swift-preferences.values", "version": 9, "values": {}}"#)
    let (status, _, errors) = run([
      "import-values", "--plist", directory.url.appendingPathComponent("fresh.plist").path, "--document",
      directory.url.appendingPathComponent("newer.json").path, sources,
    ])
    #expect(status == 1)
    #expect(errors.contains("newer.json:1:1: error: not a document of preference values: it is version 9"))
    #expect(!directory.contents().contains("fresh.plist"))
  }

  @Test func eachValuesCommandSaysWhatItNeeds() {
    for (arguments, message) in [
      (["export-values", "x"], "export-values needs --plist FILE"),
      (["import-values", "--plist", "p", "x"], "import-values needs --document FILE"),
      (
        ["reset-values", "--plist", "p", "--document", "d", "x"],
        "--document is an option of import-values only"
      ),
      (["reset-values", "--plist", "p", "--output", "o", "x"], "reset-values takes no --output"),
    ] {
      let (status, _, errors) = run(arguments)
      #expect(status == 2)
      #expect(errors.contains(message), "\(errors)")
    }
  }
}

extension UInt64 {
  fileprivate var bigEndianBytes: [UInt8] {
    (0..<8).reversed().map { UInt8(truncatingIfNeeded: self >> (8 * UInt64($0))) }
  }
}
