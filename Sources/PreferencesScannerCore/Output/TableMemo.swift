#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// What the generated table files were made from, kept in the parse cache's folder, so that a
/// run renders only the table files whose inputs changed.
///
/// Rendering every table was the largest part of the plugin's step in an edit (about 25 of 67 ms
/// at 1,200 declarations in the debug-built scanner) although an edit changes one table file. A
/// table file is made of its sources' syntax (named by each file's path and contents
/// fingerprint: the syntax is a function of them), the plans of their declarations (the module's
/// analysis: ``TableMemo/inputs(of:sources:plans:locks:module:preferencesImport:)`` writes every
/// field), the locked types of their keys, the import of `Preferences` the module's files
/// choose, the module and the scanner. When all of that is what made the file last time, and the
/// file still holds the bytes then written, it is left as it is.
///
/// Losing the memo loses nothing: every table is rendered again, as without one.
package final class TableMemo {
  private struct Record {
    var inputs: UInt64
    /// The written file's size and modification time (nanoseconds): a file changed since has
    /// another (build systems rely on the same).
    var size: UInt64
    var modified: UInt64
  }

  private let path: String
  private let producer: String
  private let outputDirectory: String
  private var records: [String: Record] = [:]

  /// The memo in `cache`'s folder, for outputs in `outputDirectory`.
  package init(cache: ParseCache, outputDirectory: String) {
    path = cache.directory + "/tables.memo"
    producer = cache.producer
    self.outputDirectory = outputDirectory
    guard let data = FileManager.default.contents(atPath: path) else { return }
    for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
      let fields = line.split(separator: " ")
      guard fields.count == 4, let inputs = UInt64(fields[1], radix: 16),
        let size = UInt64(fields[2], radix: 16),
        let modified = UInt64(fields[3], radix: 16)
      else { continue }
      records[String(fields[0])] = Record(inputs: inputs, size: size, modified: modified)
    }
  }

  /// Whether the table file `name`, made from `inputs`, is on disk as it was last written.
  package func isCurrent(_ name: String, inputs: UInt64) -> Bool {
    guard let record = records[name], record.inputs == inputs,
      let file = FileSystem.status(outputDirectory + "/" + name)
    else { return false }
    return file.size == record.size && file.modified == record.modified
  }

  /// Notes that `name` was written (or found holding what it should), made from `inputs`.
  package func record(_ name: String, inputs: UInt64) {
    guard let file = FileSystem.status(outputDirectory + "/" + name) else { return records[name] = nil }
    records[name] = Record(inputs: inputs, size: file.size, modified: file.modified)
  }

  /// Writes the memo (with C's stdio, like the parse cache's entries: a memo cut short by a crash
  /// loses its last lines, which only costs their tables a rendering).
  package func save() {
    let text = records.keys.sorted().map { name in
      let record = records[name]!
      return
        "\(name) \(String(record.inputs, radix: 16)) \(String(record.size, radix: 16)) \(String(record.modified, radix: 16))\n"
    }.joined()
    var bytes = text
    _ = bytes.withUTF8 { FileSystem.writeUnsynced(UnsafeRawBufferPointer($0), to: path) }
  }

  /// One number for everything a table file of `sources` is rendered from (see the type's
  /// description), or `nil` when a source has no contents fingerprint (a scan that did not read
  /// files).
  package func inputs(
    of result: PreferenceScanner.Result, sources: [Int], plans: [Int: [PreferencePlan]], module: String,
    preferencesImport: String
  ) -> UInt64? {
    guard result.sourceFingerprints.count == result.files.count else { return nil }
    var inputs = Fingerprint()
    inputs.add(producer)
    inputs.add(module)
    inputs.add(preferencesImport)
    for source in sources {
      inputs.add(result.files[source].path)
      inputs.mix(result.sourceFingerprints[source])
      let plans = plans[source] ?? []
      inputs.add(plans.count)
      for plan in plans {
        plan.describeDerived(to: &inputs)
        let lock = result.lockedTypes[plan.key]
        inputs.add(lock?.type)
        // Cases as numbers: an interpolated case name is found by reflection, slow in debug.
        switch lock?.family {
        case nil: inputs.add(0)
        case .exact: inputs.add(1)
        case .integer: inputs.add(2)
        case .real: inputs.add(3)
        case .typeOfShippedDefault: inputs.add(4)
        }
      }
    }
    return inputs.value
  }
}

extension PreferencePlan {
  /// The stored properties ``describeDerived(to:)`` writes, and `syntax`, which comes from the
  /// source file (named in a table's inputs by its contents). A test holds this list to the
  /// class's stored properties, so that a field added to plans cannot be missed by the memo.
  static let archivedProperties = [
    "fileIndex", "number", "file", "fileID", "syntax", "typePath", "key", "valueType", "registration",
    "store",
    "storeIsolation", "storeKeptByDeclaration", "movedFrom", "renamedFrom", "condition", "lockCheck",
    "availability",
    "references",
  ]

  /// Every stored property but `syntax`.
  func describeDerived(to inputs: inout Fingerprint) {
    inputs.add(fileIndex)
    inputs.add(number)
    inputs.add(file)
    inputs.add(fileID)
    inputs.add(typePath)
    inputs.add(key)
    inputs.add(valueType)
    switch registration {
    case .none: inputs.add("none")
    case .literal(let literal):
      inputs.add("literal")
      literal.describe(to: &inputs)
    case .registry(let evaluation), .mainActor(let evaluation), .defaultIsolation(let evaluation):
      inputs.add(registrationKind)
      inputs.add(evaluation.expression)
      inputs.add(evaluation.type)
    case .firstRead(let reason):
      inputs.add("firstRead")
      inputs.add(reason)
    }
    inputs.add(store)
    switch storeIsolation {
    case .nonisolated: inputs.add(0)
    case .defaultIsolation: inputs.add(1)
    case .mainActor: inputs.add(2)
    }
    inputs.add(storeKeptByDeclaration ? 1 : 0)
    inputs.add(movedFrom)
    inputs.add(renamedFrom)
    inputs.add(condition)
    if let lockCheck { inputs.add(lockCheck) } else { inputs.add(nil as String?) }
    inputs.add(availability.attributes)
    inputs.add(references.count)
    for reference in references {
      inputs.add(reference.fileID)
      inputs.add(reference.line)
    }
  }
}

extension PlistLiteral {
  func describe(to inputs: inout Fingerprint) {
    switch self {
    case .bool(let value): inputs.add(value ? "true" : "false")
    case .integer(let value):
      inputs.add("i")
      inputs.add(Int(truncatingIfNeeded: value))
    case .double(let value):
      inputs.add("d")
      inputs.mix(value.bitPattern)
    case .string(let value):
      inputs.add("s")
      inputs.add(value)
    case .array(let values):
      inputs.add("a")
      inputs.add(values.count)
      for value in values { value.describe(to: &inputs) }
    case .dictionary(let values):
      inputs.add("D")
      inputs.add(values.count)
      for key in values.keys.sorted() {
        inputs.add(key)
        values[key]!.describe(to: &inputs)
      }
    }
  }
}
