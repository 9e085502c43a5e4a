import Foundation

/// Values stored as JSON text: the representation ``PreferenceFormat/json`` writes, and that
/// `@AppStorage` code commonly used for arrays and dictionaries
/// (`extension Array: RawRepresentable` encoding itself with `JSONEncoder`).
///
/// Encoding and decoding use `JSONEncoder` and `JSONDecoder` with their default strategies, as
/// that idiom does, so each side reads what the other wrote.
enum JSONForm {
  /// `value` as JSON text, or `nil` if its type is not `Encodable`.
  static func encode<Value>(_ value: Value) throws -> PropertyListValue? {
    guard let encodable = value as? any Encodable else { return nil }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    let data = try encoder.encode(encodable)
    return .string(String(decoding: data, as: UTF8.self))
  }

  /// The `Value` that JSON `text` describes, or `nil` if it does not describe one (or `Value`
  /// is not `Decodable`).
  static func decode<Value>(_ text: String, as type: Value.Type) -> Value? {
    guard let decodable = Value.self as? any Decodable.Type else { return nil }
    func decode<T: Decodable>(_ type: T.Type) -> Value? {
      (try? JSONDecoder().decode(T.self, from: Data(text.utf8))) as? Value
    }
    return decode(decodable)
  }
}
