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

  /// A value to read when no default of `Value` exists: `nil` for an optional; the first case
  /// of a `CaseIterable` type; a fixed value of the Foundation types the library stores (the
  /// reference date, the nil UUID, `about:blank`); else the emptiest value the type reads (`0`,
  /// `""`, `false`, an empty collection, a Codable value decoded from `{}` or `[]`). Stops the
  /// app, saying `why` there is no default, only for a type that can make none of these: one
  /// whose own conformance reads no empty value and that is not `CaseIterable`.
  static func substitute<Value: PreferenceValue>(as type: Value.Type, why: @autoclosure () -> String) -> Value
  {
    if let none = (Value.self as? any ExpressibleByNilLiteral.Type)?.init(nilLiteral: ()) as? Value {
      return none
    }
    if let first = firstCase(of: Value.self) { return first }
    if let fixed = (Value.self as? any SubstitutablePreferenceValue.Type)?.substitute as? Value {
      return fixed
    }
    let empties: [PropertyListValue] = [
      .string(""), .integer(0), .double(0), .bool(false), .array([]), .dictionary([:]), .data(Data()),
      .string("{}"), .data(Data("{}".utf8)), .string("[]"), .data(Data("[]".utf8)),
    ]
    for empty in empties { if let value = try? Value(propertyListValue: empty) { return value } }
    preconditionFailure(
      why() + ", and no \(Value.self) value can be made: make \(Value.self) CaseIterable, or let its "
        + "PreferenceValue conformance read an empty value")
  }

  private static func firstCase<Value>(of type: Value.Type) -> Value? {
    func first<T: CaseIterable>(_: T.Type) -> Value? { T.allCases.first as? Value }
    guard let iterable = Value.self as? any CaseIterable.Type else { return nil }
    return first(iterable)
  }
}

/// A Foundation type whose empty forms would read as a value that means something (`URL` reads
/// `"{}"` as the URL `%7B%7D`): the fixed value ``DeclarationDefaults/substitute(as:why:)`` gives.
protocol SubstitutablePreferenceValue {
  static var substitute: Self { get }
}

extension Date: SubstitutablePreferenceValue {
  static var substitute: Date { Date(timeIntervalSinceReferenceDate: 0) }
}

extension UUID: SubstitutablePreferenceValue {
  static var substitute: UUID { UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)) }
}

extension URL: SubstitutablePreferenceValue {
  static var substitute: URL { URL(string: "about:blank")! }
}
