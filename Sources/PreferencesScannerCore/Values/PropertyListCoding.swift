#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Property lists read and written by hand, for the values commands: a UserDefaults domain's
/// file (`defaults export DOMAIN FILE`, or `~/Library/Preferences/DOMAIN.plist`) or a property-list
/// file store's file, in Apple's binary (`bplist00`) or XML form. Written here, not through
/// Foundation, so that a value keeps its kind on every platform (on Apple's Foundation an integer
/// `1` and `true` are both an `NSNumber`) and the scanner needs only FoundationEssentials.
package enum PropertyListCoding {
  package struct Failure: Error, Equatable, CustomStringConvertible {
    package var message: String
    package var description: String { message }
  }

  /// The dictionary at the root of `bytes`.
  package static func readDictionary(_ bytes: [UInt8]) throws(Failure) -> [String: StoredValue] {
    let root = try read(bytes)
    guard case .dictionary(let values) = root else {
      throw Failure(message: "its root is not a dictionary, as a preferences file's is")
    }
    return values
  }

  /// The value `bytes` hold, binary or XML.
  package static func read(_ bytes: [UInt8]) throws(Failure) -> StoredValue {
    if bytes.starts(with: Array("bplist00".utf8)) {
      var reader = BinaryReader(bytes: bytes)
      return try reader.root()
    }
    var reader = XMLReader(bytes: bytes)
    return try reader.root()
  }

  // MARK: Binary

  private struct BinaryReader {
    let bytes: [UInt8]
    var offsets: [Int] = []
    var referenceSize = 0
    /// Objects being read, against cycles.
    var open: Set<Int> = []
    /// Objects read, by reference: a file that refers to one object many times (each of 40
    /// arrays holding the next one twice) is read in time linear in its objects, not their paths.
    var decoded: [Int: StoredValue] = [:]
    /// Objects decoded: never more than the file holds.
    var reads = 0

    init(bytes: [UInt8]) { self.bytes = bytes }

    func integer(at offset: Int, size: Int) throws(Failure) -> Int {
      guard size > 0, size <= 8, offset >= 0, offset <= bytes.count - size else {
        throw Failure(message: "a binary property list that ends too early")
      }
      var value: UInt64 = 0
      for byte in bytes[offset..<offset + size] { value = value << 8 | UInt64(byte) }
      guard value <= UInt64(Int.max) else {
        throw Failure(message: "a binary property list with a huge offset")
      }
      return Int(value)
    }

    mutating func root() throws(Failure) -> StoredValue {
      guard bytes.count >= 8 + 32 else {
        throw Failure(message: "a binary property list too short to hold one")
      }
      let trailer = bytes.count - 32
      let offsetSize = Int(bytes[trailer + 6])
      referenceSize = Int(bytes[trailer + 7])
      let count = try integer(at: trailer + 8, size: 8)
      let top = try integer(at: trailer + 16, size: 8)
      let table = try integer(at: trailer + 24, size: 8)
      guard (1...8).contains(offsetSize), (1...8).contains(referenceSize), count > 0, top < count,
        count <= (trailer - table) / offsetSize
      else { throw Failure(message: "a binary property list whose trailer does not add up") }
      offsets = []
      offsets.reserveCapacity(count)
      for index in 0..<count { offsets.append(try integer(at: table + index * offsetSize, size: offsetSize)) }
      return try object(top, depth: 0)
    }

    /// The length that follows a marker: its low nibble, or an integer object after it.
    func length(_ info: UInt8, after offset: Int) throws(Failure) -> (count: Int, start: Int) {
      guard info == 0x0F else { return (Int(info), offset + 1) }
      guard offset + 1 < bytes.count, bytes[offset + 1] >> 4 == 0x1 else {
        throw Failure(message: "a binary property list with a malformed length")
      }
      let size = 1 << Int(bytes[offset + 1] & 0x0F)
      return (try integer(at: offset + 2, size: size), offset + 2 + size)
    }

    mutating func object(_ reference: Int, depth: Int) throws(Failure) -> StoredValue {
      if let value = decoded[reference] { return value }
      guard reference >= 0, reference < offsets.count, depth < 512, open.insert(reference).inserted else {
        throw Failure(message: "a binary property list with a bad or circular object reference")
      }
      defer { open.remove(reference) }
      let value = try read(reference, depth: depth)
      decoded[reference] = value
      return value
    }

    mutating func read(_ reference: Int, depth: Int) throws(Failure) -> StoredValue {
      reads += 1
      guard reads <= offsets.count else {
        throw Failure(message: "a binary property list that is read past its object count")
      }
      let offset = offsets[reference]
      guard offset < bytes.count else { throw Failure(message: "a binary property list that ends too early") }
      let marker = bytes[offset]
      let info = marker & 0x0F
      /// `count` items of `unit` bytes from `start`, checked without overflowing: every length
      /// comes from the file.
      func span(_ count: Int, of unit: Int = 1, from start: Int) throws(Failure) -> ArraySlice<UInt8> {
        let (length, overflow) = count.multipliedReportingOverflow(by: unit)
        guard count >= 0, !overflow, start >= 0, start <= bytes.count, length <= bytes.count - start else {
          throw Failure(message: "a binary property list that ends too early")
        }
        return bytes[start..<start + length]
      }
      func bits(_ slice: ArraySlice<UInt8>) -> UInt64 { slice.reduce(0) { $0 << 8 | UInt64($1) } }
      switch marker >> 4 {
      case 0x0 where marker == 0x08: return .bool(false)
      case 0x0 where marker == 0x09: return .bool(true)
      case 0x1:
        let size = 1 << Int(info)
        if size == 16 {
          let high = bits(try span(8, from: offset + 1))
          let low = bits(try span(8, from: offset + 9))
          guard high == 0 else { return .integer(Int64(bitPattern: low)) }
          return low > UInt64(Int64.max) ? .unsignedInteger(low) : .integer(Int64(low))
        }
        guard size <= 8 else { break }
        let value = bits(try span(size, from: offset + 1))
        // 1, 2 and 4 bytes are unsigned; 8 bytes are signed.
        return .integer(size == 8 ? Int64(bitPattern: value) : Int64(value))
      case 0x2 where info == 2:
        return .double(Double(Float(bitPattern: UInt32(bits(try span(4, from: offset + 1))))))
      case 0x2 where info == 3: return .double(Double(bitPattern: bits(try span(8, from: offset + 1))))
      case 0x3 where marker == 0x33:
        let seconds = Double(bitPattern: bits(try span(8, from: offset + 1)))
        // Within about 7,900 years of 2001: four-digit years, as ISO 8601 writes them.
        guard seconds.isFinite, abs(seconds) < 2.5e11 else {
          throw Failure(message: "a binary property list holding a date out of range")
        }
        return .date(seconds)
      case 0x4:
        let (count, start) = try length(info, after: offset)
        return .data(Array(try span(count, from: start)))
      case 0x5, 0x7:
        let (count, start) = try length(info, after: offset)
        return .string(String(decoding: try span(count, from: start), as: UTF8.self))
      case 0x6:
        let (count, start) = try length(info, after: offset)
        let raw = try span(count, of: 2, from: start)
        var units: [UInt16] = []
        units.reserveCapacity(count)
        var index = raw.startIndex
        while index < raw.endIndex {
          units.append(UInt16(raw[index]) << 8 | UInt16(raw[index + 1]))
          index += 2
        }
        return .string(String(decoding: units, as: UTF16.self))
      case 0xA:
        let (count, start) = try length(info, after: offset)
        _ = try span(count, of: referenceSize, from: start)
        var values: [StoredValue] = []
        for index in 0..<count {
          values.append(
            try object(try integer(at: start + index * referenceSize, size: referenceSize), depth: depth + 1))
        }
        return .array(values)
      case 0xD:
        let (count, start) = try length(info, after: offset)
        _ = try span(count, of: 2 * referenceSize, from: start)
        var values: [String: StoredValue] = [:]
        for index in 0..<count {
          let key = try object(
            try integer(at: start + index * referenceSize, size: referenceSize), depth: depth + 1)
          guard case .string(let name) = key else {
            throw Failure(message: "a binary property list with a dictionary key that is not text")
          }
          let valueReference = try integer(at: start + (count + index) * referenceSize, size: referenceSize)
          values[name] = try object(valueReference, depth: depth + 1)
        }
        return .dictionary(values)
      default: break
      }
      throw Failure(
        message:
          "a binary property list holding an object of kind 0x\(String(marker, radix: 16)), which preferences never hold"
      )
    }
  }

  /// Apple's binary form (`bplist00`), as UserDefaults and the file store write it: every
  /// value keeps its kind, dates to the bit.
  package static func binary(_ root: StoredValue) -> [UInt8] {
    var objects: [[UInt8]] = []
    var references: [[Int]] = []  // per object, the objects it refers to

    func sizeBytes(_ value: Int) -> Int { value < 1 << 8 ? 1 : value < 1 << 16 ? 2 : value < 1 << 32 ? 4 : 8 }
    func bigEndian(_ value: UInt64, _ size: Int) -> [UInt8] {
      (0..<size).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) }
    }
    func header(_ kind: UInt8, _ count: Int) -> [UInt8] {
      if count < 15 { return [kind << 4 | UInt8(count)] }
      let size = sizeBytes(count)
      let exponent = UInt8(size.trailingZeroBitCount)
      return [kind << 4 | 0x0F, 0x10 | exponent] + bigEndian(UInt64(count), size)
    }
    // Objects are numbered depth first; a container's references are filled in once every
    // object is numbered and the reference size is known.
    func add(_ value: StoredValue) -> Int {
      let index = objects.count
      objects.append([])
      references.append([])
      switch value {
      case .bool(let value): objects[index] = [value ? 0x09 : 0x08]
      case .integer(let value):
        objects[index] =
          value >= 0 && value <= Int64(UInt32.max)
          ? {
            let size = sizeBytes(Int(value))
            return [0x10 | UInt8(size.trailingZeroBitCount)] + bigEndian(UInt64(value), size)
          }() : [0x13] + bigEndian(UInt64(bitPattern: value), 8)
      case .unsignedInteger(let value): objects[index] = [0x14] + bigEndian(0, 8) + bigEndian(value, 8)
      case .double(let value): objects[index] = [0x23] + bigEndian(value.bitPattern, 8)
      case .date(let value): objects[index] = [0x33] + bigEndian(value.bitPattern, 8)
      case .data(let bytes): objects[index] = header(0x4, bytes.count) + bytes
      case .string(let text):
        if text.utf8.allSatisfy({ $0 < 0x80 }) {
          objects[index] = header(0x5, text.utf8.count) + Array(text.utf8)
        } else {
          let units = Array(text.utf16)
          objects[index] = header(0x6, units.count) + units.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        }
      case .array(let values):
        objects[index] = header(0xA, values.count)
        references[index] = values.map { add($0) }
      case .dictionary(let values):
        let keys = values.keys.sorted()
        objects[index] = header(0xD, keys.count)
        let keyReferences = keys.map { add(.string($0)) }
        references[index] = keyReferences + keys.map { add(values[$0]!) }
      }
      return index
    }
    _ = add(root)
    let referenceSize = sizeBytes(objects.count)
    var out = Array("bplist00".utf8)
    var offsets: [Int] = []
    for (index, object) in objects.enumerated() {
      offsets.append(out.count)
      out += object
      for reference in references[index] { out += bigEndian(UInt64(reference), referenceSize) }
    }
    let tableOffset = out.count
    let offsetSize = sizeBytes(tableOffset)
    for offset in offsets { out += bigEndian(UInt64(offset), offsetSize) }
    out += [0, 0, 0, 0, 0, 0, UInt8(offsetSize), UInt8(referenceSize)]
    out += bigEndian(UInt64(objects.count), 8) + bigEndian(0, 8) + bigEndian(UInt64(tableOffset), 8)
    return out
  }

  // MARK: XML

  private struct XMLReader {
    let bytes: [UInt8]
    var position = 0

    init(bytes: [UInt8]) {
      self.bytes = bytes
      if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { position = 3 }
    }

    func failure(_ message: String) -> Failure {
      let line = bytes[..<min(position, bytes.count)].reduce(1) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 }
      return Failure(message: "not a property list: \(message) (line \(line))")
    }

    func starts(with text: String) -> Bool { bytes[position...].starts(with: text.utf8) }

    /// Skips white space, the XML declaration, the document type and comments.
    mutating func skipMisc() throws(Failure) {
      while position < bytes.count {
        let byte = bytes[position]
        if byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D {
          position += 1
        } else if starts(with: "<?") {
          try skip(past: "?>")
        } else if starts(with: "<!--") {
          try skip(past: "-->")
        } else if starts(with: "<!") {
          try skip(past: ">")
        } else {
          return
        }
      }
    }

    mutating func skip(past end: String) throws(Failure) {
      let marker = Array(end.utf8)
      while position < bytes.count {
        if bytes[position...].starts(with: marker) {
          position += marker.count
          return
        }
        position += 1
      }
      throw failure("'\(end)' is missing")
    }

    /// The next tag: its name, and whether it is empty (`<true/>`) or a closing tag.
    mutating func tag() throws(Failure) -> (name: String, closing: Bool, empty: Bool) {
      try skipMisc()
      guard position < bytes.count, bytes[position] == UInt8(ascii: "<") else {
        throw failure("expected a tag")
      }
      position += 1
      let closing = position < bytes.count && bytes[position] == UInt8(ascii: "/")
      if closing { position += 1 }
      let start = position
      while position < bytes.count, bytes[position] != UInt8(ascii: ">") { position += 1 }
      guard position < bytes.count else { throw failure("a tag is not closed") }
      var inside = bytes[start..<position]
      position += 1
      let empty = inside.last == UInt8(ascii: "/")
      if empty { inside = inside.dropLast() }
      let name = inside.prefix { $0 != 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }
      return (String(decoding: name, as: UTF8.self), closing, empty)
    }

    /// The text up to the closing tag `name`, entities decoded.
    mutating func text(closing name: String) throws(Failure) -> String {
      var out: [UInt8] = []
      while position < bytes.count,
        bytes[position] != UInt8(ascii: "<") || starts(with: "<![CDATA[")
          || starts(with: "<!--")
      {
        if starts(with: "<![CDATA[") {
          position += 9
          while position < bytes.count, !starts(with: "]]>") {
            out.append(bytes[position])
            position += 1
          }
          try skip(past: "]]>")
        } else if starts(with: "<!--") {
          try skip(past: "-->")
        } else if bytes[position] == UInt8(ascii: "&") {
          let start = position + 1
          guard let end = bytes[start...].firstIndex(of: UInt8(ascii: ";")), end - start <= 10 else {
            throw failure("an '&' that starts no entity")
          }
          let entity = String(decoding: bytes[start..<end], as: UTF8.self)
          let scalar: Unicode.Scalar? =
            switch entity {
            case "amp": "&"
            case "lt": "<"
            case "gt": ">"
            case "quot": "\""
            case "apos": "'"
            default:
              entity.hasPrefix("#x")
                ? UInt32(entity.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init)
                : entity.hasPrefix("#") ? UInt32(entity.dropFirst()).flatMap(Unicode.Scalar.init) : nil
            }
          guard let scalar else { throw failure("unknown entity '&\(entity);'") }
          out += Array(String(scalar).utf8)
          position = end + 1
        } else {
          out.append(bytes[position])
          position += 1
        }
      }
      let end = try tag()
      guard end.closing, end.name == name else { throw failure("<\(name)> is not closed") }
      return String(decoding: out, as: UTF8.self)
    }

    mutating func root() throws(Failure) -> StoredValue {
      var first = try tag()
      let wrapped = first.name == "plist"
      if wrapped {
        guard !first.empty else { throw failure("an empty <plist>") }
        first = try tag()
      }
      let value = try value(opening: first, depth: 0)
      if wrapped {
        let end = try tag()
        guard end.closing, end.name == "plist" else { throw failure("<plist> holds more than one value") }
      }
      try skipMisc()
      guard position == bytes.count else { throw failure("text after the property list") }
      return value
    }

    mutating func value(opening: (name: String, closing: Bool, empty: Bool), depth: Int) throws(Failure)
      -> StoredValue
    {
      guard !opening.closing else { throw failure("unexpected </\(opening.name)>") }
      guard depth < 512 else { throw failure("values nested more than 512 deep") }
      let name = opening.name
      func content() throws(Failure) -> String {
        opening.empty
          ? ""
          : String(
            try text(closing: name).drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace)
              .reversed())
      }
      switch name {
      case "true", "false":
        if !opening.empty { _ = try text(closing: name) }
        return .bool(name == "true")
      case "string": return .string(opening.empty ? "" : try text(closing: name))
      case "integer":
        let text = try content()
        if let value = Int64(text) { return .integer(value) }
        if let value = UInt64(text) { return .unsignedInteger(value) }
        if text.lowercased().hasPrefix("0x"), let value = Int64(text.dropFirst(2), radix: 16) {
          return .integer(value)
        }
        throw failure("<integer> holds '\(text)'")
      case "real":
        let text = try content()
        switch text.lowercased() {
        case "nan": return .double(.nan)
        case "inf", "+inf", "infinity", "+infinity": return .double(.infinity)
        case "-inf", "-infinity": return .double(-.infinity)
        default:
          guard let value = Double(text) else { throw failure("<real> holds '\(text)'") }
          return .double(value)
        }
      case "date":
        let text = try content()
        guard let seconds = ReferenceDate.seconds(iso8601: text) else {
          throw failure("<date> holds '\(text)'")
        }
        return .date(seconds)
      case "data":
        let text = try content().filter { !$0.isWhitespace }
        guard let data = Data(base64Encoded: text) else { throw failure("<data> is not Base64") }
        return .data([UInt8](data))
      case "array":
        var values: [StoredValue] = []
        if opening.empty { return .array(values) }
        while true {
          let next = try tag()
          if next.closing {
            guard next.name == "array" else { throw failure("</\(next.name)> closes <array>") }
            return .array(values)
          }
          values.append(try value(opening: next, depth: depth + 1))
        }
      case "dict":
        var values: [String: StoredValue] = [:]
        if opening.empty { return .dictionary(values) }
        while true {
          let next = try tag()
          if next.closing {
            guard next.name == "dict" else { throw failure("</\(next.name)> closes <dict>") }
            return .dictionary(values)
          }
          guard next.name == "key" else { throw failure("<\(next.name)> where a <key> belongs") }
          let key = next.empty ? "" : try text(closing: "key")
          values[key] = try value(opening: try tag(), depth: depth + 1)
        }
      default:
        throw failure("<\(name)> is not a property-list value")
      }
    }
  }
}
