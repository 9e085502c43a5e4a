#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A target's default actor isolation: SwiftPM's `.defaultIsolation(MainActor.self)`, Xcode's
/// `SWIFT_DEFAULT_ACTOR_ISOLATION` (`MainActor` in Xcode 26's new app templates).
package enum DefaultIsolation: String, Sendable, Equatable {
  case mainActor = "MainActor"
  case nonisolated
}

/// What a target's build settings say about the isolation of its conformances: its default
/// actor isolation, and whether it infers isolated conformances (the upcoming feature
/// `InferIsolatedConformances`, which Xcode 26's Approachable Concurrency turns on).
///
/// The compiler does not tell code either, and neither SwiftPM nor Xcode gives a build tool
/// plugin a target's settings, so the scanner reads them from the manifest or project file the
/// plugin names. Where the default is `MainActor`, a `Codable` type's conformance is main-actor
/// isolated unless the type (or the conformance) is `nonisolated`; where conformances are
/// inferred isolated, so is that of a type isolated to a global actor. A preference, read on any
/// thread, cannot store such a type: knowing the settings, the scanner says so at the
/// declaration, instead of the compiler rejecting the generated conformance. Where a setting
/// cannot be read, the scanner assumes nothing; `preferences-config.json` can state it.
package struct TargetSettings: Sendable, Equatable {
  package var defaultIsolation: DefaultIsolation?
  package var infersIsolatedConformances = false

  package init(defaultIsolation: DefaultIsolation? = nil, infersIsolatedConformances: Bool = false) {
    self.defaultIsolation = defaultIsolation
    self.infersIsolatedConformances = infersIsolatedConformances
  }

  /// The settings `file` (a package manifest or an Xcode project) declares for `target`; none
  /// where it declares none or cannot be read.
  ///
  /// The build plugin's scanner runs on every build that changes a source file, as a debug build
  /// in debug builds, and a large app's project file is megabytes: the file is parsed only when
  /// it mentions a setting at all (``PluginShared/contains(_:_:)``), and what it says for `target` is
  /// kept in `cacheDirectory` under the fingerprint of its contents, so that it is parsed again
  /// only when it changes.
  package static func read(from file: String, target: String, cacheDirectory: String?) -> TargetSettings {
    guard let data = FileManager.default.contents(atPath: file) else { return TargetSettings() }
    let bytes = [UInt8](data)
    let markers =
      file.hasSuffix(".pbxproj")
      ? ["SWIFT_DEFAULT_ACTOR_ISOLATION", "SWIFT_APPROACHABLE_CONCURRENCY", "INFER_ISOLATED_CONFORMANCES"]
      : ["defaultIsolation", "InferIsolatedConformances"]
    guard bytes.withUnsafeBytes({ raw in markers.contains { PluginShared.contains(raw, Array($0.utf8)) } })
    else {
      return TargetSettings()
    }
    var fingerprint = Fingerprint()
    fingerprint.add(bytes)
    fingerprint.add(Array(target.utf8))
    let key = "\(String(fingerprint.value, radix: 16)) \(file)"
    let record = cacheDirectory.map { $0 + "/TargetSettings" }
    if let record, let saved = FileManager.default.contents(atPath: record) {
      let lines = String(decoding: saved, as: UTF8.self).split(
        separator: "\n", omittingEmptySubsequences: false)
      // The last line marks a whole record.
      if lines.count >= 4, lines[0] == key, lines[3] == "end" {
        return TargetSettings(
          defaultIsolation: DefaultIsolation(rawValue: String(lines[1])),
          infersIsolatedConformances: lines[2] == "true")
      }
    }
    let result = declared(in: file, contents: bytes, target: target)
    if let cacheDirectory, let record {
      try? FileManager.default.createDirectory(atPath: cacheDirectory, withIntermediateDirectories: true)
      let text =
        "\(key)\n\(result.defaultIsolation?.rawValue ?? "none")\n\(result.infersIsolatedConformances)\nend\n"
      // Unsynced, as the parse cache's entries: a record cut short (no last line) costs a parse.
      _ = Array(text.utf8).withUnsafeBytes { FileSystem.writeUnsynced($0, to: record) }
    }
    return result
  }

  /// The settings `file` declares for `target`: a package manifest (`Package.swift`), or an Xcode
  /// project (`project.pbxproj`).
  package static func declared(in file: String, contents: [UInt8], target: String) -> TargetSettings {
    file.hasSuffix(".pbxproj")
      ? declared(inXcodeProject: contents, target: target) : declared(inManifest: contents, target: target)
  }

  // MARK: Package manifests

  /// The calls that declare a target in a manifest (`.target(name: "App", …)`).
  private static let targetCalls: Set<String> = ["target", "executableTarget", "testTarget", "macro"]

  /// What a manifest's `.defaultIsolation(…)` and `.enableUpcomingFeature("InferIsolatedConformances")`
  /// say for `target`: in the target's own call, or in a value of the manifest it names
  /// (`swiftSettings: appSettings`), else where they apply to every target (outside any target's
  /// call and any named value: a loop over `package.targets`).
  package static func declared(inManifest bytes: [UInt8], target: String) -> TargetSettings {
    let source = SourceTokens(bytes: bytes, lexed: Lexer.tokenize(bytes))
    var targets: [ClosedRange<Int>] = []
    var own: ClosedRange<Int>?
    var index = 0
    while index + 2 < source.count {
      // (A `.target(name:)` inside a target's call is a dependency on it: not a declaration.)
      if targets.last.map({ $0.contains(index) }) != true, source.isPunct(index, UInt8(ascii: ".")),
        source.isWord(index + 1, in: targetCalls),
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
    // Named values at the top level: `let shared: [SwiftSetting] = […]`, or computed.
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
          !source.isPunct(cursor, UInt8(ascii: "{")), !source[cursor].followsNewline
        {
          cursor += 1
        }
        // A computed value: `var swiftSettings: [SwiftSetting] { […] }` (Vapor's manifest).
        if source.isPunct(cursor, UInt8(ascii: "{")) {
          let close = source.matchingClose(cursor)
          if close > cursor + 1 { named[name] = (cursor + 1)...(close - 1) }
          index = max(cursor, close) + 1
          continue
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
    let reader = ManifestReader(source: source, targets: targets, named: named)
    func find<Value>(_ match: (Int) -> Value?) -> Value? {
      if let own, let found = reader.first(in: own, skippingTargets: false, match) { return found }
      guard source.count > 0 else { return nil }
      return reader.first(in: 0...(source.count - 1), skippingTargets: true, skippingNamed: true, match)
    }
    let isolation: DefaultIsolation? = find { index in
      guard source.isWord(index, "defaultIsolation"), source.isPunct(index + 1, UInt8(ascii: "(")) else {
        return nil
      }
      return source.isWord(index + 2, "MainActor")
        ? .mainActor : source.isWord(index + 2, "nil") ? .nonisolated : nil
    }
    let infers: Bool? = find { index in
      source.isWord(index, "enableUpcomingFeature") && source.isPunct(index + 1, UInt8(ascii: "("))
        && index + 2 < source.count && source[index + 2].kind == .string
        && StringLiteral.value(of: source.text(index + 2)) == "InferIsolatedConformances" ? true : nil
    }
    return TargetSettings(defaultIsolation: isolation, infersIsolatedConformances: infers ?? false)
  }

  /// Whether the token at `index`, first on its line, continues the expression before it.
  private static func continues(_ source: SourceTokens, _ index: Int) -> Bool {
    source.isPunct(index, UInt8(ascii: ".")) || source[index].kind == .operator
  }

  private struct ManifestReader {
    let source: SourceTokens
    let targets: [ClosedRange<Int>]
    let named: [String: ClosedRange<Int>]

    /// The first match in `range`, following the named values it refers to.
    func first<Value>(
      in range: ClosedRange<Int>, skippingTargets: Bool, skippingNamed: Bool = false, _ match: (Int) -> Value?
    ) -> Value? {
      var visited: Set<String> = []
      return first(in: range, skippingTargets: skippingTargets, skippingNamed: skippingNamed, &visited, match)
    }

    private func first<Value>(
      in range: ClosedRange<Int>, skippingTargets: Bool, skippingNamed: Bool, _ visited: inout Set<String>,
      _ match: (Int) -> Value?
    ) -> Value? {
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
        if let found = match(index) { return found }
        // A name the range refers to (not a member `.name`, nor the name a `let` declares).
        if source.isIdentifier(index), !source.isPunct(index - 1, UInt8(ascii: ".")),
          !source.isWord(index - 1, "let"), !source.isWord(index - 1, "var")
        {
          let name = source.text(index)
          if let span = named[name], !span.contains(index), visited.insert(name).inserted,
            let found = first(in: span, skippingTargets: true, skippingNamed: false, &visited, match)
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

  /// What an Xcode project says for the native target named `target`: its
  /// `SWIFT_DEFAULT_ACTOR_ISOLATION` (`MainActor` if any of its build configurations says so,
  /// `nonisolated` if one says that), and whether `SWIFT_APPROACHABLE_CONCURRENCY` or
  /// `SWIFT_UPCOMING_FEATURE_INFER_ISOLATED_CONFORMANCES` is `YES` in one; each from the
  /// project's configurations where the target's set none. Configuration files (`.xcconfig`) are
  /// not read.
  package static func declared(inXcodeProject bytes: [UInt8], target: String) -> TargetSettings {
    var parser = OldStylePropertyList(bytes: bytes)
    guard case .dictionary(let root)? = parser.parse(), case .dictionary(let objects)? = root["objects"]
    else {
      return TargetSettings()
    }
    func dictionary(_ id: PropertyListNode?) -> [String: PropertyListNode]? {
      guard case .string(let id)? = id, case .dictionary(let object)? = objects[id] else { return nil }
      return object
    }
    func values(of setting: String, in list: PropertyListNode?) -> [String] {
      guard case .array(let ids)? = dictionary(list)?["buildConfigurations"] else { return [] }
      return ids.compactMap { id in
        guard case .dictionary(let settings)? = dictionary(id)?["buildSettings"],
          case .string(let value)? = settings[setting]
        else { return nil }
        return value
      }
    }
    func object(where isMatch: ([String: PropertyListNode]) -> Bool) -> [String: PropertyListNode]? {
      for case .dictionary(let object) in objects.values where isMatch(object) { return object }
      return nil
    }
    guard
      let native = object(where: { $0["isa"] == .string("PBXNativeTarget") && $0["name"] == .string(target) })
    else { return TargetSettings() }
    let project = object(where: { $0["isa"] == .string("PBXProject") })
    func values(of setting: String) -> [String] {
      let own = values(of: setting, in: native["buildConfigurationList"])
      return own.isEmpty ? values(of: setting, in: project?["buildConfigurationList"]) : own
    }
    let isolation = values(of: "SWIFT_DEFAULT_ACTOR_ISOLATION")
    let infers =
      values(of: "SWIFT_APPROACHABLE_CONCURRENCY").contains("YES")
      || values(of: "SWIFT_UPCOMING_FEATURE_INFER_ISOLATED_CONFORMANCES").contains("YES")
    return TargetSettings(
      defaultIsolation: isolation.contains("MainActor")
        ? .mainActor : isolation.contains("nonisolated") ? .nonisolated : nil,
      infersIsolatedConformances: infers)
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
