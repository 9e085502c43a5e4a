/// A 64-bit fingerprint of a sequence of byte runs (file contents, strings, numbers), the same
/// in every process: what tells an edited file from its previous contents, and a table's inputs
/// from the last run's.
///
/// Eight bytes at a time (the scanner runs as a debug build in users' builds, where a loop per
/// byte is slow): each word is mixed in by a multiply and a shift, so that a change anywhere
/// moves every bit. Each run is preceded by its length, so that no two different sequences of
/// runs mix alike by being cut differently. Not cryptographic.
package struct Fingerprint {
  package private(set) var state: UInt64 = 0xCBF2_9CE4_8422_2325

  package init() {}

  /// The fingerprint so far.
  package var value: UInt64 { state ^ state >> 32 }

  mutating func mix(_ word: UInt64) {
    state = (state ^ word) &* 0x9E37_79B9_7F4A_7C15
    state ^= state >> 29
  }

  package mutating func add(_ raw: UnsafeRawBufferPointer) {
    mix(UInt64(raw.count))
    var offset = 0
    let words = raw.count & ~7
    while offset < words {
      mix(raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
      offset += 8
    }
    var tail: UInt64 = 0
    var shift: UInt64 = 0
    while offset < raw.count {
      tail |= UInt64(raw[offset]) << shift
      shift += 8
      offset += 1
    }
    mix(tail)
  }

  package mutating func add(_ bytes: [UInt8]) { bytes.withUnsafeBytes { add($0) } }

  package mutating func add(_ string: String) {
    var string = string
    string.withUTF8 { add(UnsafeRawBufferPointer($0)) }
  }

  /// A missing value: a marker no length can equal.
  package mutating func add(_ string: String?) {
    if let string { add(string) } else { mix(.max) }
  }

  package mutating func add(_ number: Int) {
    mix(8)
    mix(UInt64(bitPattern: Int64(number)))
  }

  package mutating func add(_ strings: [String]) {
    add(strings.count)
    for string in strings { add(string) }
  }

  /// The fingerprint of `bytes` alone.
  package static func of(_ bytes: [UInt8]) -> UInt64 {
    var fingerprint = Fingerprint()
    fingerprint.add(bytes)
    return fingerprint.value
  }
}
