/// What `export-values`, `import-values` and `reset-values` do with a preferences file, decided
/// from the scanned declarations as the runtime's `exportValues()`, `importValues(_:)` and
/// `resetAllValues()` decide from the registry: the same document, the same checks, the same
/// report, for a file instead of a running app's stores. A file is one store's: the transfer
/// covers the preferences declared in that store (the default store, or the one `--store` names
/// as the declarations write it).
package struct ValuesTransfer {
  /// One preference, as the transfer needs it.
  package struct Preference: Equatable {
    package var key: String
    /// Keys its value was stored under before, newest first (`renamedFrom:`, the lock's renames,
    /// configured migrations).
    package var renamedFrom: [String]
    package var isExported: Bool
    /// A value of the kind it stores, when the declaration shows one: its literal default, `""`
    /// for `format: .json`, or a value of its standard declared type.
    package var sample: StoredValue?

    package init(key: String, renamedFrom: [String] = [], isExported: Bool = true, sample: StoredValue? = nil)
    {
      self.key = key
      self.renamedFrom = renamedFrom
      self.isExported = isExported
      self.sample = sample
    }
  }

  /// The preferences of the file's store.
  package var preferences: [Preference]
  package var retiredKeys: Set<String>
  /// The keys (old ones too) of the module's preferences in other stores, with that store as
  /// the declarations write it.
  package var elsewhere: [String: String]

  package init(
    preferences: [Preference], retiredKeys: some Sequence<String>, elsewhere: [String: String] = [:]
  ) {
    self.preferences = preferences
    self.retiredKeys = Set(retiredKeys)
    self.elsewhere = elsewhere
  }

  /// The module's preferences in `store` (as a `store:` argument writes it; `nil`: the default
  /// store), one per key (declarations that share a key agree on it).
  package init(_ result: PreferenceScanner.Result, store: String? = nil) {
    let wanted = store.map(Self.normalized)
    var seen: Set<String> = []
    var preferences: [Preference] = []
    var elsewhere: [String: String] = [:]
    for plan in result.plans where seen.insert(plan.key).inserted {
      if let text = plan.syntax.arguments.store?.text,
        !Self.defaultStoreSpellings.contains(Self.normalized(text))
      {
        guard Self.normalized(text) == wanted else {
          for key in [plan.key] + plan.renamedFrom { elsewhere[key] = text }
          continue
        }
      } else if wanted != nil {
        for key in [plan.key] + plan.renamedFrom { elsewhere[key] = Self.defaultStoreName }
        continue
      }
      let sample: StoredValue? =
        if case .literal(let literal) = plan.registration {
          StoredValue(literal)
        } else if plan.syntax.arguments.format == "json" {
          .string("")
        } else {
          plan.valueType.flatMap(StoredValue.sample(ofType:))
        }
      preferences.append(
        Preference(
          key: plan.key, renamedFrom: plan.renamedFrom, isExported: plan.syntax.arguments.isExported,
          sample: sample))
    }
    self.init(preferences: preferences, retiredKeys: result.retiredKeys, elsewhere: elsewhere)
  }

  /// A store expression without white space: `.suite( "a" )` names the store `.suite("a")` does.
  static func normalized(_ text: String) -> String { text.filter { !$0.isWhitespace } }

  /// What ``elsewhere`` says of a preference in the default store.
  static let defaultStoreName = ".default"

  /// How a `store:` argument names the default store, which is the file's when no `--store` is given.
  static let defaultStoreSpellings: Set<String> = [".default", "PreferenceStore.default"]

  /// What the runtime leaves in a UserDefaults domain for a value too large for it, which it
  /// keeps in a file beside the store (`KeptValues` in `DomainSize.swift`).
  package static let keptInFileMarker = "swift-preferences.keptInFile"

  /// The size past which a value is not imported into a file directly: the runtime keeps such a
  /// value outside a UserDefaults domain (an eighth of the 4 MiB limit), which only the app can do.
  package static let largeValueBytes = 512 * 1024

  // MARK: The document

  package static let formatName = "swift-preferences.values"
  package static let currentVersion = 1

  /// The values document of `values` (the runtime's `PreferenceValuesDocument`), keys sorted.
  package static func document(_ values: [String: StoredValue]) -> String {
    JSONValue.object([
      ("format", .string(formatName)),
      ("values", .object(values.keys.sorted().map { ($0, values[$0]!.json) })),
      ("version", .number(currentVersion)),
    ]).prettyText + "\n"
  }

  /// The values of a document, or why it is not one this version reads.
  package static func values(ofDocument bytes: [UInt8]) throws(PropertyListCoding.Failure) -> [String:
    StoredValue]
  {
    let json: JSONValue
    do {
      json = try JSONValue.parse(bytes)
    } catch {
      throw .init(message: "it is not JSON (line \(error.line), column \(error.column): \(error.message))")
    }
    guard case .object(let members) = json else { throw .init(message: "it is not a JSON object") }
    func member(_ name: String) -> JSONValue? { members.last { $0.0 == name }?.1 }
    guard case .string(let format)? = member("format"), format == formatName else {
      throw .init(message: "its format is not '\(formatName)'")
    }
    guard case .number(let text)? = member("version"), let version = Int(text) else {
      throw .init(message: "it has no version")
    }
    guard version <= currentVersion else {
      throw .init(
        message:
          "it is version \(version), written by a newer version of the library; this one reads up to version \(currentVersion)"
      )
    }
    guard case .object(let pairs)? = member("values") else {
      throw .init(message: "it has no 'values' object")
    }
    var values: [String: StoredValue] = [:]
    for (key, value) in pairs {
      do {
        values[key] = try StoredValue(json: value)
      } catch {
        throw .init(message: "its value for '\(key)' is unreadable: \(error.message)")
      }
    }
    return values
  }

  // MARK: Export, import, reset

  /// The stored values of the exported preferences, each under its key now: a value the file
  /// holds only under an old key (the app has not run since the rename) is exported as the app
  /// would have moved it. `keptInFile` lists the keys whose value the app keeps in a file beside
  /// its store (too large for the domain): only the app's `exportValues()` reads those.
  package func export(from stored: [String: StoredValue]) -> (
    values: [String: StoredValue], keptInFile: [String]
  ) {
    var values: [String: StoredValue] = [:]
    var keptInFile: [String] = []
    for preference in preferences where preference.isExported {
      let value = ([preference.key] + preference.renamedFrom).lazy.compactMap { stored[$0] }.first
      guard let value else { continue }
      if case .dictionary(let members) = value, members[Self.keptInFileMarker] != nil {
        keptInFile.append(preference.key)
        continue
      }
      values[preference.key] = value
    }
    return (values, keptInFile.sorted())
  }

  /// What an import did with each value of a document, as the runtime's
  /// `PreferenceImportReport` says it.
  package struct Report: Equatable {
    package var imported: [String] = []
    /// Old key → the key stored.
    package var renamed: [String: String] = [:]
    package var unknown: [String] = []
    package var retired: [String] = []
    package var notImported: [String] = []
    /// Key → what was wrong.
    package var wrongType: [String: String] = [:]
    /// Key → the store its preference is declared in, which is not the file's.
    package var otherStore: [String: String] = [:]
    /// Values too large to store in a file directly (``largeValueBytes``).
    package var tooLarge: [String] = []

    package init() {}

    /// One line per value that was not imported.
    package var problems: [String] {
      unknown.map { "'\($0)': no preference has this key" }
        + retired.map { "'\($0)': this preference was retired" }
        + notImported.map { "'\($0)': this preference is not imported (declared exported: false)" }
        + wrongType.keys.sorted().map { "'\($0)': \(wrongType[$0]!)" }
        + otherStore.keys.sorted().map { key in
          let store = otherStore[key]!
          return store == ValuesTransfer.defaultStoreName
            ? "'\(key)': this preference is in the default store; import it into that store's file, without --store"
            : "'\(key)': this preference is declared in store \(store); import it into that store's file with --store '\(store)'"
        }
        + tooLarge.map {
          "'\($0)': the value is larger than \(ValuesTransfer.largeValueBytes / 1024) KiB; import it in the app (PreferenceRegistry.importValues), which keeps a value that large in a file beside its store"
        }
    }
  }

  /// Stores each value of `document` in `stored` under its preference's key, after checking its
  /// kind; a value under an old key goes to the key now.
  package func importValues(_ document: [String: StoredValue], into stored: inout [String: StoredValue])
    -> Report
  {
    var report = Report()
    var consumed: Set<String> = []
    for preference in preferences {
      let target = preference.key
      let present = ([target] + preference.renamedFrom).filter { document[$0] != nil }
      guard let source = present.first, let value = document[source] else { continue }
      consumed.formUnion(present)
      guard preference.isExported else {
        report.notImported.append(source)
        continue
      }
      if let expected = preference.sample ?? stored[target],
        let problem = value.kindMismatch(expecting: expected)
      {
        report.wrongType[source] = problem
        continue
      }
      if PropertyListCoding.binary(value).count > Self.largeValueBytes {
        report.tooLarge.append(source)
        continue
      }
      stored[target] = value
      report.imported.append(target)
      if source != target { report.renamed[source] = target }
    }
    for key in document.keys.sorted() where !consumed.contains(key) {
      if retiredKeys.contains(key) {
        report.retired.append(key)
      } else if let store = elsewhere[key] {
        report.otherStore[key] = store
      } else {
        report.unknown.append(key)
      }
    }
    report.imported.sort()
    report.notImported.sort()
    return report
  }

  /// Removes the value of every exported preference, under its key and its old keys (which
  /// the app would otherwise move back at its next launch); returns the keys that had one.
  package func reset(_ stored: inout [String: StoredValue]) -> [String] {
    var removed: [String] = []
    for preference in preferences where preference.isExported {
      let had = ([preference.key] + preference.renamedFrom).map { stored.removeValue(forKey: $0) != nil }
      if had.contains(true) { removed.append(preference.key) }
    }
    return removed.sorted()
  }
}
