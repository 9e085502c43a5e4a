// PREFERENCES_OPTIMIZED_SCANNER=1 swift run -c release PreferencesBenchmarks [--quick | --check]
//
// The variable builds the scanner optimized, to measure its code: Package.swift otherwise builds it
// without optimization in every configuration, as users' builds run it (Scripts/debug-scan-time.sh
// times that scan against this one).
//
// --check (what .ci/run passes, with a full run) ends with status 1 when a ratio regresses past
// its bound. Every bound compares measurements of one run (the library against a baseline that
// does the unavoidable part of the same work, their rounds interleaved), and sits 1.15–1.4 times
// above the highest ratio measured on this project's 2-core machine: a change that makes a read,
// a write, a flush or the scan 1.5 times slower, or the scan's memory 1.5 times larger, fails.
//
// Compares reads, writes and initialisation through this library with raw UserDefaults and a
// plain dictionary in the same run, and measures the scanner's throughput and peak memory.
import Foundation
import Preferences
import PreferencesScannerCore
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

if let index = CommandLine.arguments.firstIndex(of: "--spawn-scanner"),
  index + 1 < CommandLine.arguments.count
{
  ScannerCorpus.spawnScanner(on: CommandLine.arguments[index + 1])
}

let quick = CommandLine.arguments.contains("--quick")
let checking = CommandLine.arguments.contains("--check")
if quick && checking {
  // A quick run's rounds are too short and too few for bounds this close.
  FileHandle.standardError.write(Data("error: --check needs a full run (without --quick)\n".utf8))
  exit(2)
}
if checking && !PreferenceScanner.isOptimized {
  FileHandle.standardError.write(
    Data(
      "error: --check needs the scanner built optimized: PREFERENCES_OPTIMIZED_SCANNER=1 swift run -c release PreferencesBenchmarks --check\n"
        .utf8))
  exit(2)
}
/// Ratios past their regression bound, for `--check`.
var regressions: [String] = []

/// Records `value` as a regression if it is past `bound` (at most, or at least).
@MainActor func gate(_ title: String, _ value: Double, atMost bound: Double) {
  if value > bound { regressions.append("\(title): " + String(format: "%.2f, bound ≤ %.2f", value, bound)) }
}
@MainActor func gate(_ title: String, _ value: Double, atLeast bound: Double) {
  if value < bound { regressions.append("\(title): " + String(format: "%.2f, bound ≥ %.2f", value, bound)) }
}
let harness = Harness(rounds: quick ? 3 : 9, scale: quick ? 0.01 : 1)
var rows: [(String, String, String, String)] = []

@MainActor func row(
  _ title: String, _ value: Harness.Measurement, against baseline: Harness.Measurement? = nil,
  target: String = ""
) {
  let spread = "\(format(value.median)) (\(format(value.low))–\(format(value.high)))"
  let ratio = baseline.map { String(format: "%.2f×", value.ratio(to: $0)) } ?? ""
  rows.append((title, spread, ratio, target))
}

// MARK: Stores

let suite = "swift-preferences-benchmark-\(getpid())"
let defaults = UserDefaults(suiteName: suite)!
let store = PreferenceStore.suite(suite)
PreferenceStore.default = store
let fileStore = FileWriter.store
defer {
  defaults.removePersistentDomain(forName: suite)
  try? FileManager.default.removeItem(at: benchmarkDirectory)
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
let fileReader = FileReader()
let fileKeyed = fileStore.keyed(by: BenchKeys.self)
fileStore.set(7, forKey: "FileReader.count")
fileStore.set("Paul", forKey: "FileReader.name")
fileStore.set(profile, forKey: "FileReader.profile")
fileStore.set(7, forKey: "count")
fileStore.set("Paul", forKey: "name")
fileStore.set(profile, forKey: "profile")

if let index = CommandLine.arguments.firstIndex(of: "--profile"), index + 1 < CommandLine.arguments.count {
  // One operation in a loop and nothing else, for valgrind --tool=callgrind.
  let operations: [String: () -> Void] = [
    "read-int": { blackHole(fileReader.count) },
    "read-int-ud": { blackHole(reader.count) },
    "read-dict": { blackHole(dictionary["Reader.count"] as? Int) },
    "read-string": { blackHole(fileReader.name) },
    "read-dict-string": { blackHole(dictionary["Reader.name"] as? String) },
    "read-codable": { blackHole(fileReader.profile) },
    "read-dict-codable": { blackHole(dictionary["Reader.profile"] as? Profile) },
    "read-enum": { blackHole(fileKeyed.integer(for: .count)) },
    "init": { blackHole(FivePreferences()) },
    "init-plain": { blackHole(FivePlain()) },
    "init-titled": { blackHole(FivePreferencesAndTitle()) },
    "init-plain-titled": { blackHole(FivePlainAndTitle()) },
    "write-ud": { reader.count = Int.random(in: 0..<1_000_000) },
    "write-ud-raw": { defaults.set(Int.random(in: 0..<1_000_000), forKey: "raw.count") },
    "nothing": {},
  ]
  if CommandLine.arguments[index + 1] == "write-corpus", index + 2 < CommandLine.arguments.count {
    let corpus = ScannerCorpus.generate(lines: 500_000)
    let directory = URL(fileURLWithPath: CommandLine.arguments[index + 2]).appendingPathComponent("Corpus")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    for file in corpus.files {
      try Data(file.contents).write(
        to: directory.deletingLastPathComponent().appendingPathComponent(file.path))
    }
    exit(0)
  }
  if CommandLine.arguments[index + 1] == "scan" {
    let corpus = ScannerCorpus.generate(lines: 500_000)
    for _ in 0..<3 {
      let start = DispatchTime.now().uptimeNanoseconds
      blackHole(PreferenceScanner(module: "Corpus").scan(files: corpus.files).plans.count)
      print(
        "scan: \(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6) ms for \(corpus.lineCount) lines"
      )
    }
    exit(0)
  }
  guard let operation = operations[CommandLine.arguments[index + 1]] else { fatalError("unknown operation") }
  for _ in 0..<100_000 { operation() }
  exit(0)
}

// MARK: Reads

// The library's read rows read the property-list file store: a lookup in the store's cache, the
// read path of every store on Apple platforms, where UserDefaults tells the store of every write
// in the process. On Linux a UserDefaults store also compares the key with corelibs'
// `UserDefaults` before each read (corelibs tells nobody of other code's writes): its own row.
let readIterations = 1_000_000
let readInt = harness.compare([
  ("dict Int", readIterations, { blackHole(dictionary["Reader.count"] as? Int) }),
  ("@Preference Int", readIterations, { blackHole(fileReader.count) }),
  ("enum Int", readIterations, { blackHole(fileKeyed.integer(for: .count)) }),
  ("UserDefaults Int", readIterations / 10, { blackHole(defaults.integer(forKey: "Reader.count")) }),
  ("@Preference UD Int", readIterations / 10, { blackHole(reader.count) }),
])
row("read Int: [String: Any] + as? Int (the limit)", readInt[0])
row("read Int: @Preference", readInt[1], against: readInt[0], target: "≤ 0.5× dict")
row("read Int: enum-keyed store", readInt[2], against: readInt[0])
row("read Int: UserDefaults.integer(forKey:)", readInt[3], against: readInt[0])
row("  @Preference vs UserDefaults", readInt[3], against: readInt[1], target: "≥ 20× faster")
gate("read Int: @Preference / dict", readInt[1].ratio(to: readInt[0]), atMost: 0.6)
gate("read Int: UserDefaults / @Preference", readInt[3].ratio(to: readInt[1]), atLeast: 45)
#if canImport(Darwin)
  row("read Int: @Preference, UserDefaults store", readInt[4], against: readInt[0])
#else
  row("read Int: @Preference, UserDefaults store (compares corelibs' value)", readInt[4], against: readInt[3])
  gate("read Int: @Preference, UserDefaults store / UserDefaults", readInt[4].ratio(to: readInt[3]), atMost: 2.7)
#endif

let readString = harness.compare([
  ("dict String", readIterations, { blackHole(dictionary["Reader.name"] as? String) }),
  ("@Preference String", readIterations, { blackHole(fileReader.name) }),
  ("enum String", readIterations, { blackHole(fileKeyed.string(for: .name)) }),
  ("UserDefaults String", readIterations / 10, { blackHole(defaults.string(forKey: "Reader.name")) }),
])
row("read String: [String: Any] + as? String", readString[0])
row("read String: @Preference", readString[1], against: readString[0], target: "≤ 0.5× dict")
gate("read String: @Preference / dict", readString[1].ratio(to: readString[0]), atMost: 0.6)
row("read String: enum-keyed store", readString[2], against: readString[0])
row("read String: UserDefaults.string(forKey:)", readString[3], against: readString[0])

let decoder = JSONDecoder()
let readCodable = harness.compare([
  ("dict Codable", readIterations, { blackHole(dictionary["Reader.profile"] as? Profile) }),
  ("@Preference Codable", readIterations, { blackHole(fileReader.profile) }),
  ("enum Codable", readIterations, { blackHole(fileKeyed.value(for: .profile)) }),
  (
    "UserDefaults Codable", readIterations / 100,
    {
      blackHole(defaults.data(forKey: "profileData").flatMap { try? decoder.decode(Profile.self, from: $0) })
    }
  ),
])
row("read Codable: [String: Any] + as? Profile", readCodable[0])
row("read Codable: @Preference (cached)", readCodable[1], against: readCodable[0], target: "≤ 0.5× dict")
gate("read Codable: @Preference / dict", readCodable[1].ratio(to: readCodable[0]), atMost: 0.8)
row("read Codable: enum-keyed store", readCodable[2], against: readCodable[0])
row("read Codable: UserDefaults data + JSONDecoder", readCodable[3], against: readCodable[0])

// MARK: Writes

// Each value is written through every path: raw UserDefaults (the baseline), `@Preference` and
// the enum-keyed store over the UserDefaults store, and both over the property-list file store.
// When each returns, the value is in memory only: raw UserDefaults on Linux reaches disk only
// if someone calls synchronize(); this library's UserDefaults store synchronizes about 50 ms
// after a change and at exit; the file store replaces its file atomically about 50 ms after a
// change, at exit, or on flush() (the last row).
let writeIterations = 10_000
var counter = 0
let fileWriter = FileWriter()

/// What a file-store write cannot avoid: the value stored in a dictionary under a lock.
let lockedDictionary = Mutex<[String: Any]>([:])

/// The write rows of one value type. `bounds` are the regression bounds of the UserDefaults
/// store's ratio to `UserDefaults.set` and the file store's ratio to the locked dictionary: above
/// the highest ratio measured on this project's machine and below 1.5 times the typical one, so
/// that a write 1.5 times slower fails `--check`.
@MainActor func writeRows(
  _ value: String, iterations: Int, bounds: (userDefaults: Double, file: Double),
  raw: @escaping () -> Void, wrapper: @escaping () -> Void, keyed: @escaping () -> Void,
  locked: @escaping () -> Void, fileWrapper: @escaping () -> Void, fileKeyed: @escaping () -> Void
) {
  // Timed in the process's CPU time, each round ending with its store's flush: the writing
  // thread's work and the background work its writes cause (on Linux, the flushes of the
  // domain's file), counted in full however a shared 2-core machine schedules the two threads.
  // (On Apple platforms the system persists, and a round does not wait for the announcement
  // its last write queued.) (In wall time the ratios moved between 1.2 and 2.5 from run to run,
  // with the flush thread competing for the second core or not.)
  let userDefaultsWrites = harness.compare(
    [("UD \(value)", iterations, raw), ("@Preference UD", iterations, wrapper), ("enum UD", iterations, keyed)],
    clock: .processCPU, settle: { try! store.flush() })
  let fileWrites = harness.compare(
    [
      ("locked dictionary", iterations, locked), ("@Preference file", iterations, fileWrapper),
      ("enum file", iterations, fileKeyed),
    ], clock: .processCPU, settle: { try! fileStore.flush() })
  let writes = userDefaultsWrites + fileWrites
  row("write \(value): UserDefaults.set", writes[0])
  row("write \(value): @Preference, UserDefaults store", writes[1], against: writes[0])
  row("write \(value): enum-keyed, UserDefaults store", writes[2], against: writes[0])
  row("write \(value): [String: Any] under a lock", writes[3])
  row("write \(value): @Preference, file store", writes[4], against: writes[3])
  row("write \(value): enum-keyed, file store", writes[5], against: writes[3])
  for (index, name) in [(1, "@Preference"), (2, "enum-keyed")] {
    gate(
      "write \(value): \(name), UserDefaults store / UserDefaults.set", writes[index].ratio(to: writes[0]),
      atMost: bounds.userDefaults)
  }
  for (index, name) in [(4, "@Preference"), (5, "enum-keyed")] {
    gate(
      "write \(value): \(name), file store / locked dictionary", writes[index].ratio(to: writes[3]),
      atMost: bounds.file)
  }
}

@MainActor func next() -> Int {
  counter &+= 1
  return counter
}

writeRows(
  "Int", iterations: writeIterations, bounds: (userDefaults: 2.0, file: 21),
  raw: { defaults.set(next(), forKey: "raw.count") },
  wrapper: { reader.count = next() },
  keyed: { keyed.set(next(), for: .count) },
  locked: { lockedDictionary.withLock { $0["count"] = next() } },
  fileWrapper: { fileWriter.count = next() },
  fileKeyed: { fileKeyed.set(next(), for: .count) })
writeRows(
  "String", iterations: writeIterations, bounds: (userDefaults: 2.0, file: 17),
  raw: { defaults.set(String(next()), forKey: "raw.name") },
  wrapper: { reader.name = String(next()) },
  keyed: { keyed.set(String(next()), for: .name) },
  locked: { lockedDictionary.withLock { $0["name"] = String(next()) } },
  fileWrapper: { fileWriter.name = String(next()) },
  fileKeyed: { fileKeyed.set(String(next()), for: .name) })
writeRows(
  "Codable", iterations: writeIterations / 5, bounds: (userDefaults: 1.65, file: 50),
  raw: {
    defaults.set(try! JSONEncoder().encode(Profile(name: "P", age: next(), tags: [])), forKey: "raw.profile")
  },
  wrapper: { reader.profile = Profile(name: "P", age: next(), tags: []) },
  keyed: { keyed.set(Profile(name: "P", age: next(), tags: []), for: .profile) },
  locked: { lockedDictionary.withLock { $0["profile"] = Profile(name: "P", age: next(), tags: []) } },
  fileWrapper: { fileWriter.profile = Profile(name: "P", age: next(), tags: []) },
  fileKeyed: { fileKeyed.set(Profile(name: "P", age: next(), tags: []), for: .profile) })
// The flush against the same file replaced by hand (write a temporary file, fsync it, rename it
// over the file, fsync the directory): what any durable atomic write costs on this disk.
let flushes = harness.compare([
  (
    "atomic replace by hand", quick ? 100 : 200,
    {
      let bytes = try! PropertyListSerialization.data(
        fromPropertyList: ["count": next(), "name": "Anonymous"], format: .binary, options: 0)
      atomicReplaceByHand(benchmarkDirectory.appendingPathComponent("by-hand.plist"), bytes)
    }
  ),
  (
    "file flush", quick ? 100 : 200,
    {
      fileStore.set(next(), forKey: "count")
      try! fileStore.flush()
    }
  ),
])
row("flush by hand: serialize + write + fsync + rename + fsync directory", flushes[0])
row("flush: file store, lock + merge + atomic replace + fsync", flushes[1], against: flushes[0])
gate("flush: file store / by hand", flushes[1].ratio(to: flushes[0]), atMost: 1.95)

// MARK: Initialisation

// Short rounds, many of them: each round pair is a ratio, and short rounds interleave finely.
let inits = Harness(rounds: quick ? 3 : 31, scale: harness.scale).compare([
  ("plain init", 1_000_000, { blackHole(FivePlain()) }),
  ("@Preference init", 1_000_000, { blackHole(FivePreferences()) }),
  ("plain init, and a title", 1_000_000, { blackHole(FivePlainAndTitle()) }),
  ("@Preference init, and a title", 1_000_000, { blackHole(FivePreferencesAndTitle()) }),
])
row("init: struct with 5 plain stored properties", inits[0])
row("init: struct with 5 @Preference properties", inits[1], against: inits[0], target: "≤ 1.2× plain")
// Like with like: every default of both structs is a value that costs nothing to make (no
// allocation), so the row compares storing five locations with storing five values; it measured
// 1.1× (a wrapper that kept its default again measured 1.8–2.3× against allocating defaults).
gate("init: @Preference / plain", inits[1].ratio(to: inits[0]), atMost: 1.5)
// The plain struct above is small enough for the optimizer to destroy field by field; with one
// more stored property it is destroyed through its outlined value witness (Fixtures.swift).
row("init: 5 plain stored properties and a title", inits[2])
row(
  "init: 5 @Preference properties and a title", inits[3], against: inits[2], target: "≤ 1.2× plain")
gate("init: @Preference / plain, with a title", inits[3].ratio(to: inits[2]), atMost: 1.15)

// MARK: At rest

// Wakeups: context switches of every thread of this process (getrusage), while the main thread
// sleeps. A store that nothing observes must not wake the process; an observed one wakes only
// where no event exists (UserDefaults: another process's writes, every 500 ms).
func contextSwitches() -> Int {
  var usage = rusage()
  #if canImport(Glibc)
    getrusage(RUSAGE_SELF.rawValue, &usage)
  #else
    getrusage(RUSAGE_SELF, &usage)
  #endif
  return Int(usage.ru_nvcsw + usage.ru_nivcsw)
}
func wakeupsPerSecond(over seconds: Double) -> Double {
  let before = contextSwitches()
  usleep(UInt32(seconds * 1_000_000))
  // The sleep itself is one switch.
  return Double(max(0, contextSwitches() - before - 1)) / seconds
}
let restSeconds = quick ? 1.0 : 5.0
PreferenceStore.standard.set(next(), forKey: "swift-preferences-benchmark.rest")
store.set(next(), forKey: "rest")
fileStore.set(next(), forKey: "rest")
try? PreferenceStore.standard.flush()
try? store.flush()
try? fileStore.flush()
usleep(300_000)
let restRate = wakeupsPerSecond(over: restSeconds)
gate("at rest: wakeups/s", restRate, atMost: 1)
rows.append(
  (
    "at rest: wakeups/s, .standard + suite + file store written, none observed",
    String(format: "%.1f", restRate), "", "0"
  ))
let restObservations = [PreferenceStore.standard, store, fileStore].map {
  $0.observe("rest", default: 0) { blackHole($0) }
}
usleep(100_000)
let observedRate = wakeupsPerSecond(over: restSeconds)
rows.append(
  (
    "at rest: wakeups/s, the same three stores observed", String(format: "%.1f", observedRate), "",
    "UserDefaults polls 2/s while observed"
  ))
let changeStart = contextSwitches()
let changes = 20
for _ in 0..<changes {
  fileStore.set(next(), forKey: "rest")
  try? fileStore.flush()
}
usleep(200_000)
rows.append(
  (
    "per change: wakeups per observed file-store write + flush",
    String(format: "%.1f", Double(contextSwitches() - changeStart) / Double(changes)), "", ""
  ))
restObservations.forEach { $0.cancel() }
PreferenceStore.standard.removeValue(forKey: "swift-preferences-benchmark.rest")
try? PreferenceStore.standard.flush()

// MARK: Scanner

let corpusLines = quick ? 20_000 : 500_000
let corpus = ScannerCorpus.generate(lines: corpusLines)
let scanner = PreferenceScanner(module: "Corpus")
var declarations = 0
// CPU time of this thread ("on one core"), the median of several scans: wall time on a shared
// virtual machine also counts time the machine gave to others.
// Each round scans the corpus, then makes the yardstick's pass over the same bytes 10 times
// (about as long as a tenth of the scan): the per-round ratio's median is what --check gates,
// so a slower or busier machine moves both sides.
var cpuTimes: [Double] = []
var yardstickRatios: [Double] = []
var yardstickTimes: [Double] = []
for _ in 0..<(quick ? 3 : 7) {
  var start = threadCPUTime()
  declarations = scanner.scan(files: corpus.files).plans.count
  let scanTime = threadCPUTime() - start
  start = threadCPUTime()
  for _ in 0..<10 { blackHole(lexerYardstick(opaque(corpus.files))) }
  let yardstickTime = (threadCPUTime() - start) / 10
  cpuTimes.append(scanTime)
  yardstickTimes.append(yardstickTime)
  yardstickRatios.append(scanTime / yardstickTime)
}
let scanCPU = cpuTimes.sorted()[cpuTimes.count / 2]
let linesPerSecond = Double(corpus.lineCount) / scanCPU
let scanRatio = yardstickRatios.sorted()[yardstickRatios.count / 2]
rows.append(
  (
    "scanner: \(corpus.lineCount) lines, \(corpus.files.count) files, \(declarations) declarations (CPU time)",
    format(scanCPU * 1e9), String(format: "%.2fM lines/s", linesPerSecond / 1e6), "≥ 1M lines/s",
  ))
rows.append(
  (
    "  a byte pass over the same text (lines counted, identifiers hashed)",
    format(yardstickTimes.sorted()[yardstickTimes.count / 2] * 1e9), String(format: "scan %.1f×", scanRatio), "",
  ))
gate("scanner / byte pass", scanRatio, atMost: 50)
// Every type name repeated thousands of times, against the same text with the names numbered
// apart: the scanner stays linear on any input, so the two take about the same time.
func medianScanCPU(_ files: ScannerCorpus.Corpus, runs: Int) -> Double {
  var times: [Double] = []
  for _ in 0..<runs {
    let start = threadCPUTime()
    _ = scanner.scan(files: files.files)
    times.append(threadCPUTime() - start)
  }
  return times.sorted()[times.count / 2]
}
let repeatedLines = quick ? 8_000 : 100_000
let distinctCPU = medianScanCPU(
  ScannerCorpus.repeatedNames(lines: repeatedLines, distinct: true), runs: quick ? 3 : 5)
let repeatedCPU = medianScanCPU(
  ScannerCorpus.repeatedNames(lines: repeatedLines, distinct: false), runs: quick ? 3 : 5)
rows.append(
  (
    "scanner: \(repeatedLines) lines, distinct type names, one file (CPU time)", format(distinctCPU * 1e9),
    "", "",
  ))
rows.append(
  (
    "scanner: the same lines, every type name repeated (CPU time)", format(repeatedCPU * 1e9),
    String(format: "%.2f×", repeatedCPU / distinctCPU), "≤ 3× distinct",
  ))
gate("scanner: repeated / distinct type names", repeatedCPU / distinctCPU, atMost: 1.1)
let peak = ScannerCorpus.peakMemoryOfScannerProcess(corpus)
rows.append(
  (
    "scanner: peak memory of `preferences-scanner scan` on the corpus",
    peak.map { String(format: "%.1f MB", $0) } ?? "n/a", "", "< 100 MB"
  ))
if let peak { gate("scanner: peak memory, MB", peak, atMost: 125) }

/// Seconds of CPU time the calling thread has used.
func threadCPUTime() -> Double {
  var time = timespec()
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
  return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

// MARK: Table

print(
  "swift-preferences benchmarks (\(quick ? "quick" : "full") run, \(ProcessInfo.processInfo.activeProcessorCount) cores)\n"
)
let widths = [
  rows.map(\.0.count).max()!, rows.map(\.1.count).max()!, max(5, rows.map(\.2.count).max()!),
  rows.map(\.3.count).max()!,
]
func line(_ cells: [String]) -> String {
  "| "
    + zip(cells, widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }.joined(
      separator: " | ") + " |"
}
print(line(["operation", "median (min–max)", "ratio", "target"]))
print("|" + widths.map { String(repeating: "-", count: $0 + 2) }.joined(separator: "|") + "|")
for row in rows { print(line([row.0, row.1, row.2, row.3])) }

if checking {
  if regressions.isEmpty {
    print("\nEvery ratio is within its regression bound.")
  } else {
    print(
      "\nerror: ratios past their regression bounds:\n"
        + regressions.map { "  " + $0 }.joined(separator: "\n"))
    exit(1)
  }
}
