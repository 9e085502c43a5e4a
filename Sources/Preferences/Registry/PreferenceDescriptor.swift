import Foundation

/// A description of one `@Preference` declaration, for tools, exports and debug screens.
///
/// It is the same record `preferences-scanner scan --format json` and `swift package preferences
/// export --format json` print, decoded.
public struct PreferenceDescriptor: Sendable, Hashable, Codable {
  /// How a declaration's default reaches the store.
  public enum Registration: String, Sendable, Hashable, Codable {
    /// The registry registers it with every other default, before the first read.
    case registry
    /// The registry evaluates it on the main actor: registered up front when registration runs
    /// there, else on the main actor's next turn (or at the preference's first read, if sooner).
    case mainActor
    /// The registry evaluates it in the module's default isolation: with every other default
    /// where the module is nonisolated by default; as ``mainActor`` where the main actor is the
    /// default (Xcode 26's new app targets).
    case defaultIsolation
    /// The registry cannot evaluate it where the declaration can (see ``registrationNote``); the
    /// preference registers it at its first read.
    case firstRead
  }

  /// The key the value is stored under.
  public var key: String
  /// Whether the key is derived from the declaring type's and the property's names (the
  /// declaration has no `key:` argument): renaming either changes it, which `Preferences.lock`
  /// guards against. `false` for a key written with `key:`.
  public var isKeyDerived: Bool
  /// The property name (without backticks).
  public var property: String
  /// The enclosing type, fully qualified within the module (`Outer.Inner`).
  public var declaringType: String
  /// The declared type, or the type inferred from the default; `nil` when neither is known.
  public var valueType: String?
  /// The source text of the default value expression (a preference's projection has the value:
  /// `$name.defaultValue`).
  public var defaultValueSource: String
  /// The `///` documentation comment of the declaration, without the slashes.
  public var documentation: String?
  /// `#fileID` of the declaration as the compiler reports it (`Module/File.swift`, or the file a
  /// `#sourceLocation` directive names).
  public var fileID: String
  /// Line of the declaration as the compiler reports it.
  public var line: Int
  /// Column of the attribute name.
  public var column: Int
  /// The `#if` condition the declaration is compiled under, if any.
  public var condition: String?
  /// Whether the preference is mirrored to the user's other devices (`sync: true`).
  public var syncs: Bool
  /// Whether the preference is exported to a Settings bundle (`settings: true`).
  public var inSettings: Bool
  /// Whether an export of the user's values (``GeneratedPreferenceRegistry/exportValues()``)
  /// includes this preference: `false` for device state or a secret, declared `exported: false`.
  public var isExported: Bool
  /// The source text of the `store:` argument, if any (a preference's projection has the store:
  /// `$name.store`).
  public var storeSource: String?
  /// Whether the `store:` expression is evaluated where the preference is declared, because it
  /// names a `private` or `fileprivate` member that generated code cannot see: the store is known
  /// once a value declaring the preference was created, and until then the registry's
  /// module-wide operations (registration, export, import, reset) pass the preference by.
  public var storeIsKeptByDeclaration: Bool
  /// How the value is stored.
  public var format: PreferenceFormat
  /// Keys this preference was stored under before, newest first.
  public var renamedFrom: [String]
  /// How the default reaches the store.
  public var registration: Registration
  /// Why the registry registers the default at first read, when it does.
  public var registrationNote: String?

  /// Creates a descriptor.
  public init(
    key: String, property: String, declaringType: String, valueType: String?, defaultValueSource: String,
    documentation: String? = nil, fileID: String, line: Int, column: Int, condition: String? = nil,
    syncs: Bool = false, inSettings: Bool = false, storeSource: String? = nil,
    format: PreferenceFormat = .propertyList,
    renamedFrom: [String] = [], registration: Registration = .registry, registrationNote: String? = nil,
    isKeyDerived: Bool = true, isExported: Bool = true, storeIsKeptByDeclaration: Bool = false
  ) {
    self.key = key
    self.storeIsKeptByDeclaration = storeIsKeptByDeclaration
    self.isExported = isExported
    self.isKeyDerived = isKeyDerived
    self.property = property
    self.declaringType = declaringType
    self.valueType = valueType
    self.defaultValueSource = defaultValueSource
    self.documentation = documentation
    self.fileID = fileID
    self.line = line
    self.column = column
    self.condition = condition
    self.syncs = syncs
    self.inSettings = inSettings
    self.storeSource = storeSource
    self.format = format
    self.renamedFrom = renamedFrom
    self.registration = registration
    self.registrationNote = registrationNote
  }

  /// The record's fields, as `preferences-scanner scan --format json` writes them.
  private enum CodingKeys: String, CodingKey {
    case key, isKeyDerived, property, declaringType, valueType, documentation, fileID, line, column
    case condition, syncs, inSettings, isExported, format, renamedFrom, registration, registrationNote
    case storeIsKeptByDeclaration = "storeKeptByDeclaration"
    case defaultValueSource = "defaultValue"
    case storeSource = "store"
  }

  /// Decodes a record; one written before `isKeyDerived` existed reads as derived, one that does
  /// not say `isExported` (the scanner writes it only when `false`) as exported, and one that does
  /// not say `storeKeptByDeclaration` (written only when `true`) as a store the registry
  /// evaluates.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    key = try container.decode(String.self, forKey: .key)
    isKeyDerived = try container.decodeIfPresent(Bool.self, forKey: .isKeyDerived) ?? true
    property = try container.decode(String.self, forKey: .property)
    declaringType = try container.decode(String.self, forKey: .declaringType)
    valueType = try container.decodeIfPresent(String.self, forKey: .valueType)
    defaultValueSource = try container.decode(String.self, forKey: .defaultValueSource)
    documentation = try container.decodeIfPresent(String.self, forKey: .documentation)
    fileID = try container.decode(String.self, forKey: .fileID)
    line = try container.decode(Int.self, forKey: .line)
    column = try container.decode(Int.self, forKey: .column)
    condition = try container.decodeIfPresent(String.self, forKey: .condition)
    syncs = try container.decode(Bool.self, forKey: .syncs)
    inSettings = try container.decode(Bool.self, forKey: .inSettings)
    isExported = try container.decodeIfPresent(Bool.self, forKey: .isExported) ?? true
    storeSource = try container.decodeIfPresent(String.self, forKey: .storeSource)
    storeIsKeptByDeclaration =
      try container.decodeIfPresent(Bool.self, forKey: .storeIsKeptByDeclaration) ?? false
    format = try container.decode(PreferenceFormat.self, forKey: .format)
    renamedFrom = try container.decode([String].self, forKey: .renamedFrom)
    registration = try container.decode(Registration.self, forKey: .registration)
    registrationNote = try container.decodeIfPresent(String.self, forKey: .registrationNote)
  }
}

/// How a preference's value is represented in its store.
public enum PreferenceFormat: String, Sendable, Hashable, Codable {
  /// The type's own ``PreferenceValue`` representation: numbers, strings, arrays and
  /// dictionaries as property-list values; `Codable` types as JSON text.
  case propertyList
  /// JSON text, as `@AppStorage`'s `RawRepresentable` idiom stores arrays and dictionaries:
  /// `["a","b"]` as the string `"[\"a\",\"b\"]"`. The type must be `Codable`. Reading also
  /// accepts the property-list form, so data written either way reads.
  case json
}
