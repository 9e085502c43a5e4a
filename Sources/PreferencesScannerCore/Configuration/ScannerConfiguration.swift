import Foundation

/// Per-target options, read from `preferences-config.json` in the target's directory.
///
/// ```json
/// { "separator": "_", "prefix": "com.example." }
/// ```
///
/// - `separator` joins type and property names (`"."` by default: `ContentView.username`). Use
///   `"_"` or `":"` where keys must be KVO-safe.
/// - `prefix` is put before every derived key (not before explicit `key:` keys).
/// - `migrations` moves values from old keys to new ones at registration time.
public struct ScannerConfiguration: Sendable, Equatable {
  /// The file name the build plugin looks for in a target's directory.
  public static let fileName = "preferences-config.json"

  public var separator: String
  public var prefix: String
  /// Values to move from an old key to a new one (`{"oldKey": "NewType.newKey"}`), for keys
  /// that no declaration names in `renamedFrom:`.
  public var migrations: [String: String]

  public init(separator: String = ".", prefix: String = "", migrations: [String: String] = [:]) {
    self.separator = separator
    self.prefix = prefix
    self.migrations = migrations
  }

  /// Reads and validates a configuration file.
  ///
  /// - Throws: ``Diagnostic`` describing the problem, positioned at the file.
  public static func load(from path: String) throws(Diagnostic) -> ScannerConfiguration {
    func problem(_ message: String) -> Diagnostic {
      Diagnostic(.error, message, file: path, line: 1, column: 1)
    }
    guard let data = FileManager.default.contents(atPath: path) else {
      throw problem("cannot read the configuration file")
    }
    let object: Any
    do {
      object = try JSONSerialization.jsonObject(with: data)
    } catch {
      throw problem(
        "\(fileName) is not valid JSON (\(error.localizedDescription)); write an object such as {\"separator\": \"_\"}"
      )
    }
    guard let dictionary = object as? [String: Any] else {
      throw problem("\(fileName) must contain a JSON object such as {\"separator\": \"_\"}")
    }
    var configuration = ScannerConfiguration()
    for (key, value) in dictionary {
      switch key {
      case "separator":
        guard let separator = value as? String, !separator.isEmpty,
          !separator.contains(where: { $0.isWhitespace || $0.isNewline })
        else {
          throw problem(
            "\"separator\" must be a non-empty string without spaces, such as \".\", \"_\" or \":\"")
        }
        configuration.separator = separator
      case "prefix":
        guard let prefix = value as? String, !prefix.contains(where: { $0.isWhitespace || $0.isNewline })
        else {
          throw problem("\"prefix\" must be a string without spaces, such as \"com.example.\"")
        }
        configuration.prefix = prefix
      default:
        throw problem(
          "unknown option \"\(key)\" in \(fileName); the options are \"separator\" and \"prefix\"")
      }
    }
    return configuration
  }
}

extension Diagnostic: Error {}
