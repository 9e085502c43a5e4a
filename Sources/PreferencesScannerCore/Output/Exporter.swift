import Foundation

/// Renders a module's preferences for documentation and tools: JSON, a Markdown table, or an
/// iOS `Settings.bundle` `Root.plist`.
public enum Exporter {
  public enum Format: String, CaseIterable, Sendable {
    case json, markdown
    case settingsPlist = "settings-plist"
  }

  public static func export(
    _ preferences: [ScannedPreference], format: Format, diagnostics: inout [Diagnostic]
  ) -> String {
    switch format {
    case .json: json(preferences)
    case .markdown: markdown(preferences)
    case .settingsPlist: settingsPlist(preferences, diagnostics: &diagnostics)
    }
  }

  static func json(_ preferences: [ScannedPreference]) -> String {
    let objects: [[String: Any]] = preferences.map { preference in
      var object: [String: Any] = [
        "key": preference.key, "property": preference.property, "declaringType": preference.enclosingType,
        "type": preference.type ?? NSNull(), "defaultValue": preference.defaultValue ?? NSNull(),
        "documentation": preference.documentation ?? NSNull(), "sync": preference.syncs,
        "settings": preference.inSettings, "file": preference.file, "line": preference.line,
      ]
      if !preference.renamedFrom.isEmpty { object["renamedFrom"] = preference.renamedFrom }
      return object
    }
    let data =
      (try? JSONSerialization.data(withJSONObject: objects, options: [.prettyPrinted, .sortedKeys])) ?? Data()
    return String(decoding: data, as: UTF8.self) + "\n"
  }

  static func markdown(_ preferences: [ScannedPreference]) -> String {
    func cell(_ text: String) -> String {
      text.replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "\n", with: " ")
    }
    var out = "| Key | Type | Default | Declared in | Description |\n| --- | --- | --- | --- | --- |\n"
    for preference in preferences {
      out +=
        "| `\(cell(preference.key))` | \(cell(preference.type ?? "")) | `\(cell(preference.defaultValue ?? ""))` | `\(cell(preference.enclosingType))` | \(cell(preference.documentation ?? "")) |\n"
    }
    return out
  }

  static func settingsPlist(_ preferences: [ScannedPreference], diagnostics: inout [Diagnostic]) -> String {
    var specifiers: [[String: Any]] = []
    for preference in preferences where preference.inSettings {
      let title =
        preference.documentation?.split(separator: "\n").first.map(String.init) ?? preference.property
      var specifier: [String: Any] = ["Key": preference.key, "Title": title]
      let literal = preference.defaultValue.flatMap(literalValue)
      switch preference.type?.replacingOccurrences(of: "?", with: "") {
      case "Bool":
        specifier["Type"] = "PSToggleSwitchSpecifier"
        specifier["DefaultValue"] = (literal as? Bool) ?? false
      case "String":
        specifier["Type"] = "PSTextFieldSpecifier"
        if let literal = literal as? String { specifier["DefaultValue"] = literal }
      case "Int", "Double":
        specifier["Type"] = "PSTextFieldSpecifier"
        specifier["KeyboardType"] = preference.type == "Int" ? "NumberPad" : "DecimalPad"
        if let literal { specifier["DefaultValue"] = literal }
      default:
        diagnostics.append(
          Diagnostic(
            .warning,
            "'\(preference.key)' is marked settings: true but its type (\(preference.type ?? "unknown")) has no Settings app control; only Bool, String, Int and Double are exported",
            file: preference.file, line: preference.line, column: preference.column))
        continue
      }
      specifiers.append(specifier)
    }
    let root: [String: Any] = ["StringsTable": "Root", "PreferenceSpecifiers": specifiers]
    let data =
      (try? PropertyListSerialization.data(fromPropertyList: root, format: .xml, options: 0)) ?? Data()
    return String(decoding: data, as: UTF8.self)
  }

  /// The value of a simple literal default (`true`, `12`, `0.5`, `"text"`), or `nil`.
  static func literalValue(_ text: String) -> Any? {
    let text = text.trimmingCharacters(in: .whitespacesAndNewlines)
    if text == "true" { return true }
    if text == "false" { return false }
    if let integer = Int(text) { return integer }
    if let double = Double(text) { return double }
    return StringLiteral.value(of: text)
  }
}
