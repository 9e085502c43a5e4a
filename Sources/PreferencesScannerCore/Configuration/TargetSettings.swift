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
  /// it mentions a setting or a configuration file at all (``PluginShared/contains(_:_:)``),
  /// and what it says for `target` is kept in `cacheDirectory` under the fingerprint of its
  /// contents and of the configuration files it names, so that it is parsed again only when one
  /// of them changes.
  package static func read(from file: String, target: String, cacheDirectory: String?) -> TargetSettings {
    guard let data = FileManager.default.contents(atPath: file) else { return TargetSettings() }
    let bytes = [UInt8](data)
    let isProject = file.hasSuffix(".pbxproj")
    let markers =
      isProject
      ? [
        "SWIFT_DEFAULT_ACTOR_ISOLATION", "SWIFT_APPROACHABLE_CONCURRENCY", "INFER_ISOLATED_CONFORMANCES",
        "InferIsolatedConformances", "-default-isolation", "baseConfigurationReference",
      ]
      : ["defaultIsolation", "InferIsolatedConformances"]
    guard bytes.withUnsafeBytes({ raw in markers.contains { PluginShared.contains(raw, Array($0.utf8)) } })
    else {
      return TargetSettings()
    }
    var fingerprint = Fingerprint()
    fingerprint.add(bytes)
    fingerprint.add(Array(target.utf8))
    let key = "\(String(fingerprint.value, radix: 16)) \(file)"
    let record = cacheDirectory.map { $0 + "/" + PluginShared.settingsRecordName }
    if let record, let data = FileManager.default.contents(atPath: record),
      let saved = PluginShared.SettingsRecord(data), saved.key == key,
      saved.filesFingerprint == filesFingerprint(saved.files)
    {
      return TargetSettings(
        defaultIsolation: DefaultIsolation(rawValue: saved.isolation),
        infersIsolatedConformances: saved.infersIsolatedConformances)
    }
    let (result, files) =
      isProject
      ? readXcodeProject(bytes, target: target, projectFile: file)
      : (declared(inManifest: bytes, target: target), [])
    if let cacheDirectory, let record {
      try? FileManager.default.createDirectory(atPath: cacheDirectory, withIntermediateDirectories: true)
      let text = PluginShared.SettingsRecord(
        key: key, isolation: result.defaultIsolation?.rawValue ?? "none",
        infersIsolatedConformances: result.infersIsolatedConformances,
        filesFingerprint: filesFingerprint(files),
        files: files
      ).text
      // Unsynced, as the parse cache's entries: a record cut short (no last line) costs a parse.
      _ = Array(text.utf8).withUnsafeBytes { FileSystem.writeUnsynced($0, to: record) }
    }
    return result
  }

  /// A fingerprint of the contents of `files`, a missing one counting as such.
  static func filesFingerprint(_ files: [String]) -> String {
    var fingerprint = Fingerprint()
    for file in files {
      fingerprint.add(Array(file.utf8))
      if let data = FileManager.default.contents(atPath: file) {
        fingerprint.add([1])
        fingerprint.add([UInt8](data))
      } else {
        fingerprint.add([0])
      }
    }
    return String(fingerprint.value, radix: 16)
  }

  /// The settings `file` declares for `target`: a package manifest (`Package.swift`), or an Xcode
  /// project (`project.pbxproj`, without its configuration files).
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

  /// What an Xcode project says for the native target named `target`: its default actor
  /// isolation (`MainActor` if any of its build configurations says so, `nonisolated` if one
  /// says that), and whether one infers isolated conformances.
  ///
  /// Each configuration's settings are resolved as Xcode resolves them, the first level that
  /// sets one winning and `$(inherited)` taking the level below: the target's settings, its
  /// configuration file (`.xcconfig`, with its `#include`s), the project's settings, the
  /// project's configuration file. The isolation is `SWIFT_DEFAULT_ACTOR_ISOLATION`, or
  /// `-default-isolation` in `OTHER_SWIFT_FLAGS`; conformances are inferred isolated where
  /// `SWIFT_APPROACHABLE_CONCURRENCY` or `SWIFT_UPCOMING_FEATURE_INFER_ISOLATED_CONFORMANCES` is
  /// `YES`, or `OTHER_SWIFT_FLAGS` enables the feature. Without the project's path, its
  /// configuration files are not read (``readXcodeProject(_:target:projectFile:)`` reads them).
  package static func declared(inXcodeProject bytes: [UInt8], target: String) -> TargetSettings {
    readXcodeProject(bytes, target: target, projectFile: nil).settings
  }

  /// ``declared(inXcodeProject:target:)`` with the configuration files of the project whose
  /// `project.pbxproj` is at `projectFile`, and every configuration file it looked for, found or
  /// not, so that a change to any of them is noticed.
  package static func readXcodeProject(
    _ bytes: [UInt8], target: String, projectFile: String?
  ) -> (settings: TargetSettings, filesRead: [String]) {
    var parser = OldStylePropertyList(bytes: bytes)
    guard case .dictionary(let root)? = parser.parse(), case .dictionary(let objects)? = root["objects"]
    else {
      return (TargetSettings(), [])
    }
    var project = XcodeProject(objects: objects, projectFile: projectFile)
    guard
      let native = project.object(where: {
        $0["isa"] == .string("PBXNativeTarget") && $0["name"] == .string(target)
      })
    else { return (TargetSettings(), []) }
    let projectObject = project.object(where: { $0["isa"] == .string("PBXProject") })
    let projectConfigurations = project.configurations(of: projectObject?["buildConfigurationList"])
    var targetConfigurations = project.configurations(of: native["buildConfigurationList"])
    if targetConfigurations.isEmpty {
      targetConfigurations = projectConfigurations.map { (name: $0.name, settings: [:], file: nil) }
    }
    var isolations: [String] = []
    var infers = false
    for configuration in targetConfigurations {
      let base = projectConfigurations.first { $0.name == configuration.name }
      // Highest level first.
      let levels: [[String: String]] = [
        configuration.settings,
        configuration.file.map { project.configurationFile($0, configuration: configuration.name) } ?? [:],
        base?.settings ?? [:],
        base?.file.map { project.configurationFile($0, configuration: configuration.name) } ?? [:],
      ]
      func resolved(_ setting: String) -> String? {
        var value: String?
        for level in levels.reversed() {
          if let own = level[setting] { value = XcodeProject.inheriting(own, from: value) }
        }
        return value.map { String($0.trimmedBlanks) }
      }
      let flags = (resolved("OTHER_SWIFT_FLAGS") ?? "").split(whereSeparator: { $0 == " " || $0 == "\t" })
        .map { $0.filter { $0 != "\"" } }
      func flag(_ name: String) -> [String] {
        flags.indices.compactMap { index in
          if flags[index] == name, index + 1 < flags.count { return flags[index + 1] }
          return flags[index].hasPrefix(name + "=") ? String(flags[index].dropFirst(name.count + 1)) : nil
        }
      }
      if let isolation = resolved("SWIFT_DEFAULT_ACTOR_ISOLATION") { isolations.append(isolation) }
      isolations += flag("-default-isolation")
      infers =
        infers || resolved("SWIFT_APPROACHABLE_CONCURRENCY") == "YES"
        || resolved("SWIFT_UPCOMING_FEATURE_INFER_ISOLATED_CONFORMANCES") == "YES"
        || flag("-enable-upcoming-feature").contains("InferIsolatedConformances")
    }
    let settings = TargetSettings(
      defaultIsolation: isolations.contains("MainActor")
        ? .mainActor : isolations.contains("nonisolated") ? .nonisolated : nil,
      infersIsolatedConformances: infers)
    return (settings, project.filesRead)
  }
}

/// The objects of an Xcode project, and the configuration files (`.xcconfig`) they name.
struct XcodeProject {
  let objects: [String: PropertyListNode]
  /// The folder that holds the `.xcodeproj`, if known: what `<group>` paths start from.
  let directory: String?
  /// Each object's enclosing group.
  let parents: [String: String]
  /// Configuration files looked for, in order, found or not.
  private(set) var filesRead: [String] = []
  /// Each configuration file's lines, as read.
  private var lines: [String: [Substring]?] = [:]

  /// Includes nest at most this deep, and one configuration file reads at most this many files
  /// with its includes (a file that includes itself, directly or not, is not read again).
  static let maximumIncludeDepth = 16
  static let maximumIncludes = 256

  init(objects: [String: PropertyListNode], projectFile: String?) {
    self.objects = objects
    // `…/App.xcodeproj/project.pbxproj` → `…`
    directory = projectFile.map { file in
      var parts = file.split(separator: "/", omittingEmptySubsequences: false)
      parts.removeLast(min(2, parts.count))
      return parts.isEmpty ? "." : parts.joined(separator: "/")
    }
    var parents: [String: String] = [:]
    for (id, object) in objects {
      guard case .dictionary(let group) = object, case .array(let children)? = group["children"] else {
        continue
      }
      for case .string(let child) in children { parents[child] = id }
    }
    self.parents = parents
  }

  func dictionary(_ id: PropertyListNode?) -> [String: PropertyListNode]? {
    guard case .string(let id)? = id, case .dictionary(let object)? = objects[id] else { return nil }
    return object
  }

  func object(where isMatch: ([String: PropertyListNode]) -> Bool) -> [String: PropertyListNode]? {
    for case .dictionary(let object) in objects.values where isMatch(object) { return object }
    return nil
  }

  /// The configurations of a configuration list: each one's name, settings (a list's items
  /// joined by spaces, as Xcode passes them) and configuration file's path, if any.
  func configurations(of list: PropertyListNode?) -> [(
    name: String, settings: [String: String], file: String?
  )] {
    guard case .array(let ids)? = dictionary(list)?["buildConfigurations"] else { return [] }
    return ids.compactMap { id in
      guard let configuration = dictionary(id) else { return nil }
      var settings: [String: String] = [:]
      if case .dictionary(let declared)? = configuration["buildSettings"] {
        for (name, value) in declared {
          switch value {
          case .string(let text): settings[name] = text
          case .array(let items):
            settings[name] = items.compactMap { if case .string(let text) = $0 { text } else { nil } }
              .joined(separator: " ")
          case .dictionary: break
          }
        }
      }
      var file: String?
      if case .string(let reference)? = configuration["baseConfigurationReference"] {
        file = location(of: reference)
      } else if case .string(let anchor)? = configuration["baseConfigurationReferenceAnchor"],
        case .string(let path)? = configuration["baseConfigurationReferenceRelativePath"]
      {
        // A file in a synchronized folder (Xcode 16).
        file = location(of: anchor).map { Self.joined($0, path) }
      }
      guard case .string(let name)? = configuration["name"] else { return ("", settings, file) }
      return (name, settings, file)
    }
  }

  /// Where a file or group is: its `path` from its `sourceTree`; `nil` where that is not the
  /// project's folder or an absolute path (`BUILT_PRODUCTS_DIR`, `SDKROOT`).
  func location(of id: String, depth: Int = 0) -> String? {
    guard depth < 64, case .dictionary(let entry)? = objects[id], let directory else { return nil }
    var path = ""
    if case .string(let own)? = entry["path"] { path = own }
    switch entry["sourceTree"] {
    case .string("<absolute>")?: return path
    case .string("SOURCE_ROOT")?: return Self.joined(directory, path)
    case .string("<group>")?, nil:
      guard let parent = parents[id] else {
        // The main group: the project's folder, moved by the project's `projectDirPath`.
        let root = object(where: { $0["isa"] == .string("PBXProject") })
        if case .string(let moved)? = root?["projectDirPath"], !moved.isEmpty {
          return Self.joined(Self.joined(directory, moved), path)
        }
        return Self.joined(directory, path)
      }
      return location(of: parent, depth: depth + 1).map { Self.joined($0, path) }
    default: return nil
    }
  }

  /// `path` from `directory`, without `.` and `..` components (so that one file read through
  /// two includes is one file).
  static func joined(_ directory: String, _ path: String) -> String {
    let full = path.hasPrefix("/") ? path : directory + "/" + path
    var parts: [Substring] = []
    for part in full.split(separator: "/") where part != "." {
      if part == "..", let last = parts.last, last != ".." { parts.removeLast() } else { parts.append(part) }
    }
    let joined = parts.joined(separator: "/")
    return full.hasPrefix("/") ? "/" + joined : joined.isEmpty ? "." : joined
  }

  /// `value` with `$(inherited)` replaced by what the level below says.
  static func inheriting(_ value: String, from below: String?) -> String {
    guard value.contains("inherited") else { return value }
    return value.replacing("$(inherited)", with: below ?? "").replacing("${inherited}", with: below ?? "")
  }

  /// The settings configuration file `path` assigns for configuration `configuration`, its
  /// includes read in place: a later assignment replaces an earlier one, and `$(inherited)`
  /// takes the earlier one (or, where none, stays for the level below). Assignments conditioned
  /// on another configuration (`NAME[config=Release]`) are skipped; other conditions (`sdk`,
  /// `arch`) are taken as met.
  mutating func configurationFile(_ path: String, configuration: String) -> [String: String] {
    var settings: [String: String] = [:]
    var budget = Self.maximumIncludes
    assign(path, configuration: configuration, including: [], budget: &budget, into: &settings)
    return settings
  }

  private mutating func assign(
    _ path: String, configuration: String, including: [String], budget: inout Int,
    into settings: inout [String: String]
  ) {
    guard including.count < Self.maximumIncludeDepth, !including.contains(path), budget > 0 else { return }
    budget -= 1
    if lines[path] == nil {
      filesRead.append(path)
      lines[path] = FileManager.default.contents(atPath: path).map {
        String(decoding: $0, as: UTF8.self).split(omittingEmptySubsequences: true) {
          $0 == "\n" || $0 == "\r"
        }
      }
    }
    guard let fileLines = lines[path] ?? nil else { return }
    let folder = path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(
      separator: "/")
    for raw in fileLines {
      var line = Substring(raw)
      if let comment = line.firstRange(of: "//") { line = line[..<comment.lowerBound] }
      line = line.drop { $0 == " " || $0 == "\t" }
      if line.hasPrefix("#include") {
        guard let open = line.firstIndex(where: { $0 == "\"" || $0 == "<" }) else { continue }
        let rest = line[line.index(after: open)...]
        guard let close = rest.firstIndex(where: { $0 == "\"" || $0 == ">" }) else { continue }
        let included = String(rest[..<close])
        assign(
          Self.joined(folder.isEmpty ? "." : folder, included), configuration: configuration,
          including: including + [path], budget: &budget, into: &settings)
        continue
      }
      // `NAME[config=Debug][sdk=*] = value`: the first `=` outside the conditions.
      var brackets = 0
      guard
        let equals = line.firstIndex(where: { character in
          if character == "[" { brackets += 1 } else if character == "]" { brackets -= 1 }
          return character == "=" && brackets == 0
        })
      else { continue }
      var name = line[..<equals].trimmedBlanks
      var applies = true
      if let bracket = name.firstIndex(of: "[") {
        for condition in name[bracket...].split(whereSeparator: { $0 == "[" || $0 == "]" }) {
          let parts = condition.split(separator: "=", maxSplits: 1)
          if parts.count == 2, parts[0] == "config" {
            applies = applies && Self.matches(configuration, parts[1])
          }
        }
        name = name[..<bracket]
      }
      guard applies, !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else {
        continue
      }
      var value = String(line[line.index(after: equals)...].trimmedBlanks)
      if value.hasSuffix(";") { value.removeLast() }
      let key = String(name)
      settings[key] = settings[key].map { Self.inheriting(value, from: $0) } ?? value
    }
  }

  /// Whether configuration `name` matches `pattern`, which may hold `*`.
  static func matches(_ name: String, _ pattern: Substring) -> Bool {
    let pieces = pattern.split(separator: "*", omittingEmptySubsequences: false)
    guard pieces.count > 1 else { return name == pattern }
    var rest = name[...]
    for (index, piece) in pieces.enumerated() {
      if index == 0 {
        guard rest.hasPrefix(piece) else { return false }
        rest = rest.dropFirst(piece.count)
      } else if index == pieces.count - 1 {
        return piece.isEmpty || rest.hasSuffix(piece)
      } else if let found = rest.firstRange(of: piece) {
        rest = rest[found.upperBound...]
      } else {
        return false
      }
    }
    return true
  }
}

extension StringProtocol {
  /// The text without the spaces and tabs around it.
  fileprivate var trimmedBlanks: SubSequence {
    let isBlank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
    guard let first = firstIndex(where: { !isBlank($0) }), let last = lastIndex(where: { !isBlank($0) })
    else {
      return self[endIndex...]
    }
    return self[first...last]
  }
}
