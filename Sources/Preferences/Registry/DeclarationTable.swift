import Foundation

/// The process-wide table from a `@Preference` declaration's location (the address of its
/// `#fileID` text, and its line and column) to what a read needs: the key's number, the registry
/// and the store. Each declaration is resolved through its registry once; afterwards a read is
/// one lock, a probe of this table, and the store's cache.
///
/// It also holds ``PreferenceStore/default``, so that a read takes one lock for both.
@usableFromInline
enum DeclarationTable {
  @usableFromInline
  struct Resolution: Sendable {
    @usableFromInline let number: Int
    @usableFromInline let registry: Int
    /// The declaration's own store, or `nil` for ``PreferenceStore/default``.
    let store: PreferenceStore?
    /// `store`, for reads that must not retain it (see ``lookup(_:_:)``).
    @usableFromInline let storeReference: Unmanaged<PreferenceStore>?
    let key: String
    let format: PreferenceFormat

    init(number: Int, registry: Int, store: PreferenceStore?, key: String, format: PreferenceFormat) {
      self.number = number
      self.registry = registry
      self.store = store
      self.storeReference = store.map { Unmanaged.passUnretained($0) }
      self.key = key
      self.format = format
    }
  }

  @usableFromInline
  struct State {
    /// Open addressing with linear probing; an address of 0 is an empty slot.
    @usableFromInline var addresses: ContiguousArray<UInt> = ContiguousArray(repeating: 0, count: 64)
    @usableFromInline var locations: ContiguousArray<UInt64> = ContiguousArray(repeating: 0, count: 64)
    @usableFromInline var resolutions: ContiguousArray<Resolution?> = ContiguousArray(
      repeating: nil, count: 64)
    @usableFromInline var count = 0
    /// ``PreferenceStore/default`` once chosen or first used.
    @usableFromInline var defaultStore: PreferenceStore? {
      didSet {
        if let oldValue, oldValue !== defaultStore { formerDefaults.append(oldValue) }
        defaultStoreReference = defaultStore.map { Unmanaged.passUnretained($0) }
      }
    }
    @usableFromInline var defaultStoreReference: Unmanaged<PreferenceStore>?
    /// Stores that were the default before: kept for the life of the process, because reads use
    /// the stores this table returns without retaining them (see ``lookup(_:_:)``).
    @usableFromInline var formerDefaults: [PreferenceStore] = []
  }

  @usableFromInline static let state = Locked(State())

  @inlinable @inline(__always)
  static func slot(_ address: UInt, _ location: UInt64, mask: Int) -> Int {
    let mixed =
      (UInt64(truncatingIfNeeded: address) ^ location &* 0x9E37_79B9_7F4A_7C15) &* 0xBF58_476D_1CE4_E5B9
    return Int(truncatingIfNeeded: mixed >> 32) & mask
  }

  /// The key number, registry number and store of the declaration at `address`, `location`, if
  /// it was resolved before.
  ///
  /// The store is returned unretained: a read is the hottest path of the library, and a store's
  /// reference count lives in a side table (it is referenced weakly), so retaining it would cost
  /// more than the rest of the read. That is safe because this table never lets a store go:
  /// entries are never removed, and a replaced default store is kept in `formerDefaults`.
  @inlinable
  static func lookup(_ address: UInt, _ location: UInt64) -> (
    number: Int, registry: Int, store: Unmanaged<PreferenceStore>
  )? {
    state.withLock { state in
      let mask = state.addresses.count - 1
      var index = slot(address, location, mask: mask)
      while true {
        let found = state.addresses[index]
        if found == 0 { return nil }
        if found == address && state.locations[index] == location, let resolution = state.resolutions[index] {
          guard let store = resolution.storeReference ?? state.defaultStoreReference else { return nil }
          return (resolution.number, resolution.registry, store)
        }
        index = (index + 1) & mask
      }
    }
  }

  /// The resolution of the declaration at `address`, `location`, if it was resolved before.
  static func resolution(_ address: UInt, _ location: UInt64) -> Resolution? {
    state.withLock { state in
      let mask = state.addresses.count - 1
      var index = slot(address, location, mask: mask)
      while state.addresses[index] != 0 {
        if state.addresses[index] == address && state.locations[index] == location {
          return state.resolutions[index]
        }
        index = (index + 1) & mask
      }
      return nil
    }
  }

  static func insert(_ resolution: Resolution, _ address: UInt, _ location: UInt64) {
    state.withLock { state in
      if (state.count + 1) * 2 > state.addresses.count { grow(&state) }
      let mask = state.addresses.count - 1
      var index = slot(address, location, mask: mask)
      while state.addresses[index] != 0 {
        if state.addresses[index] == address && state.locations[index] == location { return }
        index = (index + 1) & mask
      }
      state.addresses[index] = address
      state.locations[index] = location
      state.resolutions[index] = resolution
      state.count += 1
    }
  }

  private static func grow(_ state: inout State) {
    let old = state
    let capacity = old.addresses.count * 2
    state.addresses = ContiguousArray(repeating: 0, count: capacity)
    state.locations = ContiguousArray(repeating: 0, count: capacity)
    state.resolutions = ContiguousArray(repeating: nil, count: capacity)
    for index in old.addresses.indices where old.addresses[index] != 0 {
      var slot = slot(old.addresses[index], old.locations[index], mask: capacity - 1)
      while state.addresses[slot] != 0 { slot = (slot + 1) & (capacity - 1) }
      state.addresses[slot] = old.addresses[index]
      state.locations[slot] = old.locations[index]
      state.resolutions[slot] = old.resolutions[index]
    }
  }
}
