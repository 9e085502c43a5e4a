/// Renders scan results for the `scan` command.
package enum ScanOutput {
  /// `{"preferences": […records…], "diagnostics": […]}`.
  package static func json(_ result: PreferenceScanner.Result) -> String {
    var out = ""
    json(result) { out += $0 }
    return out
  }

  /// The same JSON, written record by record, so that a module of any size never holds its
  /// whole output in memory.
  package static func json(_ result: PreferenceScanner.Result, write: (String) -> Void) {
    func array<Element>(_ name: String, _ elements: [Element], last: Bool, _ json: (Element) -> JSONValue) {
      guard !elements.isEmpty else { return write("  \"\(name)\": []\(last ? "" : ",")\n") }
      write("  \"\(name)\": [")
      for (offset, element) in elements.enumerated() {
        write((offset > 0 ? "," : "") + "\n    " + json(element).prettyText(indent: "    "))
      }
      write("\n  ]\(last ? "" : ",")\n")
    }
    write("{\n")
    array("preferences", result.plans, last: false) { PreferenceRecord.json($0, extras: .file) }
    array("diagnostics", result.diagnostics, last: true) {
      .object([
        ("severity", .string($0.severity.rawValue)), ("message", .string($0.message)),
        ("file", .string($0.file)),
        ("line", .number($0.line)), ("column", .number($0.column)),
      ])
    }
    write("}\n")
  }

  /// One line per preference: `file:line:column: key: Type = default`, then one line per
  /// declaration that shares it (`  shared at Module/File.swift:line`).
  package static func text(_ result: PreferenceScanner.Result) -> String {
    result.plans.map { plan in
      ([
        "\(plan.file):\(plan.line):\(plan.column): \(plan.key): \(plan.valueType ?? "?") = \(plan.defaultText ?? "<none>")"
      ]
        + plan.references.map { "  shared at \($0.fileID):\($0.line)" }).joined(separator: "\n")
    }.joined(separator: "\n") + (result.plans.isEmpty ? "" : "\n")
  }
}
