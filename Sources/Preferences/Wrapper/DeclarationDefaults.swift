import Foundation

/// The defaults of `@Preference` declarations, each evaluated once per process and kept here.
///
/// A declaration's wrapper does not keep its default: creating it stores where it was declared and
/// nothing else, so that a type holding preferences is created and destroyed as cheaply as one
/// holding plain values (a literal default's evaluation, unused, is dropped by the optimizer).
/// A read that finds no usable value (nothing stored and nothing
/// registered, or a stored value of another type) takes the default from here:
///
/// - what the declaration's first creation kept, for the declarations the registry cannot
///   evaluate (``GeneratedPreferenceRegistry/_keepsDefault(line:)``); that default is also
///   registered in the store at the first read, as ``PreferenceDescriptor/Registration/firstRead``
///   promises;
/// - else the registry's default, decoded once;
/// - else `nil` for an optional;
/// - else a substitute (see ``substitute(as:why:)``), reported: only a declaration the registry
///   does not list (a stale build, already reported) or a default that cannot be encoded gets
///   here.
@usableFromInline
enum DeclarationDefaults {
  struct Location: Hashable {
    let address: UInt
    let line: UInt64
  }

  struct Kept {
    let value: any Sendable
    /// Kept by the declaration's initializer (a default the registry cannot evaluate), so a read
    /// registers it.
    let fromDeclaration: Bool
  }

  private static let kept = Locked<[Location: Kept]>([:])

  /// Keeps `value` as the default of the declaration at `address`, `line`, unless one is kept:
  /// from the declaration's creation (`fromDeclaration`), or as a read found it.
  @usableFromInline
  static func keep<Value: Sendable>(_ value: Value, _ address: UInt, _ line: UInt64, fromDeclaration: Bool) {
    let location = Location(address: address, line: line)
    kept.withLock { kept in
      if kept[location] == nil { kept[location] = Kept(value: value, fromDeclaration: fromDeclaration) }
    }
  }

  /// The default kept for the declaration at `address`, `line`, if it is a `Value`, and whether
  /// its initializer kept it.
  static func kept<Value>(_ address: UInt, _ line: UInt64, as type: Value.Type) -> (
    value: Value, fromDeclaration: Bool
  )? {
    guard let kept = kept.withLock({ $0[Location(address: address, line: line)] }),
      let value = kept.value as? Value
    else { return nil }
    return (value, kept.fromDeclaration)
  }

  /// A value to read when no default of `Value` exists: `nil` for an optional, else the emptiest
  /// value the type reads (`0`, `""`, `false`, an empty collection, a Codable value decoded from
  /// `{}` or `[]`). Stops the app, saying `why` there is no default, only when the type reads
  /// none of them.
  static func substitute<Value: PreferenceValue>(as type: Value.Type, why: @autoclosure () -> String) -> Value
  {
    if let none = (Value.self as? any ExpressibleByNilLiteral.Type)?.init(nilLiteral: ()) as? Value {
      return none
    }
    let empties: [PropertyListValue] = [
      .string(""), .integer(0), .double(0), .bool(false), .array([]), .dictionary([:]), .data(Data()),
      .string("{}"), .data(Data("{}".utf8)), .string("[]"), .data(Data("[]".utf8)),
    ]
    for empty in empties { if let value = try? Value(propertyListValue: empty) { return value } }
    preconditionFailure(why() + ", and no \(Value.self) value can be made")
  }
}
