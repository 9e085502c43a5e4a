import Foundation
import ScannerFuzzing
import Testing

@testable import PreferencesScannerCore

/// Deterministic fuzzing: fixed seeds, so a failure replays exactly. For a long run:
/// `PREFERENCES_OPTIMIZED_SCANNER=1 swift run -c release preferences-fuzz --iterations 1000000`.
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
    #expect(report.injectionsChecked > 0 && report.malformedChecked > 0 && report.trickyChecked > 0)
    #expect(report.byStrategy.count == 9, "\(report.byStrategy)")
  }

  /// Every input a fuzz run found failing (`preferences-fuzz --dump`, as `.ci/run` runs it), kept
  /// with what it was checked for, replays without failing.
  @Test func everyKeptFailingInputReplays() throws {
    let folder = packageRoot.appendingPathComponent(
      "Tests/PreferencesScannerCoreTests/Fixtures/FuzzRegressions")
    let inputs = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter {
      $0.hasSuffix(".input")
    }
    #expect(inputs.count >= 2, "the kept inputs are read")
    for name in inputs.sorted() {
      let input = [UInt8](try Data(contentsOf: folder.appendingPathComponent(name)))
      let expectation = try String(
        contentsOf: folder.appendingPathComponent(String(name.dropLast(".input".count)) + ".expect"),
        encoding: .utf8)
      let expected = try #require(
        ScannerFuzzer.Expectation(text: expectation.trimmingCharacters(in: .newlines)), "\(name)")
      #expect(ScannerFuzzer.check(input, expectation: expected, name: name) == nil, "\(name)")
    }
  }

  @Test func everyTrickyShapeIsFoundUnderItsKey() {
    for (source, key, error) in ScannerFuzzer.tricky {
      let result = PreferenceScanner(module: "M").scan(files: [("t.swift", Array(source.utf8))])
      #expect(result.plans.map(\.key) == [key], "\(source)")
      #expect(
        result.diagnostics.filter { $0.severity == .error }.map(\.message) == (error.map { [$0] } ?? []),
        "\(source): \(result.diagnostics)")
    }
  }

  @Test func theOracleCatchesADeclarationReportedFromAComment() {
    let result = PreferenceScanner(module: "M").scan(files: [
      ("f.swift", Array("struct A { /* @Preference var injected1 = 1 */ @Preference var real = 1 }".utf8))
    ])
    #expect(result.plans.map(\.property) == ["real"])
  }

  /// Every bracketing construct nested deep: the scan finishes, and generated code stays within
  /// a constant factor of the input (it mirrors `#if` nesting instead of repeating conditions).
  @Test func deepNestingOfEveryShapeFinishesWithLinearOutput() {
    let depth = 4_000
    let inputs = [
      String(repeating: "struct N { ", count: depth) + "@Preference var deep = 1 "
        + String(repeating: "} ", count: depth),
      String(repeating: "\"\\(", count: depth),
      String(repeating: "/*", count: depth),
      String(repeating: "[", count: depth) + "@Preference",
      "struct A { @Preference var a = " + String(repeating: "[", count: depth)
        + String(repeating: "]", count: depth) + " }",
      String(repeating: "#if X\n", count: depth),
      "struct A {\n" + String(repeating: "nonisolated(", count: depth) + "\n@Preference var a = 1 }",
      "enum E { case a(" + String(repeating: "(", count: depth) + "\n}\nstruct A { @Preference var a = 1 }",
      "struct A {\n" + (0..<depth).map { "#if C\($0)\n@Preference var p\($0) = \($0)\n" }.joined()
        + String(repeating: "#endif\n", count: depth) + "}",
      "struct A {\n#if C0\n@Preference var p = 0\n"
        + (1..<depth).map { "#elseif C\($0)\n@Preference var p = \($0)\n" }.joined()
        + "#endif\n}",
    ]
    for input in inputs {
      let result = PreferenceScanner(module: "M").scan(files: [("deep.swift", Array(input.utf8))])
      let generated = PreferenceScanner.renderAll(result, module: "M")
      #expect(
        generated.utf8.count < 64 * input.utf8.count + 16_384,
        "\(input.prefix(40)): \(generated.utf8.count) bytes")
    }
    // Too deep for the registry to name the type: one error that says so.
    let nested = PreferenceScanner(module: "M").scan(files: [("deep.swift", Array(inputs[0].utf8))])
    #expect(nested.plans.isEmpty)
    #expect(errors(nested).count == 1)
    #expect(errors(nested).first?.contains("nested \(depth) levels deep") == true)
    // Within the limit, the key is every enclosing type's name.
    let shallow = 400
    let fits =
      String(repeating: "struct N { ", count: shallow) + "@Preference var deep = 1 "
      + String(repeating: "} ", count: shallow)
    let planned = PreferenceScanner(module: "M").scan(files: [("deep.swift", Array(fits.utf8))])
    #expect(planned.plans.first?.typePath.count == shallow)
    #expect(
      planned.plans.first?.key == Array(repeating: "N", count: shallow).joined(separator: ".") + ".deep")
  }

  /// Each `<` after a name is looked at as the start of generic arguments; `a<a<a<…` must not
  /// make every one of them read to the end (quadratic: 165 s for 40,000 of them before the
  /// look was bounded). Likewise a declared type nested as deep. The limit is a backstop sized
  /// for the debug build on a loaded 2-core machine: these inputs take about 4 s each there when
  /// linear (30,000 of each), and over 90 s each when quadratic.
  @Test(.timeLimit(.minutes(1))) func aLongChainOfAngleBracketsIsReadInLinearTime() {
    let depth = 30_000
    let chain = String(repeating: "a<", count: depth) + "b"
    // And the dictionary-key check on a declared type nested as deep.
    let brackets = String(repeating: "[", count: depth) + "Int: Int" + String(repeating: "]", count: depth)
    let generics =
      String(repeating: "Dictionary<", count: depth) + "Int" + String(repeating: ">", count: depth)
    let inputs = [
      "struct S { @Preference var x = \(chain) }",
      "struct S { @Preference(store: \(chain)) var x = 1 }",
      "struct S { @Preference var x: \(brackets) = [:] }",
      "struct S { @Preference var x: \(generics) = [:] }",
    ]
    for input in inputs {
      let result = PreferenceScanner(module: "M").scan(files: [("chain.swift", Array(input.utf8))])
      #expect(result.plans.map(\.key) == ["S.x"])
    }
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

  /// The fuzzer's crash (seed 6379580808, 30,000 inputs): a backslash as the last byte of an
  /// unterminated `#/…/#` regex literal made a token end past the input, and slicing a `#if`
  /// condition's text out of range ended the process. Each form must be a diagnostic.
  @Test(arguments: ["#/x\\", "#if #/\\", "#if os(macOS) || #/a\\", "##/ \\", "#/\\"])
  func aBackslashEndingARegexLiteralIsADiagnosticNotACrash(source: String) {
    let result = PreferenceScanner(module: "Fuzz").scan(files: [("end.swift", Array(source.utf8))])
    #expect(result.diagnostics.contains { $0.message.contains("unterminated regex literal") })
  }

  /// Thousands of same-named types (a bad merge, a generator) are merged into one type per name;
  /// what the planner walks for each declaration (the type's conformances) must not grow with the
  /// number of repeats, or the scan grows with their square (1 MB took 230 s). The time itself is
  /// a row of the benchmark (`repeated type names`); here, the structure that keeps it linear.
  @Test func repeatedTypeNamesKeepOneEntryPerConformance() {
    let shape =
      "enum E: String, Codable { case a }\nstruct T: P { @Preference var e = E.a }\nextension E: Codable {}\n"
    let files = [
      FileParser.parse(
        path: "r.swift", module: "M", contents: Array(String(repeating: shape, count: 2_000).utf8))
    ]
    let index = ModuleIndex(files)
    let e = index.child("E", of: nil)
    let t = index.child("T", of: nil)
    #expect(e.map { index[$0].conformances } == ["String", "Codable"])
    #expect(t.map { index[$0].conformances } == ["P"])
    let result = PreferenceScanner(module: "M").analyze(files)
    #expect(result.plans.count == 2_000)
  }
}
