/// Renders scan results for the `scan` command.
package enum ScanOutput {
  /// `{"preferences": […records…], "diagnostics": […]}`.
  package static func json(_ result: PreferenceScanner.Result) -> String {
    JSONValue.object([
      ("preferences", .array(result.plans.map { PreferenceRecord.json($0, extras: .file) })),
      (
        "diagnostics",
        .array(
          result.diagnostics.map {
            .object([
              ("severity", .string($0.severity.rawValue)), ("message", .string($0.message)),
              ("file", .string($0.file)),
              ("line", .number($0.line)), ("column", .number($0.column)),
            ])
          })
      ),
    ]).prettyText + "\n"
  }

  /// One line per preference: `file:line:column: key: Type = default`.
  package static func text(_ result: PreferenceScanner.Result) -> String {
    result.plans.map { plan in
      "\(plan.file):\(plan.line):\(plan.column): \(plan.key): \(plan.valueType ?? "?") = \(plan.defaultText ?? "<none>")"
    }.joined(separator: "\n") + (result.plans.isEmpty ? "" : "\n")
  }
}
