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
/// initializer, an operator) stays of unknown isolation.
///
/// Only files where one of the names asked for follows a type keyword are parsed. A name is taken
/// for an enum only where every declaration of that name in the sources is a `public`, `open` or
/// `package` enum (no struct, class, type alias or internal type of that name), and a case only
/// where each of those enums declares it outside `#if`.
package struct DependencyEnums: Sendable {
  /// One dependency source file: its module and path.
  package struct Source: Sendable, Equatable {
    package var module: String?
    package var path: String

    /// `MODULE=PATH` as the build plugin passes it, or a bare path (module unknown).
    package init(argument: String) {
      (module, path) = PluginShared.dependencySource(argument)
    }
  }

  /// An enum as the dependencies declare it.
  private struct Enum: Sendable {
    /// Each case and whether it has a payload (`case tagged(Int)`).
    var cases: [String: Bool]
    /// The modules that declare it (`nil`: a source of unknown module).
    var modules: Set<String?>
  }

  /// The enums, by their path as other modules name them (`["Layout", "Density"]`).
  private var enums: [[String]: Enum] = [:]

  package init() {}

  /// Reads the enums named `names` (a type's own name, at any level of nesting) that `sources`
  /// declare. A file that cannot be read is skipped: the names it would have declared keep an
  /// unknown isolation.
  package init(sources: [Source], names: Set<String>, module: String) {
    guard !names.isEmpty else { return }
    let needles = names.map { Array($0.utf8) }
    // Every declaration of each path: its cases when it is a visible enum, else `nil`.
    var declarations: [[String]: [(cases: [String: Bool]?, module: String?)]] = [:]
    // Names declared where the parser does not read a declaration (`actor` and its name on two
    // lines): whatever they are, they are not known to be enums.
    var unread: Set<String> = []
    for source in sources {
      guard let data = FileManager.default.contents(atPath: source.path) else { continue }
      let bytes = [UInt8](data)
      let declared = needles.map { (needle: $0, count: Self.declarations(in: bytes, of: $0)) }.filter {
        $0.count > 0
      }
      guard !declared.isEmpty else { continue }
      let syntax = FileParser.parse(path: source.path, module: module, contents: bytes)
      for (needle, count) in declared {
        let name = String(decoding: needle, as: UTF8.self)
        let parsed =
          syntax.scopes.count { $0.kind != .extension && $0.names.last == name }
          + syntax.members.count { $0.kind == .typeAlias && $0.name == name }
        if count > parsed { unread.insert(name) }
      }
      for (position, scope) in syntax.scopes.enumerated()
      where scope.kind != .extension && !scope.isLocal && names.contains(scope.names.last ?? "") {
        var cases: [String: Bool]?
        if scope.kind == .enum, Self.isVisible(position, in: syntax) {
          var found: [String: Bool] = [:]
          for member in syntax.members where member.owner == position && member.kind == .enumCase {
            // A case under `#if` may be something else where another branch builds.
            if member.branch == nil { found[member.name] = member.hasPayload }
          }
          cases = found
        }
        declarations[Self.path(of: position, in: syntax), default: []].append((cases, source.module))
      }
      // A type alias of that name makes the name another type's.
      for member in syntax.members where member.kind == .typeAlias && names.contains(member.name) {
        let owner = member.owner.map { Self.path(of: $0, in: syntax) } ?? []
        declarations[owner + [member.name], default: []].append((nil, source.module))
      }
    }
    for (path, found) in declarations where !unread.contains(path[path.count - 1]) {
      guard found.allSatisfy({ $0.cases != nil }), var cases = found[0].cases else { continue }
      // The cases every declaration has, with the same payload.
      for other in found.dropFirst() {
        cases = cases.filter { other.cases?[$0.key] == $0.value }
      }
      enums[path] = Enum(cases: cases, modules: Set(found.map(\.module)))
    }
  }

  /// Whether `member` is a case of the dependency enum other modules name `path`, declared in a
  /// module that `imports` holds (every module that declares it, where sources of an unknown
  /// module declare none of it), with a payload when `called`.
  package func isCase(_ member: String, of path: [String], called: Bool, imports: Set<String>) -> Bool {
    guard let found = enums[path], let hasPayload = found.cases[member], hasPayload == called else {
      return false
    }
    return found.modules.allSatisfy { $0.map(imports.contains) ?? true }
  }

  /// Whether any enum is known.
  package var isEmpty: Bool { enums.isEmpty }

  /// Whether the type scope at `position`, and each type around it, is visible to other modules:
  /// declared `public`, `open` or `package` (a type in an extension, by its own modifier).
  private static func isVisible(_ position: Int, in syntax: FileSyntax) -> Bool {
    var next: Int? = position
    while let current = next {
      let scope = syntax.scopes[current]
      if scope.kind != .extension {
        switch scope.access {
        case .public?, .open?, .package?: break
        default: return false
        }
      }
      next = scope.parent
    }
    return true
  }

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

  /// How many times `word` follows a keyword that declares a type of it (`struct`, `enum`,
  /// `typealias`, …), across whitespace, line breaks, block comments and backticks: the files
  /// that may declare it, which the parser then reads (a word in a comment or a string counts
  /// too, which only makes a name unknown).
  static func declarations(in bytes: [UInt8], of word: [UInt8]) -> Int {
    var count = 0
    bytes.withUnsafeBufferPointer { buffer in
      forEachWord(word, in: bytes) { start in
        var cursor = start
        if cursor > 0, buffer[cursor - 1] == UInt8(ascii: "`") { cursor -= 1 }
        while true {
          while cursor > 0, [0x20, 0x09, 0x0A, 0x0D].contains(buffer[cursor - 1]) { cursor -= 1 }
          // A block comment that ends here: skipped to its opening.
          guard cursor >= 4, buffer[cursor - 1] == UInt8(ascii: "/"), buffer[cursor - 2] == UInt8(ascii: "*")
          else { break }
          var opening = cursor - 3
          while opening > 0,
            !(buffer[opening - 1] == UInt8(ascii: "/") && buffer[opening] == UInt8(ascii: "*"))
          {
            opening -= 1
          }
          guard opening > 0 else { break }
          cursor = opening - 1
        }
        var wordStart = cursor
        while wordStart > 0, isIdentifierByte(buffer[wordStart - 1]) { wordStart -= 1 }
        if wordStart < cursor, keywords.contains(where: { $0.elementsEqual(buffer[wordStart..<cursor]) }) {
          count += 1
        }
        return true
      }
    }
    return count
  }

  private static let keywords: [[UInt8]] = ["enum", "struct", "class", "actor", "protocol", "typealias"].map {
    Array($0.utf8)
  }

  /// Calls `body` with the offset of each whole-word occurrence of `word`, while it returns
  /// `true`. The search runs in C's `memchr` and `memcmp` (on every platform), since the scanner
  /// is built without optimization and a dependency may have megabytes of sources.
  private static func forEachWord(_ word: [UInt8], in bytes: [UInt8], _ body: (Int) -> Bool) {
    guard !word.isEmpty, bytes.count >= word.count else { return }
    bytes.withUnsafeBufferPointer { buffer in
      word.withUnsafeBufferPointer { needle in
        guard let base = buffer.baseAddress, let needleBase = needle.baseAddress else { return }
        let count = buffer.count
        var offset = 0
        while offset + needle.count <= count {
          // The word's first byte, then the rest.
          guard let found = memchr(base + offset, Int32(needleBase[0]), count - offset) else { return }
          let start = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
          let end = start + needle.count
          offset = start + 1
          guard end <= count, memcmp(base + start, needleBase, needle.count) == 0 else { continue }
          if end < count, isIdentifierByte(base[end]) { continue }
          if start > 0, isIdentifierByte(base[start - 1]) { continue }
          if !body(start) { return }
        }
      }
    }
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
