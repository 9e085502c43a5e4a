import Foundation
import Testing

@testable import Preferences

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A fresh temporary directory, removed when the test's scope ends.
final class TemporaryDirectory {
  let url: URL
  init() {
    url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "swift-preferences-tests-\(UUID().uuidString)")
    try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }
  deinit { try? FileManager.default.removeItem(at: url) }
  func file(_ name: String) -> URL { url.appendingPathComponent(name) }
  func contents() -> [String] {
    (try? FileManager.default.contentsOfDirectory(atPath: url.path))?.sorted() ?? []
  }
}

/// Collects every diagnostic; tests filter by their own unique keys or paths, because tests run
/// in parallel and share the process-wide handler.
enum Diagnostics {
  private static let collected = Locked<[PreferenceError]>([])
  private static let installed: Void = {
    PreferenceDiagnostics.setHandler { error in Diagnostics.collected.withLock { $0.append(error) } }
  }()

  static func start() { _ = installed }

  static func reported(mentioning text: String) -> [PreferenceError] {
    collected.withLock { $0.filter { $0.description.contains(text) } }
  }
}

/// The kinds of store every value must round-trip through.
enum StoreKind: String, CaseIterable, CustomTestStringConvertible {
  case memory, xmlFile, binaryFile, userDefaults
  var testDescription: String { rawValue }

  /// Makes a store, and a function that opens the same storage anew (bypassing every cache).
  func make(in directory: TemporaryDirectory) -> (store: PreferenceStore, reopen: () -> PreferenceStore) {
    switch self {
    case .memory:
      let backend = InMemoryBackend()
      return (
        PreferenceStore(backend: backend, arguments: []),
        { PreferenceStore(backend: InMemoryBackend(backend.allValues()), arguments: []) }
      )
    case .xmlFile, .binaryFile:
      let url = directory.file("prefs.plist")
      let format: PropertyListFileBackend.Format = self == .xmlFile ? .xml : .binary
      let store = PreferenceStore(backend: PropertyListFileBackend(url: url, format: format), arguments: [])
      return (
        store,
        {
          try! store.flush()
          return PreferenceStore(backend: PropertyListFileBackend(url: url, format: format), arguments: [])
        }
      )
    case .userDefaults:
      // The suite's files are removed when the last reference to `reopen` goes.
      let suite = TemporarySuite()
      let store = PreferenceStore(backend: UserDefaultsBackend(suiteName: suite.name), arguments: [])
      return (
        store,
        {
          try! store.flush()
          return PreferenceStore(backend: UserDefaultsBackend(suiteName: suite.name), arguments: [])
        }
      )
    }
  }
}

/// Runs the test helper executable and returns its standard output, trimmed.
@discardableResult
func runHelper(
  _ arguments: [String], expectSuccess: Bool = true, environment: [String: String] = [:],
  removing removedVariables: Set<String> = []
) throws -> String {
  let process = Process()
  process.executableURL = helperURL
  process.arguments = arguments
  if !environment.isEmpty || !removedVariables.isEmpty {
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
      .filter { !removedVariables.contains($0.key) }
  }
  let output = Pipe()
  process.standardOutput = output
  try process.run()
  let data = output.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  if expectSuccess {
    #expect(process.terminationStatus == 0, "helper \(arguments) exited with \(process.terminationStatus)")
  }
  return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
}

/// Runs the helper without blocking a Swift concurrency thread (there are only as many as
/// cores, and other tests need them to resume).
func runHelperAsync(_ arguments: [String]) async throws -> Int32 {
  let process = Process()
  process.executableURL = helperURL
  process.arguments = arguments
  process.standardOutput = FileHandle.nullDevice
  return try await withCheckedThrowingContinuation { continuation in
    process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
    do { try process.run() } catch { continuation.resume(throwing: error) }
  }
}

/// The helper sits beside the test bundle in the build products folder. The bundle is found
/// through the image that holds this code (`dladdr` of `#dsohandle`): on macOS, `swift test`
/// loads it into a runner that lives elsewhere, so the process's own path does not lead there.
let helperURL: URL = {
  // Another build of the helper (an older version of the library, to compare behaviour).
  if let path = ProcessInfo.processInfo.environment["PREFERENCES_TEST_HELPER"] {
    return URL(fileURLWithPath: path)
  }
  var starts = [URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()]
  #if canImport(Darwin)
    var info = Dl_info()
    if dladdr(#dsohandle, &info) != 0, let image = info.dli_fname {
      starts.insert(URL(fileURLWithPath: String(cString: image)).deletingLastPathComponent(), at: 0)
    }
  #endif
  for start in starts {
    var directory = start
    for _ in 0..<5 {
      let candidate = directory.appendingPathComponent("PreferencesTestHelper")
      if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
      directory = directory.deletingLastPathComponent()
    }
  }
  for bundle in Bundle.allBundles {
    let candidate = bundle.bundleURL.deletingLastPathComponent().appendingPathComponent(
      "PreferencesTestHelper")
    if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
  }
  return URL(fileURLWithPath: "PreferencesTestHelper")
}()

/// How hard the reliability tests push: a quick pass by default (`swift test`), and the long runs
/// when `PREFERENCES_LONG_TESTS=1` (`.ci/run` does both).
enum Intensity {
  static let isLong = ProcessInfo.processInfo.environment["PREFERENCES_LONG_TESTS"] == "1"
  static func rounds(quick: Int, long: Int) -> Int { isLong ? long : quick }
}

/// Waits, without blocking a Swift concurrency thread's progress for long, until `condition`
/// holds or 10 seconds pass; returns whether it held.
///
/// The 10 seconds are a deadline for "it arrives", not a latency check (changes are polled every
/// 250–500 ms): CI's long run loads both cores with hundreds of child processes and parallel
/// suites, and there a 2-second deadline was once missed by a change that did arrive.
@discardableResult
func waitUntil(_ condition: () -> Bool) -> Bool {
  let deadline = Date().addingTimeInterval(10)
  while !condition() {
    if Date() > deadline { return false }
    // Not synchronization: a wait for the condition itself, looked at every 5 ms; the deadline
    // only ends a wait for something that never came, which fails the test.
    usleep(5_000)
  }
  return true
}

/// A UserDefaults suite of its own for one test, removed at the end.
final class TemporarySuite: Sendable {
  let name = "swift-preferences-tests-\(UUID().uuidString)"
  var target: String { "suite:\(name)" }

  #if canImport(Darwin)
    deinit { UserDefaults(suiteName: name)?.removePersistentDomain(forName: name) }

    /// The suite's persistent domain as a fresh process would read it.
    func storedValues() -> [String: PropertyListValue]? {
      guard let domain = UserDefaults(suiteName: name)?.persistentDomain(forName: name) else { return nil }
      return domain.compactMapValues(PropertyListValue.init(foundationObject:))
    }
  #else
    /// The file swift-corelibs-foundation keeps the suite in (Linux only: on Apple platforms
    /// the system owns the storage).
    var file: URL { UserDefaultsBackend.domainFileURL(domain: name) }

    deinit {
      let file = self.file
      Self.remove(file)
      // A write still pending (flushed about 50 ms after it is made) would recreate the file:
      // look again once it has landed, without blocking this thread.
      DispatchQueue.global().asyncAfter(deadline: .now() + 2) { Self.remove(file) }
    }

    private static func remove(_ file: URL) {
      try? FileManager.default.removeItem(at: file)
      try? FileManager.default.removeItem(at: file.appendingPathExtension("lock"))
      // Temporary files of helpers killed mid-write (a later write by anyone would remove them).
      let directory = file.deletingLastPathComponent()
      let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
      for name in names where name.hasPrefix(".\(file.lastPathComponent).") && name.hasSuffix(".tmp") {
        try? FileManager.default.removeItem(at: directory.appendingPathComponent(name))
      }
    }

    /// The suite's file as a fresh process would read it.
    func storedValues() -> [String: PropertyListValue]? {
      guard case .values(let values)? = try? PropertyListFile(url: file, format: .xml).read() else {
        return nil
      }
      return values
    }
  #endif
}

/// Runs the helper with `arguments` and returns its status, without blocking a Swift concurrency
/// thread (there are only as many as cores, and other tests need them to resume).
func runHelperStatus(_ arguments: [String]) async throws -> Int32 { try await runHelperAsync(arguments) }

/// A deterministic random number generator (SplitMix64), so that a failing seed reproduces.
struct SeededRandom: RandomNumberGenerator {
  var state: UInt64
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
  /// A number in `0..<bound`.
  mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
  mutating func chance() -> Bool { next() & 1 == 0 }
}
