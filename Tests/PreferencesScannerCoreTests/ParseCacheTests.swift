import Foundation
import ScannerFuzzing
import Testing

@testable import PreferencesScannerCore

/// The parse cache the build plugin keeps: unchanged files are not parsed again, and what comes
/// from the cache is exactly what parsing gives.
@Suite struct ParseCacheTests {
  final class Directory {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent(
      "parse-cache-\(UUID().uuidString)"
    )
    .path
    init() { try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) }
    deinit { try? FileManager.default.removeItem(atPath: path) }
    func write(_ name: String, _ text: String) {
      try! Data(text.utf8).write(to: URL(fileURLWithPath: path + "/" + name))
    }
    var entries: [String] {
      ((try? FileManager.default.contentsOfDirectory(atPath: path + "/cache")) ?? []).sorted()
    }
  }

  func cache(_ directory: Directory, producer: String = "test scanner") -> ParseCache {
    ParseCache(directory: directory.path + "/cache", producer: producer)!
  }

  func scan(_ directory: Directory, cache: ParseCache?) throws -> PreferenceScanner.Result {
    try PreferenceScanner(module: "App").scan(paths: [directory.path + "/Sources"], cache: cache)
  }

  func sources(_ directory: Directory, _ files: [String: String]) {
    try! FileManager.default.createDirectory(
      atPath: directory.path + "/Sources", withIntermediateDirectories: true)
    for (name, text) in files { directory.write("Sources/" + name, text) }
  }

  /// Everything a scan reports and generates, as text.
  func outputs(_ result: PreferenceScanner.Result) -> String {
    var json = ""
    ScanOutput.json(result) { json += $0 }
    return json + PreferenceScanner.renderAll(result, module: "App")
      + result.diagnostics.map(\.description).joined(separator: "\n")
  }

  @Test func onlyFilesWhoseContentsChangedAreParsedAgain() throws {
    let directory = Directory()
    sources(
      directory,
      [
        "A.swift": "struct A {\n  @Preference var count = 1\n}\n",
        "B.swift": "struct B {\n  @Preference var name = \"b\"\n}\n",
        "C.swift": "struct C {\n  @Preference var on = true\n}\n",
      ])
    #expect(try scan(directory, cache: cache(directory)).reusedFiles == 0)
    #expect(try scan(directory, cache: cache(directory)).reusedFiles == 3)

    // An edit that keeps the file's size (and could keep its date): still parsed again.
    directory.write("Sources/A.swift", "struct A {\n  @Preference var count = 7\n}\n")
    var result = try scan(directory, cache: cache(directory))
    #expect(result.reusedFiles == 2)
    #expect(result.plans.first { $0.key == "A.count" }?.defaultText == "7")

    // Rewriting the same contents (a new date, as a checkout gives) parses nothing.
    directory.write("Sources/B.swift", "struct B {\n  @Preference var name = \"b\"\n}\n")
    #expect(try scan(directory, cache: cache(directory)).reusedFiles == 3)

    // A removed file's entry goes with it.
    #expect(directory.entries.count == 3)
    try FileManager.default.removeItem(atPath: directory.path + "/Sources/C.swift")
    result = try scan(directory, cache: cache(directory))
    #expect(result.reusedFiles == 2)
    #expect(result.plans.map(\.key).sorted() == ["A.count", "B.name"])
    #expect(directory.entries.count == 2)
  }

  @Test func damagedEntriesAndAnotherScannersEntriesAreParsedAgain() throws {
    let directory = Directory()
    sources(directory, ["A.swift": "struct A {\n  @Preference var count = 1\n}\n"])
    let expected = outputs(try scan(directory, cache: nil))
    _ = try scan(directory, cache: cache(directory))

    // A rebuilt scanner may read source differently: it ignores the old one's entries.
    var result = try scan(directory, cache: cache(directory, producer: "rebuilt scanner"))
    #expect(result.reusedFiles == 0)
    #expect(outputs(result) == expected)

    for name in directory.entries { directory.write("cache/" + name, "{\"truncated") }
    result = try scan(directory, cache: cache(directory))
    #expect(result.reusedFiles == 0)
    #expect(outputs(result) == expected)
    // The damaged entry was replaced.
    #expect(try scan(directory, cache: cache(directory)).reusedFiles == 1)

    // An entry cut short anywhere, or with any one byte changed, is parsed again, never read.
    let name = try #require(directory.entries.first)
    let whole = try [UInt8](Data(contentsOf: URL(fileURLWithPath: directory.path + "/cache/" + name)))
    #expect(whole.count > 100)
    for damaged in [Array(whole.prefix(whole.count / 2)), Array(whole.dropLast())]
      + stride(from: 0, to: whole.count, by: 7).map({ offset in
        var copy = whole
        copy[offset] ^= 0x10
        return copy
      })
    {
      try Data(damaged).write(to: URL(fileURLWithPath: directory.path + "/cache/" + name))
      result = try scan(directory, cache: cache(directory))
      #expect(result.reusedFiles == 0)
      #expect(outputs(result) == expected)
    }
  }

  /// Entries of the cache's earlier format (JSON) are removed, not left behind.
  @Test func entriesOfAnEarlierFormatAreRemoved() throws {
    let directory = Directory()
    sources(directory, ["A.swift": "struct A {\n  @Preference var count = 1\n}\n"])
    _ = try scan(directory, cache: cache(directory))
    directory.write("cache/00112233aabbccdd.json", "{}")
    #expect(directory.entries.count == 2)
    #expect(try scan(directory, cache: cache(directory)).reusedFiles == 1)
    #expect(directory.entries.count == 1 && directory.entries.allSatisfy { $0.hasSuffix(".syntax") })
  }

  /// A scan from the cache reports and generates byte for byte what a scan that parses does, for
  /// the package's own sources with declarations (the integration showcase, the diagnostics
  /// fixture, the demo) and the integration test's apps.
  @Test func scansFromTheCacheEqualScansThatParse() throws {
    let directory = Directory()
    let corpora = [
      "Tests/RegistryIntegrationTests", "Tests/PreferencesScannerCoreTests/Fixtures",
      "Sources/PreferencesDemo",
      "IntegrationTest",
    ]
    for corpus in corpora {
      let paths = [packageRoot.appendingPathComponent(corpus).path]
      let scanner = PreferenceScanner(module: "App")
      let parsed = try scanner.scan(paths: paths)
      #expect(!parsed.plans.isEmpty, "\(corpus) declares preferences")
      let cache = ParseCache(
        directory: directory.path + "/cache-" + corpus.replacingOccurrences(of: "/", with: "-"),
        producer: "test")!
      _ = try scanner.scan(paths: paths, cache: cache)
      let cached = try scanner.scan(paths: paths, cache: cache)
      #expect(cached.reusedFiles == parsed.files.count && cached.reusedFiles > 0)
      #expect(outputs(cached) == outputs(parsed), "\(corpus)")
    }
  }

  /// Every file's syntax survives the cache's encoding: the package's own sources and tests, and
  /// the fuzzer's tricky shapes (regex literals, raw strings, `#sourceLocation`, nested
  /// comments). Compared through `dump`, which lists every stored property, so that a field the
  /// encoding leaves out (on both sides) is still seen.
  @Test func everyFilesSyntaxSurvivesTheCache() throws {
    func dumped(_ syntax: FileSyntax) -> String {
      var text = ""
      dump(syntax, to: &text, maxDepth: .max, maxItems: .max)
      return text
    }
    let files =
      ScannerFuzzTests.corpus.map { ($0.name, $0.source) }
      + ScannerFuzzer.tricky.enumerated().map { ("Tricky\($0.offset).swift", Array($0.element.0.utf8)) }
    #expect(files.count > 50)
    var declarations = 0
    for (name, source) in files {
      let syntax = FileParser.parse(path: name, module: "App", contents: source)
      var writer = ArchiveWriter()
      writer.item(syntax)
      var reader = ArchiveReader(writer.bytes)
      let decoded = try reader.item(FileSyntax.self)
      #expect(reader.isAtEnd, "\(name)")
      #expect(dumped(decoded) == dumped(syntax), "\(name)")
      #expect(decoded.preferences.count == syntax.preferences.count, "\(name)")
      for (a, b) in zip(decoded.preferences, syntax.preferences) {
        #expect(a.defaultValue == b.defaultValue && a.arguments.store == b.arguments.store, "\(name)")
        #expect(a.defaultValue?.tokens == b.defaultValue?.tokens, "\(name)")
        declarations += 1
      }
      #expect(decoded.diagnostics == syntax.diagnostics, "\(name)")
    }
    #expect(declarations > 50)
  }

  /// Reading an archive cut short at every length throws; it never traps or reads past the end.
  @Test func aTruncatedArchiveThrows() throws {
    let source = Array(
      "import Foundation\n#if DEBUG\nstruct A {\n  @Preference(key: \"k\", renamedFrom: \"o\") var x: [Int] = [1, 2]\n}\n#endif\n"
        .utf8)
    var writer = ArchiveWriter()
    writer.item(FileParser.parse(path: "A.swift", module: "App", contents: source))
    for length in 0..<writer.bytes.count {
      var reader = ArchiveReader(Array(writer.bytes.prefix(length)))
      #expect(throws: ArchiveReader.Damaged.self) { try reader.item(FileSyntax.self) }
    }
  }

  @Test func theFingerprintTellsEditsApart() {
    let base = Array("struct A {\n  @Preference var count = 1\n}\n".utf8)
    var seen: Set<UInt64> = [ParseCache.fingerprint(base)]
    // Every single-byte change at every position, in the words and in the tail.
    for index in base.indices {
      var edited = base
      edited[index] ^= 0x01
      seen.insert(ParseCache.fingerprint(edited))
      edited[index] ^= 0x81
      seen.insert(ParseCache.fingerprint(edited))
    }
    #expect(seen.count == 1 + 2 * base.count)
    #expect(ParseCache.fingerprint(base) == ParseCache.fingerprint(base))
  }
}
