import Foundation
import Synchronization

/// The process-wide table from a `@Preference` declaration's location (the address of its
/// `#fileID` text, and its line) to what a read needs: the key's number, the registry
/// and the store. Each declaration is resolved through its registry once; afterwards a read is a
/// probe of this table and the store's cache.
///
/// The table is written under a lock and only ever grows. Where the standard library's atomics
/// exist (`Synchronization.Atomic`: macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, and every
/// Linux toolchain this package supports, per Apple's documentation of the Synchronization
/// module), a read takes no lock: it probes ``PublishedDeclarations``, a copy of the table that
/// each insert publishes slot by slot. Elsewhere a read takes the lock.
///
/// It also holds ``PreferenceStore/default``, so that a read takes one lock (or none) for both.
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
    /// Whether ``PreferenceStandIns/run(_:)`` was ever called: from then on (in practice, in a
    /// test process) reads take the path that looks for stand-ins, also in a task that a run
    /// started and that outlives it.
    @usableFromInline var standInsUsed = false
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
    if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
      return PublishedDeclarations.lookup(address, location)
    }
    return lockedLookup(address, location)
  }

  /// ``lookup(_:_:)`` under the lock, where there are no atomics.
  @inlinable
  static func lockedLookup(_ address: UInt, _ location: UInt64) -> (
    number: Int, registry: Int, store: Unmanaged<PreferenceStore>
  )? {
    state.withLock { state in
      let mask = state.addresses.count - 1
      var index = slot(address, location, mask: mask)
      while true {
        let found = state.addresses[index]
        if found == 0 { return nil }
        if found == address && state.locations[index] == location, let resolution = state.resolutions[index] {
          guard !state.standInsUsed,
            let store = resolution.storeReference ?? state.defaultStoreReference
          else { return nil }
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
      if (state.count + 1) * 2 > state.addresses.count {
        grow(&state)
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
          PublishedDeclarations.publishCopy(of: state)
        }
      }
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
      if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
        PublishedDeclarations.publish(index, of: state)
      }
    }
  }

  /// Sets ``PreferenceStore/default``; a store that was the default is kept for the life of the
  /// process (reads use it unretained).
  static func setDefaultStore(_ store: PreferenceStore) {
    state.withLock { state in
      state.defaultStore = store
      if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
        PublishedDeclarations.publishDefaultStore(store)
      }
    }
  }

  /// Notes that ``PreferenceStandIns/run(_:)`` was called: from then on, reads of every task
  /// take the path that looks for stand-ins (see ``lookup(_:_:)``).
  static func standInsStarted() {
    state.withLock { state in
      guard !state.standInsUsed else { return }
      state.standInsUsed = true
      if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
        PublishedDeclarations.standInsUsed.store(true, ordering: .relaxed)
      }
    }
  }

  /// ``PreferenceStore/default``: the one set, else `standard()`, chosen once.
  static func defaultStore(else standard: () -> PreferenceStore) -> PreferenceStore {
    if let store = state.withLock({ $0.defaultStore }) { return store }
    let candidate = standard()
    return state.withLock { state in
      if let store = state.defaultStore { return store }
      state.defaultStore = candidate
      if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
        PublishedDeclarations.publishDefaultStore(candidate)
      }
      return candidate
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

/// The declaration table as reads see it without a lock: open addressing like
/// ``DeclarationTable/State``, at the same capacity and in the same slots, with each slot's
/// address stored atomically.
///
/// Only ``DeclarationTable``'s inserts write it, under its lock: a slot's fields are written
/// first, then its address is stored with release ordering; a read loads the address with
/// acquire ordering and reads the fields only if the address is the one it looks for, so it
/// sees them complete. A slot never changes once published. When the table grows, a new
/// generation with every entry is published whole; the old one stays valid (and allocated) for
/// reads still probing it, which at worst miss an entry and take the locked path.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
@usableFromInline
enum PublishedDeclarations {
  /// The current ``Generation``, as the bits of an unmanaged reference; 0 before the first
  /// insert.
  @usableFromInline static let generation = Atomic<UInt>(0)
  /// ``PreferenceStore/default`` once chosen, as the bits of an unmanaged reference; 0 before.
  /// Stores that were the default are kept alive by ``DeclarationTable/State/formerDefaults``.
  @usableFromInline static let defaultStore = Atomic<UInt>(0)
  /// ``DeclarationTable/State/standInsUsed``, read without the lock. Relaxed ordering is
  /// enough: the task that starts stand-ins sets it before it (or any task it creates) reads,
  /// and a task outside them reads the real stores whichever value it sees.
  @usableFromInline static let standInsUsed = Atomic<Bool>(false)

  /// One capacity of the table. `@unchecked Sendable` is safe: the buffers are written only
  /// under ``DeclarationTable``'s lock, each slot before its address is published (release),
  /// and never again; readers read a slot's fields only after loading its address (acquire).
  @usableFromInline
  final class Generation: @unchecked Sendable {
    @usableFromInline let mask: Int
    @usableFromInline let addresses: UnsafeMutablePointer<Atomic<UInt>>
    @usableFromInline let locations: UnsafeMutablePointer<UInt64>
    @usableFromInline let numbers: UnsafeMutablePointer<Int>
    @usableFromInline let registries: UnsafeMutablePointer<Int>
    /// The declaration's own store (unmanaged bits, kept alive by its resolution), or 0 for the
    /// default store.
    @usableFromInline let stores: UnsafeMutablePointer<UInt>
    /// The generation this one replaced, kept alive for reads still probing it.
    let previous: Generation?

    init(capacity: Int, previous: Generation?) {
      mask = capacity - 1
      addresses = .allocate(capacity: capacity)
      for index in 0..<capacity { (addresses + index).initialize(to: Atomic(0)) }
      locations = .allocate(capacity: capacity)
      locations.initialize(repeating: 0, count: capacity)
      numbers = .allocate(capacity: capacity)
      numbers.initialize(repeating: 0, count: capacity)
      registries = .allocate(capacity: capacity)
      registries.initialize(repeating: 0, count: capacity)
      stores = .allocate(capacity: capacity)
      stores.initialize(repeating: 0, count: capacity)
      self.previous = previous
    }

    /// Fills slot `index` from the locked table, then publishes it.
    func publish(_ index: Int, of state: DeclarationTable.State) {
      guard let resolution = state.resolutions[index] else { return }
      locations[index] = state.locations[index]
      numbers[index] = resolution.number
      registries[index] = resolution.registry
      stores[index] = resolution.storeReference.map { UInt(bitPattern: $0.toOpaque()) } ?? 0
      addresses[index].store(state.addresses[index], ordering: .releasing)
    }
  }

  /// The current generation, unretained: every generation is kept for the life of the process.
  @inlinable @inline(__always)
  static var current: Unmanaged<Generation>? {
    let bits = generation.load(ordering: .acquiring)
    guard let pointer = UnsafeRawPointer(bitPattern: bits) else { return nil }
    return Unmanaged<Generation>.fromOpaque(pointer)
  }

  /// ``DeclarationTable/lookup(_:_:)`` without a lock.
  @inlinable
  static func lookup(_ address: UInt, _ location: UInt64) -> (
    number: Int, registry: Int, store: Unmanaged<PreferenceStore>
  )? {
    guard let current, !standInsUsed.load(ordering: .relaxed) else { return nil }
    return current._withUnsafeGuaranteedRef { table in
      var index = DeclarationTable.slot(address, location, mask: table.mask)
      while true {
        let found = table.addresses[index].load(ordering: .acquiring)
        if found == 0 { return nil }
        if found == address && table.locations[index] == location {
          let storeBits =
            table.stores[index] != 0 ? table.stores[index] : defaultStore.load(ordering: .acquiring)
          guard let pointer = UnsafeRawPointer(bitPattern: storeBits) else { return nil }
          return (
            table.numbers[index], table.registries[index], Unmanaged<PreferenceStore>.fromOpaque(pointer)
          )
        }
        index = (index + 1) & table.mask
      }
    }
  }

  /// Publishes slot `index` of the locked table (called under its lock).
  static func publish(_ index: Int, of state: DeclarationTable.State) {
    guard let current else {
      publishCopy(of: state)  // the first insert: the copy holds it
      return
    }
    current._withUnsafeGuaranteedRef { $0.publish(index, of: state) }
  }

  /// Publishes a new generation holding every entry of the locked table (called under its lock,
  /// when the table was created or has grown).
  static func publishCopy(of state: DeclarationTable.State) {
    let next = Generation(capacity: state.addresses.count, previous: current?.takeUnretainedValue())
    for index in state.addresses.indices where state.addresses[index] != 0 { next.publish(index, of: state) }
    // Retained for the life of the process; the one it replaces stays alive through `previous`.
    let bits = UInt(bitPattern: Unmanaged.passRetained(next).toOpaque())
    generation.store(bits, ordering: .releasing)
  }

  /// Publishes the default store (called under the table's lock, which keeps the store alive).
  static func publishDefaultStore(_ store: PreferenceStore) {
    defaultStore.store(UInt(bitPattern: Unmanaged.passUnretained(store).toOpaque()), ordering: .releasing)
  }
}
