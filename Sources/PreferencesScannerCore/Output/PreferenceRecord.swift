/// The one JSON record that describes a declaration: `scan --format json` and `export --format
/// json` print it, and generated registries embed it, where the runtime decodes it as
/// `PreferenceDescriptor` (whose property names these fields are).
package enum PreferenceRecord {
  /// What to add to the descriptor's fields.
  package struct Extras: OptionSet, Sendable {
    package let rawValue: Int
    package init(rawValue: Int) { self.rawValue = rawValue }
    /// The source file's path, for tools.
    package static let file = Extras(rawValue: 1)
    /// The record's number in its file table and the encoded default, for the runtime.
    package static let generator = Extras(rawValue: 2)
  }

  package static func json(_ plan: PreferencePlan, extras: Extras = []) -> JSONValue {
    let location = plan.reportedLocation
    var members: [(String, JSONValue)] = [
      ("key", .string(plan.key)),
      ("isKeyDerived", .bool(plan.syntax.arguments.key == nil)),
      ("property", .string(plan.property)),
      ("declaringType", .string(plan.enclosingType)),
      ("valueType", .optional(plan.valueType)),
      ("defaultValue", .string(plan.defaultText ?? "")),
      ("documentation", .optional(plan.documentation)),
      ("fileID", .string(location.fileID)),
      ("line", .number(location.line)),
      ("column", .number(location.column)),
      ("condition", .optional(plan.condition)),
      ("syncs", .bool(plan.syncs)),
      ("inSettings", .bool(plan.inSettings)),
      ("store", .optional(plan.storeText)),
      ("format", .string(plan.format)),
      ("renamedFrom", .strings(plan.renamedFrom)),
      ("registration", .string(plan.registrationKind)),
      ("registrationNote", .optional(plan.registrationNote)),
    ]
    // Only where the declaration leaves its value out of exports (`exported: false`).
    if !plan.isExported { members.append(("isExported", .bool(false))) }
    // Only where the declaration evaluates its own store (its `store:` names a private member).
    if plan.storeKeptByDeclaration { members.append(("storeKeptByDeclaration", .bool(true))) }
    // The declarations that share this one, as `fileID:line` (only where there are some).
    if !plan.references.isEmpty {
      members.append(("referencedAt", .strings(plan.references.map { "\($0.fileID):\($0.line)" })))
    }
    if extras.contains(.file) { members.append(("file", .string(plan.file))) }
    if extras.contains(.generator) {
      members.append(("index", .number(plan.number)))
      if case .literal(let literal) = plan.registration { members.append(("registeredValue", literal.json)) }
    }
    return .object(members)
  }
}
