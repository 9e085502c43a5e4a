#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif
#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The enums that the modules a module depends on declare, read from their sources, for the one
/// thing about another module's names that syntax settles: an enum case is never isolated to an
/// actor, whatever the enum's or its module's isolation (the compiler lets nonisolated code name
/// `E.a` of a `@MainActor enum E`), so a default that is a dependency's enum case can be
/// registered off the main actor. Anything else of another module (a static property, an
/// initializer) stays of unknown isolation.
///
/// Only the files that declare a type of one of the names asked for are parsed; a name declared
/// as anything other than an enum in any of the sources (a struct, a type alias), or as two enums
/// that do not both have the case, is not taken for an enum.
package struct DependencyEnums: Sendable {
  /// The cases of each enum, by its path as other modules name it (`["Layout", "Density"]`).
  private var cases: [[String]: Set<String>] = [:]

  package init() {}

  /// Reads the enums named `names` (a type's own name, any level of nesting) that the files at
  /// `paths` declare. A file that cannot be read is skipped: the names it would have declared
  /// keep an unknown isolation.
  package init(paths: [String], names: Set<String>, module: String) {
    guard !names.isEmpty else { return }
    let needles = names.map { Array($0.utf8) }
    var declarations: [[String]: [Set<String>?]] = [:]
    for path in paths {
      guard let data = FileManager.default.contents(atPath: path) else { continue }
      let bytes = [UInt8](data)
      guard needles.contains(where: { Self.declares(bytes, $0) }) else { continue }
      let syntax = FileParser.parse(path: path, module: module, contents: bytes)
      for (position, scope) in syntax.scopes.enumerated()
      where scope.kind != .extension && !scope.isLocal && names.contains(scope.names.last ?? "") {
        var enumCases: Set<String>?
        if scope.kind == .enum {
          enumCases = Set(
            syntax.members.lazy.filter { $0.owner == position && $0.kind == .enumCase }.map(\.name))
        }
        declarations[Self.path(of: position, in: syntax), default: []].append(enumCases)
      }
      // A type alias of that name makes the name another type's.
      for member in syntax.members where member.kind == .typeAlias && names.contains(member.name) {
        let owner = member.owner.map { Self.path(of: $0, in: syntax) } ?? []
        declarations[owner + [member.name], default: []].append(nil)
      }
    }
    for (path, found) in declarations {
      // Every declaration of the path an enum: the case must be in each.
      guard let first = found[0], found.allSatisfy({ $0 != nil }) else { continue }
      cases[path] = found.dropFirst().reduce(first) { $0.intersection($1!) }
    }
  }

  /// Whether `member` is a case of the dependency enum other modules name `path`.
  package func isCase(_ member: String, of path: [String]) -> Bool {
    cases[path]?.contains(member) == true
  }

  /// Whether any enum is known.
  package var isEmpty: Bool { cases.isEmpty }

  /// The path of the type scope at `position`, as another module names it: its parents' names
  /// (an extension's, in full) and its own.
  private static func path(of position: Int, in syntax: FileSyntax) -> [String] {
    var names: [String] = []
    var next: Int? = position
    while let current = next {
      let scope = syntax.scopes[current]
      names.insert(contentsOf: scope.names, at: 0)
      next = scope.parent
    }
    return names
  }

  /// Whether `bytes` has `name` as a whole word after a keyword that declares a type of it
  /// (`enum`, `struct`, `class`, `actor`, `protocol`, `typealias`), so that only files that
  /// may declare it are parsed. The search runs in C's `memchr` and `memcmp` (on every platform), since the scanner is
  /// built without optimization and a dependency may have megabytes of sources.
  static func declares(_ bytes: [UInt8], _ name: [UInt8]) -> Bool {
    guard !name.isEmpty, bytes.count >= name.count else { return false }
    return bytes.withUnsafeBufferPointer { buffer -> Bool in
      name.withUnsafeBufferPointer { needle -> Bool in
        guard let base = buffer.baseAddress, let needleBase = needle.baseAddress else { return false }
        let count = buffer.count
        var offset = 0
        while offset + needle.count <= count {
          // The name's first byte, then the rest.
          guard let found = memchr(base + offset, Int32(needleBase[0]), count - offset) else { return false }
          let start = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
          let end = start + needle.count
          offset = start + 1
          guard end <= count, memcmp(base + start, needleBase, needle.count) == 0 else { continue }
          if end < count, isIdentifierByte(base[end]) { continue }
          var cursor = start
          while cursor > 0, base[cursor - 1] == UInt8(ascii: " ") || base[cursor - 1] == UInt8(ascii: "\t") {
            cursor -= 1
          }
          guard cursor < start else { continue }
          var wordStart = cursor
          while wordStart > 0, isIdentifierByte(base[wordStart - 1]) { wordStart -= 1 }
          let length = cursor - wordStart
          for keyword in keywords where keyword.count == length {
            if keyword.withUnsafeBufferPointer({ memcmp(base + wordStart, $0.baseAddress!, length) }) == 0 {
              return true
            }
          }
        }
        return false
      }
    }
  }

  private static let keywords: [[UInt8]] = ["enum", "struct", "class", "actor", "protocol", "typealias"].map {
    Array($0.utf8)
  }

  private static func isIdentifierByte(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), 0x80...:
      return true
    default: return false
    }
  }
}
