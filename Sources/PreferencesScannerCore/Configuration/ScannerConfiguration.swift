#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Per-target options, read from `preferences-config.json` in the target's directory.
///
/// ```json
/// { "separator": "_", "prefix": "com.example.", "migrations": {"oldKey": "Type.newKey"} }
/// ```
///
/// - `separator` joins type and property names (`"."` by default: `ContentView.username`). Use
///   `"_"` or `":"` where keys must be KVO-safe.
/// - `prefix` is put before every derived key (not before explicit `key:` keys).
/// - `migrations` moves values from old keys to new ones at registration, for keys that no
///   declaration names in `renamedFrom:`.
/// - `previousKeys` (`{"separator": ".", "prefix": ""}`) says how derived keys were formed before
///   `separator` or `prefix` changed: every derived key is then also renamed from its old form,
///   so stored values move with it.
/// - `requireLock` (`true` by default) warns on every build of a target that declares
///   preferences but has no `Preferences.lock`; `false` turns the warning off.
/// - `defaultIsolation` (`"MainActor"` or `"nonisolated"`) and `inferIsolatedConformances`
///   (`true` or `false`) state the target's default actor isolation, and whether it infers
///   isolated conformances, where the build plugin cannot read them from `Package.swift` or the
///   Xcode project (a setting in an `.xcconfig` file, say): see ``TargetSettings``.
package struct ScannerConfiguration: Sendable, Equatable {
  /// The file name the build plugin looks for in a target's directory.
  package static let fileName = "preferences-config.json"

  package var separator: String
  package var prefix: String
  /// Values to move from an old key to a new one (`{"oldKey": "NewType.newKey"}`).
  package var migrations: [String: String]
  /// The separator and prefix derived keys had before they changed, if they did.
  package var previousKeys: (separator: String, prefix: String)?
  package var requireLock: Bool
  /// The target's default actor isolation, as the configuration states it or the build settings
  /// declare it; `nil` where neither says.
  package var defaultIsolation: DefaultIsolation? = nil
  /// Whether the target infers isolated conformances, as the configuration states it or the
  /// build settings declare it; `nil` where neither says.
  package var infersIsolatedConformances: Bool? = nil

  package init(
    separator: String = ".", prefix: String = "", migrations: [String: String] = [:],
    previousKeys: (separator: String, prefix: String)? = nil, requireLock: Bool = true
  ) {
    self.separator = separator
    self.prefix = prefix
    self.migrations = migrations
    self.previousKeys = previousKeys
    self.requireLock = requireLock
  }

  package static func == (a: ScannerConfiguration, b: ScannerConfiguration) -> Bool {
    a.separator == b.separator && a.prefix == b.prefix && a.migrations == b.migrations
      && a.previousKeys?.separator == b.previousKeys?.separator
      && a.previousKeys?.prefix == b.previousKeys?.prefix
      && a.requireLock == b.requireLock && a.defaultIsolation == b.defaultIsolation
      && a.infersIsolatedConformances == b.infersIsolatedConformances
  }

  static let options = [
    "separator", "prefix", "migrations", "previousKeys", "requireLock", "defaultIsolation",
    "inferIsolatedConformances",
  ]

  /// Reads and validates a configuration file.
  ///
  /// - Throws: ``Diagnostic`` describing the problem, positioned at the file.
  package static func load(from path: String) throws(Diagnostic) -> ScannerConfiguration {
    func problem(_ message: String) -> Diagnostic {
      Diagnostic(.error, message, file: path, line: 1, column: 1)
    }
    guard let data = FileManager.default.contents(atPath: path) else {
      throw problem("cannot read the configuration file")
    }
    let parsed: JSONValue
    do {
      parsed = try JSONValue.parse([UInt8](data))
    } catch {
      throw Diagnostic(
        .error, "\(fileName) is not valid JSON: \(error.message)", file: path, line: error.line,
        column: error.column)
    }
    guard case .object(let dictionary) = parsed else {
      throw problem("\(fileName) must contain a JSON object such as {\"separator\": \"_\"}")
    }
    var seen: Set<String> = []
    for (name, _) in dictionary where !seen.insert(name).inserted {
      throw problem("\"\(name)\" is given twice in \(fileName); keep one")
    }
    func separator(_ value: JSONValue, _ name: String) throws(Diagnostic) -> String {
      guard case .string(let separator) = value, !separator.isEmpty,
        !separator.contains(where: { $0.isWhitespace || $0.isNewline })
      else {
        throw problem("\"\(name)\" must be a non-empty string without spaces, such as \".\", \"_\" or \":\"")
      }
      return separator
    }
    func prefix(_ value: JSONValue, _ name: String) throws(Diagnostic) -> String {
      guard case .string(let prefix) = value, !prefix.contains(where: { $0.isWhitespace || $0.isNewline })
      else {
        throw problem("\"\(name)\" must be a string without spaces, such as \"com.example.\"")
      }
      return prefix
    }
    var configuration = ScannerConfiguration()
    for (key, value) in dictionary {
      switch key {
      case "separator":
        configuration.separator = try separator(value, key)
      case "prefix":
        configuration.prefix = try prefix(value, key)
      case "migrations":
        let invalid = problem(
          "\"migrations\" must map old keys to new keys: {\"migrations\": {\"userName\": \"Profile.name\"}}")
        guard case .object(let members) = value else { throw invalid }
        var migrations: [String: String] = [:]
        for (old, new) in members {
          guard case .string(let new) = new, !old.isEmpty, !new.isEmpty else { throw invalid }
          guard migrations.updateValue(new, forKey: old) == nil else {
            throw problem("\"\(old)\" is given twice in \"migrations\"; keep one")
          }
        }
        configuration.migrations = migrations
      case "previousKeys":
        guard case .object(let previous) = value,
          previous.allSatisfy({ $0.0 == "separator" || $0.0 == "prefix" })
        else {
          throw problem(
            "\"previousKeys\" must say how keys were formed before: {\"previousKeys\": {\"separator\": \".\", \"prefix\": \"\"}}"
          )
        }
        var old = (separator: ".", prefix: "")
        for (name, value) in previous {
          if name == "separator" {
            old.separator = try separator(value, "previousKeys.separator")
          } else {
            old.prefix = try prefix(value, "previousKeys.prefix")
          }
        }
        configuration.previousKeys = old
      case "requireLock":
        guard case .bool(let flag) = value else { throw problem("\"requireLock\" must be true or false") }
        configuration.requireLock = flag
      case "defaultIsolation":
        guard case .string(let text) = value, let isolation = DefaultIsolation(rawValue: text) else {
          throw problem("\"defaultIsolation\" must be \"MainActor\" or \"nonisolated\"")
        }
        configuration.defaultIsolation = isolation
      case "inferIsolatedConformances":
        guard case .bool(let flag) = value else {
          throw problem("\"inferIsolatedConformances\" must be true or false")
        }
        configuration.infersIsolatedConformances = flag
      default:
        throw problem(
          "unknown option \"\(key)\" in \(fileName); the options are \(options.map { "\"\($0)\"" }.joined(separator: ", "))"
        )
      }
    }
    return configuration
  }
}

extension Diagnostic: Error {}
