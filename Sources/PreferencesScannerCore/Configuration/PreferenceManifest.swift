import Foundation

/// The committed record of every key a target has shipped: `Preferences.lock` in the target's
/// directory. Text, one key a line, sorted, so that changes read well in a diff.
///
/// ```
/// # Preferences.lock: every preference key this target has shipped, with its type.
/// ContentView.theme: Theme
/// ContentView.username: String renamed-from: ContentView.userName, userName
/// retired OldFeature.enabled: Bool
/// ```
///
/// A key in the manifest that no declaration uses any more fails the build, unless a
/// declaration names it in `renamedFrom:`, a migration in `preferences-config.json` moves it, or
/// it is marked `retired`.
public struct PreferenceManifest: Sendable, Equatable {
  public static let fileName = "Preferences.lock"

  public struct Entry: Sendable, Equatable {
    public var key: String
    /// The type the key was shipped with, or `nil` if unknown.
    public var type: String?
    /// Keys this key's value was migrated from, newest first.
    public var renamedFrom: [String]
    /// Retired keys are no longer declared, on purpose; their values can be removed from stores.
    public var isRetired: Bool
    /// The line in the manifest file.
    public var line: Int

    public init(
      key: String, type: String?, renamedFrom: [String] = [], isRetired: Bool = false, line: Int = 0
    ) {
      self.key = key
      self.type = type
      self.renamedFrom = renamedFrom
      self.isRetired = isRetired
      self.line = line
    }
  }

  public var entries: [String: Entry]

  public init(entries: [String: Entry] = [:]) { self.entries = entries }

  /// Parses a manifest.
  ///
  /// - Throws: ``Diagnostic`` for a malformed line, positioned at it.
  public static func parse(_ text: String, path: String) throws(Diagnostic) -> PreferenceManifest {
    var manifest = PreferenceManifest()
    for (offset, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      var line = rawLine.trimmingCharacters(in: .whitespaces)
      if line.isEmpty || line.hasPrefix("#") { continue }
      var retired = false
      if line.hasPrefix("retired ") {
        retired = true
        line = String(line.dropFirst("retired ".count)).trimmingCharacters(in: .whitespaces)
      }
      var renamedFrom: [String] = []
      if let range = line.range(of: " renamed-from: ") {
        renamedFrom = line[range.upperBound...].split(separator: ",").map {
          $0.trimmingCharacters(in: .whitespaces)
        }
        .filter { !$0.isEmpty }
        line = String(line[..<range.lowerBound])
      }
      guard
        let colon = line.range(of: ": ", options: .backwards)
          ?? (line.hasSuffix(":") ? line.range(of: ":", options: .backwards) : nil)
      else {
        throw Diagnostic(
          .error,
          "malformed line in \(fileName): expected 'KEY: TYPE'; regenerate it with 'swift package preferences lock'",
          file: path, line: offset + 1, column: 1)
      }
      let key = String(line[..<colon.lowerBound])
      let type = line[colon.upperBound...].trimmingCharacters(in: .whitespaces)
      manifest.entries[key] = Entry(
        key: key, type: type.isEmpty || type == "?" ? nil : type, renamedFrom: renamedFrom,
        isRetired: retired,
        line: offset + 1)
    }
    return manifest
  }

  /// Reads a manifest file.
  public static func load(from path: String) throws(Diagnostic) -> PreferenceManifest {
    guard let data = FileManager.default.contents(atPath: path) else {
      throw Diagnostic(.error, "cannot read \(fileName)", file: path, line: 1, column: 1)
    }
    return try parse(String(decoding: data, as: UTF8.self), path: path)
  }

  /// The manifest as text: a header, then one line per key, sorted.
  public func render() -> String {
    var out = """
      # \(Self.fileName): every preference key this target has shipped, with its type.
      # Written by `swift package preferences lock`; commit it. A key that disappears from the
      # sources fails the build until it is renamed (@Preference(renamedFrom: "…")), migrated
      # (preferences-config.json "migrations"), or retired (`swift package preferences lock --retire KEY`).

      """
    for entry in entries.values.sorted(by: { $0.key < $1.key }) {
      out += (entry.isRetired ? "retired " : "") + "\(entry.key): \(entry.type ?? "?")"
      if !entry.renamedFrom.isEmpty { out += " renamed-from: " + entry.renamedFrom.joined(separator: ", ") }
      out += "\n"
    }
    return out
  }

  /// The manifest updated with `preferences`: new keys added, types updated, renames recorded
  /// (with the chains they continue), `retire` keys marked retired and `drop` keys removed.
  public func updated(
    with preferences: [ScannedPreference], migrations: [String: String] = [:], retire: Set<String> = [],
    drop: Set<String> = []
  ) -> PreferenceManifest {
    var result = self
    for preference in preferences {
      let renames = chain(
        preference.renamedFrom + migrations.filter { $0.value == preference.key }.map(\.key).sorted())
      var entry = result.entries[preference.key] ?? Entry(key: preference.key, type: preference.type)
      if let type = preference.type { entry.type = type }
      entry.renamedFrom = Self.unique(entry.renamedFrom + renames)
      entry.isRetired = false
      result.entries[preference.key] = entry
    }
    for key in retire {
      var entry = result.entries[key] ?? Entry(key: key, type: nil)
      entry.isRetired = true
      result.entries[key] = entry
    }
    for key in drop { result.entries[key] = nil }
    return result
  }

  /// `keys` followed by every key they were renamed from, transitively, newest first.
  public func chain(_ keys: [String]) -> [String] {
    var result: [String] = []
    var queue = keys
    while !queue.isEmpty {
      let key = queue.removeFirst()
      guard !result.contains(key) else { continue }
      result.append(key)
      queue += entries[key]?.renamedFrom ?? []
    }
    return result
  }

  private static func unique(_ keys: [String]) -> [String] {
    var seen = Set<String>()
    return keys.filter { seen.insert($0).inserted }
  }
}

/// Whether a value stored as `old` can be read as `new`.
func typesAreCompatible(_ old: String, _ new: String) -> Bool {
  func normalize(_ type: String) -> String {
    var type = type.replacingOccurrences(of: " ", with: "")
    while type.hasSuffix("?") || type.hasSuffix("!") { type.removeLast() }
    if type.hasPrefix("Optional<") && type.hasSuffix(">") { type = String(type.dropFirst(9).dropLast()) }
    let integers: Set<String> = [
      "Int", "Int8", "Int16", "Int32", "Int64", "UInt", "UInt8", "UInt16", "UInt32", "UInt64",
    ]
    if integers.contains(type) { return "Int" }
    if ["Double", "Float", "CGFloat", "Float32", "Float64"].contains(type) { return "Double" }
    return type
  }
  return normalize(old) == normalize(new)
}
