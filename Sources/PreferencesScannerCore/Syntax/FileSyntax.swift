/// What one Swift file declares, as far as preferences are concerned: read from syntax alone,
/// with no knowledge of other files. Built once by ``FileParser`` and never changed.
package struct FileSyntax: Sendable {
  /// The path as given to the scanner.
  package let path: String
  /// `#fileID` of the file: `Module/File.swift`.
  package let fileID: String
  package let lineCount: Int
  package let imports: [ImportSyntax]
  /// Every type declaration and extension, in source order; members refer to them by index.
  package let scopes: [TypeScope]
  /// Declarations the analysis needs to resolve names: enum cases, static members, initializers,
  /// type aliases, and file-scope values and functions.
  package let members: [MemberSyntax]
  /// The instance stored properties of struct and enum declarations (and enum cases' associated
  /// values), for the registry's proof
  /// that a type it makes storable is `Sendable`.
  package let storedProperties: [StoredPropertySyntax]
  /// Every instance `var defaultValue` that is a `switch self`: the defaults of a
  /// `PreferenceKeys` enum, whose cases get typed keys.
  package let keyDefaults: [KeyDefaultsSyntax]
  package let preferences: [PreferenceSyntax]
  /// The `#if` branches, by index; declarations refer to the innermost one they sit in.
  package let branches: [BranchSyntax]
  /// Problems found reading the file: unreadable constructs and declaration errors.
  package let diagnostics: [Diagnostic]

  /// The qualified name of a scope's type within the module: the enclosing types' names, then
  /// its own.
  package func path(ofScope scope: Int) -> [String] {
    var reversed: [[String]] = []
    var current: Int? = scope
    while let index = current {
      reversed.append(scopes[index].names)
      current = scopes[index].parent
    }
    return reversed.reversed().flatMap { $0 }
  }
}

/// An access level written on a declaration.
package enum AccessLevel: String, Sendable, Comparable {
  case `private`, `fileprivate`, `internal`, `package`, `public`, `open`

  package var isFilePrivate: Bool { self == .private || self == .fileprivate }

  package static func < (a: AccessLevel, b: AccessLevel) -> Bool { a.rank < b.rank }
  private var rank: Int {
    switch self {
    case .private: 0
    case .fileprivate: 1
    case .internal: 2
    case .package: 3
    case .public: 4
    case .open: 5
    }
  }
}

/// A type declaration or an extension.
package struct TypeScope: Sendable {
  package enum Kind: String, Sendable {
    case `struct`, `class`, `enum`, `actor`, `protocol`, `extension`
  }

  package let kind: Kind
  /// The name as written, without backticks: one name for a type declaration, nested in
  /// ``parent``; an extension names its type in full (`extension Player.Queue`).
  package let names: [String]
  /// The enclosing type scope in this file; `nil` at file scope and for extensions.
  package let parent: Int?
  /// Declared inside a function, closure or initializer, at any depth.
  package let isLocal: Bool
  package let genericParameters: [String]
  package let access: AccessLevel?
  /// The names of the attributes written on the declaration (`MainActor`, `globalActor`,
  /// `available`); which name a global actor, the analysis decides.
  package let attributeNames: [String]
  /// Its `@available(…)` attributes as written (`@available(iOS 17, *)`): generated code that
  /// names the type repeats them.
  package var availability: [String] = []
  package let isNonisolated: Bool
  /// The inheritance clause, one entry per type, as written (`PreferenceValue`, `String`).
  package let inherits: [String]
  package let branch: Int?
  package let line: Int
  package let column: Int
}

/// A declaration inside a type's body (or at file scope) that a default expression may name.
package struct MemberSyntax: Sendable {
  package enum Kind: String, Sendable {
    case enumCase, property, function, initializer, typeAlias
  }

  /// The longest ``initialValue`` recorded, in bytes: what a type is inferred from stays small.
  package static let initialValueLimit = 256

  /// The type scope it is declared in; `nil` at file scope.
  package let owner: Int?
  package let name: String
  package let kind: Kind
  /// `static` or `class` members, and enum cases.
  package let isStatic: Bool
  /// The declared access level, or `fileprivate` for members of a `private` extension.
  package let access: AccessLevel?
  package let isNonisolated: Bool
  /// The names of the attributes written on it, as for ``TypeScope/attributeNames``.
  package let attributeNames: [String]
  /// For properties: the declared type, or the type of a literal initial value. For type
  /// aliases: the aliased type. For functions: the result type.
  package let type: String?
  /// ``type`` taken apart (`nil` for an instance function, whose result no analysis reads).
  package let writtenType: WrittenType?
  /// For static and file-scope properties with neither a written type nor a literal initial
  /// value: the initial value's text (at most ``initialValueLimit`` bytes), so that the type of a
  /// default naming the property can be inferred (`static let standard = Layout()`).
  package let initialValue: String?
  /// For properties whose initial value is one plain string literal, and enum cases whose raw
  /// value is: the string (`let kSelectedTabKey = "Settings.tab"`, `case tint = "themeTint"`),
  /// which a non-literal `key:` argument naming it is told to write instead.
  package var stringValue: String? = nil
  /// For initializers: `init?`.
  package let isFailable: Bool
  /// For enum cases: whether it has associated values.
  package let hasPayload: Bool
  package let branch: Int?

  package init(
    owner: Int?, name: String, kind: Kind, isStatic: Bool, access: AccessLevel?, isNonisolated: Bool,
    attributeNames: [String], type: String?, initialValue: String?, stringValue: String?, isFailable: Bool,
    hasPayload: Bool, branch: Int?
  ) {
    self.owner = owner
    self.name = name
    self.kind = kind
    self.isStatic = isStatic
    self.access = access
    self.isNonisolated = isNonisolated
    self.attributeNames = attributeNames
    self.type = type
    // What an analysis reads: an alias's target, a static or file-scope property's type, a static
    // function's result (an instance function's is never read).
    self.writtenType = kind == .function && !isStatic ? nil : type.map { WrittenType(parsing: $0) }
    self.initialValue = initialValue
    self.stringValue = stringValue
    self.isFailable = isFailable
    self.hasPayload = hasPayload
    self.branch = branch
  }
}

/// An instance stored property of a struct or enum declaration, or an associated value of an
/// enum case.
package struct StoredPropertySyntax: Sendable {
  /// The type scope it is declared in.
  package let scope: Int
  /// The type it stores, when syntax shows it (written, or a literal's); `nil` when it does not.
  /// With `member`, the type whose member the initial value names.
  package let type: String?
  /// ``type`` taken apart.
  package let writtenType: WrittenType?
  /// The case or static property named by an initial value `T.member`: what is stored is of type
  /// `T` only if `T` declares it so, which the analysis checks.
  package let member: String?

  package init(scope: Int, type: String?, member: String? = nil) {
    self.scope = scope
    self.type = type
    self.writtenType = type.map { WrittenType(parsing: $0) }
    self.member = member
  }
}

/// `var defaultValue … { switch self { case .a: … } }` in a type body.
package struct KeyDefaultsSyntax: Sendable {
  package struct Clause: Sendable {
    /// The cases it names (`case .a, .b:`); empty for `default:` or a pattern not read.
    package let cases: [String]
    package let isDefault: Bool
    /// The default expression, when the clause is one expression (`return` allowed).
    package let expression: ExpressionSyntax?
    package let line: Int
    package let column: Int
    /// The `#if` conditions inside the switch that the clause is compiled under, joined; `nil`
    /// outside any.
    package var condition: String? = nil
  }

  /// The type scope it is declared in.
  package let scope: Int
  /// In source order; empty when the body is not a `switch self`.
  package let clauses: [Clause]
  /// Where `defaultValue` is written.
  package let line: Int
  package let column: Int
}

/// One `@Preference` declaration as written. A class: the file's syntax and the declaration's
/// plan share it.
package final class PreferenceSyntax: Sendable {
  /// The innermost type scope it is declared in.
  package let scope: Int
  package let property: String
  package let isStatic: Bool
  package let access: AccessLevel?
  /// The declared type, whitespace-normalized.
  package let declaredType: String?
  /// ``declaredType`` taken apart: the model every analysis reads it through.
  package let writtenType: WrittenType?
  /// The default value expression; `nil` for an optional declared without one.
  package let defaultValue: ExpressionSyntax?
  package let arguments: PreferenceArguments
  /// Where the scanner reports problems: the attribute name (or the argument list's `(` for an
  /// optional without a default, where the compiler reports the wrapper's location).
  package let line: Int
  package let column: Int
  /// The location as the compiler reports it to the wrapper: under `#sourceLocation`, the file
  /// and line that directive names.
  package let reportedFileID: String
  package let reportedLine: Int
  package let documentation: String?
  package let branch: Int?
  /// The declaration's own `@available(…)` attributes, as written (comments and line breaks made
  /// one space): generated code that names the property repeats them.
  package let availability: [String]

  package init(
    scope: Int, property: String, isStatic: Bool, access: AccessLevel?, declaredType: String?,
    defaultValue: ExpressionSyntax?, arguments: PreferenceArguments, line: Int, column: Int,
    reportedFileID: String,
    reportedLine: Int, documentation: String?, branch: Int?, availability: [String] = []
  ) {
    self.scope = scope
    self.property = property
    self.isStatic = isStatic
    self.access = access
    self.declaredType = declaredType
    self.writtenType = declaredType.map { WrittenType(parsing: $0) }
    self.defaultValue = defaultValue
    self.arguments = arguments
    self.line = line
    self.column = column
    self.reportedFileID = reportedFileID
    self.reportedLine = reportedLine
    self.documentation = documentation
    self.branch = branch
    self.availability = availability
  }
}

extension PreferenceSyntax {
  /// Whether a written type is optional (`T?`, `T!`, `Optional<T>`).
  package static func isOptional(_ type: String) -> Bool {
    WrittenType(parsing: type).unwrapped.isOptional
  }
}

/// The arguments of a `@Preference(…)` attribute, by label (see ``PreferenceArguments/labels``).
package struct PreferenceArguments: Sendable {
  /// The default, when written as an argument rather than after `=`.
  package var wrappedValue: ExpressionSyntax?
  package var key: String?
  /// A `key:` argument that names a constant instead of writing a literal (`kSelectedTabKey`,
  /// `ThemeKey.tint.rawValue`), as `@AppStorage` declarations do: its name path, so that the
  /// error can say which literal to write.
  package var keyReference: [String]? = nil
  /// `@Preference(\Settings.showFooter) var showFooter`: the names of the key path, which names
  /// the declaration whose key, type, default, store and options this one shares (`Settings`,
  /// `showFooter`; `Settings`, `Type`, `count` for a static preference).
  package var reference: [String]? = nil
  package var store: ExpressionSyntax?
  package var format: String?
  package var syncs = false
  package var inSettings = false
  /// `exported: false`: device state or a secret, which an export of the user's values leaves out.
  package var isExported = true
  package var renamedFrom: [String] = []
  package var movedFrom: ExpressionSyntax?
  /// The labels as written, in order, each once (the values of `renamedFrom:` after the first
  /// have none): what the initializer generated for the declaration takes.
  package var written: [String] = []

  /// Every label the attribute takes, in the order Swift requires them, what its argument must
  /// be, and the type of the parameter the generated initializer takes it as (the parser checks
  /// the argument itself). The one table the parser, its messages, the docs and the generated
  /// initializers follow; `ArgumentTableTests` holds them to it.
  package static let labels: [(label: String, argument: String, parameter: String)] = [
    ("wrappedValue", "the default value, instead of '= …'", "Value"),
    ("key", "a string literal", "Swift.StaticString"),
    ("store", "an expression", "@autoclosure () -> _Preferences.Store"),
    ("movedFrom", "an expression naming the previous store", "@autoclosure () -> _Preferences.Store?"),
    ("format", ".propertyList or .json", "_Preferences.Format"),
    ("sync", "true or false", "Swift.Bool"), ("settings", "true or false", "Swift.Bool"),
    ("exported", "true or false", "Swift.Bool"),
    ("renamedFrom", "string literals", "Swift.StaticString..."),
  ]
}

/// One branch of an `#if … #elseif … #else … #endif` group.
package struct BranchSyntax: Sendable {
  /// The branch the group sits in.
  package let parent: Int?
  /// The group, unique within the file.
  package let group: Int
  /// The branch within the group: 0 for `#if`, 1 for the first `#elseif` or `#else`, …
  package let index: Int
  /// The branch's own condition; `nil` for `#else`.
  package let clause: String?
  /// The group's previous branch, whose conditions must all be false for this one.
  package let previous: Int?
}

/// An `import` declaration at file scope, which generated code repeats so that defaults and store
/// expressions see the same modules as the declarations they come from.
package struct ImportSyntax: Sendable, Hashable {
  /// The imported path: `Foundation`, or `Foundation.URL` for `import struct Foundation.URL`.
  package var path: String
  /// The declaration kind of a scoped import (`struct`, `func`, …), or `nil`.
  package var kind: String?
  /// Attributes as written: `@testable`, `@preconcurrency`, `@_spi(Internal)`, …
  package var attributes: [String]
  /// An explicit access level (`internal import X`), or `nil` when implicit.
  package var accessLevel: String?
  /// The `#if` condition the import is compiled under, or `nil`.
  package var condition: String?

  /// The imported module: the first component of ``path``.
  package var module: String { String(path.prefix { $0 != "." }) }
}
