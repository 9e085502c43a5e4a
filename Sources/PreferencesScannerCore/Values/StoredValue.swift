#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A value as a store holds it: what the runtime calls `PropertyListValue`, for the commands that
/// move a user's values (`export-values`, `import-values`, `reset-values`). The scanner never
/// links the runtime, so it reads and writes the same two forms itself: property lists
/// (``PropertyListCoding``) and the JSON of a values document (``json``).
package indirect enum StoredValue: Sendable, Equatable {
  case bool(Bool)
  case integer(Int64)
  /// An integer above `Int64.max`.
  case unsignedInteger(UInt64)
  case double(Double)
  case string(String)
  case data([UInt8])
  /// Seconds since 2001-01-01 00:00:00 UTC, as property lists count.
  case date(Double)
  case array([StoredValue])
  case dictionary([String: StoredValue])

  /// The value a literal default registers.
  package init(_ literal: PlistLiteral) {
    switch literal {
    case .bool(let value): self = .bool(value)
    case .integer(let value): self = .integer(value)
    case .double(let value): self = .double(value)
    case .string(let value): self = .string(value)
    case .array(let values): self = .array(values.map(StoredValue.init))
    case .dictionary(let values): self = .dictionary(values.mapValues(StoredValue.init))
    }
  }

  // MARK: JSON, as the runtime's values document writes it

  /// `{"integer": 42}`, `{"string": "Paul"}`, `{"array": [{"bool": true}]}`: an object with one
  /// member naming the kind; data as Base64, dates as ISO 8601 in UTC to the microsecond.
  package var json: JSONValue {
    switch self {
    case .bool(let value): .object([("bool", .bool(value))])
    case .integer(let value): .object([("integer", .number(String(value)))])
    case .unsignedInteger(let value): .object([("unsignedInteger", .number(String(value)))])
    case .double(let value): .object([("double", .number(Self.jsonNumber(value)))])
    case .string(let value): .object([("string", .string(value))])
    case .data(let bytes): .object([("data", .string(Data(bytes).base64EncodedString()))])
    case .date(let seconds): .object([("date", .string(ReferenceDate.iso8601(seconds)))])
    case .array(let values): .object([("array", .array(values.map(\.json)))])
    case .dictionary(let values):
      .object([("dictionary", .object(values.keys.sorted().map { ($0, values[$0]!.json) }))])
    }
  }

  private static func jsonNumber(_ value: Double) -> String {
    guard value.isFinite else { return "0" }
    if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
    return "\(value)"
  }

  package struct JSONFormError: Error, Equatable {
    package var message: String
  }

  /// Reads the JSON form of a value.
  package init(json: JSONValue) throws(JSONFormError) {
    guard case .object(let members) = json, members.count == 1, let (kind, content) = members.first else {
      throw JSONFormError(message: "a value must be an object with one member naming its kind")
    }
    func number() throws(JSONFormError) -> String {
      guard case .number(let text) = content else { throw JSONFormError(message: "'\(kind)' needs a number") }
      return text
    }
    func text() throws(JSONFormError) -> String {
      guard case .string(let text) = content else { throw JSONFormError(message: "'\(kind)' needs text") }
      return text
    }
    switch kind {
    case "bool":
      guard case .bool(let value) = content else {
        throw JSONFormError(message: "'bool' needs true or false")
      }
      self = .bool(value)
    case "integer":
      guard let value = Int64(try number()) else {
        throw JSONFormError(message: "'integer' needs a whole number")
      }
      self = .integer(value)
    case "unsignedInteger":
      guard let value = UInt64(try number()) else {
        throw JSONFormError(message: "'unsignedInteger' needs a whole number")
      }
      self = .unsignedInteger(value)
    case "double":
      guard let value = Double(try number()) else { throw JSONFormError(message: "'double' needs a number") }
      self = .double(value)
    case "string": self = .string(try text())
    case "data":
      guard let data = Data(base64Encoded: try text()) else {
        throw JSONFormError(message: "'data' is not Base64")
      }
      self = .data([UInt8](data))
    case "date":
      guard let seconds = ReferenceDate.seconds(iso8601: try text()) else {
        throw JSONFormError(message: "'date' is not an ISO 8601 date")
      }
      self = .date(seconds)
    case "array":
      guard case .array(let values) = content else { throw JSONFormError(message: "'array' needs a list") }
      var result: [StoredValue] = []
      for value in values { result.append(try StoredValue(json: value)) }
      self = .array(result)
    case "dictionary":
      guard case .object(let pairs) = content else {
        throw JSONFormError(message: "'dictionary' needs an object")
      }
      var result: [String: StoredValue] = [:]
      for (key, value) in pairs { result[key] = try StoredValue(json: value) }
      self = .dictionary(result)
    default:
      throw JSONFormError(message: "unknown kind '\(kind)'")
    }
  }
}

/// The value type of `ValueRules.swift` (compiled into the runtime too, for its own), whose
/// `sample(ofType:)` and `kindMismatch(expecting:)` check an imported value as the app does.
typealias SharedValue = StoredValue

extension StoredValue {
  static var sampleDate: Self { .date(0) }
  static var sampleData: Self { .data([]) }
}

/// Dates as property lists count them (seconds since 2001-01-01 UTC), written and read as the
/// runtime's values document does: ISO 8601 in UTC, to the microsecond.
enum ReferenceDate {
  /// Seconds from 1970-01-01 to 2001-01-01.
  static let offset1970 = 978_307_200.0

  static func iso8601(_ seconds: Double) -> String {
    ISO8601Text.format(secondsSince1970: seconds + offset1970)
  }

  static func seconds(iso8601 text: String) -> Double? {
    ISO8601Text.secondsSince1970(text).map { $0 - offset1970 }
  }
}
