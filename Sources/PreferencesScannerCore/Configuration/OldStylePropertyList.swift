#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A value of an old-style (OpenStep) property list, the format of `project.pbxproj`.
enum PropertyListNode: Equatable {
  case string(String)
  case array([PropertyListNode])
  case dictionary([String: PropertyListNode])
}

/// Reads an old-style property list: `{ key = value; }`, `( a, b, )`, quoted or bare strings,
/// `/* … */` and `// …` comments. Malformed input reads as `nil`, never traps.
struct OldStylePropertyList {
  let bytes: [UInt8]
  var position = 0
  /// Dictionaries and arrays nest at most this deep (bounded recursion on any input).
  static let maximumDepth = 64

  init(bytes: [UInt8]) { self.bytes = bytes }

  mutating func parse() -> PropertyListNode? {
    skipBlanks()
    // `// !$*UTF8*$!` is a comment; skipBlanks has passed it.
    return value(depth: 0)
  }

  private mutating func value(depth: Int) -> PropertyListNode? {
    guard depth < Self.maximumDepth else { return nil }
    skipBlanks()
    guard position < bytes.count else { return nil }
    switch bytes[position] {
    case UInt8(ascii: "{"):
      position += 1
      var entries: [String: PropertyListNode] = [:]
      while true {
        skipBlanks()
        guard position < bytes.count else { return nil }
        if bytes[position] == UInt8(ascii: "}") {
          position += 1
          return .dictionary(entries)
        }
        guard case .string(let key)? = value(depth: depth + 1) else { return nil }
        skipBlanks()
        guard position < bytes.count, bytes[position] == UInt8(ascii: "=") else { return nil }
        position += 1
        guard let entry = value(depth: depth + 1) else { return nil }
        entries[key] = entry
        skipBlanks()
        guard position < bytes.count, bytes[position] == UInt8(ascii: ";") else { return nil }
        position += 1
      }
    case UInt8(ascii: "("):
      position += 1
      var items: [PropertyListNode] = []
      while true {
        skipBlanks()
        guard position < bytes.count else { return nil }
        if bytes[position] == UInt8(ascii: ")") {
          position += 1
          return .array(items)
        }
        guard let item = value(depth: depth + 1) else { return nil }
        items.append(item)
        skipBlanks()
        if position < bytes.count, bytes[position] == UInt8(ascii: ",") { position += 1 }
      }
    case UInt8(ascii: "\""):
      position += 1
      var text: [UInt8] = []
      while position < bytes.count, bytes[position] != UInt8(ascii: "\"") {
        if bytes[position] == UInt8(ascii: "\\"), position + 1 < bytes.count {
          position += 1
          switch bytes[position] {
          case UInt8(ascii: "n"): text.append(UInt8(ascii: "\n"))
          case UInt8(ascii: "t"): text.append(UInt8(ascii: "\t"))
          default: text.append(bytes[position])
          }
        } else {
          text.append(bytes[position])
        }
        position += 1
      }
      guard position < bytes.count else { return nil }
      position += 1
      return .string(String(decoding: text, as: UTF8.self))
    default:
      let start = position
      while position < bytes.count, Self.isBare(bytes[position]) { position += 1 }
      guard position > start else { return nil }
      return .string(String(decoding: bytes[start..<position], as: UTF8.self))
    }
  }

  /// Characters of an unquoted string.
  private static func isBare(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "$"), UInt8(ascii: "/"),
      UInt8(ascii: ":"), UInt8(ascii: "."), UInt8(ascii: "-"):
      true
    default: false
    }
  }

  private mutating func skipBlanks() {
    while position < bytes.count {
      let byte = bytes[position]
      if byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\n")
        || byte == UInt8(ascii: "\r")
      {
        position += 1
      } else if byte == UInt8(ascii: "/"), position + 1 < bytes.count,
        bytes[position + 1] == UInt8(ascii: "*")
      {
        position += 2
        while position + 1 < bytes.count,
          !(bytes[position] == UInt8(ascii: "*") && bytes[position + 1] == UInt8(ascii: "/"))
        {
          position += 1
        }
        position += 2
      } else if byte == UInt8(ascii: "/"), position + 1 < bytes.count,
        bytes[position + 1] == UInt8(ascii: "/")
      {
        while position < bytes.count, bytes[position] != UInt8(ascii: "\n") { position += 1 }
      } else {
        return
      }
    }
  }
}
