import Foundation

/// A property-list value: the portable, `Sendable` currency every store speaks.
///
/// Every ``PreferenceValue`` converts itself to and from a `PropertyListValue`. Stores persist
/// these values (UserDefaults, property-list files, memory) and compare them to decide whether a
/// write changed anything.
///
/// ```swift
/// let value: PropertyListValue = .dictionary(["name": .string("Paul"), "age": .integer(42)])
/// ```
public enum PropertyListValue: Sendable, Hashable {
  case bool(Bool)
  case integer(Int64)
  /// An unsigned integer above `Int64.max`; property lists store it as an integer.
  case unsignedInteger(UInt64)
  case double(Double)
  case string(String)
  case data(Data)
  case date(Date)
  case array([PropertyListValue])
  case dictionary([String: PropertyListValue])

  /// A short name of the value's kind, used in diagnostics ("string", "integer", …).
  public var kindName: String {
    switch self {
    case .bool: "boolean"
    case .integer, .unsignedInteger: "integer"
    case .double: "real"
    case .string: "string"
    case .data: "data"
    case .date: "date"
    case .array: "array"
    case .dictionary: "dictionary"
    }
  }
}

extension PropertyListValue {
  /// Converts a Foundation property-list object (as returned by `UserDefaults` or
  /// `PropertyListSerialization`) into a value, or returns `nil` for objects that are not
  /// property-list types.
  public init?(foundationObject object: Any) {
    switch object {
    case let string as String:
      self = .string(string)
    case let number as NSNumber:
      self = PropertyListValue.fromNumber(number)
    case let date as Date:
      self = .date(date)
    case let data as Data:
      self = .data(data)
    case let array as [Any]:
      var values: [PropertyListValue] = []
      values.reserveCapacity(array.count)
      for element in array {
        guard let value = PropertyListValue(foundationObject: element) else { return nil }
        values.append(value)
      }
      self = .array(values)
    case let dictionary as [String: Any]:
      var values: [String: PropertyListValue] = [:]
      values.reserveCapacity(dictionary.count)
      for (key, element) in dictionary {
        guard let value = PropertyListValue(foundationObject: element) else { return nil }
        values[key] = value
      }
      self = .dictionary(values)
    default:
      return nil
    }
  }

  private static func fromNumber(_ number: NSNumber) -> PropertyListValue {
    // Swift's Bool, Int and Double arrive here too (as bridged NSNumbers on Apple platforms).
    switch UInt8(bitPattern: number.objCType.pointee) {
    case UInt8(ascii: "c"), UInt8(ascii: "B"):
      // `c` is also a signed char; property lists and UserDefaults only produce it for booleans.
      return .bool(number.boolValue)
    case UInt8(ascii: "f"), UInt8(ascii: "d"):
      return .double(number.doubleValue)
    case UInt8(ascii: "Q"), UInt8(ascii: "L"), UInt8(ascii: "I"):
      let unsigned = number.uint64Value
      if let signed = Int64(exactly: unsigned) { return .integer(signed) }
      return .unsignedInteger(unsigned)
    default:
      return .integer(number.int64Value)
    }
  }

  /// The Foundation object for this value, suitable for `UserDefaults` and
  /// `PropertyListSerialization`.
  public var foundationObject: Any {
    switch self {
    case .bool(let value): value
    case .integer(let value): NSNumber(value: value)
    case .unsignedInteger(let value): NSNumber(value: value)
    case .double(let value): value
    case .string(let value): value
    case .data(let value): value
    case .date(let value): value
    case .array(let values): values.map(\.foundationObject)
    case .dictionary(let values): values.mapValues(\.foundationObject)
    }
  }
}

extension PropertyListValue {
  /// A total order on values: by kind, then by content. Used to store sets in a canonical order.
  static func canonicalOrder(_ a: PropertyListValue, _ b: PropertyListValue) -> Bool {
    switch (a, b) {
    case (.bool(let x), .bool(let y)): return !x && y
    case (.integer(let x), .integer(let y)): return x < y
    case (.unsignedInteger(let x), .unsignedInteger(let y)): return x < y
    case (.double(let x), .double(let y)): return x < y || (x.isNaN && !y.isNaN)
    case (.string(let x), .string(let y)): return x.unicodeScalars.lexicographicallyPrecedes(y.unicodeScalars)
    case (.data(let x), .data(let y)): return x.lexicographicallyPrecedes(y)
    case (.date(let x), .date(let y)): return x < y
    case (.array(let x), .array(let y)): return x.lexicographicallyPrecedes(y, by: canonicalOrder)
    case (.dictionary(let x), .dictionary(let y)):
      let left = x.sorted { $0.key.unicodeScalars.lexicographicallyPrecedes($1.key.unicodeScalars) }
      let right = y.sorted { $0.key.unicodeScalars.lexicographicallyPrecedes($1.key.unicodeScalars) }
      return left.lexicographicallyPrecedes(right) { l, r in
        l.key != r.key
          ? l.key.unicodeScalars.lexicographicallyPrecedes(r.key.unicodeScalars)
          : canonicalOrder(l.value, r.value)
      }
    default: return a.kindRank < b.kindRank
    }
  }

  private var kindRank: Int {
    switch self {
    case .bool: 0
    case .integer: 1
    case .unsignedInteger: 2
    case .double: 3
    case .string: 4
    case .data: 5
    case .date: 6
    case .array: 7
    case .dictionary: 8
    }
  }
}

/// A value as JSON: an object with one member naming its kind, as `preferences-scanner` writes
/// registered defaults into generated registries (`{"integer": 42}`, `{"string": "Paul"}`,
/// `{"array": [{"bool": true}]}`; dates as ISO 8601 text, data as Base64).
extension PropertyListValue: Codable {
  private enum Kind: String, CodingKey {
    case bool, integer, unsignedInteger, double, string, data, date, array, dictionary
  }

  /// Creates a value by decoding it.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: Kind.self)
    guard let kind = container.allKeys.first, container.allKeys.count == 1 else {
      throw DecodingError.dataCorrupted(
        .init(
          codingPath: decoder.codingPath,
          debugDescription: "expected an object with one member naming the kind"))
    }
    switch kind {
    case .bool: self = .bool(try container.decode(Bool.self, forKey: kind))
    case .integer: self = .integer(try container.decode(Int64.self, forKey: kind))
    case .unsignedInteger: self = .unsignedInteger(try container.decode(UInt64.self, forKey: kind))
    case .double: self = .double(try container.decode(Double.self, forKey: kind))
    case .string: self = .string(try container.decode(String.self, forKey: kind))
    case .data:
      guard let data = Data(base64Encoded: try container.decode(String.self, forKey: kind)) else {
        throw DecodingError.dataCorruptedError(forKey: kind, in: container, debugDescription: "not Base64")
      }
      self = .data(data)
    case .date:
      guard let date = ISO8601.parse(try container.decode(String.self, forKey: kind)) else {
        throw DecodingError.dataCorruptedError(forKey: kind, in: container, debugDescription: "not ISO 8601")
      }
      self = .date(date)
    case .array: self = .array(try container.decode([PropertyListValue].self, forKey: kind))
    case .dictionary: self = .dictionary(try container.decode([String: PropertyListValue].self, forKey: kind))
    }
  }

  /// Encodes the value.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: Kind.self)
    switch self {
    case .bool(let value): try container.encode(value, forKey: .bool)
    case .integer(let value): try container.encode(value, forKey: .integer)
    case .unsignedInteger(let value): try container.encode(value, forKey: .unsignedInteger)
    case .double(let value): try container.encode(value, forKey: .double)
    case .string(let value): try container.encode(value, forKey: .string)
    case .data(let value): try container.encode(value.base64EncodedString(), forKey: .data)
    case .date(let value): try container.encode(ISO8601.format(value), forKey: .date)
    case .array(let value): try container.encode(value, forKey: .array)
    case .dictionary(let value): try container.encode(value, forKey: .dictionary)
    }
  }
}
