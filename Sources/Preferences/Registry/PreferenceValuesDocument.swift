import Foundation

/// The values a user set, exported through a module's registry, to move them to another device
/// or keep them aside: what a settings screen's "Export Settings…" writes and "Import
/// Settings…" reads.
///
/// ```swift
/// let document = PreferenceRegistry.exportValues()
/// try document.jsonData().write(to: url)
///
/// let report = PreferenceRegistry.importValues(try PreferenceValuesDocument(jsonData: Data(contentsOf: url)))
/// for problem in report.problems { print(problem) }
/// ```
///
/// It holds the stored values only (a preference that reads its default is not in it), in
/// stored form, by key: versioned JSON whose values name their kind (`{"integer": 42}`), so
/// that a date stays a date and `1` stays distinct from `1.0`. Preferences declared
/// `exported: false` (device state, secrets) are never in it.
public struct PreferenceValuesDocument: Sendable, Equatable, Codable {
  /// What the document's `format` says: a document of another format is refused.
  public static let formatName = "swift-preferences.values"
  /// The version this library writes and reads; a document of a newer version is refused.
  public static let currentVersion = 1

  /// ``formatName``.
  public var format: String
  /// The version of the format.
  public var version: Int
  /// The stored values, by key.
  public var values: [String: PropertyListValue]

  /// A document of `values`, in the current version.
  public init(values: [String: PropertyListValue]) {
    format = Self.formatName
    version = Self.currentVersion
    self.values = values
  }

  /// Reads a document from JSON text; throws ``PreferenceError/unreadableDocument(reason:)`` for
  /// text that is not one, or is of a newer version.
  public init(jsonData: Data) throws {
    let decoded: PreferenceValuesDocument
    do {
      decoded = try JSONDecoder().decode(Self.self, from: jsonData)
    } catch {
      throw PreferenceError.unreadableDocument(reason: "it is not a document of preference values (\(error))")
    }
    guard decoded.format == Self.formatName else {
      throw PreferenceError.unreadableDocument(
        reason: "its format is '\(decoded.format)', not '\(Self.formatName)'")
    }
    guard decoded.version <= Self.currentVersion else {
      throw PreferenceError.unreadableDocument(
        reason:
          "it is version \(decoded.version), written by a newer version of the app; this one reads up to version \(Self.currentVersion)"
      )
    }
    self = decoded
  }

  /// The document as JSON text, keys sorted, so that two exports of the same values are the
  /// same bytes.
  public func jsonData() throws -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    return try encoder.encode(self)
  }
}

/// What ``GeneratedPreferenceRegistry/importValues(_:)`` did with each value of a document.
public struct PreferenceImportReport: Sendable, Equatable {
  /// The keys whose values were stored (under the key the preference has now).
  public var imported: [String] = []
  /// Values the document holds under a key a preference was stored under before (its
  /// `renamedFrom:`, or a rename `Preferences.lock` remembers): old key → the key stored.
  public var renamed: [String: String] = [:]
  /// Keys no preference of the module declares.
  public var unknown: [String] = []
  /// Keys `Preferences.lock` marks retired: declared no longer, on purpose.
  public var retired: [String] = []
  /// Keys of preferences declared `exported: false`, which an import never sets.
  public var notImported: [String] = []
  /// Values of another kind than the preference stores (text where a number belongs): key →
  /// what was wrong. None of them was stored.
  public var wrongType: [String: String] = [:]
  /// Keys of preferences whose `store:` names what only their own file sees, when no value
  /// declaring them was created yet: the registry does not know their store until then
  /// (``PreferenceDescriptor/storeIsKeptByDeclaration``). Create one (show the view) and import
  /// again.
  public var storeNotKnownYet: [String] = []

  /// Creates an empty report.
  public init() {}

  /// One line per value that was not imported, for a log or an alert.
  public var problems: [String] {
    unknown.map { "'\($0)': no preference has this key" }
      + retired.map { "'\($0)': this preference was retired" }
      + notImported.map { "'\($0)': this preference is not imported (declared exported: false)" }
      + wrongType.keys.sorted().map { "'\($0)': \(wrongType[$0]!)" }
      + storeNotKnownYet.map {
        "'\($0)': its store is private to the file that declares it, and no value declaring it was created yet"
      }
  }
}

extension GeneratedPreferenceRegistry {
  /// The values the user set for this module's preferences, each read from its own store,
  /// leaving out preferences declared `exported: false`.
  public static func exportValues() -> PreferenceValuesDocument {
    let catalog = RegistryCatalog.of(Self.self)
    var values: [String: PropertyListValue] = [:]
    for (entry, store) in catalog.entriesWithStores() where entry.core.isExported {
      if let value = store.storedValue(forKey: entry.core.key) { values[entry.core.key] = value }
    }
    return PreferenceValuesDocument(values: values)
  }

  /// Stores each value of `document` in its preference's store, after checking that it is of
  /// the kind the preference stores; a value under an old key of a preference (`renamedFrom:`,
  /// or a rename `Preferences.lock` remembers) is stored under its key now. Unknown and retired
  /// keys, preferences declared `exported: false`, values of the wrong kind and preferences
  /// whose private store no value has given yet (``PreferenceImportReport/storeNotKnownYet``)
  /// are reported and change nothing. Observers hear each stored value as they hear any write.
  ///
  /// Like every registration, it may wait for the main thread to evaluate a store or default
  /// that only the main actor may create: call it (and ``exportValues()``, ``resetAllValues()``)
  /// on the main actor, or where the main thread is not waiting for it.
  @discardableResult
  public static func importValues(_ document: PreferenceValuesDocument) -> PreferenceImportReport {
    let catalog = RegistryCatalog.of(Self.self)
    var report = PreferenceImportReport()
    var consumed: Set<String> = []
    var seen: Set<String> = []
    for (entry, store) in catalog.entriesWithStores() where seen.insert(entry.core.key).inserted {
      // The value under the preference's key, else under the newest of its old keys.
      let target = entry.core.key
      let present = ([target] + entry.core.renamedFrom).filter { document.values[$0] != nil }
      guard let source = present.first, let value = document.values[source] else { continue }
      consumed.formUnion(present)
      guard entry.core.isExported else {
        report.notImported.append(source)
        continue
      }
      // The kind the preference stores: its default's, else what the store holds now, else
      // what its declared type says (an optional declared without a default).
      let expected =
        catalog.declaredDefault(of: entry, in: store) ?? store.storedValue(forKey: target)
        ?? (entry.core.format == .json
          ? .string("") : entry.descriptor.valueType.flatMap(PropertyListValue.sample(ofType:)))
      if let expected, let problem = value.kindMismatch(expecting: expected) {
        report.wrongType[source] = problem
        continue
      }
      store.setStoredValue(value, forKey: target)
      report.imported.append(target)
      if source != target { report.renamed[source] = target }
    }
    let retired = Set(retiredKeys)
    // The keys (old ones too) of preferences passed by because their store is not known yet.
    var waiting: Set<String> = []
    for entry in catalog.allEntries() where !seen.contains(entry.core.key) {
      waiting.formUnion([entry.core.key] + entry.core.renamedFrom)
    }
    for key in document.values.keys.sorted() where !consumed.contains(key) {
      if retired.contains(key) {
        report.retired.append(key)
      } else if waiting.contains(key) {
        report.storeNotKnownYet.append(key)
      } else {
        report.unknown.append(key)
      }
    }
    report.imported.sort()
    report.notImported.sort()
    return report
  }

  /// Removes the value the user set for every preference of this module, each from its own
  /// store, so that each reads its default again: a settings screen's "Reset All". Preferences
  /// declared `exported: false` (device state, secrets) keep theirs.
  ///
  /// - Returns: The keys that had a value.
  @discardableResult
  public static func resetAllValues() -> [String] {
    var removed: [String] = []
    for (entry, store) in RegistryCatalog.of(Self.self).entriesWithStores() where entry.core.isExported {
      let key = entry.core.key
      guard store.hasStoredValue(forKey: key) else { continue }
      store.removeValue(forKey: key)
      removed.append(key)
    }
    return removed.sorted()
  }
}

extension RegistryCatalog {
  /// Every declaration with the store it reads (a test's stand-in where one runs), each
  /// store's defaults registered. A preference whose declaration keeps its store is passed by
  /// until a value declaring it gives that store.
  func entriesWithStores() -> [(Entry, PreferenceStore)] {
    let standIns = PreferenceStandIns.current
    return allEntries().compactMap { entry in
      guard let known = storeIfKnown(of: entry) else { return nil }
      let store = known.map { standIns?.store(standingInFor: $0) ?? $0 } ?? PreferenceStore.default
      ensureRegistered(in: store)
      // Its migrations first, where the module registered the store before it was known.
      if entry.core.storeIsKeptByDeclaration { registerKept(entry, in: store) }
      return (entry, store)
    }
  }
}

extension PreferenceStore {
  /// The value stored for `key` (not a default), in stored form.
  func storedValue(forKey key: String) -> PropertyListValue? {
    adoptWritesByOtherCode(key)
    return backend.value(forKey: key)
  }

  /// Stores `value`, in stored form, and tells observers.
  func setStoredValue(_ value: PropertyListValue, forKey key: String) {
    write(value, forKey: key)
    notify([key])
  }
}

/// The value type of `ValueRules.swift`, which the scanner compiles too, for its own.
typealias SharedValue = PropertyListValue

extension PropertyListValue {
  /// The value of a date preference's kind, for ``sample(ofType:)``.
  static var sampleDate: Self { .date(Date(timeIntervalSince1970: 0)) }
  /// The value of a data preference's kind.
  static var sampleData: Self { .data(Data()) }
}
