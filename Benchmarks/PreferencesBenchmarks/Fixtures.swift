import Foundation
import Preferences

struct Profile: Codable, Equatable, PreferenceValue {
  var name: String
  var age: Int
  var tags: [String]
}

/// Read through `@Preference` in the property-list file store: the read path of every store on
/// Apple platforms, a lookup in the store's cache.
struct FileReader {
  @Preference(store: FileWriter.store) var count = 0
  @Preference(store: FileWriter.store) var name = "Anonymous"
  @Preference(store: FileWriter.store) var profile = Profile(name: "P", age: 1, tags: ["a", "b"])
}

/// Read and written through `@Preference` in the UserDefaults store (on Linux, each read first
/// compares its key with corelibs' `UserDefaults`, which tells nobody of other code's writes).
struct Reader {
  @Preference var count = 0
  @Preference var name = "Anonymous"
  @Preference var profile = Profile(name: "P", age: 1, tags: ["a", "b"])
}

/// Where the property-list file store of the write rows lives: a fresh temporary directory.
let benchmarkDirectory = FileManager.default.temporaryDirectory
  .appendingPathComponent("swift-preferences-bench-\(ProcessInfo.processInfo.processIdentifier)")

/// Written through `@Preference` in the property-list file store.
struct FileWriter {
  nonisolated static let store = PreferenceStore.propertyList(
    at: benchmarkDirectory.appendingPathComponent("bench.plist"))
  @Preference(store: FileWriter.store) var count = 0
  @Preference(store: FileWriter.store) var name = "Anonymous"
  @Preference(store: FileWriter.store) var profile = Profile(name: "P", age: 1, tags: ["a", "b"])
}

/// Five preferences, for the initialisation row.
struct FivePreferences {
  @Preference var a = 1
  @Preference var b = "b"
  @Preference var c = true
  @Preference var d = 2.5
  @Preference var e: [Int] = []
}

/// The same shape with plain stored properties.
struct FivePlain {
  var a = 1
  var b = "b"
  var c = true
  var d = 2.5
  var e: [Int] = []
}

/// Five preferences beside one more stored property, as in most types that declare them.
///
/// `FivePlain` holds six scalar fields (a `String` is two), the most the Swift optimizer takes
/// apart to destroy field by field (`shouldExpand` in the compiler's SIL utilities: at most six
/// fields); a type with more is destroyed through its outlined value witness, which calls the
/// runtime to release the string and the array (even immortal ones). With one more property the
/// plain type is beyond the limit; the wrappers, which keep only their locations, have nothing to
/// release.
struct FivePreferencesAndTitle {
  var title = "Settings"
  @Preference var a = 1
  @Preference var b = "b"
  @Preference var c = true
  @Preference var d = 2.5
  @Preference var e: [Int] = []
}

/// `FivePreferencesAndTitle` with plain stored properties.
struct FivePlainAndTitle {
  var title = "Settings"
  var a = 1
  var b = "b"
  var c = true
  var d = 2.5
  var e: [Int] = []
}

enum BenchKeys: String, PreferenceKeys {
  case count, name, profile
  var defaultValue: any PreferenceValue {
    switch self {
    case .count: 0
    case .name: "Anonymous"
    case .profile: Profile(name: "P", age: 1, tags: ["a", "b"])
    }
  }
}

/// Replaces `url` with `bytes` durably, by hand: a temporary file written and fsynced, renamed
/// over `url`, then the directory fsynced. The baseline of the flush row.
func atomicReplaceByHand(_ url: URL, _ bytes: Data) {
  let temporary = url.path + ".tmp"
  let descriptor = open(temporary, O_CREAT | O_WRONLY | O_TRUNC, 0o600)
  precondition(descriptor >= 0, "open \(temporary): \(errno)")
  bytes.withUnsafeBytes { buffer in
    precondition(write(descriptor, buffer.baseAddress, buffer.count) == buffer.count)
  }
  fsync(descriptor)
  close(descriptor)
  precondition(rename(temporary, url.path) == 0)
  let directory = open(url.deletingLastPathComponent().path, O_RDONLY)
  fsync(directory)
  close(directory)
}

/// A pass over source text that touches every byte as a lexer must (lines counted, identifiers
/// hashed): the yardstick the scanner's throughput is measured against in the same run, so that
/// the check holds on a slower or busier machine.
func lexerYardstick(_ files: [(path: String, contents: [UInt8])]) -> Int {
  var lines = 0
  var hash: UInt64 = 0xcbf2_9ce4_8422_2325
  var identifiers = 0
  for file in files {
    var inIdentifier = false
    for byte in file.contents {
      if byte == UInt8(ascii: "\n") { lines += 1 }
      let identifierByte =
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
        || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
        || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "_")
      if identifierByte {
        if !inIdentifier { identifiers += 1 }
        hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
      }
      inIdentifier = identifierByte
    }
  }
  return lines &+ identifiers &+ Int(truncatingIfNeeded: hash)
}
