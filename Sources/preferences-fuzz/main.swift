// A long fuzz run of the scanner: preferences-fuzz [--iterations N | --seconds S] [--seed S] [--max-size BYTES] [PATH...]
// PATHs (default: Sources and Tests) give the real sources to mutate. Exits 1 on any failure.
import Foundation
import PreferencesScannerCore
import ScannerFuzzing

var iterations = 100_000
var seconds: Double?
var seed = UInt64(Date().timeIntervalSince1970)
var maximumSize = 16_384
var paths: [String] = []
var dump: String?
var current = FileManager.default.temporaryDirectory.appendingPathComponent("preferences-fuzz-current.swift")
let usage = """
  USAGE: preferences-fuzz [--iterations N | --seconds S] [--seed S] [--max-size BYTES] [--dump DIR]
                          [--current FILE] [PATH...]

  Feeds the scanner N hostile inputs (default 100000), or as many as fit in S seconds, from seed S
  (default: the time, printed), built from the .swift files under PATHs (default: Sources and
  Tests), and checks what it must always do.

  --dump DIR      writes each failing input to DIR as fuzz-SEED-N.input, with what it was checked
                  for in fuzz-SEED-N.expect; commit them to
                  Tests/PreferencesScannerCoreTests/Fixtures/FuzzRegressions, which the tests
                  replay.
  --current FILE  where each input is written before it is scanned (default:
                  preferences-fuzz-current.swift in the temporary directory), so that an input
                  that crashes the scanner stays there: replay it with
                  `preferences-scanner scan FILE`.

  Exit status: 0 when every check passed, 1 otherwise, 2 for invalid arguments.

  """
func usageError(_ message: String) -> Never {
  FileHandle.standardError.write(Data("error: \(message)\n\n\(usage)".utf8))
  exit(2)
}
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
  func number<T: FixedWidthInteger>(_: T.Type) -> T {
    guard let text = arguments.popFirst(), let value = T(text) else {
      usageError("\(argument) needs a number")
    }
    return value
  }
  switch argument {
  case "--help", "-h":
    print(usage, terminator: "")
    exit(0)
  case "--iterations": iterations = number(Int.self)
  case "--seconds": seconds = Double(number(Int.self))
  case "--seed": seed = number(UInt64.self)
  case "--max-size": maximumSize = number(Int.self)
  case "--current":
    guard let path = arguments.popFirst() else { usageError("--current needs a file") }
    current = URL(fileURLWithPath: path)
  case "--dump":
    guard let directory = arguments.popFirst() else { usageError("--dump needs a directory") }
    dump = directory
  default:
    if argument.hasPrefix("-") { usageError("unknown option '\(argument)'") }
    paths.append(argument)
  }
}
let corpus = try ScannerFuzzer.loadCorpus(paths.isEmpty ? ["Sources", "Tests"] : paths)
let fuzzer = ScannerFuzzer(corpus: corpus)
let start = Date()
print("each input is written to \(current.path) before it is scanned")
var report = ScannerFuzzer.Report()
if let seconds {
  // Batches of inputs, each from the next seed, until the time is up.
  var batchSeed = seed
  while Date().timeIntervalSince(start) < seconds {
    let batch = fuzzer.run(iterations: 200, seed: batchSeed, maximumSize: maximumSize, current: current)
    report.iterations += batch.iterations
    report.bytesScanned += batch.bytesScanned
    report.injectionsChecked += batch.injectionsChecked
    report.malformedChecked += batch.malformedChecked
    report.trickyChecked += batch.trickyChecked
    report.failures += batch.failures
    report.failingInputs += batch.failingInputs
    report.failingExpectations += batch.failingExpectations
    for (strategy, count) in batch.byStrategy { report.byStrategy[strategy, default: 0] += count }
    batchSeed &+= 1
  }
} else {
  report = fuzzer.run(iterations: iterations, seed: seed, maximumSize: maximumSize, current: current)
}
print("seed \(seed): \(report) in \(String(format: "%.1f", Date().timeIntervalSince(start))) s")
for failure in report.failures.prefix(20) { print("FAIL: \(failure)") }
if let dump {
  try FileManager.default.createDirectory(atPath: dump, withIntermediateDirectories: true)
  for (index, (input, expectation)) in zip(report.failingInputs, report.failingExpectations).enumerated() {
    let base = URL(fileURLWithPath: dump).appendingPathComponent("fuzz-\(seed)-\(index)")
    try Data(input).write(to: base.appendingPathExtension("input"))
    try Data((expectation.text + "\n").utf8).write(to: base.appendingPathExtension("expect"))
    print("kept \(base.path).input")
  }
}
exit(report.failures.isEmpty ? 0 : 1)
