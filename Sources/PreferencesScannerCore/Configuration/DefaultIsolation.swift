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

/// A target's default actor isolation, as its build settings declare it: SwiftPM's
/// `.defaultIsolation(MainActor.self)` in the package manifest, or Xcode's
/// `SWIFT_DEFAULT_ACTOR_ISOLATION` (`MainActor` in Xcode 26's new app templates).
///
/// The compiler does not tell code which it is, and neither SwiftPM nor Xcode gives a build tool
/// plugin a target's settings, so the scanner reads them from the manifest or project file the
/// plugin names. Where the default is `MainActor`, a `Codable` type's conformance is main-actor
/// isolated unless the type is `nonisolated`, and a preference (read on any thread) cannot store
/// it: knowing the default, the scanner says so at the declaration, instead of the compiler
/// rejecting the generated conformance. Where the setting cannot be read, the scanner assumes
/// nothing; `"defaultIsolation"` in `preferences-config.json` states it.
package enum DefaultIsolation: String, Sendable, Equatable {
  case mainActor = "MainActor"
  case nonisolated

  /// The setting `file` (a package manifest or an Xcode project) declares for `target`, `nil`
  /// where it declares none or cannot be read.
  ///
  /// The build plugin's scanner runs on every build that changes a source file, as a debug build
  /// in debug builds, and a large app's project file is megabytes: the file is read only when it
  /// mentions the setting at all (found by the C library), and what it says for `target` is kept
  /// in `cacheDirectory` under the fingerprint of its contents, so that it is parsed again only
  /// when it changes.
  package static func read(from file: String, target: String, cacheDirectory: String?) -> DefaultIsolation? {
    guard let data = FileManager.default.contents(atPath: file) else { return nil }
    let bytes = [UInt8](data)
    let marker = file.hasSuffix(".pbxproj") ? "SWIFT_DEFAULT_ACTOR_ISOLATION" : "defaultIsolation"
    guard contains(bytes, Array(marker.utf8)) else { return nil }
    var fingerprint = Fingerprint()
    fingerprint.add(bytes)
    fingerprint.add(Array(target.utf8))
    let key = "\(String(fingerprint.value, radix: 16)) \(file)"
    let record = cacheDirectory.map { $0 + "/DefaultIsolation" }
    if let record, let saved = FileManager.default.contents(atPath: record) {
      let lines = String(decoding: saved, as: UTF8.self).split(
        separator: "\n", omittingEmptySubsequences: false)
      if lines.count >= 2, lines[0] == key { return DefaultIsolation(rawValue: String(lines[1])) }
    }
    let result = declared(in: file, contents: bytes, target: target)
    if let record {
      try? FileManager.default.createDirectory(
        atPath: cacheDirectory ?? "", withIntermediateDirectories: true)
      _ = FileManager.default.createFile(
        atPath: record, contents: Data("\(key)\n\(result?.rawValue ?? "none")\n".utf8))
    }
    return result
  }

  /// Whether `bytes` holds `needle` (not empty): the C library finds each first byte.
  static func contains(_ bytes: [UInt8], _ needle: [UInt8]) -> Bool {
    bytes.withUnsafeBytes { haystack in
      needle.withUnsafeBytes { wanted in
        guard var position = haystack.baseAddress, let start = wanted.baseAddress, let first = wanted.first
        else { return false }
        let end = position + haystack.count
        while end - position >= wanted.count, let at = memchr(position, Int32(first), end - position) {
          if end - UnsafeRawPointer(at) >= wanted.count, memcmp(at, start, wanted.count) == 0 {
            return true
          }
          position = UnsafeRawPointer(at) + 1
        }
        return false
      }
    }
  }

  /// The setting `file` declares for `target`: a package manifest (`Package.swift`), or an Xcode
  /// project (`project.pbxproj`).
  package static func declared(in file: String, contents: [UInt8], target: String) -> DefaultIsolation? {
    file.hasSuffix(".pbxproj")
      ? declared(inXcodeProject: contents, target: target) : declared(inManifest: contents, target: target)
  }

  // MARK: Package manifests

  /// The calls that declare a target in a manifest (`.target(name: "App", …)`).
  private static let targetCalls: Set<String> = ["target", "executableTarget", "testTarget", "macro"]

  /// What `.defaultIsolation(…)` in a manifest says for `target`: in the target's own call, or in
  /// a value of the manifest it names (`swiftSettings: appSettings`), else where it applies to
  /// every target (outside any target's call and any named value: a loop over
  /// `package.targets`). `nil` where the manifest sets none.
  package static func declared(inManifest bytes: [UInt8], target: String) -> DefaultIsolation? {
    let source = SourceTokens(bytes: bytes, lexed: Lexer.tokenize(bytes))
    var targets: [ClosedRange<Int>] = []
    var own: ClosedRange<Int>?
    var index = 0
    while index + 2 < source.count {
      if source.isPunct(index, UInt8(ascii: ".")), source.isWord(index + 1, in: targetCalls),
        source.isPunct(index + 2, UInt8(ascii: "(")), source.matchingClose(index + 2) > index + 2
      {
        let span = (index + 2)...source.matchingClose(index + 2)
        targets.append(span)
        if source.isWord(index + 3, "name"), source.isPunct(index + 4, UInt8(ascii: ":")),
          index + 5 < source.count, source[index + 5].kind == .string,
          StringLiteral.value(of: source.text(index + 5)) == target
        {
          own = span
        }
      }
      index += 1
    }
    // Named values at the top level: `let shared: [SwiftSetting] = […]`.
    var named: [String: ClosedRange<Int>] = [:]
    index = 0
    while index < source.count {
      if source.isPunct(index, UInt8(ascii: "(")) || source.isPunct(index, UInt8(ascii: "["))
        || source.isPunct(index, UInt8(ascii: "{"))
      {
        index = max(index, source.matchingClose(index)) + 1
        continue
      }
      if source.isWord(index, "let") || source.isWord(index, "var"), source.isIdentifier(index + 1) {
        let name = source.text(index + 1)
        var cursor = index + 2
        while cursor < source.count, !source.isPunct(cursor, UInt8(ascii: "=")),
          !source[cursor].followsNewline
        {
          cursor += 1
        }
        if cursor < source.count, source.isPunct(cursor, UInt8(ascii: "=")) {
          let start = cursor + 1
          var end = start
          while end < source.count, end == start || !source[end].followsNewline || continues(source, end) {
            if source.isPunct(end, UInt8(ascii: "(")) || source.isPunct(end, UInt8(ascii: "["))
              || source.isPunct(end, UInt8(ascii: "{"))
            {
              end = max(end, source.matchingClose(end))
            }
            end += 1
          }
          if end > start { named[name] = start...(end - 1) }
          index = end
          continue
        }
      }
      index += 1
    }
    var reader = ManifestReader(source: source, targets: targets, named: named)
    if let own, let found = reader.isolation(in: own, skippingTargets: false) { return found }
    guard source.count > 0 else { return nil }
    return reader.isolation(in: 0...(source.count - 1), skippingTargets: true, skippingNamed: true)
  }

  /// Whether the token at `index`, first on its line, continues the expression before it.
  private static func continues(_ source: SourceTokens, _ index: Int) -> Bool {
    source.isPunct(index, UInt8(ascii: ".")) || source[index].kind == .operator
  }

  private struct ManifestReader {
    let source: SourceTokens
    let targets: [ClosedRange<Int>]
    let named: [String: ClosedRange<Int>]
    var visited: Set<String> = []

    init(source: SourceTokens, targets: [ClosedRange<Int>], named: [String: ClosedRange<Int>]) {
      self.source = source
      self.targets = targets
      self.named = named
    }

    /// The first `.defaultIsolation(…)` in `range`, following the named values it refers to.
    mutating func isolation(
      in range: ClosedRange<Int>, skippingTargets: Bool, skippingNamed: Bool = false
    ) -> DefaultIsolation? {
      var index = range.lowerBound
      while index <= range.upperBound {
        if skippingTargets, let span = targets.first(where: { $0.lowerBound == index }) {
          index = span.upperBound + 1
          continue
        }
        if skippingNamed, let span = named.values.first(where: { $0.lowerBound == index }) {
          index = span.upperBound + 1
          continue
        }
        if source.isWord(index, "defaultIsolation"), source.isPunct(index + 1, UInt8(ascii: "(")) {
          if source.isWord(index + 2, "MainActor") { return .mainActor }
          if source.isWord(index + 2, "nil") { return .nonisolated }
        }
        // A name the range refers to (not a member `.name`, nor the name a `let` declares).
        if source.isIdentifier(index), !source.isPunct(index - 1, UInt8(ascii: ".")),
          !source.isWord(index - 1, "let"), !source.isWord(index - 1, "var")
        {
          let name = source.text(index)
          if let span = named[name], !span.contains(index), visited.insert(name).inserted,
            let found = isolation(in: span, skippingTargets: true)
          {
            return found
          }
        }
        index += 1
      }
      return nil
    }
  }

  // MARK: Xcode projects

  /// What an Xcode project's `SWIFT_DEFAULT_ACTOR_ISOLATION` is for the native target named
  /// `target`: `MainActor` if any of its build configurations (or, where it sets none, the
  /// project's) says so, `nonisolated` if one says that, `nil` if none is set or the file is not
  /// a project. Configuration files (`.xcconfig`) are not read.
  package static func declared(inXcodeProject bytes: [UInt8], target: String) -> DefaultIsolation? {
    var parser = OldStylePropertyList(bytes: bytes)
    guard case .dictionary(let root)? = parser.parse(), case .dictionary(let objects)? = root["objects"]
    else {
      return nil
    }
    func dictionary(_ id: PropertyListNode?) -> [String: PropertyListNode]? {
      guard case .string(let id)? = id, case .dictionary(let object)? = objects[id] else { return nil }
      return object
    }
    func isolation(ofConfigurations list: PropertyListNode?) -> DefaultIsolation? {
      guard case .array(let ids)? = dictionary(list)?["buildConfigurations"] else { return nil }
      let values: [String] = ids.compactMap { id in
        guard case .dictionary(let settings)? = dictionary(id)?["buildSettings"],
          case .string(let value)? = settings["SWIFT_DEFAULT_ACTOR_ISOLATION"]
        else { return nil }
        return value
      }
      if values.contains("MainActor") { return .mainActor }
      return values.contains("nonisolated") ? .nonisolated : nil
    }
    let ownTarget = objects.values.first { node in
      guard case .dictionary(let object) = node else { return false }
      return object["isa"] == .string("PBXNativeTarget") && object["name"] == .string(target)
    }
    guard case .dictionary(let native)? = ownTarget else { return nil }
    if let found = isolation(ofConfigurations: native["buildConfigurationList"]) { return found }
    let project = objects.values.first { node in
      guard case .dictionary(let object) = node else { return false }
      return object["isa"] == .string("PBXProject")
    }
    guard case .dictionary(let projectObject)? = project else { return nil }
    return isolation(ofConfigurations: projectObject["buildConfigurationList"])
  }
}

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
