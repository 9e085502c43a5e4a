/// Where generated code may evaluate a store expression.
package enum StoreIsolation: Sendable, Equatable {
  /// Anywhere: every name in it is nonisolated.
  case nonisolated
  /// In the module's default isolation (anywhere, unless the main actor is the default).
  case defaultIsolation
  /// On the main actor only.
  case mainActor
}

/// One declaration, planned: everything the output needs, decided once. A class, so that the
/// later stages pass tens of thousands of them around without copying their fields.
package final class PreferencePlan: Sendable {
  package enum Registration: Sendable, Equatable {
    /// No default (an optional declared without one): nothing to register.
    case none
    /// A literal, encoded by the scanner.
    case literal(PlistLiteral)
    /// Evaluated by generated code wherever registration runs.
    case registry(Evaluation)
    /// Evaluated by generated code on the main actor.
    case mainActor(Evaluation)
    /// Evaluated by generated code in the module's default isolation: wherever registration runs
    /// when the module is nonisolated by default, on the main actor where that is the default.
    case defaultIsolation(Evaluation)
    /// Registered by the preference's first read, because generated code cannot evaluate it.
    case firstRead(reason: String)
  }

  package struct Evaluation: Sendable, Equatable {
    /// The default expression, with names that only resolve lexically qualified.
    package var expression: String
    /// The declared type, likewise, if written.
    package var type: String?
  }

  package let fileIndex: Int
  /// The declaration's number in its file (the record index in the generated file table).
  package let number: Int
  package let file: String
  package let fileID: String
  package let syntax: PreferenceSyntax
  package let typePath: [String]
  package let key: String
  package let valueType: String?
  package let registration: Registration
  /// Generated code for an explicit store, if any.
  package let store: String?
  /// Where generated code may create ``store``.
  package let storeIsolation: StoreIsolation
  /// Whether the declaration evaluates its own `store:` expression, which names what only its
  /// file sees (a `private` or `fileprivate` member or type): the planner gives it no generated
  /// code, and the wrapper hands the store to the registry when it is first created.
  package let storeKeptByDeclaration: Bool
  /// Generated code for the store the value moved from (`movedFrom:`), if any.
  package let movedFrom: String?
  /// Keys the value was stored under before, newest first: `renamedFrom:`, configured
  /// migrations, and what the lock remembers.
  package let renamedFrom: [String]
  /// The `#if` condition, as text for descriptors (bounded).
  package let condition: String?
  /// The declaring type, when generated code may form key paths to the declaration (for the
  /// lock's type checks).
  package let lockCheck: [String]?
  /// The `@available` attributes of the declaring type, of the types and extension around the
  /// declaration, and of the declaration itself, which generated code that names the type or the
  /// property repeats.
  package let availability: Availability
  /// Where declarations that share this one are (`@Preference(\Settings.showFooter) var
  /// showFooter`), as the compiler reports them: the runtime finds this declaration there too.
  package let references: [Reference]

  /// The location of a declaration that shares another's preference.
  package struct Reference: Sendable, Hashable {
    package var fileID: String
    package var line: Int

    package init(fileID: String, line: Int) {
      self.fileID = fileID
      self.line = line
    }
  }

  package init(
    fileIndex: Int, number: Int, file: String, fileID: String, syntax: PreferenceSyntax, typePath: [String],
    key: String, valueType: String?, registration: Registration, store: String?,
    storeIsolation: StoreIsolation = .nonisolated, storeKeptByDeclaration: Bool = false, movedFrom: String?,
    renamedFrom: [String], condition: String?, lockCheck: [String]?,
    availability: Availability = Availability([]), references: [Reference] = []
  ) {
    self.availability = availability
    self.references = references
    self.fileIndex = fileIndex
    self.number = number
    self.file = file
    self.fileID = fileID
    self.syntax = syntax
    self.typePath = typePath
    self.key = key
    self.valueType = valueType
    self.registration = registration
    self.store = store
    self.storeIsolation = storeIsolation
    self.storeKeptByDeclaration = storeKeptByDeclaration
    self.movedFrom = movedFrom
    self.renamedFrom = renamedFrom
    self.condition = condition
    self.lockCheck = lockCheck
  }

  /// This plan with the keys it was stored under before, or the declarations that share it,
  /// replaced.
  package func with(renamedFrom: [String]? = nil, references: [Reference]? = nil) -> PreferencePlan {
    PreferencePlan(
      fileIndex: fileIndex, number: number, file: file, fileID: fileID, syntax: syntax, typePath: typePath,
      key: key,
      valueType: valueType, registration: registration, store: store, storeIsolation: storeIsolation,
      storeKeptByDeclaration: storeKeptByDeclaration, movedFrom: movedFrom,
      renamedFrom: renamedFrom ?? self.renamedFrom, condition: condition, lockCheck: lockCheck,
      availability: availability, references: references ?? self.references)
  }

  package var property: String { syntax.property }
  package var enclosingType: String { typePath.joined(separator: ".") }

  /// Whether the generated table evaluates this declaration's default (in an extension of the
  /// declaring type), rather than carrying it encoded, or leaving it to the first read.
  package var tableEvaluatesDefault: Bool {
    switch registration {
    case .registry, .mainActor, .defaultIsolation: true
    case .none, .literal, .firstRead: false
    }
  }

  /// Whether the generated table needs no code for this declaration, only its record: it sits
  /// outside `#if`, the table does not evaluate its default and it names no store.
  package var needsNoEvaluation: Bool {
    syntax.branch == nil && store == nil && movedFrom == nil && !tableEvaluatesDefault
  }
  package var line: Int { syntax.line }
  package var column: Int { syntax.column }
  package var documentation: String? { syntax.documentation }
  /// The default as written; `nil` for an optional without one, which defaults to `nil`.
  package var defaultText: String? {
    syntax.defaultValue?.text ?? (syntax.writtenType?.unwrapped.isOptional == true ? "nil" : nil)
  }
  package var syncs: Bool { syntax.arguments.syncs }
  package var inSettings: Bool { syntax.arguments.inSettings }
  package var isExported: Bool { syntax.arguments.isExported }
  package var format: String { syntax.arguments.format ?? "propertyList" }
  package var storeText: String? { syntax.arguments.store?.text }

  package var registrationKind: String {
    switch registration {
    case .none, .literal, .registry: "registry"
    case .mainActor: "mainActor"
    case .defaultIsolation: "defaultIsolation"
    case .firstRead: "firstRead"
    }
  }

  package var registrationNote: String? {
    if case .firstRead(let reason) = registration { return reason }
    return nil
  }

  /// The location the wrapper reports, as the runtime looks it up.
  package var reportedLocation: (fileID: String, line: Int, column: Int) {
    (syntax.reportedFileID, syntax.reportedLine, syntax.column)
  }
}
