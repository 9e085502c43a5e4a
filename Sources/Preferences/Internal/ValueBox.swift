import Foundation

/// What a store's cache keeps for a key: a decoded value (``ValueBox``) or the mark that the
/// stored value does not decode (``UndecodableBox``). A class, so that a cache hit is a pointer
/// check.
///
/// `@unchecked Sendable` is safe: the only stored property is an immutable `let` of a `Sendable`
/// type, and both subclasses are final and add only immutable, `Sendable` state.
@usableFromInline
class CachedBox: @unchecked Sendable {
  /// `ObjectIdentifier(Value.self)` of a ``ValueBox``; the box's own type for any other box, which
  /// no value type equals.
  @usableFromInline let valueType: ObjectIdentifier

  @usableFromInline init(valueType: ObjectIdentifier) { self.valueType = valueType }
}

/// Holds a decoded value in the cache.
@usableFromInline
final class ValueBox<Value>: CachedBox, @unchecked Sendable {
  // @unchecked: `value` is a `let` of a `PreferenceValue` (which is `Sendable`); the generic
  // parameter is unconstrained only so that the cache can test for it cheaply.
  @usableFromInline let value: Value
  @usableFromInline init(_ value: Value) {
    self.value = value
    super.init(valueType: ObjectIdentifier(Value.self))
  }

  /// The value in `box` if it is a box of exactly this type: a comparison of the box's field
  /// with `Value`'s metadata, which for most value types is a constant address. Cheaper than a
  /// dynamic cast, and than comparing the box's class, whose generic metadata is looked up
  /// through a cache on every read.
  @inlinable @inline(__always)
  static func unbox(_ box: CachedBox?) -> Value? {
    guard let box, box.valueType == ObjectIdentifier(Value.self) else { return nil }
    return unsafeDowncast(box, to: ValueBox<Value>.self).value
  }
}

/// Marks a key whose stored value does not decode as `Value`, so that it is reported once.
final class UndecodableBox<Value>: CachedBox, @unchecked Sendable {
  // @unchecked: no state of its own (see `CachedBox`).
  init() { super.init(valueType: ObjectIdentifier(UndecodableBox<Value>.self)) }
}
