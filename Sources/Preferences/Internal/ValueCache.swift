#if canImport(Observation)
  import Observation
#endif

/// A store's decoded values and Observation cells, by key number.
///
/// Every key gets a process-wide number (``KeyNumbers``) the first time anything uses it, so that
/// `@Preference` reads reach their value with two array loads and no hashing: a declaration
/// resolves its key's number once, and every store indexes its cache by it.
@usableFromInline
struct ValueCache {
  /// Decoded values (`ValueBox`, or `UndecodableBox`), or `nil` where the key must be read again.
  @usableFromInline var boxes: ContiguousArray<CachedBox?> = []
  /// The Observation cell of each key read so far.
  @usableFromInline var cells: ContiguousArray<PreferenceCell?> = []
  /// For each cell: the value its readers last saw, what they see when nothing is stored or
  /// registered (the first reader's default), and the store's change count when it was read.
  var seen: [Int: (value: PropertyListValue?, fallback: PropertyListValue?, version: UInt64)] = [:]
  /// This store's keys by name, so that string-keyed reads do not take the process-wide lock.
  @usableFromInline var numbers: [String: Int] = [:]

  @usableFromInline init() {}

  /// The number of `key`, assigned process-wide on first use.
  mutating func number(of key: String) -> Int {
    if let number = numbers[key] { return number }
    let number = KeyNumbers.number(of: key)
    numbers[key] = number
    return number
  }

  @inlinable @inline(__always)
  func box(_ number: Int) -> CachedBox? { number < boxes.count ? boxes[number] : nil }

  @inlinable @inline(__always)
  func cell(_ number: Int) -> PreferenceCell? { number < cells.count ? cells[number] : nil }

  /// The value cached for key `number` if it is a `Value`, and the key's cell, for a read that
  /// holds the store's lock: the value is copied out of its box there, so the box is never
  /// retained, and the cell is returned unretained, because a cache never lets a cell go (see
  /// ``removeAll()``) and the store outlives the read.
  @inlinable @inline(__always)
  func cachedValue<Value>(_ number: Int, as type: Value.Type) -> (Value?, Unmanaged<PreferenceCell>?) {
    guard number < cells.count, number < boxes.count, let cell = cells[number],
      let value = ValueBox<Value>.unbox(boxes[number])
    else { return (nil, nil) }
    return (value, Unmanaged.passUnretained(cell))
  }

  mutating func setBox(_ box: CachedBox?, _ number: Int) {
    if number >= boxes.count {
      guard box != nil else { return }
      boxes.append(contentsOf: repeatElement(nil, count: number + 1 - boxes.count))
    }
    boxes[number] = box
  }

  /// The cell of key `number`, created on first use with the value its reader sees (read at the
  /// store's change count `version`).
  mutating func cell(
    creating number: Int, key: String, seeing value: PropertyListValue?, fallback: PropertyListValue?,
    version: UInt64
  ) -> PreferenceCell {
    if number >= cells.count { cells.append(contentsOf: repeatElement(nil, count: number + 1 - cells.count)) }
    if let cell = cells[number] { return cell }
    let cell = PreferenceCell(key: key)
    cells[number] = cell
    seen[number] = (value ?? fallback, fallback, version)
    return cell
  }

  /// The cell of key `number` if the value its readers see is no longer `effective` (or their
  /// default when `effective` is `nil`), read at change count `version`; records the new value.
  /// A value read before the one the cell holds is ignored.
  mutating func cellToInvalidate(_ number: Int, effective: PropertyListValue?, version: UInt64)
    -> PreferenceCell?
  {
    guard let cell = cell(number), let previous = seen[number], version >= previous.version else {
      return nil
    }
    let current = effective ?? previous.fallback
    if current == previous.value { return nil }
    seen[number] = (current, previous.fallback, version)
    return cell
  }

  /// The box cached for `key`.
  subscript(key: String) -> CachedBox? {
    mutating get { box(number(of: key)) }
    set { setBox(newValue, number(of: key)) }
  }

  /// Forgets every decoded value; cells stay.
  mutating func removeAll() {
    for index in boxes.indices { boxes[index] = nil }
  }
}

/// Process-wide numbers for keys: the same key has the same number in every store.
enum KeyNumbers {
  private static let table = Locked<(numbers: [String: Int], keys: [String])>(([:], []))

  static func number(of key: String) -> Int {
    table.withLock { table in
      if let number = table.numbers[key] { return number }
      let number = table.keys.count
      table.numbers[key] = number
      table.keys.append(key)
      return number
    }
  }

  static func key(_ number: Int) -> String { table.withLock { $0.keys[number] } }

  /// The numbers `keys` already have (`nil` for a key nothing used yet), in one hold of the lock.
  static func existingNumbers(of keys: some Sequence<String>) -> [Int?] {
    table.withLock { table in keys.map { table.numbers[$0] } }
  }
}

#if canImport(Observation)
  extension PreferenceCell: Observable {}
#endif
