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
      text.singleLine.replacing("|", with: "\\|")
    }
    var out = "| Key | Type | Default | Declared in | Description |\n| --- | --- | --- | --- | --- |\n"
    for plan in plans {
      out +=
        "| `\(cell(plan.key))` | \(cell(plan.valueType ?? "")) | `\(cell(plan.defaultText ?? ""))` | `\(cell(plan.enclosingType))` | \(cell(plan.documentation ?? "")) |\n"
    }
    return out
  }

  static func settingsPlist(_ plans: [PreferencePlan], diagnostics: inout [Diagnostic]) -> String {
    var specifiers: [PlistLiteral] = []
    var exported: Set<String> = []
    // Declarations that share a key (which agree on everything) are one setting.
    for plan in plans where plan.inSettings && exported.insert(plan.key).inserted {
      let title = plan.documentation?.split(separator: "\n").first.map(String.init) ?? plan.property
      var specifier: [String: PlistLiteral] = ["Key": .string(plan.key), "Title": .string(title)]
      let literal = plan.syntax.defaultValue.flatMap { PlistLiteral.encode($0, as: plan.syntax.writtenType) }
      var type = plan.valueType?.replacing("?", with: "")
      // `TimeInterval` is the standard library's name for `Double`.
      if type == "TimeInterval" || type == "Foundation.TimeInterval" { type = "Double" }
      switch type {
      case "Bool":
        specifier["Type"] = .string("PSToggleSwitchSpecifier")
        if case .bool? = literal {
          specifier["DefaultValue"] = literal
        } else {
          specifier["DefaultValue"] = .bool(false)
        }
      case "String":
        specifier["Type"] = .string("PSTextFieldSpecifier")
        if case .string? = literal { specifier["DefaultValue"] = literal }
      case "Int", "Double":
        specifier["Type"] = .string("PSTextFieldSpecifier")
        specifier["KeyboardType"] = .string(type == "Int" ? "NumberPad" : "DecimalPad")
        if case .integer? = literal { specifier["DefaultValue"] = literal }
        if case .double? = literal { specifier["DefaultValue"] = literal }
      case "Decimal":
        // A decimal is stored as its text, which is what a text field stores.
        specifier["Type"] = .string("PSTextFieldSpecifier")
        specifier["KeyboardType"] = .string("DecimalPad")
        if let expression = plan.syntax.defaultValue {
          switch PlistLiteral.encode(expression, as: nil) {
          case .integer?, .double?:
            specifier["DefaultValue"] = .string(expression.text.replacing("_", with: ""))
          default: break
          }
        }
      default:
        diagnostics.append(
          Diagnostic(
            .warning,
            "'\(plan.key)' is marked settings: true but its type (\(plan.valueType ?? "unknown")) has no Settings app control; only Bool, String, Int, Double and Decimal are exported",
            file: plan.file, line: plan.line, column: plan.column))
        continue
      }
      specifiers.append(.dictionary(specifier))
    }
    return PlistLiteral.dictionary([
      "StringsTable": .string("Root"), "PreferenceSpecifiers": .array(specifiers),
    ])
    .propertyListXML
  }
}
