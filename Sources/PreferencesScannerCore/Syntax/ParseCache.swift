#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// What the parser read from each source file, kept between runs of the scanner, so that a run
/// parses only the files whose contents changed.
///
/// The build plugin runs the scanner over the whole target whenever any of its files changes;
/// with this cache (the plugin keeps one in its work directory) an edit re-parses the edited file
/// and decodes the others. One entry per source file, named after its path, holds that file's
/// ``FileSyntax`` with what it was parsed from: the path, the module, the contents' size and
/// fingerprint, and the scanner that parsed it (its executable's size and modification time, so
/// that a rebuilt scanner, which may read source differently, parses everything afresh).
///
/// Entries are checked against the contents, not file dates: a file restored with an old date or
/// edited twice within one clock tick is still re-parsed. An entry that cannot be read or decoded
/// (from another version, or damaged) is parsed again and replaced; the cache only ever holds
/// copies of what parsing produces, so losing it loses nothing. Entries of files no longer
/// scanned are removed.
package struct ParseCache: Sendable {
  /// The folder that holds the entries.
  package let directory: String
  /// Who parsed: the cache format and the scanner's identity. Entries by another are ignored.
  package let producer: String

  /// A cache in `directory` (created if missing), for entries made by `producer` (the running
  /// scanner by default).
  /// Returns `nil` when the running scanner cannot be identified, so that no entry could be
  /// mistaken for one it made.
  package init?(directory: String, producer: String? = ParseCache.runningScanner) {
    guard let producer else { return nil }
    self.directory = directory
    self.producer = producer
    try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
  }

  /// The cache format: raise it when an entry's encoding changes.
  static let format = 11

  /// The running executable's size and modification time, with the cache format.
  package static let runningScanner: String? = {
    guard let path = FileSystem.executablePath, let status = FileSystem.status(path) else { return nil }
    return "\(format) \(path) \(status.size) \(status.modified)"
  }()

  /// An entry: the fingerprint of the rest (so that a damaged entry is never read as valid),
  /// then the producer, module, path, size and fingerprint of the contents, then the syntax
  /// (see `SyntaxArchive.swift`).
  private static func entry(
    producer: String, module: String, path: String, contents: [UInt8], fingerprint: UInt64, syntax: FileSyntax
  ) -> [UInt8] {
    var writer = ArchiveWriter()
    writer.string(producer)
    writer.string(module)
    writer.string(path)
    writer.int(contents.count)
    writer.uint64(fingerprint)
    writer.item(syntax)
    var sealed = ArchiveWriter()
    sealed.uint64(Self.fingerprint(writer.bytes))
    return sealed.bytes + writer.bytes
  }

  /// The syntax in `entry`, if it is whole and was made by this scanner from exactly
  /// `contents` of the file at `path` in `module`.
  private func syntax(
    in entry: [UInt8], path: String, module: String, contents: [UInt8], fingerprint: UInt64
  ) -> FileSyntax? {
    var reader = ArchiveReader(entry)
    var sealed = Fingerprint()
    entry.withUnsafeBytes { sealed.add(UnsafeRawBufferPointer(rebasing: $0[8...])) }
    guard let seal = try? reader.uint64(), seal == sealed.value else { return nil }
    do {
      guard try reader.string() == producer, try reader.string() == module, try reader.string() == path,
        try reader.int() == contents.count, try reader.uint64() == fingerprint
      else { return nil }
      let syntax = try reader.item(FileSyntax.self)
      return reader.isAtEnd ? syntax : nil
    } catch {
      return nil
    }
  }

  /// The syntax of the file at `path` with `contents`: the cached one when this scanner parsed
  /// the same contents before, or the file parsed now (and cached). `reused` says which.
  /// `fingerprint` is `fingerprint(contents)`, if the caller has it.
  package func syntax(path: String, module: String, contents: [UInt8], fingerprint: UInt64? = nil) -> (
    syntax: FileSyntax, reused: Bool
  ) {
    let fingerprint = fingerprint ?? Self.fingerprint(contents)
    let entryPath = entryPath(for: path)
    if let data = FileManager.default.contents(atPath: entryPath), data.count >= 8,
      let syntax = syntax(
        in: [UInt8](data), path: path, module: module, contents: contents, fingerprint: fingerprint)
    {
      return (syntax, true)
    }
    let syntax = FileParser.parse(path: path, module: module, contents: contents)
    let entry = Self.entry(
      producer: producer, module: module, path: path, contents: contents, fingerprint: fingerprint,
      syntax: syntax)
    // A cache that cannot be written only costs the next run a parse. Written with C's stdio:
    // no temporary file, rename or fsync (Foundation's writes sync each file, which cost a
    // clean build of 300 files 0.1 s). An entry cut short by a crash fails its seal, and is
    // parsed again like any damaged one.
    entry.withUnsafeBytes { _ = FileSystem.writeUnsynced($0, to: entryPath) }
    return (syntax, false)
  }

  /// Removes the entries of files other than `paths`.
  package func removeEntries(except paths: [String]) {
    let kept = Set(paths.map { entryName(for: $0) })
    // Entries of earlier formats (`.json`) go too.
    for name in (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
    where (name.hasSuffix(Self.entrySuffix) || name.hasSuffix(".json")) && !kept.contains(name) {
      try? FileManager.default.removeItem(atPath: directory + "/" + name)
    }
  }

  /// The entry's file name: the fingerprint of the path, in hex.
  private func entryName(for path: String) -> String {
    let hex = String(Self.fingerprint(Array(path.utf8)), radix: 16)
    return String(repeating: "0", count: 16 - hex.count) + hex + Self.entrySuffix
  }

  private static let entrySuffix = ".syntax"

  private func entryPath(for path: String) -> String { directory + "/" + entryName(for: path) }

  /// The fingerprint of `bytes` (``Fingerprint``).
  static func fingerprint(_ bytes: [UInt8]) -> UInt64 { Fingerprint.of(bytes) }
}
