import Foundation
import Testing

@testable import PreferencesScannerCore

/// `swift package preferences export`, what the scanner reads from the file system, and its
/// configuration file: the parts that do not go through Foundation's full library.
@Suite struct ExportTests {
  typealias Directory = CommandTests.Directory

  static let source = """
    struct Settings {
      /// Sounds & <alerts>
      /// More about them.
      @Preference(settings: true) var sounds = true
      /// Your name
      @Preference(settings: true) var name = "A & B"
      @Preference(settings: true) var volume = 7
      @Preference(settings: true) var speed = 1.5
      @Preference(settings: true) var tags: [String] = []
      @Preference(settings: true) var limit: Int? = 3
      @Preference(settings: true) var tip: Decimal = 12.5
      @Preference(settings: true) var timeout: TimeInterval = 30
      /// Not | shown
      @Preference var hidden = 0
    }

    """

  func export(_ format: String) throws -> (output: String, errors: String) {
    let sources = Directory()
    sources.write("Settings.swift", Self.source)
    let (status, output, errors) = CommandTests().run(["export", "--format", format, sources.url.path])
    try #require(status == 0, "\(errors)")
    return (output, errors)
  }

  /// The Settings app's `Root.plist`: one specifier per supported `settings: true` preference,
  /// titled by the first line of its documentation, in a property list that Foundation reads.
  @Test func settingsPlistIsAPropertyListTheSettingsAppReads() throws {
    let (output, errors) = try export("settings-plist")
    #expect(
      errors.contains(
        "'Settings.tags' is marked settings: true but its type ([String]) has no Settings app control"))
    let root = try #require(
      try PropertyListSerialization.propertyList(from: Data(output.utf8), format: nil) as? [String: Any])
    #expect(root["StringsTable"] as? String == "Root")
    let specifiers = try #require(root["PreferenceSpecifiers"] as? [[String: Any]])
    #expect(
      specifiers.map { $0["Key"] as? String } == [
        "Settings.sounds", "Settings.name", "Settings.volume", "Settings.speed", "Settings.limit",
        "Settings.tip", "Settings.timeout",
      ])
    #expect(
      specifiers.map { $0["Title"] as? String } == [
        "Sounds & <alerts>", "Your name", "volume", "speed", "limit", "tip", "timeout",
      ])
    #expect(specifiers[0]["Type"] as? String == "PSToggleSwitchSpecifier")
    #expect(specifiers[0]["DefaultValue"] as? Bool == true)
    #expect(specifiers[1]["Type"] as? String == "PSTextFieldSpecifier")
    #expect(specifiers[1]["DefaultValue"] as? String == "A & B")
    #expect(specifiers[2]["KeyboardType"] as? String == "NumberPad")
    #expect(specifiers[2]["DefaultValue"] as? Int == 7)
    #expect(specifiers[3]["KeyboardType"] as? String == "DecimalPad")
    #expect(specifiers[3]["DefaultValue"] as? Double == 1.5)
    // An optional number is typed like the number.
    #expect(specifiers[4]["KeyboardType"] as? String == "NumberPad")
    #expect(specifiers[4]["DefaultValue"] as? Int == 3)
    // A decimal is stored as text, as the text field stores it.
    #expect(specifiers[5]["KeyboardType"] as? String == "DecimalPad")
    #expect(specifiers[5]["DefaultValue"] as? String == "12.5")
    // `TimeInterval` is a `Double`.
    #expect(specifiers[6]["KeyboardType"] as? String == "DecimalPad")
    #expect(specifiers[6]["DefaultValue"] as? Int == 30)
    // The text is Apple's XML form, keys sorted and escaped: what Foundation writes.
    let foundation = try PropertyListSerialization.data(fromPropertyList: root, format: .xml, options: 0)
    #expect(output == String(decoding: foundation, as: UTF8.self))
    #expect(output.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!DOCTYPE plist PUBLIC"))
    #expect(
      output.contains("\t\t\t<key>DefaultValue</key>\n\t\t\t<integer>7</integer>\n\t\t\t<key>Key</key>"))
    #expect(output.contains("<string>Sounds &amp; &lt;alerts&gt;</string>"))
    #expect(output.hasSuffix("</dict>\n</plist>\n"))
  }

  /// Reals are written as Foundation writes them, whole ones and ones with no short decimal form
  /// included, so that an exported file is byte for byte the one Foundation would write.
  @Test func realsAreWrittenAsFoundationWritesThem() throws {
    for value in [30.0, 0.1, 1e20, -2.5, 1.0 / 3.0, 5e-324, 123_456_789.125] {
      let data = try PropertyListSerialization.data(fromPropertyList: ["v": value], format: .xml, options: 0)
      let text = String(decoding: data, as: UTF8.self)
      #expect(text.contains("<real>\(PlistLiteral.realText(value))</real>"), "\(value): \(text)")
    }
  }

  @Test func markdownIsOneRowPerPreferenceWithCellsEscaped() throws {
    let lines = try export("markdown").output.split(separator: "\n")
    #expect(lines.count == 2 + 9)
    #expect(lines[0] == "| Key | Type | Default | Declared in | Description |")
    #expect(lines.contains("| `Settings.hidden` | Int | `0` | `Settings` | Not \\| shown |"))
    #expect(
      lines.contains(
        "| `Settings.sounds` | Bool | `true` | `Settings` | Sounds & <alerts> More about them. |"))
  }

  @Test func jsonIsTheScanRecords() throws {
    let output = try export("json").output
    let records = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [[String: Any]])
    #expect(records.compactMap { $0["key"] as? String }.count == 9)
    #expect(records.first?["key"] as? String == "Settings.sounds")
  }

  /// Directories are searched for `.swift` files: hidden folders (`.build`) and links to folders
  /// are not entered; links to files are read; a folder named like a Swift file is entered, not
  /// read as a file.
  @Test func swiftFilesSkipHiddenFoldersAndFolderLinks() throws {
    let root = Directory()
    for name in [
      "A.swift", "Sub/B.swift", "Sub/Deeper/C.swift", ".build/D.swift", ".hidden.swift", "Notes.txt",
      "Odd.swift/E.swift",
    ] {
      root.write(name, "struct X {}\n")
    }
    let fileManager = FileManager.default
    try fileManager.createSymbolicLink(
      atPath: root.url.appendingPathComponent("Loop").path, withDestinationPath: root.url.path)
    try fileManager.createSymbolicLink(
      atPath: root.url.appendingPathComponent("Linked.swift").path,
      withDestinationPath: root.url.appendingPathComponent("Sub/B.swift").path)
    let base = root.url.path + "/"
    let files = try PreferenceScanner.swiftFiles(in: [base])
    #expect(
      files.map { String($0.dropFirst(base.count)) } == [
        "A.swift", "Linked.swift", "Odd.swift/E.swift", "Sub/B.swift", "Sub/Deeper/C.swift",
      ])
    #expect(try PreferenceScanner.swiftFiles(in: [base + "A.swift"]) == [base + "A.swift"])
    #expect(throws: Diagnostic.self) { try PreferenceScanner.swiftFiles(in: [base + "Missing"]) }
  }

  /// The build plugin plans a table file for each source that mentions `@Preference`.
  @Test(arguments: [
    ("@Preference var a = 1", true),
    ("x @ y @Preference", true),
    ("@@Preference", true),
    ("var a = 1 // @Preferenc", false),
    ("@Preferenc", false),
    ("", false),
    ("Preference @ preference", false),
  ])
  func sourcesMentioningPreferenceArePlanned(text: String, planned: Bool) {
    #expect(PluginShared.mentionsPreference(Data(text.utf8)) == planned)
  }

  @Test func configurationErrorsSayWhatIsWrongAndWhere() throws {
    let directory = Directory()
    let path = directory.url.appendingPathComponent(ScannerConfiguration.fileName).path
    func error(_ text: String) -> Diagnostic? {
      directory.write(ScannerConfiguration.fileName, text)
      do {
        _ = try ScannerConfiguration.load(from: path)
        return nil
      } catch {
        return error
      }
    }
    let invalid = try #require(error("{\"separator\": \"_\",\n \"prefix\" \"x\"}"))
    #expect(
      invalid.description
        == "\(path):2:11: error: preferences-config.json is not valid JSON: expected ':' after the member name"
    )
    #expect(error(#"{"requireLock": 1}"#)?.message == #""requireLock" must be true or false"#)
    #expect(
      error(#"{"migrations": {"a": 1}}"#)?.message.hasPrefix(#""migrations" must map old keys"#) == true)
    #expect(
      error(#"{"migrations": {"a": "B.a", "a": "C.a"}}"#)?.message
        == #""a" is given twice in "migrations"; keep one"#)
    #expect(
      error(#"{"previousKeys": {"separator": ""}}"#)?.message.hasPrefix(#""previousKeys.separator" must be"#)
        == true)
    #expect(error(#"{"prefix": null}"#)?.message.hasPrefix(#""prefix" must be a string"#) == true)
    #expect(error("[]")?.message.contains("must contain a JSON object") == true)
    #expect(
      error(#"{"prefix": "a", "prefix": "b"}"#)?.message
        == #""prefix" is given twice in preferences-config.json; keep one"#)
    #expect(error(#"{"separator": ":", "migrations": {}, "requireLock": true}"#) == nil)
  }

  /// The configuration's JSON reader accepts what RFC 8259 allows, keeps members in order and
  /// numbers as written, and says where anything else goes wrong.
  @Test(arguments: [
    (
      #" {"a": [1, -2.5e+3, 0, true, false, null], "b": {}} "#, #"{"a":[1,-2.5e+3,0,true,false,null],"b":{}}"#
    ),
    (#"{"z": 1, "a": 2}"#, #"{"z":1,"a":2}"#),
    (#""\"\\\/\b\f\n\r\t\u00e9\ud83d\ude00""#, #""\"\\/\u0008\u000c\n\r\té😀""#),
    ("[]", "[]"),
    ("\n\t\r 7", "7"),
    ("\u{FEFF}{\"a\": \"b\"}", #"{"a":"b"}"#),
  ])
  func jsonIsReadAsWritten(text: String, compact: String) throws {
    #expect(try JSONValue.parse(Array(text.utf8)).text == compact)
  }

  @Test(arguments: [
    ("", "1:1 expected a value, found the end of the text"),
    (#"{"a" 1}"#, "1:6 expected ':' after the member name"),
    (#"{"a": 1,}"#, "1:9 expected a member name in double quotes"),
    ("[1 2]", "1:4 expected ',' or ']' after an array element"),
    (#"{"a": 1} x"#, "1:10 unexpected text after the JSON value"),
    ("[01]", "1:3 expected ',' or ']' after an array element"),
    ("[1.]", "1:4 expected a digit after '.'"),
    ("[-]", "1:3 expected a digit"),
    ("\n  tru", "2:3 expected 'true'"),
    (#""a\qb""#, #"1:3 unknown escape '\q'"#),
    (#""\ud800""#, #"1:8 an unpaired surrogate in '\u' escapes"#),
    (#""abc"#, "1:5 unterminated string"),
    ("\"a\nb\"", "1:3 a control character in a string must be escaped"),
    (String(repeating: "[", count: 300), "1:257 values nested more than 256 deep"),
  ])
  func jsonErrorsSayWhere(text: String, expected: String) {
    #expect(throws: JSONValue.ParseError.self) { try JSONValue.parse(Array(text.utf8)) }
    do {
      _ = try JSONValue.parse(Array(text.utf8))
    } catch {
      #expect("\(error.line):\(error.column) \(error.message)" == expected)
    }
  }
}
