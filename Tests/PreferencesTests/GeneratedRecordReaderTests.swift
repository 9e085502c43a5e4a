import Foundation
import Testing

@testable import Preferences

/// The registry's record reader against `JSONDecoder`, the reference it replaced on the launch
/// path: the same records, written every way JSON can write them, read to the same values.
struct GeneratedRecordReaderTests {
  /// A record in the generator's layout, encoded by `JSONEncoder` (which escapes differently from
  /// the generator: `\/`, `\u` for control characters), so that the reader meets both.
  struct Encoded: Encodable {
    var record: GeneratedRecord

    private enum CodingKeys: String, CodingKey { case index, registeredValue }

    func encode(to encoder: any Encoder) throws {
      try record.descriptor.encode(to: encoder)
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(record.index, forKey: .index)
      try container.encodeIfPresent(record.registeredValue, forKey: .registeredValue)
    }
  }

  /// Text with what JSON must escape: quotes, backslashes, slashes, control characters, and
  /// characters outside the Basic Multilingual Plane (escaped as surrogate pairs by some writers).
  static func text(_ random: inout SeededRandom) -> String {
    let pieces = [
      "a", "Settings", "\"", "\\", "/", "\n", "\t", "\u{1}", "\u{1F}", "é", "€", "🦊", "𝄞", " ", "{}", "[,]",
      ":",
    ]
    return (0..<random.below(8)).map { _ in pieces[random.below(pieces.count)] }.joined()
  }

  static func value(_ random: inout SeededRandom, depth: Int = 0) -> PropertyListValue {
    switch random.below(depth > 2 ? 8 : 10) {
    case 0: .bool(random.chance())
    case 1: .integer(Int64(bitPattern: random.next()))
    case 2: .integer(Int64(random.below(100)) - 50)
    case 3: .unsignedInteger(UInt64.max - UInt64(random.below(10)))
    case 4: .double(Double(Int64(bitPattern: random.next())) / 1e6)
    case 5: .string(text(&random))
    case 6: .data(Data((0..<random.below(9)).map { _ in UInt8(truncatingIfNeeded: random.next()) }))
    case 7: .date(Date(timeIntervalSince1970: Double(random.below(2_000_000_000))))
    case 8: .array((0..<random.below(4)).map { _ in value(&random, depth: depth + 1) })
    default:
      .dictionary(
        Dictionary((0..<random.below(4)).map { _ in (text(&random), value(&random, depth: depth + 1)) }) {
          a, _ in a
        })
    }
  }

  static func record(_ random: inout SeededRandom, index: Int) -> GeneratedRecord {
    func optional(_ random: inout SeededRandom) -> String? { random.chance() ? text(&random) : nil }
    let descriptor = PreferenceDescriptor(
      key: text(&random), property: text(&random), declaringType: text(&random), valueType: optional(&random),
      defaultValueSource: text(&random), documentation: optional(&random), fileID: text(&random),
      line: random.below(100_000), column: random.below(200), condition: optional(&random),
      syncs: random.chance(), inSettings: random.chance(), storeSource: optional(&random),
      format: random.chance() ? .json : .propertyList,
      renamedFrom: (0..<random.below(3)).map { _ in text(&random) },
      registration: [.registry, .mainActor, .defaultIsolation, .firstRead][random.below(4)],
      registrationNote: optional(&random), isKeyDerived: random.chance())
    return GeneratedRecord(
      descriptor: descriptor, index: index, registeredValue: random.chance() ? value(&random) : nil)
  }

  /// What `JSONDecoder` reads from `text`, the reference.
  struct Reference: Decodable, Equatable {
    var descriptor: PreferenceDescriptor
    var index: Int
    var registeredValue: PropertyListValue?
    private enum CodingKeys: String, CodingKey { case index, registeredValue }
    init(from decoder: any Decoder) throws {
      descriptor = try PreferenceDescriptor(from: decoder)
      let container = try decoder.container(keyedBy: CodingKeys.self)
      index = try container.decode(Int.self, forKey: .index)
      registeredValue = try container.decodeIfPresent(PropertyListValue.self, forKey: .registeredValue)
    }
  }

  /// What launch reads of each record of `text`.
  static func cores(in text: String, tableFileID: String? = nil) throws -> [GeneratedRecordCore] {
    var cores: [GeneratedRecordCore] = []
    try GeneratedRecordReader.readCores(in: text, tableFileID: tableFileID) { cores.append($0) }
    return cores
  }

  /// Launch reads only a record's core (`readCores(in:tableFileID:_:)`): it must read what `records(in:)` reads of
  /// each record, and the record read again at the core's offset must be the whole record.
  static func expectCoresAgree(
    _ text: String, _ records: [GeneratedRecord], tableFileID: String? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let cores = try Self.cores(in: text, tableFileID: tableFileID)
    #expect(cores.count == records.count, sourceLocation: sourceLocation)
    for (core, record) in zip(cores, records) {
      let whole = record.descriptor
      #expect(core.key == whole.key, sourceLocation: sourceLocation)
      #expect(core.fileID == whole.fileID && core.line == whole.line, sourceLocation: sourceLocation)
      #expect(
        core.syncs == whole.syncs && core.format == whole.format && core.renamedFrom == whole.renamedFrom,
        sourceLocation: sourceLocation)
      #expect(
        core.isExported == whole.isExported && core.storeIsKeptByDeclaration == whole.storeIsKeptByDeclaration
          && core.hasStore == (whole.storeSource != nil), sourceLocation: sourceLocation)
      #expect(
        core.index == record.index && core.registeredValue == record.registeredValue
          && core.referencedAt == record.referencedAt, sourceLocation: sourceLocation)
      #expect(
        try GeneratedRecordReader.record(in: text, at: core.offset, tableFileID: tableFileID) == record,
        sourceLocation: sourceLocation)
    }
  }

  @Test(arguments: [JSONEncoder.OutputFormatting(), .sortedKeys, [.prettyPrinted, .withoutEscapingSlashes]])
  func readsWhatJSONDecoderReads(formatting: JSONEncoder.OutputFormatting) throws {
    var random = SeededRandom(state: UInt64(formatting.rawValue))
    let encoder = JSONEncoder()
    encoder.outputFormatting = formatting
    for round in 0..<200 {
      let records = (0..<random.below(4)).map { Self.record(&random, index: $0) }
      let text = String(decoding: try encoder.encode(records.map(Encoded.init)), as: UTF8.self)
      let reference = try JSONDecoder().decode([Reference].self, from: Data(text.utf8))
      let read = try GeneratedRecordReader.records(in: text)
      #expect(read == records, "round \(round): \(text)")
      try Self.expectCoresAgree(text, records)
      #expect(
        read.map { Reference.Fields($0) } == reference.map { Reference.Fields($0) },
        "round \(round): the reader and JSONDecoder differ on \(text)")
    }
  }

  @Test func readsTheGeneratorsLayoutAndSkipsMembersItDoesNotKnow() throws {
    let text = #"""
      [ {"future":{"a":[1,2.5e3,true,null,"x"]},"key":"A.b","property":"b","declaringType":"A",
        "valueType":null,"defaultValue":"\"\u00e9\ud83e\udd8a\"","documentation":null,"fileID":"M/A.swift",
        "line":7,"column":4,"condition":null,"syncs":false,"inSettings":true,"store":null,
        "format":"json","renamedFrom":["old","older"],"registration":"firstRead","registrationNote":"n",
        "index":3,"registeredValue":{"dictionary":{"k":{"array":[{"integer":-9223372036854775808},
        {"unsignedInteger":18446744073709551615},{"double":-0.5},{"bool":true},
        {"data":"AQI="},{"date":"2001-01-01T00:00:00Z"}]}}}} ]
      """#
    let records = try GeneratedRecordReader.records(in: text)
    #expect(records.count == 1)
    let record = try #require(records.first)
    #expect(record.descriptor.key == "A.b")
    #expect(record.descriptor.isKeyDerived, "a record without isKeyDerived reads as derived")
    #expect(record.descriptor.defaultValueSource == "\"é🦊\"")
    #expect(record.descriptor.inSettings && record.descriptor.format == .json)
    #expect(record.descriptor.renamedFrom == ["old", "older"])
    #expect(record.descriptor.registration == .firstRead && record.descriptor.registrationNote == "n")
    #expect(record.index == 3)
    #expect(
      record.registeredValue
        == .dictionary([
          "k": .array([
            .integer(.min), .unsignedInteger(.max), .double(-0.5), .bool(true), .data(Data([1, 2])),
            .date(Date(timeIntervalSinceReferenceDate: 0)),
          ])
        ]))
  }

  /// The generator's compact form: members that hold their default left out, the names taken
  /// from a `Type.property` key, the file ID from the table. Each reads as the full record.
  @Test func readsTheCompactFormAsTheFullRecord() throws {
    let compact = #"""
      [{"key":"Outer.Inner.count","valueType":"Int","defaultValue":"3","line":8,"column":4,"index":0,
        "registeredValue":{"integer":3}},
       {"key":"Outer.Inner.title","defaultValue":"t","line":9,"column":4,"index":1},
       {"key":"Other.flag","defaultValue":"true","fileID":"M/Elsewhere.swift","line":2,"column":1,"index":2},
       {"key":"custom","isKeyDerived":false,"property":"name","declaringType":"Outer","defaultValue":"1",
        "line":10,"column":4,"syncs":true,"inSettings":true,"store":".shared","format":"json",
        "renamedFrom":["old"],"registration":"mainActor","index":3}]
      """#
    let records = try GeneratedRecordReader.records(in: compact, tableFileID: "M/Table.swift")
    let expected = [
      PreferenceDescriptor(
        key: "Outer.Inner.count", property: "count", declaringType: "Outer.Inner", valueType: "Int",
        defaultValueSource: "3", fileID: "M/Table.swift", line: 8, column: 4),
      PreferenceDescriptor(
        key: "Outer.Inner.title", property: "title", declaringType: "Outer.Inner", valueType: nil,
        defaultValueSource: "t",
        fileID: "M/Table.swift", line: 9, column: 4),
      PreferenceDescriptor(
        key: "Other.flag", property: "flag", declaringType: "Other", valueType: nil,
        defaultValueSource: "true",
        fileID: "M/Elsewhere.swift", line: 2, column: 1),
      PreferenceDescriptor(
        key: "custom", property: "name", declaringType: "Outer", valueType: nil, defaultValueSource: "1",
        fileID: "M/Table.swift", line: 10, column: 4, syncs: true, inSettings: true, storeSource: ".shared",
        format: .json, renamedFrom: ["old"], registration: .mainActor, isKeyDerived: false),
    ]
    #expect(records.map(\.descriptor) == expected)
    #expect(records.map(\.index) == [0, 1, 2, 3])
    #expect(records[0].registeredValue == .integer(3) && records[1].registeredValue == nil)
    try Self.expectCoresAgree(compact, records, tableFileID: "M/Table.swift")
    // A record of a table that does not say its file ID, and does not name its own, has none.
    #expect(throws: GeneratedRecordReader.Failure.self) {
      try GeneratedRecordReader.records(
        in: #"[{"key":"A.b","defaultValue":"1","line":1,"column":1,"index":0}]"#)
    }
    // Launch requires what a whole record requires, though it keeps less.
    let incomplete: [(text: String, tableFileID: String?)] = [
      (#"[{"key":"A.b","defaultValue":"1","line":1,"column":1,"index":0}]"#, nil),
      (#"[{"key":"custom","defaultValue":"1","line":1,"column":1,"index":0}]"#, "M/T.swift"),
      (#"[{"key":"A.b","property":"b","defaultValue":"1","line":1,"column":1,"index":0}]"#, "M/T.swift"),
      (#"[{"key":"A.b","declaringType":"A","defaultValue":"1","line":1,"column":1,"index":0}]"#, "M/T.swift"),
      (#"[{"key":"A.b","line":1,"column":1,"index":0}]"#, "M/T.swift"),
      (#"[{"key":"A.b","defaultValue":"1","line":1,"index":0}]"#, "M/T.swift"),
      (#"[{"key":"A.b","defaultValue":"1","column":1,"index":0}]"#, "M/T.swift"),
      (#"[{"key":"A.b","defaultValue":"1","line":1,"column":1}]"#, "M/T.swift"),
    ]
    for (text, tableFileID) in incomplete {
      #expect(throws: GeneratedRecordReader.Failure.self, "\(text)") {
        try GeneratedRecordReader.records(in: text, tableFileID: tableFileID)
      }
      #expect(throws: GeneratedRecordReader.Failure.self, "\(text), at launch") {
        try Self.cores(in: text, tableFileID: tableFileID)
      }
    }
    // The same records, complete, read both ways.
    let complete = #"[{"key":"A.b","defaultValue":"1","line":1,"column":1,"index":0}]"#
    try Self.expectCoresAgree(
      complete, try GeneratedRecordReader.records(in: complete, tableFileID: "M/T.swift"),
      tableFileID: "M/T.swift")
  }

  @Test func everyTruncationAndCorruptionFailsWithAnOffset() throws {
    var random = SeededRandom(state: 7)
    let records = (0..<2).map { Self.record(&random, index: $0) }
    let text = String(decoding: try JSONEncoder().encode(records.map(Encoded.init)), as: UTF8.self)
    #expect(try GeneratedRecordReader.records(in: text) == records)
    // Every proper prefix is incomplete JSON: it fails, and never reads past the end.
    var utf8 = Array(text.utf8)
    for count in 0..<utf8.count {
      let prefix = String(decoding: utf8[..<count], as: UTF8.self)
      #expect(throws: GeneratedRecordReader.Failure.self, "prefix of \(count) bytes") {
        try GeneratedRecordReader.records(in: prefix)
      }
      #expect(throws: GeneratedRecordReader.Failure.self, "prefix of \(count) bytes, at launch") {
        try Self.cores(in: prefix)
      }
    }
    // Wrong values where the reader expects others.
    for (corrupt, message) in [
      (#"[{"key": 42}]"#, "expected a string"),
      (#"[{"key":"a"}]"#, "the record has no \"property\""),
      (#"[{"line": 99999999999999999999}]"#, "does not fit"),
      (#"[{"format": "xml"}]"#, "unknown value \"xml\""),
      (#"[{"registeredValue": {"integer": 1, "string": "a"}}]"#, "one member naming the kind"),
      (#"[{"registeredValue": {"decimal": 1}}]"#, "unknown kind"),
      (#"[{"key": "\q"}]"#, "unknown escape"),
      // A member launch skips is checked all the same.
      (#"[{"defaultValue": "\"a\q"}]"#, "unknown escape"),
      (#"[{"valueType": "\ud83e"}]"#, "low surrogate"),
      (#"[{"key": "\ud83e"}]"#, "low surrogate"),
      (#"[] []"#, "unexpected text after the records"),
    ] {
      do {
        _ = try GeneratedRecordReader.records(in: corrupt)
        Issue.record("\(corrupt) read")
      } catch let failure as GeneratedRecordReader.Failure {
        #expect(failure.description.contains(message), "\(corrupt): \(failure)")
      }
      do {
        _ = try Self.cores(in: corrupt)
        Issue.record("\(corrupt) read at launch")
      } catch let failure as GeneratedRecordReader.Failure {
        #expect(failure.description.contains(message), "\(corrupt), at launch: \(failure)")
      }
    }
    utf8[0] = UInt8(ascii: "{")
    #expect(throws: GeneratedRecordReader.Failure.self) {
      try GeneratedRecordReader.records(in: String(decoding: utf8, as: UTF8.self))
    }
  }
}

extension GeneratedRecordReaderTests.Reference {
  /// The fields both readers produce, to compare them.
  struct Fields: Equatable {
    var descriptor: PreferenceDescriptor
    var index: Int
    var registeredValue: PropertyListValue?
    init(_ record: GeneratedRecord) {
      (descriptor, index, registeredValue) = (record.descriptor, record.index, record.registeredValue)
    }
    init(_ reference: GeneratedRecordReaderTests.Reference) {
      (descriptor, index, registeredValue) = (
        reference.descriptor, reference.index, reference.registeredValue
      )
    }
  }
}
