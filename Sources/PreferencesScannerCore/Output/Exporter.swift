import Foundation

/// Renders a module's preferences for documentation and tools: JSON (the same records `scan`
/// prints), a Markdown table, or an iOS `Settings.bundle` `Root.plist`.
package enum Exporter {
  package enum Format: String, CaseIterable, Sendable {
    case json, markdown
    case settingsPlist = "settings-plist"
  }

  package static func export(_ plans: [PreferencePlan], format: Format, diagnostics: inout [Diagnostic])
    -> String
  {
    switch format {
    case .json: JSONValue.array(plans.map { PreferenceRecord.json($0, extras: .file) }).prettyText + "\n"
    case .markdown: markdown(plans)
    case .settingsPlist: settingsPlist(plans, diagnostics: &diagnostics)
    }
  }

  static func markdown(_ plans: [PreferencePlan]) -> String {
    func cell(_ text: String) -> String {
      text.replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "\n", with: " ")
    }
    var out = "| Key | Type | Default | Declared in | Description |\n| --- | --- | --- | --- | --- |\n"
    for plan in plans {
      out +=
        "| `\(cell(plan.key))` | \(cell(plan.valueType ?? "")) | `\(cell(plan.defaultText ?? ""))` | `\(cell(plan.enclosingType))` | \(cell(plan.documentation ?? "")) |\n"
    }
    return out
  }

  static func settingsPlist(_ plans: [PreferencePlan], diagnostics: inout [Diagnostic]) -> String {
    var specifiers: [[String: Any]] = []
    for plan in plans where plan.inSettings {
      let title = plan.documentation?.split(separator: "\n").first.map(String.init) ?? plan.property
      var specifier: [String: Any] = ["Key": plan.key, "Title": title]
      let literal = plan.syntax.defaultValue.flatMap { PlistLiteral.encode($0, as: plan.syntax.declaredType) }
      switch plan.valueType?.replacingOccurrences(of: "?", with: "") {
      case "Bool":
        specifier["Type"] = "PSToggleSwitchSpecifier"
        if case .bool(let value)? = literal {
          specifier["DefaultValue"] = value
        } else {
          specifier["DefaultValue"] = false
        }
      case "String":
        specifier["Type"] = "PSTextFieldSpecifier"
        if case .string(let value)? = literal { specifier["DefaultValue"] = value }
      case "Int", "Double":
        specifier["Type"] = "PSTextFieldSpecifier"
        specifier["KeyboardType"] = plan.valueType == "Int" ? "NumberPad" : "DecimalPad"
        if case .integer(let value)? = literal { specifier["DefaultValue"] = value }
        if case .double(let value)? = literal { specifier["DefaultValue"] = value }
      default:
        diagnostics.append(
          Diagnostic(
            .warning,
            "'\(plan.key)' is marked settings: true but its type (\(plan.valueType ?? "unknown")) has no Settings app control; only Bool, String, Int and Double are exported",
            file: plan.file, line: plan.line, column: plan.column))
        continue
      }
      specifiers.append(specifier)
    }
    let root: [String: Any] = ["StringsTable": "Root", "PreferenceSpecifiers": specifiers]
    let data =
      (try? PropertyListSerialization.data(fromPropertyList: root, format: .xml, options: 0)) ?? Data()
    return String(decoding: data, as: UTF8.self)
  }
}
