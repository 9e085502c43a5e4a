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

  /// The record of `plan`. With `.generator`, in the generated registry's compact form: a member
  /// that holds its default is left out (`false`, `null`, `[]`, the `propertyList` format, the
  /// `registry` registration), and so are the type and property names when the key is made of
  /// them, and the file ID when it is `tableFileID`, the table's own (the runtime's reader
  /// restores each; the first read of any preference reads every record of the module).
  package static func json(_ plan: PreferencePlan, extras: Extras = [], tableFileID: String? = nil)
    -> JSONValue
  {
    let location = plan.reportedLocation
    let members: [(String, JSONValue)] = [
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
    guard extras.contains(.generator) else { return .object(members + optionalMembers(plan, extras: extras)) }
    // Compared as bytes, as the reader splits the key: at its last "." byte.
    let derivedKey = plan.enclosingType + "." + plan.property
    let namesInKey =
      plan.key.utf8.elementsEqual(derivedKey.utf8) && !plan.property.utf8.contains(UInt8(ascii: "."))
    let compact = members.filter { name, value in
      switch (name, value) {
      case (_, .null), ("isKeyDerived", .bool(true)), ("syncs", .bool(false)), ("inSettings", .bool(false)),
        ("format", .string("propertyList")), ("registration", .string("registry")):
        false
      case ("renamedFrom", .array(let names)): !names.isEmpty
      case ("fileID", .string(let fileID)): fileID != tableFileID
      case ("property", _), ("declaringType", _): !namesInKey
      default: true
      }
    }
    return .object(compact + optionalMembers(plan, extras: extras))
  }

  /// The members written only where they say something, and the extras.
  private static func optionalMembers(_ plan: PreferencePlan, extras: Extras) -> [(String, JSONValue)] {
    var members: [(String, JSONValue)] = []
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
    return members
  }
}
