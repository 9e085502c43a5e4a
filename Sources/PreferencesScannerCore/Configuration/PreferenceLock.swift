#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The committed record of every key a target has shipped: `Preferences.lock` in the target's
/// directory. Text, one key a line, sorted, so that changes read well in a diff.
///
/// ```
/// # Preferences.lock: every preference key this target has shipped, with its type.
/// ContentView.theme: Theme
/// ContentView.username: String renamed-from: ContentView.userName, userName
/// Shared.enabled: Bool store: .suite("group.com.example")
/// retired OldFeature.enabled: Bool
/// ```
///
/// Reading never fails on content: merge-conflict markers are read as the union of both sides,
/// and lines it cannot read are listed, so that the build can say exactly what to fix and
/// `preferences lock` can rewrite the file.
package struct PreferenceLock: Sendable, Equatable {
  package static let fileName = "Preferences.lock"

  /// A target's committed lock: its contents, and its path for diagnostics.
  package struct Committed: Sendable {
    package var contents: PreferenceLock
    package var path: String

    package init(_ contents: PreferenceLock, path: String) {
      self.contents = contents
      self.path = path
    }
  }

  package struct Entry: Sendable, Equatable {
    package var key: String
    /// The type the key was shipped with, or `nil` if unknown. Where the scanner could not tell
    /// the type from the default, `type(of: DEFAULT)`: the default it shipped with, whose type the
    /// compiler compares with the declared one (``shippedDefault``).
    package var type: String?
    /// The store it was shipped in, as written in `store:`; `nil` for the default store.
    package var store: String?
    /// Keys this key's value was migrated from, newest first.
    package var renamedFrom: [String]
    /// Retired keys are no longer declared, on purpose; their values can be removed from stores.
    package var isRetired: Bool
    /// The line in the lock file.
    package var line: Int

    package init(
      key: String, type: String?, store: String? = nil, renamedFrom: [String] = [], isRetired: Bool = false,
      line: Int = 0
    ) {
      self.key = key
      self.type = type
      self.store = store
      self.renamedFrom = renamedFrom
      self.isRetired = isRetired
      self.line = line
    }

    /// The default the key shipped with where the lock records its type as `type(of: DEFAULT)`
    /// (the scanner could not tell it): generated code makes the compiler check that the
    /// declaration's type is that default's.
    package var shippedDefault: String? {
      guard let type, type.hasPrefix(Self.typeOfPrefix), type.hasSuffix(")") else { return nil }
      return String(type.dropFirst(Self.typeOfPrefix.count).dropLast())
    }

    /// How the lock records the type of `defaultText`, if it can: a default on one line, with
    /// none of the words the lock's format uses.
    package static func type(ofDefault defaultText: String) -> String? {
      guard !defaultText.isEmpty, !defaultText.contains(where: \.isNewline),
        !defaultText.contains(" store: "), !defaultText.contains(" renamed-from: ")
      else { return nil }
      return typeOfPrefix + defaultText + ")"
    }

    static let typeOfPrefix = "type(of: "
  }

  package var entries: [String: Entry]
  /// Lines holding merge-conflict markers (`<<<<<<<`, `=======`, `>>>>>>>`, `|||||||`).
  package var conflictMarkers: [Int] = []
  /// Keys whose two sides of a merge conflict disagree on their type or store.
  package var disagreements: [String: [Entry]] = [:]
  /// Lines that are neither comments nor `KEY: TYPE` entries.
  package var malformed: [(line: Int, text: String)] = []

  package init(entries: [String: Entry] = [:]) { self.entries = entries }

  package static func == (a: PreferenceLock, b: PreferenceLock) -> Bool {
    a.entries == b.entries && a.conflictMarkers == b.conflictMarkers && a.disagreements == b.disagreements
      && a.malformed.map(\.line) == b.malformed.map(\.line)
  }

  /// Parses a lock file's text.
  package static func parse(_ text: String) -> PreferenceLock {
    var lockFile = PreferenceLock()
    for (offset, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      let number = offset + 1
      if ["<<<<<<<", "=======", ">>>>>>>", "|||||||"].contains(where: { rawLine.hasPrefix($0) }) {
        lockFile.conflictMarkers.append(number)
        continue
      }
      var line = rawLine.trimmingBlanks()
      if line.isEmpty || line.hasPrefix("#") { continue }
      var retired = false
      if line.hasPrefix("retired ") {
        retired = true
        line = String(line.dropFirst("retired ".count)).trimmingBlanks()
      }
      var renamedFrom: [String] = []
      if let range = line.lastRange(of: " renamed-from: ") {
        guard let keys = Self.keyList(line[range.upperBound...]) else {
          lockFile.malformed.append((number, String(rawLine)))
          continue
        }
        renamedFrom = keys
        line = String(line[..<range.lowerBound])
      }
      var store: String?
      if let range = line.lastRange(of: " store: ") {
        store = String(line[range.upperBound...]).trimmingBlanks()
        line = String(line[..<range.lowerBound])
      }
      // A key is bare (no spaces, so the first ": " ends it; a type may hold one: `[String: Int]`)
      // or quoted like a Swift string when it holds spaces or punctuation the format uses.
      let key: String
      let rest: Substring
      if line.hasPrefix("\""), let (quoted, end) = Self.quotedKey(line[...]), line[end...].hasPrefix(":") {
        key = quoted
        rest = line[line.index(after: end)...]
      } else if let colon = line.firstRange(of: ": ")
        ?? (line.hasSuffix(":") ? line.lastRange(of: ":") : nil)
      {
        key = String(line[..<colon.lowerBound])
        rest = line[colon.upperBound...]
        guard !key.isEmpty, !key.contains(" "), !key.hasPrefix("\"") else {
          lockFile.malformed.append((number, String(rawLine)))
          continue
        }
      } else {
        lockFile.malformed.append((number, String(rawLine)))
        continue
      }
      let type = rest.trimmingBlanks()
      let entry = Entry(
        key: key, type: type.isEmpty || type == "?" ? nil : type, store: store, renamedFrom: renamedFrom,
        isRetired: retired, line: number)
      if var existing = lockFile.entries[key] {
        // Both sides of a merge: keep the union, and note a disagreement.
        if existing.type != entry.type || existing.store != entry.store {
          lockFile.disagreements[key, default: [existing]].append(entry)
        }
        existing.renamedFrom = unique(existing.renamedFrom + entry.renamedFrom)
        existing.isRetired = existing.isRetired && entry.isRetired
        existing.type = existing.type ?? entry.type
        lockFile.entries[key] = existing
      } else {
        lockFile.entries[key] = entry
      }
    }
    return lockFile
  }

  /// Reads a lock file.
  ///
  /// - Throws: ``Diagnostic`` when the file cannot be read.
  package static func load(from path: String) throws(Diagnostic) -> PreferenceLock {
    guard let data = FileManager.default.contents(atPath: path) else {
      throw Diagnostic(.error, "cannot read \(fileName)", file: path, line: 1, column: 1)
    }
    return parse(String(decoding: data, as: UTF8.self))
  }

  /// The lock as text: a header, then one line per key, sorted.
  package func render() -> String {
    var out = """
      # \(Self.fileName): every preference key this target has shipped, with its type.
      # Written by `swift package preferences lock`; commit it, and run it again after adding
      # preferences. A key that disappears from the sources fails the build until it is renamed
      # (@Preference(renamedFrom: "…")), migrated (preferences-config.json "migrations"), or
      # retired (`swift package preferences lock --retire KEY`).

      """
    for entry in entries.values.sorted(by: { $0.key < $1.key }) {
      out += (entry.isRetired ? "retired " : "") + "\(Self.written(entry.key)): \(entry.type ?? "?")"
      if let store = entry.store { out += " store: " + store }
      if !entry.renamedFrom.isEmpty {
        out += " renamed-from: " + entry.renamedFrom.map(Self.written).joined(separator: ", ")
      }
      out += "\n"
    }
    return out
  }

  /// A key as the lock writes it: bare, or quoted when it holds a character the format uses.
  static func written(_ key: String) -> String {
    let needsQuotes =
      key.isEmpty || key.hasPrefix("\"") || key.hasPrefix("#") || key.hasPrefix("retired ")
      || key.contains(where: { $0 == " " || $0 == "," || $0 == ":" || $0 == "\\" || $0.isNewline })
    guard needsQuotes else { return key }
    var out = "\""
    for character in key {
      switch character {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      default: out.append(character)
      }
    }
    return out + "\""
  }

  /// The quoted key at the start of `text`, and the index after its closing quote.
  static func quotedKey(_ text: Substring) -> (String, String.Index)? {
    var key = ""
    var index = text.index(after: text.startIndex)
    while index < text.endIndex {
      let character = text[index]
      index = text.index(after: index)
      switch character {
      case "\"": return (key, index)
      case "\\":
        guard index < text.endIndex else { return nil }
        key.append(text[index])
        index = text.index(after: index)
      default: key.append(character)
      }
    }
    return nil
  }

  /// A comma-separated list of keys, bare or quoted.
  static func keyList(_ text: Substring) -> [String]? {
    var keys: [String] = []
    var rest = text.drop { $0 == " " }
    while !rest.isEmpty {
      if rest.hasPrefix("\"") {
        guard let (key, end) = quotedKey(rest) else { return nil }
        keys.append(key)
        rest = rest[end...]
      } else {
        let end = rest.firstIndex(of: ",") ?? rest.endIndex
        let key = rest[..<end].trimmingBlanks()
        if !key.isEmpty { keys.append(key) }
        rest = rest[end...]
      }
      rest = rest.drop { $0 == " " }
      if rest.hasPrefix(",") {
        rest = rest.dropFirst().drop { $0 == " " }
      } else if !rest.isEmpty {
        return nil
      }
    }
    return keys
  }

  /// `keys` followed by every key they were renamed from, transitively, newest first.
  package func chain(_ keys: [String]) -> [String] {
    var result: [String] = []
    var queue = keys[...]
    var seen = Set<String>()
    while let key = queue.popFirst() {
      guard seen.insert(key).inserted else { continue }
      result.append(key)
      queue += entries[key]?.renamedFrom ?? []
    }
    return result
  }

  static func unique(_ keys: [String]) -> [String] {
    var seen = Set<String>()
    return keys.filter { seen.insert($0).inserted }
  }
}

/// Whether a value stored as `old` can be read as `new`: the same type, an optional of it, or
/// another integer width or floating-point type.
package func typesAreCompatible(_ old: String, _ new: String) -> Bool {
  normalizedType(old) == normalizedType(new)
}

/// A type's spelling, made one for spellings of one type (`Array<String>` and `[String]`,
/// `Optional<Int>` and `Int?`: `WrittenType`'s text, spaces removed), without its optionals, and
/// with the integer and floating-point types each made one.
package func normalizedType(_ type: String) -> String {
  let type = WrittenType(parsing: type).unwrapped.type.text.removing(" ")
  if StandardTypes.name(type, has: .storedAsInteger) { return "Int" }
  if StandardTypes.name(type, has: .storedAsReal) { return "Double" }
  return type
}

/// A store expression with the spellings that name the same store made equal:
/// `PreferenceStore.suite("x")` and `.suite("x")`; spacing ignored.
package func normalizedStore(_ store: String?) -> String? {
  guard var text = store?.removing(" ") else { return nil }
  if text.hasPrefix("PreferenceStore.") { text = String(text.dropFirst("PreferenceStore".count)) }
  return text == ".default" ? nil : text
}
