import Foundation

/// Holds a decoded value in the cache; a class so that a cache hit is a pointer check.
@usableFromInline
final class ValueBox<Value>: @unchecked Sendable {
  // @unchecked: `value` is a `let` of a `PreferenceValue` (which is `Sendable`); the generic
  // parameter is unconstrained only so that the cache can test `as? ValueBox<Value>` cheaply.
  @usableFromInline let value: Value
  @usableFromInline init(_ value: Value) { self.value = value }

  /// The value in `object` if it is a box of exactly this type: a pointer comparison, cheaper
  /// than a dynamic cast on the read path.
  @inlinable @inline(__always)
  static func unbox(_ object: AnyObject?) -> Value? {
    guard let object, ObjectIdentifier(type(of: object)) == ObjectIdentifier(ValueBox<Value>.self) else {
      return nil
    }
    return unsafeDowncast(object, to: ValueBox<Value>.self).value
  }
}
