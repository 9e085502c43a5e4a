/// Renders scan results as JSON or text for the `scan` command.
public enum ScanOutput {
  /// `{"preferences": […], "diagnostics": […]}` with stable key order.
  public static func json(_ result: PreferenceScanner.Result) -> String {
    var out = "{\n  \"preferences\": ["
    for (offset, preference) in result.preferences.enumerated() {
      out += offset == 0 ? "\n" : ",\n"
      let fields: [(String, JSONValue)] = [
        ("key", .string(preference.key)),
        ("property", .string(preference.property)),
        ("enclosingType", .string(preference.enclosingType)),
        ("type", preference.type.map(JSONValue.string) ?? .null),
        ("defaultValue", preference.defaultValue.map(JSONValue.string) ?? .null),
        ("file", .string(preference.file)),
        ("line", .number(preference.line)),
        ("column", .number(preference.column)),
        ("documentation", preference.documentation.map(JSONValue.string) ?? .null),
        ("store", preference.storeExpression.map(JSONValue.string) ?? .null),
        ("renamedFrom", .strings(preference.renamedFrom)),
        ("sync", .bool(preference.syncs)),
        ("condition", preference.condition.map(JSONValue.string) ?? .null),
        ("registeredAtFirstRead", preference.registrationBlocker.map(JSONValue.string) ?? .null),
      ]
      out +=
        "    {" + fields.map { "\(JSONValue.string($0.0).text): \($0.1.text)" }.joined(separator: ", ") + "}"
    }
    out += result.preferences.isEmpty ? "],\n" : "\n  ],\n"
    out += "  \"diagnostics\": ["
    for (offset, diagnostic) in result.diagnostics.enumerated() {
      out += offset == 0 ? "\n" : ",\n"
      let fields: [(String, JSONValue)] = [
        ("severity", .string(diagnostic.severity.rawValue)),
        ("message", .string(diagnostic.message)),
        ("file", .string(diagnostic.file)),
        ("line", .number(diagnostic.line)),
        ("column", .number(diagnostic.column)),
      ]
      out +=
        "    {" + fields.map { "\(JSONValue.string($0.0).text): \($0.1.text)" }.joined(separator: ", ") + "}"
    }
    out += result.diagnostics.isEmpty ? "]\n}\n" : "\n  ]\n}\n"
    return out
  }

  /// One line per preference: `file:line:column: key: Type = default`.
  public static func text(_ result: PreferenceScanner.Result) -> String {
    result.preferences.map { preference in
      "\(preference.file):\(preference.line):\(preference.column): \(preference.key): \(preference.type ?? "?") = \(preference.defaultValue ?? "<none>")"
    }.joined(separator: "\n") + (result.preferences.isEmpty ? "" : "\n")
  }

  private enum JSONValue {
    case string(String), number(Int), null, strings([String]), bool(Bool)

    var text: String {
      switch self {
      case .null: "null"
      case .bool(let value): value ? "true" : "false"
      case .number(let value): String(value)
      case .strings(let values): "[" + values.map { JSONValue.string($0).text }.joined(separator: ", ") + "]"
      case .string(let value):
        "\""
          + value.unicodeScalars.map { scalar -> String in
            switch scalar {
            case "\"": "\\\""
            case "\\": "\\\\"
            case "\n": "\\n"
            case "\r": "\\r"
            case "\t": "\\t"
            default:
              scalar.value < 0x20
                ? "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count)
                  + String(scalar.value, radix: 16) : String(scalar)
            }
          }.joined() + "\""
      }
    }
  }
}
