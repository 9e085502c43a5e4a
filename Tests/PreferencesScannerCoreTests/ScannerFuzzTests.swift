import Foundation
import ScannerFuzzing
import Testing

@testable import PreferencesScannerCore

/// Deterministic fuzzing: fixed seeds, so a failure replays exactly. For a long run:
/// `swift run -c release preferences-fuzz --iterations 1000000`.
@Suite struct ScannerFuzzTests {
  static let corpus: [(name: String, source: [UInt8])] = {
    (try? ScannerFuzzer.loadCorpus([
      packageRoot.appendingPathComponent("Sources").path, packageRoot.appendingPathComponent("Tests").path,
    ])) ?? []
  }()

  @Test(arguments: [1 as UInt64, 2, 3, 4])
  func seededFuzzRunFindsNoFailure(seed: UInt64) {
    #expect(Self.corpus.count > 20, "the fuzzer mutates the project's own sources")
    let report = ScannerFuzzer(corpus: Self.corpus).run(iterations: 400, seed: seed)
    #expect(report.failures.isEmpty, "\(report.failures)")
    #expect(report.injectionsChecked > 0 && report.malformedChecked > 0)
    #expect(report.byStrategy.count == 8, "\(report.byStrategy)")
  }

  @Test func theOracleCatchesADeclarationReportedFromAComment() {
    // A scanner that ignored comments would report this; ours must not, and the fuzzer's check
    // is the same comparison.
    let result = PreferenceScanner(module: "M").scan(files: [
      ("f.swift", Array("struct A { /* @Preference var injected1 = 1 */ @Preference var real = 1 }".utf8))
    ])
    #expect(result.preferences.map(\.property) == ["real"])
  }

  @Test func nestingTenThousandDeepFinishes() {
    let depth = 10_000
    let inputs = [
      String(repeating: "struct N { ", count: depth) + "@Preference var deep = 1 "
        + String(repeating: "} ", count: depth),
      String(repeating: "\"\\(", count: depth),
      String(repeating: "/*", count: depth),
      String(repeating: "[", count: depth) + "@Preference",
      "struct A { @Preference var a = " + String(repeating: "[", count: depth)
        + String(repeating: "]", count: depth) + " }",
      String(repeating: "#if X\n", count: depth),
    ]
    for input in inputs {
      let result = PreferenceScanner(module: "M").scan(files: [("deep.swift", Array(input.utf8))])
      _ = result.preferences
    }
    let nested = PreferenceScanner(module: "M").scan(files: [("deep.swift", Array(inputs[0].utf8))])
    #expect(nested.preferences.first?.typePath.count == depth)
  }

  @Test func aTenMegabyteInputFinishes() {
    var source: [UInt8] = []
    let pieces = Self.corpus.map(\.source)
    var index = 0
    while source.count < 10_000_000 {
      source += pieces[index % pieces.count]
      source.append(UInt8(ascii: "\n"))
      index += 1
    }
    let result = PreferenceScanner(module: "M").scan(files: [("big.swift", source)])
    #expect(result.lineCount > 100_000)
  }

  @Test func malformedSourcesAreReported() {
    let cases = [
      "struct A {\n  @Preference var a = 1\n", "#if DEBUG\nstruct A {}\n", "}\nstruct A {}",
      "let s = \"open\n",
    ]
    for source in cases {
      let result = PreferenceScanner(module: "M").scan(files: [("m.swift", Array(source.utf8))])
      #expect(result.diagnostics.contains { $0.severity == .warning }, "\(source)")
    }
  }
}
