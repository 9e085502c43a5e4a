/// One `@Preference` declaration as found in source.
public struct ScannedPreference: Sendable, Equatable {
  /// The key the value is stored under (derived, or explicit).
  public var key: String
  /// The property name, without backticks.
  public var property: String
  /// The enclosing type's name path (`["Outer", "Inner"]`), without generic parameters.
  public var typePath: [String]
  /// The declared type, if written.
  public var declaredType: String?
  /// The type inferred from a literal default (`"Anonymous"` → `String`), if any.
  public var inferredType: String?
  /// The default value's source text; `nil` when the declaration has none (an error).
  public var defaultValue: String?
  /// The file as given to the scanner.
  public var file: String
  /// `#fileID` of the file: `Module/File.swift`.
  public var fileID: String
  /// The attribute's line.
  public var line: Int
  /// The column of the attribute's name (the character after `@`), as the compiler's `#column`.
  public var column: Int
  /// The `///` or `/** */` doc comment, without comment markers.
  public var documentation: String?
  /// The `key:` argument, when given.
  public var explicitKey: String?
  /// The `store:` argument's source text, when given.
  public var storeExpression: String?
  /// The `renamedFrom:` arguments, newest first.
  public var renamedFrom: [String]
  /// Whether the preference is mirrored to the user's other devices (`sync: true`).
  public var syncs: Bool
  /// Whether the preference appears in the iOS Settings app (`settings: true`), for
  /// `export --format settings-plist`.
  public var inSettings: Bool
  /// Whether the property is `static` (or `class`).
  public var isStatic: Bool
  /// The `#if` branches the declaration sits in, outermost first.
  public var branches: [ConditionalBranch]
  /// Why the generated registry cannot evaluate the default itself (a private, generic or local
  /// enclosing type), or `nil` when it can.
  public var registrationBlocker: String?
  /// What isolates the enclosing type to a global actor (`@MainActor`, `View`), if anything.
  var contextIsolation: String?
  /// The default expression's tokens, for checks made once every file has been read.
  var defaultTokens: ExpressionTokens?

  /// The enclosing type as written in Swift: `Outer.Inner`.
  public var enclosingType: String { typePath.joined(separator: ".") }

  /// The declared type, else the inferred one.
  public var type: String? { declaredType ?? inferredType }

  /// The Swift `#if` condition under which the declaration is compiled, or `nil`.
  public var condition: String? {
    branches.isEmpty ? nil : branches.map(\.condition).joined(separator: " && ")
  }

  /// Whether both declarations can be compiled together (neither sits in a branch that excludes
  /// the other).
  public func canCoexist(with other: ScannedPreference) -> Bool {
    guard file == other.file else { return true }
    for branch in branches {
      if let match = other.branches.first(where: { $0.group == branch.group }), match.index != branch.index {
        return false
      }
    }
    return true
  }
}

/// A position inside an `#if … #elseif … #else … #endif` group.
public struct ConditionalBranch: Sendable, Equatable {
  /// The group, unique within a file.
  public var group: Int
  /// The branch within the group: 0 for `#if`, 1 for the first `#elseif` or `#else`, …
  public var index: Int
  /// The conditions of this group's branches up to and including this one; `nil` for `#else`.
  public var conditions: [String?]

  /// The condition that selects exactly this branch.
  public var condition: String {
    var parts = conditions.dropLast().compactMap { $0 }.map { "!(\($0))" }
    if let own = conditions.last, let own { parts.append("(\(own))") }
    return parts.isEmpty ? "true" : parts.joined(separator: " && ")
  }
}

/// A problem found in source, printed as `file:line:column: severity: message`.
public struct Diagnostic: Sendable, Equatable, CustomStringConvertible {
  public enum Severity: String, Sendable { case error, warning, note }

  public var severity: Severity
  public var message: String
  public var file: String
  public var line: Int
  public var column: Int

  public init(_ severity: Severity, _ message: String, file: String, line: Int, column: Int) {
    self.severity = severity
    self.message = message
    self.file = file
    self.line = line
    self.column = column
  }

  /// The compiler's format, which SwiftPM and Xcode show inline.
  public var description: String { "\(file):\(line):\(column): \(severity.rawValue): \(message)" }
}

/// An `import` declaration at file scope, which the generated registry repeats so that defaults
/// and store expressions see the same modules as the declarations they come from.
public struct ScannedImport: Sendable, Hashable {
  /// The imported path: `Foundation`, or `Foundation.URL` for `import struct Foundation.URL`.
  public var path: String
  /// The declaration kind of a scoped import (`struct`, `func`, …), or `nil`.
  public var kind: String?
  /// Attributes as written: `@testable`, `@preconcurrency`, `@_spi(Internal)`, …
  public var attributes: [String]
  /// An explicit access level (`internal import X`), or `nil` when implicit.
  public var accessLevel: String?
  /// The `#if` condition the import is compiled under, or `nil`.
  public var condition: String?
  /// The file that contains it.
  public var file: String

  /// The imported module: the first component of ``path``.
  public var module: String { String(path.prefix { $0 != "." }) }

  public init(
    path: String, kind: String? = nil, attributes: [String] = [], accessLevel: String? = nil,
    condition: String? = nil, file: String
  ) {
    self.path = path
    self.kind = kind
    self.attributes = attributes
    self.accessLevel = accessLevel
    self.condition = condition
    self.file = file
  }
}
