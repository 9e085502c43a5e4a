/// A short file name for any text (a key, a suite name, a store's identifier), the same in every
/// process and every launch: FNV-1a of its UTF-8, in hexadecimal.
enum StableName {
  static func of(_ text: String) -> String {
    var hash: UInt64 = 0xCBF2_9CE4_8422_2325
    for byte in text.utf8 {
      hash ^= UInt64(byte)
      hash &*= 0x0000_0100_0000_01B3
    }
    return String(hash, radix: 16)
  }
}
