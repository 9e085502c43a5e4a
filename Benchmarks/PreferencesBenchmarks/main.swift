// swift run -c release PreferencesBenchmarks [--quick]
//
// Compares reads, writes and initialisation through this library with raw UserDefaults and a
// plain dictionary in the same run, and measures the scanner's throughput and peak memory.
import Foundation
import Preferences
import PreferencesScannerCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

let quick = CommandLine.arguments.contains("--quick")
let harness = Harness(rounds: quick ? 3 : 9, scale: quick ? 0.01 : 1)
var rows: [(String, String, String, String)] = []

@MainActor func row(_ title: String, _ value: Harness.Measurement, against baseline: Harness.Measurement? = nil, target: String = "") {
  let spread = "\(format(value.median)) (\(format(value.low))–\(format(value.high)))"
  let ratio = baseline.map { String(format: "%.2f×", value.median / $0.median) } ?? ""
  rows.append((title, spread, ratio, target))
}

// MARK: Stores

let suite = "swift-preferences-benchmark-\(getpid())"
let defaults = UserDefaults(suiteName: suite)!
let store = PreferenceStore.suite(suite)
PreferenceStore.default = store
let directory = FileManager.default.temporaryDirectory.appendingPathComponent("swift-preferences-bench-\(getpid())")
let fileStore = PreferenceStore.propertyList(at: directory.appendingPathComponent("bench.plist"))
defer {
  defaults.removePersistentDomain(forName: suite)
  try? FileManager.default.removeItem(at: directory)
}

let profile = Profile(name: "Paul", age: 42, tags: ["x", "y"])
let profileJSON = try JSONEncoder().encode(profile)
defaults.set(7, forKey: "Reader.count")
defaults.set("Paul", forKey: "Reader.name")
defaults.set(String(decoding: profileJSON, as: UTF8.self), forKey: "Reader.profile")
defaults.set(7, forKey: "count")
defaults.set("Paul", forKey: "name")
defaults.set(String(decoding: profileJSON, as: UTF8.self), forKey: "profile")
defaults.set(profileJSON, forKey: "profileData")
let dictionary: [String: Any] = ["Reader.count": 7, "Reader.name": "Paul", "Reader.profile": profile]
let reader = Reader()
let keyed = store.keyed(by: BenchKeys.self)

if let index = CommandLine.arguments.firstIndex(of: "--profile"), index + 1 < CommandLine.arguments.count {
  // One operation in a loop and nothing else, for valgrind --tool=callgrind.
  let operations: [String: () -> Void] = [
    "read-int": { blackHole(reader.count) },
    "read-codable": { blackHole(reader.profile) },
    "read-enum": { blackHole(keyed.integer(for: .count)) },
    "init": { blackHole(FivePreferences()) },
    "init-plain": { blackHole(FivePlain()) },
    "nothing": {},
  ]
  guard let operation = operations[CommandLine.arguments[index + 1]] else { fatalError("unknown operation") }
  for _ in 0..<100_000 { operation() }
  exit(0)
}

// MARK: Reads

let readIterations = 1_000_000
let dictInt = harness.measure("dict Int", iterations: readIterations) { blackHole(dictionary["Reader.count"] as? Int) }
let wrapperInt = harness.measure("@Preference Int", iterations: readIterations) { blackHole(reader.count) }
let keyedInt = harness.measure("enum Int", iterations: readIterations) { blackHole(keyed.integer(for: .count)) }
let rawInt = harness.measure("UserDefaults Int", iterations: readIterations / 10) {
  blackHole(defaults.integer(forKey: "Reader.count"))
}
row("read Int: [String: Any] + as? Int (the limit)", dictInt)
row("read Int: @Preference", wrapperInt, against: dictInt, target: "≤ 2× dict")
row("read Int: enum-keyed store", keyedInt, against: dictInt)
row("read Int: UserDefaults.integer(forKey:)", rawInt, against: dictInt)
row("  @Preference vs UserDefaults", Harness.Measurement(name: "", median: rawInt.median, low: rawInt.low, high: rawInt.high), against: wrapperInt, target: "≥ 20× faster")

let dictString = harness.measure("dict String", iterations: readIterations) { blackHole(dictionary["Reader.name"] as? String) }
let wrapperString = harness.measure("@Preference String", iterations: readIterations) { blackHole(reader.name) }
let keyedString = harness.measure("enum String", iterations: readIterations) { blackHole(keyed.string(for: .name)) }
let rawString = harness.measure("UserDefaults String", iterations: readIterations / 10) {
  blackHole(defaults.string(forKey: "Reader.name"))
}
row("read String: [String: Any] + as? String", dictString)
row("read String: @Preference", wrapperString, against: dictString, target: "≤ 2× dict")
row("read String: enum-keyed store", keyedString, against: dictString)
row("read String: UserDefaults.string(forKey:)", rawString, against: dictString)

let dictCodable = harness.measure("dict Codable", iterations: readIterations) { blackHole(dictionary["Reader.profile"] as? Profile) }
let wrapperCodable = harness.measure("@Preference Codable", iterations: readIterations) { blackHole(reader.profile) }
let keyedCodable = harness.measure("enum Codable", iterations: readIterations) {
  blackHole(keyed.value(for: .profile, as: Profile.self))
}
let decoder = JSONDecoder()
let rawCodable = harness.measure("UserDefaults Codable", iterations: readIterations / 100) {
  blackHole(defaults.data(forKey: "profileData").flatMap { try? decoder.decode(Profile.self, from: $0) })
}
row("read Codable: [String: Any] + as? Profile", dictCodable)
row("read Codable: @Preference (cached)", wrapperCodable, against: dictCodable, target: "≤ 3× dict")
row("read Codable: enum-keyed store", keyedCodable, against: dictCodable)
row("read Codable: UserDefaults data + JSONDecoder", rawCodable, against: dictCodable)

// MARK: Writes

let writeIterations = 20_000
var counter = 0
let rawWrite = harness.measure("UD set", iterations: writeIterations) {
  counter &+= 1
  defaults.set(counter, forKey: "raw.count")
}
let wrapperWrite = harness.measure("@Preference set (UD)", iterations: writeIterations) {
  counter &+= 1
  reader.count = counter
}
let fileWrite = harness.measure("file store set", iterations: writeIterations) {
  counter &+= 1
  fileStore.set(counter, forKey: "count")
}
let wrapperCodableWrite = harness.measure("@Preference set Codable", iterations: writeIterations / 10) {
  counter &+= 1
  reader.profile = Profile(name: "P", age: counter, tags: [])
}
let flush = harness.measure("file flush", iterations: quick ? 100 : 200) {
  counter &+= 1
  fileStore.set(counter, forKey: "count")
  try! fileStore.flush()
}
row("write Int: UserDefaults.set (memory; on disk only after synchronize)", rawWrite)
row("write Int: @Preference, UserDefaults store", wrapperWrite, against: rawWrite)
row("write Codable: @Preference, UserDefaults store", wrapperCodableWrite, against: rawWrite)
row("write Int: property-list file store (returns before disk)", fileWrite, against: rawWrite)
row("flush: file store, lock + merge + atomic replace + fsync", flush)

// MARK: Initialisation

let initIterations = 5_000_000
let plainInit = harness.measure("plain init", iterations: initIterations) { blackHole(FivePlain()) }
let wrapperInit = harness.measure("@Preference init", iterations: initIterations) { blackHole(FivePreferences()) }
row("init: struct with 5 plain stored properties", plainInit)
row("init: struct with 5 @Preference properties", wrapperInit, against: plainInit, target: "≤ 2× plain")

// MARK: Scanner

let corpusLines = quick ? 20_000 : 500_000
let corpus = ScannerCorpus.generate(lines: corpusLines)
let scanner = PreferenceScanner(module: "Corpus")
var declarations = 0
let scanMeasurement = Harness(rounds: quick ? 1 : 5, scale: 1).measure("scanner", iterations: 1) {
  declarations = scanner.scan(files: corpus.files).preferences.count
}
let linesPerSecond = Double(corpus.lineCount) / (scanMeasurement.median / 1e9)
rows.append((
  "scanner: \(corpus.lineCount) lines, \(corpus.files.count) files, \(declarations) declarations",
  format(scanMeasurement.median), String(format: "%.2fM lines/s", linesPerSecond / 1e6), "≥ 1M lines/s",
))
let peak = ScannerCorpus.peakMemoryOfScannerProcess(corpus)
rows.append(("scanner: peak memory of `preferences-scanner scan` on the corpus", peak.map { String(format: "%.1f MB", $0) } ?? "n/a", "", "< 100 MB"))

// MARK: Table

print("swift-preferences benchmarks (\(quick ? "quick" : "full") run, \(ProcessInfo.processInfo.activeProcessorCount) cores)\n")
let widths = [
  rows.map(\.0.count).max()!, rows.map(\.1.count).max()!, max(5, rows.map(\.2.count).max()!), rows.map(\.3.count).max()!,
]
func line(_ cells: [String]) -> String {
  "| " + zip(cells, widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }.joined(separator: " | ") + " |"
}
print(line(["operation", "median (min–max)", "ratio", "target"]))
print("|" + widths.map { String(repeating: "-", count: $0 + 2) }.joined(separator: "|") + "|")
for row in rows { print(line([row.0, row.1, row.2, row.3])) }
