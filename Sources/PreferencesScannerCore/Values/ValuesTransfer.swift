/// What `export-values`, `import-values` and `reset-values` do with a preferences file, decided
/// from the scanned declarations as the runtime's `exportValues()`, `importValues(_:)` and
/// `resetAllValues()` decide from the registry: the same document, the same checks, the same
/// report, for a file instead of a running app's stores.
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

  package var preferences: [Preference]
  package var retiredKeys: Set<String>

  package init(preferences: [Preference], retiredKeys: some Sequence<String>) {
    self.preferences = preferences
    self.retiredKeys = Set(retiredKeys)
  }

  /// The module's preferences, one per key (declarations that share a key agree on it).
  package init(_ result: PreferenceScanner.Result) {
    var seen: Set<String> = []
    var preferences: [Preference] = []
    for plan in result.plans where seen.insert(plan.key).inserted {
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
    self.init(preferences: preferences, retiredKeys: result.retiredKeys)
  }

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
  /// would have moved it.
  package func export(from stored: [String: StoredValue]) -> [String: StoredValue] {
    var values: [String: StoredValue] = [:]
    for preference in preferences where preference.isExported {
      let value = ([preference.key] + preference.renamedFrom).lazy.compactMap { stored[$0] }.first
      if let value { values[preference.key] = value }
    }
    return values
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

    package init() {}

    /// One line per value that was not imported.
    package var problems: [String] {
      unknown.map { "'\($0)': no preference has this key" }
        + retired.map { "'\($0)': this preference was retired" }
        + notImported.map { "'\($0)': this preference is not imported (declared exported: false)" }
        + wrongType.keys.sorted().map { "'\($0)': \(wrongType[$0]!)" }
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
      stored[target] = value
      report.imported.append(target)
      if source != target { report.renamed[source] = target }
    }
    for key in document.keys.sorted() where !consumed.contains(key) {
      if retiredKeys.contains(key) { report.retired.append(key) } else { report.unknown.append(key) }
    }
    report.imported.sort()
    report.notImported.sort()
    return report
  }

  /// Removes the value of every exported preference; returns the keys that had one.
  package func reset(_ stored: inout [String: StoredValue]) -> [String] {
    var removed: [String] = []
    for preference in preferences where preference.isExported {
      if stored.removeValue(forKey: preference.key) != nil { removed.append(preference.key) }
    }
    return removed.sorted()
  }
}
