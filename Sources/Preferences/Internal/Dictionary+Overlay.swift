extension Dictionary {
  /// Sets every value of `other` here, replacing this dictionary's value of a key both hold. An
  /// empty dictionary takes `other`'s storage as it is, with no key hashed again: the first
  /// registration of a store (a module's, at launch) is most of its keys.
  mutating func overlay(_ other: Self) {
    if isEmpty {
      self = other
    } else {
      reserveCapacity(count + other.count)
      for (key, value) in other { self[key] = value }
    }
  }
}
