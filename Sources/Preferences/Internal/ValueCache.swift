/// A store's decoded values, reachable by key and, for `@Preference` declarations, by slot.
///
/// Reading by key hashes the key, which is most of a cached read's cost. Each generated registry
/// reserves a range of process-wide slot numbers (one per declaration, see
/// ``_reservePreferenceSlots(_:)``), and a store remembers which cache position each slot reads,
/// so a wrapper's cached read is two array loads.
///
/// Keys keep their position once they have one; invalidating a key empties its position, so the
/// slots that point there see the change without being tracked one by one.
@usableFromInline
struct ValueCache {
  /// The position of each key's box in `boxes`.
  @usableFromInline var positions: [String: Int] = [:]
  /// Decoded values (`ValueBox`), or `nil` where the key's value must be read again.
  @usableFromInline var boxes: ContiguousArray<AnyObject?> = []
  /// Slot number → position in `boxes` + 1; `0` where the slot is not bound yet.
  @usableFromInline var slots: ContiguousArray<Int32> = []

  @usableFromInline init() {}

  /// The box cached for `key`.
  @usableFromInline subscript(key: String) -> AnyObject? {
    get {
      guard let position = positions[key] else { return nil }
      return boxes[position]
    }
    set {
      if let position = positions[key] {
        boxes[position] = newValue
      } else if let newValue {
        positions[key] = boxes.count
        boxes.append(newValue)
      }
    }
  }

  /// The box cached for the key bound to `slot`.
  @inlinable @inline(__always)
  func box(inSlot slot: Int) -> AnyObject? {
    guard slot >= 0, slot < slots.count else { return nil }
    let position = Int(slots[slot])
    return position == 0 ? nil : boxes[position &- 1]
  }

  /// Binds `slot` to `key`'s position (a negative slot is none), so that reads through the slot
  /// find the key's value.
  mutating func bind(slot: Int, toKey key: String) {
    guard slot >= 0, let position = positions[key] else { return }
    if slot >= slots.count { slots.append(contentsOf: repeatElement(0, count: slot + 1 - slots.count)) }
    slots[slot] = Int32(truncatingIfNeeded: position + 1)
  }

  /// Forgets every decoded value; slots stay bound to their keys.
  mutating func removeAll() {
    for position in boxes.indices { boxes[position] = nil }
  }
}

private let slotCounter = Locked(0)

/// Reserves `count` consecutive cache slot numbers, process-wide, and returns the first.
/// Generated registries call this once (`static let slotBase`).
public func _reservePreferenceSlots(_ count: Int) -> Int {
  slotCounter.withLock { next in
    defer { next += count }
    return next
  }
}
