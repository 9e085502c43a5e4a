import Foundation
import Testing

@_spi(Generated) @testable import Preferences

/// Settings of every kind an export meets: several stores, a renamed key, device state.
struct ExportSettings {
  nonisolated static let memory = PreferenceStore.inMemory()

  @Preference var name = "Anonymous"
  @Preference var volume = 0.5
  @Preference var launches = 0
  @Preference var lastOpened: Date?
  @Preference(store: ExportSettings.memory) var tags: [String] = []
  @Preference(renamedFrom: "ExportSettings.oldTheme", "ExportSettings.oldestTheme") var theme = "light"
  @Preference(exported: false) var deviceToken = ""
}

@Suite struct ValueExportTests {
  /// The document's values of this file's settings (the module declares others).
  func exportedSettings(_ document: PreferenceValuesDocument) -> [String: PropertyListValue] {
    document.values.filter { $0.key.hasPrefix("ExportSettings.") }
  }

  @Test func exportThenImportOnFreshStoresRestoresEveryExportedValue() throws {
    let opened = Date(timeIntervalSince1970: 1_000_000)
    let data = try PreferenceStandIns().run {
      let settings = ExportSettings()
      settings.name = "Paul"
      settings.volume = 0.25
      settings.lastOpened = opened
      settings.tags = ["swift", "ios"]
      settings.theme = "dark"
      settings.deviceToken = "secret"
      let document = PreferenceRegistry.exportValues()
      #expect(
        exportedSettings(document).keys.sorted() == [
          "ExportSettings.lastOpened", "ExportSettings.name", "ExportSettings.tags", "ExportSettings.theme",
          "ExportSettings.volume",
        ], "only values the user set, and no device state")
      return try document.jsonData()
    }
    try PreferenceStandIns().run {
      let report = PreferenceRegistry.importValues(try PreferenceValuesDocument(jsonData: data))
      #expect(report.problems == [])
      #expect(report.imported.count == 5)
      let settings = ExportSettings()
      #expect(settings.name == "Paul")
      #expect(settings.volume == 0.25)
      #expect(settings.lastOpened == opened)
      #expect(settings.tags == ["swift", "ios"])
      #expect(settings.theme == "dark")
      #expect(settings.deviceToken == "")
      #expect(settings.launches == 0)
    }
  }

  @Test func aValueUnderARenamedKeyComesBackUnderItsNewName() {
    PreferenceStandIns().run {
      let report = PreferenceRegistry.importValues(
        PreferenceValuesDocument(values: ["ExportSettings.oldTheme": .string("dark")]))
      #expect(report.renamed == ["ExportSettings.oldTheme": "ExportSettings.theme"])
      #expect(report.imported == ["ExportSettings.theme"])
      #expect(ExportSettings().theme == "dark")
      #expect(!ExportSettings().$theme.store.hasStoredValue(forKey: "ExportSettings.oldTheme"))
    }
  }

  @Test func theNewestOldKeyWinsAndTheOthersAreNotUnknown() {
    PreferenceStandIns().run {
      let report = PreferenceRegistry.importValues(
        PreferenceValuesDocument(values: [
          "ExportSettings.oldestTheme": .string("oldest"), "ExportSettings.oldTheme": .string("old"),
        ]))
      #expect(report.renamed == ["ExportSettings.oldTheme": "ExportSettings.theme"])
      #expect(report.imported == ["ExportSettings.theme"])
      #expect(report.unknown == [])
      #expect(ExportSettings().theme == "old")
    }
  }

  @Test func aValueUnderItsCurrentKeyWinsOverOneUnderAnOldKey() {
    PreferenceStandIns().run {
      let report = PreferenceRegistry.importValues(
        PreferenceValuesDocument(values: [
          "ExportSettings.oldTheme": .string("old"), "ExportSettings.theme": .string("new"),
        ]))
      #expect(report.imported == ["ExportSettings.theme"])
      #expect(ExportSettings().theme == "new")
    }
  }

  @Test func valuesOfTheWrongKindAreReportedAndNotStored() {
    PreferenceStandIns().run {
      let report = PreferenceRegistry.importValues(
        PreferenceValuesDocument(values: [
          "ExportSettings.launches": .string("many"),
          "ExportSettings.tags": .array([.string("ok"), .integer(1)]),
          "ExportSettings.name": .bool(true),
          "ExportSettings.volume": .integer(1),
          "ExportSettings.lastOpened": .string("yesterday"),
        ]))
      #expect(
        report.wrongType == [
          "ExportSettings.launches": "the document holds text, but the preference stores number",
          "ExportSettings.tags": "in the list: the document holds number, but the preference stores text",
          "ExportSettings.lastOpened": "the document holds text, but the preference stores date",
          "ExportSettings.name": "the document holds Boolean, but the preference stores text",
        ])
      #expect(report.imported == ["ExportSettings.volume"], "a whole number is a Double preference's value")
      let settings = ExportSettings()
      #expect(settings.launches == 0 && settings.tags == [] && settings.name == "Anonymous")
      #expect(settings.volume == 1)
      for key in ["ExportSettings.launches", "ExportSettings.name"] {
        #expect(!settings.$name.store.hasStoredValue(forKey: key))
      }
    }
  }

  @Test func unknownKeysAndDeviceStateAreReportedAndChangeNothing() {
    PreferenceStandIns().run {
      let report = PreferenceRegistry.importValues(
        PreferenceValuesDocument(values: [
          "Nobody.declares": .integer(1), "ExportSettings.deviceToken": .string("stolen"),
        ]))
      #expect(report.unknown == ["Nobody.declares"])
      #expect(report.notImported == ["ExportSettings.deviceToken"])
      #expect(report.imported == [])
      #expect(
        report.problems == [
          "'Nobody.declares': no preference has this key",
          "'ExportSettings.deviceToken': this preference is not imported (declared exported: false)",
        ])
      #expect(ExportSettings().deviceToken == "")
      #expect(!PreferenceStore.default.hasStoredValue(forKey: "Nobody.declares"))
    }
  }

  @Test func resetAllRemovesWhatTheUserSetAndKeepsDeviceState() {
    PreferenceStandIns().run {
      let settings = ExportSettings()
      settings.name = "Paul"
      settings.tags = ["a"]
      settings.deviceToken = "secret"
      let removed = PreferenceRegistry.resetAllValues().filter { $0.hasPrefix("ExportSettings.") }
      #expect(removed == ["ExportSettings.name", "ExportSettings.tags"])
      #expect(settings.name == "Anonymous" && settings.tags == [])
      #expect(settings.deviceToken == "secret")
    }
  }

  @Test func theDocumentIsTheSameBytesForTheSameValuesAndNamesItsFormat() throws {
    let document = PreferenceValuesDocument(values: [
      "b": .date(Date(timeIntervalSince1970: 0)), "a": .double(1), "c": .integer(1),
    ])
    let data = try document.jsonData()
    #expect(try document.jsonData() == data)
    let text = String(decoding: data, as: UTF8.self)
    #expect(text.contains(#""format" : "swift-preferences.values""#))
    #expect(text.contains(#""version" : 1"#))
    #expect(try PreferenceValuesDocument(jsonData: data) == document)
  }

  @Test(arguments: [
    (#"{"format": "other", "version": 1, "values": {}}"#, "its format is 'other'"),
    (#"{"format": "swift-preferences.values", "version": 2, "values": {}}"#, "it is version 2"),
    ("not json", "it is not a document of preference values"),
    (#"{"format": "swift-preferences.values", "version": 1, "values": {"a": 1}}"#, "it is not a document"),
  ])
  func documentsThisVersionCannotReadAreRefused(text: String, reason: String) {
    do {
      _ = try PreferenceValuesDocument(jsonData: Data(text.utf8))
      Issue.record("read \(text)")
    } catch let PreferenceError.unreadableDocument(found) {
      #expect(found.hasPrefix(reason), "\(found)")
    } catch {
      Issue.record("\(error)")
    }
  }

  /// The values document is also read and written by `swift package preferences export-values`
  /// and `import-values`, which never link this library: the two fixtures hold the same values
  /// as each side writes them, and each side reads the other's (`ValuesTransferTests`).
  static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("../PreferencesScannerCoreTests/Fixtures/Values").standardized

  static let fixtureValues: [String: PropertyListValue] = [
    "Settings.name": .string("Paul"), "Settings.count": .integer(42),
    "Settings.big": .unsignedInteger(UInt64.max), "Settings.ratio": .double(0.25), "Settings.on": .bool(true),
    "Settings.blob": .data(Data([0, 1, 2, 255])),
    "Settings.when": .date(Date(timeIntervalSinceReferenceDate: 817_556_400.5)),
    "Settings.tags": .array([.string("a"), .string("b")]),
    "Settings.size": .dictionary(["w": .integer(3), "h": .double(1.5)]),
  ]

  @Test func readsTheDocumentTheCommandLineWrites() throws {
    let data = try Data(contentsOf: Self.fixtures.appendingPathComponent("scanner-document.json"))
    #expect(try PreferenceValuesDocument(jsonData: data).values == Self.fixtureValues)
  }

  @Test func writesTheDocumentTheCommandLineReads() throws {
    let url = Self.fixtures.appendingPathComponent("runtime-document.json")
    let data = try PreferenceValuesDocument(values: Self.fixtureValues).jsonData()
    if ProcessInfo.processInfo.environment["RECORD_SNAPSHOTS"] != nil { try data.write(to: url) }
    #expect(try Data(contentsOf: url) == data)
  }
}
