import Foundation

/// A record as the generator writes it: the descriptor's fields, plus the record's number in its
/// file table and the default in stored form when the generator could encode it.
struct GeneratedRecord: Sendable, Equatable {
  var descriptor: PreferenceDescriptor
  var index: Int
  var registeredValue: PropertyListValue?
  /// Where declarations that share this one are (`fileID:line`, as the compiler reports them):
  /// `@Preference(\Settings.showFooter) var showFooter` finds this record there.
  var referencedAt: [String] = []
}

/// What registration and a declaration's resolution read of a record, at launch: the fields
/// they use, and where the record stands in its text, so that the rest (type, default source,
/// documentation, …) is read only when a ``PreferenceDescriptor`` is asked for
/// (``GeneratedRecordReader/record(in:at:tableFileID:)``).
struct GeneratedRecordCore: Sendable {
  var key: String
  var fileID: String
  var line: Int
  var syncs: Bool
  var format: PreferenceFormat
  var renamedFrom: [String]
  var isExported: Bool
  var storeIsKeptByDeclaration: Bool
  /// Whether the declaration names a store (`store:`).
  var hasStore: Bool
  var index: Int
  var registeredValue: PropertyListValue?
  var referencedAt: [String]
  /// The byte offset of the record in its text.
  var offset: Int
}

/// Reads the JSON records of a generated file table (`[{"key":…,"index":0,…}, …]`).
///
/// The generator leaves out a member that holds its default (`false`, `null`, `[]`, the
/// `propertyList` format, the `registry` registration), the type and property names when the key
/// is `Type.property`, and the file ID when it is the table's; the reader restores each.
///
/// The first read of any preference reads every record of the module, so this is on the launch
/// path of every app: it reads the bytes once, with no intermediate tree and no `Decoder`
/// machinery, which costs a small fraction of `JSONDecoder` for the same records. It accepts any
/// JSON (members in any order, unknown members skipped, every escape) and fails with the byte
/// offset of the first thing it cannot read.
struct GeneratedRecordReader {
  /// Why records could not be read.
  struct Failure: Error, CustomStringConvertible {
    var offset: Int
    var message: String
    var description: String { "\(message) at byte \(offset)" }
  }

  /// The records of one JSON array, of the table of `tableFileID` (the file ID of a record that
  /// names none); throws a ``Failure``.
  static func records(in text: String, tableFileID: String? = nil) throws -> [GeneratedRecord] {
    var text = text
    return try text.withUTF8 { bytes in
      var reader = GeneratedRecordReader(bytes: bytes, tableFileID: tableFileID, describes: true)
      var records: [GeneratedRecord] = []
      try reader.readRecords { fields throws(Failure) in records.append(try fields.record()) }
      return records
    }
  }

  /// The records of one JSON array as launch reads them, each handed to `body` as it is read:
  /// the fields of ``GeneratedRecordCore``, the others checked as ``records(in:tableFileID:)``
  /// checks them but not kept; throws a ``Failure`` (after handing `body` the records before
  /// the one that failed).
  static func readCores(
    in text: String, tableFileID: String? = nil, _ body: (GeneratedRecordCore) -> Void
  ) throws {
    var text = text
    try text.withUTF8 { bytes in
      var reader = GeneratedRecordReader(bytes: bytes, tableFileID: tableFileID, describes: false)
      try reader.readRecords { fields throws(Failure) in body(try fields.core()) }
    }
  }

  /// The whole record at byte `offset` of `text` (a ``GeneratedRecordCore/offset``).
  static func record(in text: String, at offset: Int, tableFileID: String? = nil) throws -> GeneratedRecord {
    var text = text
    return try text.withUTF8 { bytes in
      var reader = GeneratedRecordReader(bytes: bytes, tableFileID: tableFileID, describes: true)
      reader.position = offset
      return try reader.readRecord().record()
    }
  }

  private let bytes: UnsafeBufferPointer<UInt8>
  private var position = 0
  private let fieldNames = Field.names
  /// The last file ID and declaring type read, and their bytes in the text: records of one
  /// table repeat them, and repeating a string shares its storage.
  private var lastFileID: Reused?
  private var lastDeclaringType: Reused?

  private struct Reused {
    var bytes: UnsafeBufferPointer<UInt8>
    var string: String
  }

  private let tableFileID: String?
  /// The type name last taken from a key, shared by the records of one type.
  private var lastTypeFromKey: String?

  /// Whether the reader keeps the fields only a ``PreferenceDescriptor`` holds (else it checks
  /// and skips them).
  private let describes: Bool

  private init(bytes: UnsafeBufferPointer<UInt8>, tableFileID: String?, describes: Bool) {
    self.bytes = bytes
    self.tableFileID = tableFileID
    self.describes = describes
  }

  // MARK: Records

  private mutating func readRecords(_ take: (Fields) throws(Failure) -> Void) throws(Failure) {
    var first = true
    try enter(UInt8(ascii: "["))
    while try nextElement(closing: UInt8(ascii: "]"), first: &first) { try take(readRecord()) }
    skipWhitespace()
    guard position == bytes.count else { throw failure("unexpected text after the records") }
  }

  /// A record's members, as read.
  private struct Fields {
    var start: Int
    var key: String?
    var isKeyDerived = true
    var property: String?
    var declaringType: String?
    var valueType: String?
    var defaultValue: String?
    var documentation: String?
    var fileID: String?
    var line: Int?
    var column: Int?
    var condition: String?
    var syncs = false
    var inSettings = false
    var store: String?
    var format = PreferenceFormat.propertyList
    var renamedFrom: [String] = []
    var registration = PreferenceDescriptor.Registration.registry
    var registrationNote: String?
    var index: Int?
    var registeredValue: PropertyListValue?
    var referencedAt: [String] = []
    var isExported = true
    var storeKeptByDeclaration = false
    /// What a reader that does not describe saw of the fields it skipped.
    var hasProperty = false
    var hasDeclaringType = false
    var hasDefaultValue = false
    var hasColumn = false
    var hasStore = false

    func required<T>(_ value: T?, _ name: String) throws(Failure) -> T {
      guard let value else { throw Failure(offset: start, message: "the record has no \"\(name)\"") }
      return value
    }

    func record() throws(Failure) -> GeneratedRecord {
      let descriptor = PreferenceDescriptor(
        key: try required(key, "key"), property: try required(property, "property"),
        declaringType: try required(declaringType, "declaringType"), valueType: valueType,
        defaultValueSource: try required(defaultValue, "defaultValue"), documentation: documentation,
        fileID: try required(fileID, "fileID"), line: try required(line, "line"),
        column: try required(column, "column"), condition: condition, syncs: syncs, inSettings: inSettings,
        storeSource: store, format: format, renamedFrom: renamedFrom, registration: registration,
        registrationNote: registrationNote, isKeyDerived: isKeyDerived, isExported: isExported,
        storeIsKeptByDeclaration: storeKeptByDeclaration)
      return GeneratedRecord(
        descriptor: descriptor, index: try required(index, "index"), registeredValue: registeredValue,
        referencedAt: referencedAt)
    }

    /// Whether `key` holds a dot: a byte search of its storage (a key read from the records is
    /// always contiguous), which launch does once per record.
    static func hasDot(_ key: String) -> Bool {
      key.utf8.withContiguousStorageIfAvailable { bytes in
        bytes.isEmpty ? false : memchr(bytes.baseAddress!, Int32(UInt8(ascii: ".")), bytes.count) != nil
      } ?? key.utf8.contains(UInt8(ascii: "."))
    }

    func core() throws(Failure) -> GeneratedRecordCore {
      // The same members are required as of a whole record.
      let key = try required(key, "key")
      // Both names are left out of a `Type.property` key, where they are taken from the key.
      let derived = !hasProperty && !hasDeclaringType && Self.hasDot(key)
      _ = try required(hasProperty || derived ? () : nil, "property")
      _ = try required(hasDeclaringType || derived ? () : nil, "declaringType")
      _ = try required(hasDefaultValue ? () : nil, "defaultValue")
      _ = try required(hasColumn ? () : nil, "column")
      return GeneratedRecordCore(
        key: key, fileID: try required(fileID, "fileID"), line: try required(line, "line"), syncs: syncs,
        format: format, renamedFrom: renamedFrom, isExported: isExported,
        storeIsKeptByDeclaration: storeKeptByDeclaration, hasStore: hasStore,
        index: try required(index, "index"), registeredValue: registeredValue, referencedAt: referencedAt,
        offset: start)
    }
  }

  /// The members of a record, in the order the generator writes them (the reader expects that
  /// order first, and accepts any).
  private enum Field: Int {
    case key, isKeyDerived, property, declaringType, valueType, defaultValue, documentation, fileID, line,
      column
    case condition, syncs, inSettings, store, format, renamedFrom, registration, registrationNote
    case isExported, storeKeptByDeclaration, referencedAt, index, registeredValue

    static let names: [StaticString] = [
      "key", "isKeyDerived", "property", "declaringType", "valueType", "defaultValue", "documentation",
      "fileID",
      "line", "column", "condition", "syncs", "inSettings", "store", "format", "renamedFrom", "registration",
      "registrationNote", "isExported", "storeKeptByDeclaration", "referencedAt", "index", "registeredValue",
    ]
  }

  private mutating func readRecord() throws(Failure) -> Fields {
    var record = Fields(start: position)
    var expected = 0
    try enter(UInt8(ascii: "{"))
    while let field = try nextField(expected: &expected) {
      switch field {
      case nil: try skipValue()
      case .key: record.key = try readString()
      case .isKeyDerived: record.isKeyDerived = try readBool()
      case .property:
        record.hasProperty = true
        if describes { record.property = try readString() } else { try skipString() }
      case .declaringType:
        record.hasDeclaringType = true
        if describes {
          record.declaringType = try readString(reusing: \.lastDeclaringType)
        } else {
          try skipString()
        }
      case .valueType:
        if describes { record.valueType = try readOptionalString() } else { try skipOptionalString() }
      case .defaultValue:
        record.hasDefaultValue = true
        if describes { record.defaultValue = try readString() } else { try skipString() }
      case .documentation:
        if describes { record.documentation = try readOptionalString() } else { try skipOptionalString() }
      case .fileID: record.fileID = try readString(reusing: \.lastFileID)
      case .line: record.line = try readInteger(Int.self)
      case .column:
        record.hasColumn = true
        record.column = try readInteger(Int.self)
      case .condition:
        if describes { record.condition = try readOptionalString() } else { try skipOptionalString() }
      case .syncs: record.syncs = try readBool()
      case .inSettings: record.inSettings = try readBool()
      case .store:
        if describes {
          record.store = try readOptionalString()
          record.hasStore = record.store != nil
        } else {
          record.hasStore = try skipOptionalString()
        }
      case .format: record.format = try readEnum(PreferenceFormat.self)
      case .renamedFrom: record.renamedFrom = try readStrings()
      case .registration: record.registration = try readEnum(PreferenceDescriptor.Registration.self)
      case .registrationNote:
        if describes { record.registrationNote = try readOptionalString() } else { try skipOptionalString() }
      case .isExported: record.isExported = try readBool()
      case .storeKeptByDeclaration: record.storeKeptByDeclaration = try readBool()
      case .referencedAt: record.referencedAt = try readStrings()
      case .index: record.index = try readInteger(Int.self)
      case .registeredValue:
        record.registeredValue = try readOptional { (reader) throws(Failure) in try reader.readValue() }
      }
    }
    if record.fileID == nil { record.fileID = tableFileID }
    // Left out when the key is `Type.property`.
    if describes, record.property == nil, record.declaringType == nil, let name = record.key,
      let dot = name.utf8.lastIndex(of: UInt8(ascii: "."))
    {
      record.property = String(name[name.utf8.index(after: dot)...])
      let type = name[..<dot]
      if let last = lastTypeFromKey, last == type {
        record.declaringType = last
      } else {
        record.declaringType = String(type)
        lastTypeFromKey = record.declaringType
      }
    }
    return record
  }

  /// A value in the generator's form: an object with one member naming its kind
  /// (`{"integer":42}`), as ``PropertyListValue``'s `Codable` conformance reads it.
  private mutating func readValue() throws(Failure) -> PropertyListValue {
    let start = position
    var first = true
    try enter(UInt8(ascii: "{"))
    // The kind's name is matched in the text: no string is made of it.
    guard try nextElement(closing: UInt8(ascii: "}"), first: &first) else {
      throw Failure(offset: start, message: "expected an object with one member naming the kind")
    }
    let kind = try readRawString()
    guard try peek() == UInt8(ascii: ":") else { throw failure("expected \":\"") }
    position += 1
    let value: PropertyListValue
    if Self.equal(kind, "integer") {
      value = .integer(try readInteger(Int64.self))
    } else if Self.equal(kind, "string") {
      value = .string(try readString())
    } else if Self.equal(kind, "bool") {
      value = .bool(try readBool())
    } else if Self.equal(kind, "double") {
      value = .double(try readDouble())
    } else if Self.equal(kind, "array") {
      var elements: [PropertyListValue] = []
      var firstElement = true
      try enter(UInt8(ascii: "["))
      while try nextElement(closing: UInt8(ascii: "]"), first: &firstElement) {
        elements.append(try readValue())
      }
      value = .array(elements)
    } else if Self.equal(kind, "dictionary") {
      var members: [String: PropertyListValue] = [:]
      var firstMember = true
      try enter(UInt8(ascii: "{"))
      while let name = try nextMember(first: &firstMember) { members[name] = try readValue() }
      value = .dictionary(members)
    } else if Self.equal(kind, "unsignedInteger") {
      value = .unsignedInteger(try readInteger(UInt64.self))
    } else if Self.equal(kind, "data") {
      let text = try readString()
      guard let data = Data(base64Encoded: text) else { throw Failure(offset: start, message: "not Base64") }
      value = .data(data)
    } else if Self.equal(kind, "date") {
      let text = try readString()
      guard let date = ISO8601.parse(text) else { throw Failure(offset: start, message: "not ISO 8601") }
      value = .date(date)
    } else {
      throw Failure(offset: start, message: "unknown kind \"\(kind.string)\"")
    }
    guard try nextMember(first: &first) == nil else {
      throw Failure(offset: start, message: "expected an object with one member naming the kind")
    }
    return value
  }

  // MARK: JSON

  private func failure(_ message: String) -> Failure { Failure(offset: position, message: message) }

  private mutating func skipWhitespace() {
    while position < bytes.count {
      switch bytes[position] {
      case 0x20, 0x09, 0x0A, 0x0D: position += 1
      default: return
      }
    }
  }

  /// The next byte after whitespace, without consuming it.
  @inline(__always)
  private mutating func peek() throws(Failure) -> UInt8 {
    // The generator writes no whitespace.
    if position < bytes.count, bytes[position] > 0x20 { return bytes[position] }
    skipWhitespace()
    guard position < bytes.count else { throw failure("unexpected end of the records") }
    return bytes[position]
  }

  private mutating func enter(_ opening: UInt8) throws(Failure) {
    guard try peek() == opening else { throw failure("expected \"\(Character(Unicode.Scalar(opening)))\"") }
    position += 1
  }

  /// Moves past the separator before the next element of an array entered with
  /// ``enter(_:)``; `false` past its end.
  private mutating func nextElement(closing: UInt8, first: inout Bool) throws(Failure) -> Bool {
    let next = try peek()
    if next == closing {
      position += 1
      return false
    }
    if first {
      first = false
      return true
    }
    guard next == UInt8(ascii: ",") else { throw failure("expected \",\" or \"]\"") }
    position += 1
    return true
  }

  /// The name of the next member of an object entered with ``enter(_:)``, leaving the reader at
  /// its value; `nil` past the object's end.
  private mutating func nextMember(first: inout Bool) throws(Failure) -> String? {
    guard try nextElement(closing: UInt8(ascii: "}"), first: &first) else { return nil }
    let name = try readString()
    guard try peek() == UInt8(ascii: ":") else { throw failure("expected \":\"") }
    position += 1
    return name
  }

  /// The next member of a record: `.some(nil)` for a member this version does not know, `nil`
  /// past the record's end. `expected` is the field the generator writes next.
  private mutating func nextField(expected: inout Int) throws(Failure) -> Field?? {
    var first = expected == 0
    guard try nextElement(closing: UInt8(ascii: "}"), first: &first) else { return .none }
    // The common case: a name the generator writes, unescaped, with no space before its colon;
    // matched where it stands, in the order the generator writes the fields.
    if try peek() == UInt8(ascii: "\""), let field = knownField(after: expected) {
      expected = field.rawValue + 1
      return .some(field)
    }
    let name = try readRawString()
    guard try peek() == UInt8(ascii: ":") else { throw failure("expected \":\"") }
    position += 1
    let names = fieldNames
    var candidate = expected
    for _ in 0..<names.count {
      if candidate >= names.count { candidate = 0 }
      if Self.equal(name, names[candidate]) {
        expected = candidate + 1
        return .some(Field(rawValue: candidate))
      }
      candidate += 1
    }
    expected = max(expected, 1)
    return .some(nil)
  }

  /// The field whose quoted name and colon stand at the reader's position (a quote), trying
  /// the fields from `expected` on; moves past the colon. `nil`, not moving, for anything else.
  private mutating func knownField(after expected: Int) -> Field? {
    let names = fieldNames
    let start = bytes.baseAddress! + position + 1
    let available = bytes.count - position - 1
    var candidate = expected
    for _ in 0..<names.count {
      if candidate >= names.count { candidate = 0 }
      let name = names[candidate]
      let count = name.utf8CodeUnitCount
      if count + 2 <= available, start[count] == UInt8(ascii: "\""), start[count + 1] == UInt8(ascii: ":"),
        memcmp(start, name.utf8Start, count) == 0
      {
        position += count + 3
        return Field(rawValue: candidate)
      }
      candidate += 1
    }
    return nil
  }

  private static func equal(_ bytes: RawString, _ name: StaticString) -> Bool {
    switch bytes {
    case .bytes(let bytes):
      bytes.count == name.utf8CodeUnitCount && memcmp(bytes.baseAddress!, name.utf8Start, bytes.count) == 0
    case .decoded(let text):
      name.withUTF8Buffer { text.utf8.elementsEqual($0) }
    }
  }

  /// A string's bytes as they stand in the text when it has no escapes, else its decoded value.
  private enum RawString {
    case bytes(UnsafeBufferPointer<UInt8>)
    case decoded(String)

    var string: String {
      switch self {
      case .bytes(let bytes): String(decoding: bytes, as: UTF8.self)
      case .decoded(let text): text
      }
    }
  }

  private mutating func readString() throws(Failure) -> String { try readRawString().string }

  /// A string, sharing the storage of the one `last` holds when it is the same text.
  private mutating func readString(reusing last: WritableKeyPath<Self, Reused?>) throws(Failure) -> String {
    let raw = try readRawString()
    guard case .bytes(let bytes) = raw else { return raw.string }
    if let previous = self[keyPath: last], previous.bytes.count == bytes.count,
      bytes.isEmpty || memcmp(previous.bytes.baseAddress!, bytes.baseAddress!, bytes.count) == 0
    {
      return previous.string
    }
    let string = raw.string
    self[keyPath: last] = Reused(bytes: bytes, string: string)
    return string
  }

  private mutating func readOptionalString() throws(Failure) -> String? {
    try readOptional { (reader) throws(Failure) in try reader.readString() }
  }

  private mutating func readLiteral(_ literal: StaticString) -> Bool {
    let count = literal.utf8CodeUnitCount
    guard position + count <= bytes.count,
      memcmp(bytes.baseAddress! + position, literal.utf8Start, count) == 0
    else { return false }
    position += count
    return true
  }

  private mutating func readOptional<T>(_ read: (inout Self) throws(Failure) -> T) throws(Failure) -> T? {
    if try peek() == UInt8(ascii: "n") {
      guard readLiteral("null") else { throw failure("expected null") }
      return nil
    }
    return try read(&self)
  }

  private mutating func readBool() throws(Failure) -> Bool {
    _ = try peek()
    if readLiteral("true") { return true }
    if readLiteral("false") { return false }
    throw failure("expected true or false")
  }

  private mutating func readEnum<T: RawRepresentable<String>>(_ type: T.Type) throws(Failure) -> T {
    let start = position
    let text = try readString()
    guard let value = T(rawValue: text) else {
      throw Failure(offset: start, message: "unknown value \"\(text)\"")
    }
    return value
  }

  private mutating func readStrings() throws(Failure) -> [String] {
    var strings: [String] = []
    var first = true
    try enter(UInt8(ascii: "["))
    while try nextElement(closing: UInt8(ascii: "]"), first: &first) { strings.append(try readString()) }
    return strings
  }

  /// The text of a number (`-12`, `1.5e3`).
  private mutating func readNumberText() throws(Failure) -> UnsafeBufferPointer<UInt8> {
    _ = try peek()
    let start = position
    while position < bytes.count {
      switch bytes[position] {
      case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."),
        UInt8(ascii: "e"), UInt8(ascii: "E"):
        position += 1
      default:
        guard position > start else { throw failure("expected a number") }
        return UnsafeBufferPointer(rebasing: bytes[start..<position])
      }
    }
    guard position > start else { throw failure("expected a number") }
    return UnsafeBufferPointer(rebasing: bytes[start..<position])
  }

  private mutating func readInteger<T: FixedWidthInteger>(_ type: T.Type) throws(Failure) -> T {
    let start = position
    let text = try readNumberText()
    var index = 0
    let negative = text[0] == UInt8(ascii: "-")
    if negative { index = 1 }
    guard index < text.count else { throw Failure(offset: start, message: "expected an integer") }
    var value: T = 0
    while index < text.count {
      let digit = text[index] &- UInt8(ascii: "0")
      guard digit < 10 else { throw Failure(offset: start, message: "expected an integer") }
      let (shifted, overflow) = value.multipliedReportingOverflow(by: 10)
      let (next, overflow2) =
        negative ? shifted.subtractingReportingOverflow(T(digit)) : shifted.addingReportingOverflow(T(digit))
      guard !overflow, !overflow2 else {
        throw Failure(offset: start, message: "the integer does not fit \(T.self)")
      }
      value = next
      index += 1
    }
    return value
  }

  private mutating func readDouble() throws(Failure) -> Double {
    let start = position
    let text = try readNumberText()
    guard let value = Double(String(decoding: text, as: UTF8.self)) else {
      throw Failure(offset: start, message: "expected a number")
    }
    return value
  }

  private mutating func readRawString() throws(Failure) -> RawString { try scanString(keeping: true) }

  /// Moves past a string, checking it as ``readRawString()`` does; `keeping: false` makes no
  /// text of a string with escapes (launch skips the defaults' source text, most of which has
  /// escaped quotes).
  private mutating func scanString(keeping: Bool) throws(Failure) -> RawString {
    guard try peek() == UInt8(ascii: "\"") else { throw failure("expected a string") }
    position += 1
    let start = position
    // The common case, no escapes: the bytes as they stand up to the closing quote.
    let base = bytes.baseAddress!
    if let quote = memchr(base + start, Int32(UInt8(ascii: "\"")), bytes.count - start) {
      let end = base.distance(to: quote.assumingMemoryBound(to: UInt8.self))
      if memchr(base + start, Int32(UInt8(ascii: "\\")), end - start) == nil {
        position = end + 1
        return .bytes(UnsafeBufferPointer(start: base + start, count: end - start))
      }
    }
    while position < bytes.count, bytes[position] != UInt8(ascii: "\\") { position += 1 }
    var text = keeping ? Array(UnsafeBufferPointer(rebasing: bytes[start..<position])) : []
    while position < bytes.count {
      let byte = bytes[position]
      position += 1
      switch byte {
      case UInt8(ascii: "\""):
        return .decoded(keeping ? String(decoding: text, as: UTF8.self) : "")
      case UInt8(ascii: "\\"):
        guard position < bytes.count else { break }
        let escape = bytes[position]
        position += 1
        switch escape {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): if keeping { text.append(escape) }
        case UInt8(ascii: "b"): if keeping { text.append(0x08) }
        case UInt8(ascii: "f"): if keeping { text.append(0x0C) }
        case UInt8(ascii: "n"): if keeping { text.append(0x0A) }
        case UInt8(ascii: "r"): if keeping { text.append(0x0D) }
        case UInt8(ascii: "t"): if keeping { text.append(0x09) }
        case UInt8(ascii: "u"):
          var scalar = try readHexUnit()
          if (0xD800..<0xDC00).contains(scalar) {
            // A surrogate pair: the low half follows as another `\u` escape.
            guard readLiteral("\\u") else { throw failure("expected the low surrogate") }
            let low = try readHexUnit()
            guard (0xDC00..<0xE000).contains(low) else { throw failure("expected the low surrogate") }
            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
          }
          guard let unicode = Unicode.Scalar(scalar) else { throw failure("not a Unicode scalar") }
          if keeping { text.append(contentsOf: String(Character(unicode)).utf8) }
        default:
          throw Failure(offset: position - 2, message: "unknown escape")
        }
      default:
        if keeping { text.append(byte) }
      }
    }
    throw failure("unterminated string")
  }

  /// Four hexadecimal digits of a `\u` escape.
  private mutating func readHexUnit() throws(Failure) -> UInt32 {
    guard position + 4 <= bytes.count else { throw failure("expected four hexadecimal digits") }
    var value: UInt32 = 0
    for _ in 0..<4 {
      let byte = bytes[position]
      let digit: UInt8
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
      default: throw failure("expected four hexadecimal digits")
      }
      value = value << 4 | UInt32(digit)
      position += 1
    }
    return value
  }

  /// Moves past a string, making no `String` of it.
  private mutating func skipString() throws(Failure) { _ = try scanString(keeping: false) }

  /// Moves past a string or `null`; whether it was a string.
  @discardableResult
  private mutating func skipOptionalString() throws(Failure) -> Bool {
    try readOptional { (reader) throws(Failure) in try reader.skipString() } != nil
  }

  /// Moves past a value of any kind (a member this version does not know).
  private mutating func skipValue() throws(Failure) {
    switch try peek() {
    case UInt8(ascii: "\""): try skipString()
    case UInt8(ascii: "{"):
      var first = true
      position += 1
      while try nextMember(first: &first) != nil { try skipValue() }
    case UInt8(ascii: "["):
      var first = true
      position += 1
      while try nextElement(closing: UInt8(ascii: "]"), first: &first) { try skipValue() }
    case UInt8(ascii: "t"), UInt8(ascii: "f"): _ = try readBool()
    case UInt8(ascii: "n"):
      guard readLiteral("null") else { throw failure("expected null") }
    default: _ = try readNumberText()
    }
  }
}
