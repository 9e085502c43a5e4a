import Foundation
import PreferencesScannerCore

/// A small, fast, seedable random number generator, so that every fuzz run can be replayed.
public struct SplitMix64: RandomNumberGenerator, Sendable {
  private var state: UInt64
  /// A generator whose sequence is fixed by `seed`.
  public init(seed: UInt64) { state = seed }
  /// The next number of the sequence.
  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

/// Feeds the scanner hostile input and checks what it must always do: finish, never report a
/// declaration from inside a comment or string, and report malformed input.
///
/// Strategies: random bytes; random Swift-ish token soup; invalid UTF-8 spliced into real
/// sources; truncated sources; token deletion, duplication and swapping; unterminated comments
/// and strings; nesting thousands deep of every bracketing construct (types, braces,
/// parentheses, brackets, generics, interpolations, comments, `#if` with declarations at each
/// level, `#elseif` chains, `nonisolated(`, `case a(`); valid Swift that has hidden declarations
/// from scanners before (bare regex literals, `#sourceLocation`, a byte order mark, backticked
/// type names, comments inside `#if` conditions), which must each be found with the right key;
/// and an oracle that injects `@Preference` declarations inside comments, string and regex
/// literals of real sources and expects none of them back. Every input's generated registry
/// must stay within a constant factor of the input's size.
public struct ScannerFuzzer: Sendable {
  /// What a run checked, and what failed.
  public struct Report: Sendable, CustomStringConvertible {
    /// Inputs scanned.
    public var iterations = 0
    /// Bytes of input scanned.
    public var bytesScanned = 0
    /// Inputs with declarations injected into comments and literals, checked to come back empty.
    public var injectionsChecked = 0
    /// Malformed inputs checked to be reported.
    public var malformedChecked = 0
    /// Valid inputs of tricky shapes checked to be found under the right keys.
    public var trickyChecked = 0
    /// What went wrong, one line per failing input.
    public var failures: [String] = []
    /// The inputs behind `failures`, to replay.
    public var failingInputs: [[UInt8]] = []
    /// What each failing input was checked for, in `failingInputs`' order
    /// (``ScannerFuzzer/Expectation/text``), so that it replays as a regression fixture.
    public var failingExpectations: [Expectation] = []
    /// Inputs per strategy.
    public var byStrategy: [String: Int] = [:]

    /// An empty report, to add batches to.
    public init() {}

    /// A description for logs and diagnostics.
    public var description: String {
      let strategies = byStrategy.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(
        separator: ", ")
      return
        "\(iterations) inputs (\(bytesScanned) bytes): \(injectionsChecked) injection checks, \(trickyChecked) valid-Swift checks, \(malformedChecked) malformed-input checks, \(failures.count) failures [\(strategies)]"
    }
  }

  /// Real Swift sources the strategies mutate.
  public let corpus: [(name: String, source: [UInt8])]
  /// The deepest nesting generated.
  public let maximumNesting: Int

  /// - Parameters:
  ///   - corpus: Real Swift sources to mutate.
  ///   - maximumNesting: The deepest nesting to generate (10,000 for the issue's bound).
  public init(corpus: [(name: String, source: [UInt8])], maximumNesting: Int = 10_000) {
    self.corpus = corpus.filter { !$0.source.isEmpty }
    self.maximumNesting = maximumNesting
  }

  /// The `.swift` files under `paths`, as a corpus.
  public static func loadCorpus(_ paths: [String]) throws -> [(name: String, source: [UInt8])] {
    try PreferenceScanner.swiftFiles(in: paths).compactMap { path in
      FileManager.default.contents(atPath: path).map { (path, [UInt8]($0)) }
    }
  }

  static let soup: [String] = [
    "{", "}", "(", ")", "[", "]", "\"", "\"\"\"", "#\"", "\"#", "/*", "*/", "//", "///", "\\(", "#if",
    "#else",
    "#endif", "@Preference", "var", "let", "struct", "class", "enum", "actor", "extension", "=", ":", ",",
    ";",
    "\n", " ", "x", "Type", "#/", "/#", "`", "static", "private(set)", "0.5", "nil", "<T>", "->", "'", "\\",
  ]

  static let injections: [(prefix: String, suffix: String)] = [
    ("/* ", " */"), ("// ", "\n"), ("/// ", "\n"), ("/** ", " */"), ("/* /* nested */ ", " */"), ("\"", "\""),
    ("#\"", "\"#"), ("\"\"\"\n", "\n\"\"\""), ("##\"", "\"##"), ("\"\\(\"", "\")\""), ("#/", "/#"),
    ("_ = /x", "y/;"),
  ]

  /// Valid Swift shapes that hid declarations from the scanner before; each declares
  /// `@Preference var found` that must be reported under `key`, with no error but `error`, when
  /// the shape is one no store can hold (the error then shows that the type was read whole).
  package static let tricky: [(source: String, key: String, error: String?)] = [
    (
      "struct R { @Preference(\\R.found) var alias\n @Preference var found = 1 }",
      "R.found", nil
    ),
    (
      "struct R { func f(_ s: String) -> Bool { s.contains(/\\/*/) }\n @Preference var found = 1 }",
      "R.found", nil
    ),
    ("struct R { let a = /\\//; let b = /\"/\n @Preference var found = 1 }", "R.found", nil),
    ("struct R { let r = try? /[{(]+/.firstMatch(in: \"x\")\n @Preference var found = 1 }", "R.found", nil),
    (
      "struct R {\n#sourceLocation(file: \"Gen.gyb\", line: 40)\n @Preference var found = 1\n#sourceLocation()\n}",
      "R.found", nil
    ),
    ("\u{FEFF}struct R { @Preference var found = 1 }", "R.found", nil),
    ("enum `default` { enum Options { @Preference var found = 1 } }", "default.Options.found", nil),
    (
      "struct R {\n#if os(Linux) /* comment */ || os(macOS)\n @Preference var found = 1\n#endif\n}",
      "R.found", nil
    ),
    ("struct R {\n#if os(Linux) ||\n  os(macOS)\n @Preference var found = 1\n#endif\n}", "R.found", nil),
    ("struct R { let x = 1 / 2 / 3\n @Preference var found = 1 }", "R.found", nil),
    ("struct R { let q = #\"\"\"#\n @Preference var found = 1 }", "R.found", nil),
    (
      "struct R { @Preference var found: @Sendable () async -> Int = { 1 } }", "R.found",
      "@Preference 'found' stores @Sendable () async -> Int: a function type cannot conform to PreferenceValue, so no store can hold it; store the data it is made from instead (a Codable struct is stored as JSON text)"
    ),
    (
      "struct R { let t = Task<Void, Never> {}\n @Preference var found = Dictionary<String, Int>() }",
      "R.found", nil
    ),
  ]

  /// Runs `iterations` inputs from `seed`.
  ///
  /// What an input is checked for, beyond finishing: every input's registry stays within a
  /// constant factor of its size, and each kind adds its own check.
  public enum Expectation: Sendable, Equatable {
    /// Nothing more.
    case bounded
    /// Declarations named `name…` were injected into comments and literals: none comes back.
    case injected(String)
    /// An unterminated comment or string: reported.
    case unterminated
    /// Valid Swift: the declaration of `key` is found, with exactly this error (or none).
    case tricky(key: String, error: String?)

    /// A line of text for the fixture's `.expect` file.
    public var text: String {
      switch self {
      case .bounded: "bounded"
      case .injected(let name): "injected \(name)"
      case .unterminated: "unterminated"
      case .tricky(let key, let error): "tricky \(key)" + (error.map { "\n\($0)" } ?? "")
      }
    }

    /// The expectation a fixture's `.expect` file states.
    public init?(text: String) {
      let lines = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
      let words = lines[0].split(separator: " ", maxSplits: 1).map(String.init)
      switch words.first {
      case "bounded": self = .bounded
      case "injected" where words.count == 2: self = .injected(words[1])
      case "unterminated": self = .unterminated
      case "tricky" where words.count == 2:
        self = .tricky(key: words[1], error: lines.count > 1 && !lines[1].isEmpty ? lines[1] : nil)
      default: return nil
      }
    }
  }

  /// Scans `input` and checks it as `expectation` says; returns what failed, or `nil`.
  public static func check(_ input: [UInt8], expectation: Expectation, name: String = "input.swift")
    -> String?
  {
    let result = PreferenceScanner(module: "Fuzz").scan(files: [(name, input)])
    let generated = PreferenceScanner.renderAll(result, module: "Fuzz")
    if generated.utf8.count > 64 * input.count + 16_384 {
      return "\(input.count) bytes of input generated \(generated.utf8.count) bytes of registry"
    }
    switch expectation {
    case .bounded:
      return nil
    case .injected(let injected):
      guard let found = result.plans.first(where: { $0.property.hasPrefix(injected) }) else { return nil }
      return "reported \(found.property) from inside a comment or string"
    case .unterminated:
      return result.diagnostics.contains(where: { $0.severity != .note })
        ? nil : "an unterminated comment or string produced no diagnostic"
    case .tricky(let key, let error):
      let errors = result.diagnostics.filter { $0.severity == .error }.map(\.message)
      return result.plans.contains(where: { $0.key == key }) && errors == (error.map { [$0] } ?? [])
        ? nil : "valid Swift lost '\(key)': \(result.plans.map(\.key)) \(result.diagnostics)"
    }
  }

  /// - Parameters:
  ///   - iterations: How many inputs to generate and scan.
  ///   - seed: The random seed; a run replays exactly from it.
  ///   - maximumSize: The largest input generated, in bytes.
  ///   - current: Where each input is written before it is scanned, so that an input that
  ///     crashes the scanner (a failed bounds check ends the process) is left there to replay.
  /// - Returns: What was checked, and what failed.
  public func run(iterations: Int, seed: UInt64, maximumSize: Int = 16_384, current: URL? = nil) -> Report {
    var random = SplitMix64(seed: seed)
    var report = Report()
    for iteration in 0..<iterations {
      let strategy = Int(random.next() % 10)
      var input: [UInt8]
      var injected: String?
      var expectProblem = false
      var expectedKey: String?
      var expectedError: String?
      let base =
        corpus.isEmpty
        ? Array("struct A { @Preference var a = 1 }".utf8)
        : corpus[Int(random.next() % UInt64(corpus.count))].source
      switch strategy {
      case 0:
        input = (0..<Int(random.next() % UInt64(maximumSize))).map { _ in
          UInt8(truncatingIfNeeded: random.next())
        }
        report.byStrategy["random bytes", default: 0] += 1
      case 1:
        input = Array(
          (0..<Int(random.next() % 2000)).map { _ in Self.soup[Int(random.next() % UInt64(Self.soup.count))] }
            .joined().utf8)
        report.byStrategy["token soup", default: 0] += 1
      case 2:
        input = base
        for _ in 0..<(1 + Int(random.next() % 8)) {
          let invalid: [[UInt8]] = [
            [0xFF], [0xC0, 0x80], [0xED, 0xA0, 0x80], [0xF8, 0x88, 0x80, 0x80, 0x80], [0x80], [0xE2, 0x82],
          ]
          input.insert(
            contentsOf: invalid[Int(random.next() % UInt64(invalid.count))],
            at: Int(random.next() % UInt64(input.count + 1)))
        }
        report.byStrategy["invalid UTF-8", default: 0] += 1
      case 3:
        input = Array(base.prefix(Int(random.next() % UInt64(base.count + 1))))
        report.byStrategy["truncated", default: 0] += 1
      case 4:
        input = mutateTokens(base, &random)
        report.byStrategy["token mutations", default: 0] += 1
      case 5:
        let forms = [
          "/* never closed @Preference var x = 1", "\"never closed", "\"\"\"\nnever closed",
          "#\"never closed", "/* /* */",
        ]
        input = base + Array(("\n" + forms[Int(random.next() % UInt64(forms.count))]).utf8)
        expectProblem = true
        report.byStrategy["unterminated", default: 0] += 1
      case 6:
        input = deepNesting(&random)
        report.byStrategy["deep nesting", default: 0] += 1
      case 7:
        let (source, key, error) = Self.tricky[Int(random.next() % UInt64(Self.tricky.count))]
        input = Array(source.utf8)
        expectedKey = key
        expectedError = error
        report.byStrategy["tricky valid Swift", default: 0] += 1
      default:
        let name = "injected\(iteration)"
        input = inject(name, into: base, &random)
        injected = name
        report.byStrategy["injection oracle", default: 0] += 1
      }
      report.iterations += 1
      report.bytesScanned += input.count
      if let current { try? Data(input).write(to: current) }
      let expectation: Expectation
      if let expectedKey {
        report.trickyChecked += 1
        expectation = .tricky(key: expectedKey, error: expectedError)
      } else if let injected {
        report.injectionsChecked += 1
        expectation = .injected(injected)
      } else if expectProblem {
        report.malformedChecked += 1
        expectation = .unterminated
      } else {
        expectation = .bounded
      }
      if let failure = Self.check(input, expectation: expectation, name: "fuzz-\(iteration).swift") {
        report.failures.append("seed \(seed) input \(iteration): \(failure)")
        report.failingInputs.append(input)
        report.failingExpectations.append(expectation)
      }
    }
    return report
  }

  private func mutateTokens(_ source: [UInt8], _ random: inout SplitMix64) -> [UInt8] {
    let tokens = PreferenceScanner.tokens(of: source)
    guard tokens.count > 2 else { return source }
    var ranges = tokens.map { Int($0.start)..<Int($0.end) }
    for _ in 0..<(1 + Int(random.next() % 6)) {
      let index = Int(random.next() % UInt64(ranges.count))
      switch random.next() % 3 {
      case 0: ranges.remove(at: index)
      case 1: ranges.insert(ranges[index], at: index)
      default: ranges.swapAt(index, Int(random.next() % UInt64(ranges.count)))
      }
      if ranges.count < 2 { break }
    }
    var output: [UInt8] = []
    for range in ranges { output += source[range]; output.append(UInt8(ascii: " ")) }
    return output
  }

  private func deepNesting(_ random: inout SplitMix64) -> [UInt8] {
    let depth = 1 + Int(random.next() % UInt64(maximumNesting))
    let shapes: [(open: String, close: String)] = [
      ("struct N { ", "} "), ("{", "}"), ("(", ")"), ("[", "]"), ("\"\\(", ")\""), ("/*", "*/"),
      ("#if X\n", "#endif\n"), ("#if X\nstruct N { @Preference var p = 1\n", "}\n#endif\n"),
      ("#if A\n#elseif B\nstruct E { @Preference var p = 1 }\n", ""), ("nonisolated(", ")"),
      ("enum E { case a(", ") }"), ("Array<", ">"), ("struct G<T", "> {}"), ("x = { _ in ", "}"),
    ]
    let shape = shapes[Int(random.next() % UInt64(shapes.count))]
    var text = String(repeating: shape.open, count: depth) + "@Preference var deep = 1\n"
    if random.next() % 2 == 0 { text += String(repeating: shape.close, count: depth) }
    if shape.open.hasPrefix("#if A") { text += "#endif\n" }
    return Array(text.utf8)
  }

  private func inject(_ name: String, into source: [UInt8], _ random: inout SplitMix64) -> [UInt8] {
    let tokens = PreferenceScanner.tokens(of: source)
    let form = Self.injections[Int(random.next() % UInt64(Self.injections.count))]
    let payload = Array(
      (" " + form.prefix
        + "@Preference var \(name) = 1; struct \(name)Type { @Preference var \(name)Inner = 2 }" + form.suffix
        + " ").utf8)
    // After any token is outside every comment and string: a safe place for a new one. Not
    // after `#if`: the rest of that line is its condition, where a multi-line string cannot start.
    let candidates = tokens.filter { $0.kind != .directive }
    // A backticked identifier's range excludes its closing backtick.
    var position = 0
    if !candidates.isEmpty {
      let token = candidates[Int(random.next() % UInt64(candidates.count))]
      position = Int(token.end) + (token.isBackticked ? 1 : 0)
    }
    var output = source
    output.insert(contentsOf: payload, at: position)
    return output
  }
}
