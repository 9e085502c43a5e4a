// A long fuzz run of the scanner: preferences-fuzz [--iterations N] [--seed S] [--max-size BYTES] [PATH...]
// PATHs (default: Sources and Tests) give the real sources to mutate. Exits 1 on any failure.
import Foundation
import PreferencesScannerCore
import ScannerFuzzing

var iterations = 100_000
var seed = UInt64(Date().timeIntervalSince1970)
var maximumSize = 16_384
var paths: [String] = []
var dump: String?
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
  switch argument {
  case "--iterations": iterations = Int(arguments.popFirst() ?? "") ?? iterations
  case "--seed": seed = UInt64(arguments.popFirst() ?? "") ?? seed
  case "--max-size": maximumSize = Int(arguments.popFirst() ?? "") ?? maximumSize
  case "--dump": dump = arguments.popFirst()
  default: paths.append(argument)
  }
}
let corpus = try ScannerFuzzer.loadCorpus(paths.isEmpty ? ["Sources", "Tests"] : paths)
let fuzzer = ScannerFuzzer(corpus: corpus)
let start = Date()
let report = fuzzer.run(iterations: iterations, seed: seed, maximumSize: maximumSize)
print("seed \(seed): \(report) in \(String(format: "%.1f", Date().timeIntervalSince(start))) s")
for failure in report.failures.prefix(20) { print("FAIL: \(failure)") }
if let dump {
  try FileManager.default.createDirectory(atPath: dump, withIntermediateDirectories: true)
  for (index, input) in report.failingInputs.enumerated() {
    try Data(input).write(to: URL(fileURLWithPath: dump).appendingPathComponent("failure-\(index).swift"))
  }
}
exit(report.failures.isEmpty ? 0 : 1)
