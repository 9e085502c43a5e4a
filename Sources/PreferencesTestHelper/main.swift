// A child process for the tests: they run it to check behaviour across processes and at exit.
//
// TARGET is a property-list file path, `suite:NAME` for a UserDefaults suite, or `standard` for
// `UserDefaults.standard`.
import Foundation
import Preferences

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif
#if !canImport(Darwin)
  import CoreFoundation
#endif

let arguments = CommandLine.arguments
func fail(_ message: String) -> Never {
  FileHandle.standardError.write(Data("preferences-test-helper: \(message)\n".utf8))
  exit(2)
}

func store(_ target: String) -> PreferenceStore {
  if target == "standard" { return PreferenceStore(backend: UserDefaultsBackend(), arguments: []) }
  return target.hasPrefix("suite:")
    ? PreferenceStore(backend: UserDefaultsBackend(suiteName: String(target.dropFirst(6))), arguments: [])
    : PreferenceStore(backend: PropertyListFileBackend(url: URL(fileURLWithPath: target)), arguments: [])
}

/// Plain `UserDefaults` for `suite`, or `.standard` for `standard`.
func plainDefaults(_ suite: String) -> UserDefaults {
  suite == "standard" ? .standard : UserDefaults(suiteName: suite)!
}

switch arguments.dropFirst().first {
case "write-loop":
  // write-loop TARGET PREFIX COUNT: writes PREFIX-i = i for i in 0..<COUNT, flushing after each.
  guard arguments.count == 5, let count = Int(arguments[4]) else {
    fail("usage: write-loop TARGET PREFIX COUNT")
  }
  let store = store(arguments[2])
  for index in 0..<count {
    store.set(index, forKey: "\(arguments[3])-\(index)")
    try store.flush()
  }
case "set-and-exit":
  // set-and-exit TARGET KEY VALUE: sets a string and exits normally without flushing.
  guard arguments.count == 5 else { fail("usage: set-and-exit TARGET KEY VALUE") }
  store(arguments[2]).set(arguments[4], forKey: arguments[3])
case "exit-after":
  // exit-after TARGET KEY VALUE MICROSECONDS return|exit|thread: sets a string, waits, then ends
  // normally: by returning from main, by exit(0), or by exit(0) on another thread while this one
  // keeps writing another key.
  guard arguments.count == 7, let delay = UInt32(arguments[5]) else {
    fail("usage: exit-after TARGET KEY VALUE MICROSECONDS return|exit|thread")
  }
  let store = store(arguments[2])
  store.set(arguments[4], forKey: arguments[3])
  switch arguments[6] {
  case "return":
    usleep(delay)
  case "exit":
    usleep(delay)
    exit(0)
  case "thread":
    Thread.detachNewThread {
      usleep(delay)
      exit(0)
    }
    var counter = 0
    while true {
      counter += 1
      store.set(counter, forKey: "busy")
    }
  default:
    fail("unknown ending \(arguments[6])")
  }
case "migrate-exit-after":
  // migrate-exit-after TARGET OLD NEW MICROSECONDS return|exit|kill-me: renames OLD to NEW as the
  // registry does at first use, reads NEW, then ends after the delay: normally, or by SIGKILL.
  guard arguments.count == 7, let delay = UInt32(arguments[5]) else {
    fail("usage: migrate-exit-after TARGET OLD NEW MICROSECONDS return|exit|kill-me")
  }
  let store = store(arguments[2])
  store.migrate(from: [arguments[3]], to: arguments[4])
  // Written unbuffered: a SIGKILL would lose what `print` buffers.
  FileHandle.standardOutput.write(Data((store.value(forKey: arguments[4], default: "<default>") + "\n").utf8))
  usleep(delay)
  switch arguments[6] {
  case "return": break
  case "exit": exit(0)
  case "kill-me": kill(getpid(), SIGKILL)
  default: fail("unknown ending \(arguments[6])")
  }
case "registry-migrate-exit-after":
  // registry-migrate-exit-after MICROSECONDS return|exit|kill-me: the first use of the
  // registry's preferences (a configured migration, a rename, a store move), then an end.
  guard arguments.count == 4, let delay = UInt32(arguments[2]) else {
    fail("usage: registry-migrate-exit-after MICROSECONDS return|exit|kill-me")
  }
  let settings = Migrating()
  let read = "\(settings.userName)|\(settings.nickname)|\(settings.theme)\n"
  FileHandle.standardOutput.write(Data(read.utf8))
  usleep(delay)
  switch arguments[3] {
  case "return": break
  case "exit": exit(0)
  case "kill-me": kill(getpid(), SIGKILL)
  default: fail("unknown ending \(arguments[3])")
  }
case "direct-readers":
  // direct-readers: reads one preference on a background thread while the main thread is
  // blocked, then prints what plain UserDefaults readers see on that thread, "|"-separated.
  let done = DispatchSemaphore(value: 0)
  Thread.detachNewThread {
    _ = DirectReaders().plain
    func text(_ value: Any?) -> String { value.map { "\($0)" } ?? "none" }
    let standard = UserDefaults.standard
    let seen = [
      text(standard.object(forKey: "DirectReaders.fromStatic")),
      text(standard.object(forKey: "DirectReaders.memberwise")),
      text(
        UserDefaults(suiteName: "swift-preferences-helper-direct")?.object(forKey: "DirectReaders.inSuite")),
      text(
        UserDefaults(suiteName: "swift-preferences-helper-shared")?.object(forKey: "DirectReaders.inShared")),
    ]
    print(seen.joined(separator: "|"))
    done.signal()
  }
  done.wait()
case "registered-raw":
  // registered-raw KEY…: registers the module's defaults, then prints what plain
  // UserDefaults.standard reads for each KEY, or "none".
  PreferenceRegistry.registerDefaults()
  let values = arguments.dropFirst(2).map {
    UserDefaults.standard.object(forKey: $0).map { "\($0)" } ?? "none"
  }
  print(values.joined(separator: "|"))
case "recover-and-exit":
  // recover-and-exit FILE KEY VALUE: FILE's folder is blocked by a plain file of that name, so
  // the first flushes fail; the helper then removes the blocker and exits normally.
  guard arguments.count == 5 else { fail("usage: recover-and-exit FILE KEY VALUE") }
  let url = URL(fileURLWithPath: arguments[2])
  let store = store(arguments[2])
  store.set(arguments[4], forKey: arguments[3])
  // A flush fails while the folder is blocked; the value stays pending.
  do {
    try store.flush()
    fail("the flush succeeded although the folder is blocked")
  } catch {
    print("flush failed: \(error)")
  }
  try FileManager.default.removeItem(at: url.deletingLastPathComponent())
case "release-elsewhere-and-exit":
  // release-elsewhere-and-exit FILE KEY VALUE: sets a string in a file store, hands the last
  // reference to the store to another thread, which releases it (the backend's final flush then
  // runs there), and exits normally meanwhile.
  guard arguments.count == 5 else { fail("usage: release-elsewhere-and-exit FILE KEY VALUE") }
  final class Holder: @unchecked Sendable {
    // @unchecked: `store` is set before the thread starts and cleared only by that thread.
    var store: PreferenceStore?
    init(_ store: PreferenceStore) { self.store = store }
  }
  let holder = Holder(store(arguments[2]))
  holder.store?.set(arguments[4], forKey: arguments[3])
  let released = DispatchSemaphore(value: 0)
  Thread.detachNewThread {
    holder.store = nil
    released.signal()
  }
  released.wait()
  // The release has happened on the other thread; its flush may still be waiting for the lock.
  FileHandle.standardOutput.write(Data("released\n".utf8))
  exit(0)
case "read-as-nobody":
  // read-as-nobody TARGET KEY: drops root privileges (if any), then prints the value of KEY.
  guard arguments.count == 4 else { fail("usage: read-as-nobody TARGET KEY") }
  if getuid() == 0 {
    guard setgid(65534) == 0, setuid(65534) == 0 else { fail("could not drop privileges") }
  }
  print(store(arguments[2]).propertyListValue(forKey: arguments[3]).map { "\($0)" } ?? "none")
case "kill-loop":
  // kill-loop TARGET: forever writes k0…k9 = n for n = 1, 2, … (continuing from the stored
  // value), flushing after each round, until killed.
  guard arguments.count == 3 else { fail("usage: kill-loop TARGET") }
  let store = store(arguments[2])
  var round = store.value(forKey: "k9", default: 0)
  while true {
    round += 1
    for index in 0..<10 { store.set(round, forKey: "k\(index)") }
    try store.flush()
  }
case "disjoint-writes":
  // disjoint-writes TARGET PREFIX COUNT: like write-loop, but flushing only at exit.
  guard arguments.count == 5, let count = Int(arguments[4]) else {
    fail("usage: disjoint-writes TARGET PREFIX COUNT")
  }
  let store = store(arguments[2])
  for index in 0..<count { store.set(index, forKey: "\(arguments[3])-\(index)") }
case "file-value":
  // file-value TARGET KEY: prints the value a fresh process reads for KEY, or "none".
  guard arguments.count == 4 else { fail("usage: file-value TARGET KEY") }
  print(store(arguments[2]).propertyListValue(forKey: arguments[3]).map { "\($0)" } ?? "none")
case "raw-value":
  // raw-value SUITE|standard KEY: prints what plain UserDefaults in a fresh process reads for KEY.
  guard arguments.count == 4 else { fail("usage: raw-value SUITE|standard KEY") }
  print(plainDefaults(arguments[2]).object(forKey: arguments[3]).map { "\($0)" } ?? "none")
case "raw-domain":
  // raw-domain SUITE|standard [KEY=VALUE]...: replaces the domain's stored values with the given
  // strings (none: empties it) through plain UserDefaults, and synchronizes.
  guard arguments.count >= 3 else { fail("usage: raw-domain SUITE|standard [KEY=VALUE]...") }
  let name =
    arguments[2] == "standard"
    ? (Bundle.main.bundleIdentifier ?? ProcessInfo.processInfo.processName) : arguments[2]
  var values: [String: Any] = [:]
  for pair in arguments.dropFirst(3) {
    guard let equals = pair.firstIndex(of: "=") else { fail("\(pair) is not KEY=VALUE") }
    values[String(pair[..<equals])] = String(pair[pair.index(after: equals)...])
  }
  let defaults = plainDefaults(arguments[2])
  defaults.setPersistentDomain(values, forName: name)
  guard defaults.synchronize() else { fail("synchronize() failed") }
case "raw-values":
  // raw-values SUITE|standard KEY...: prints what plain UserDefaults in a fresh process reads for
  // each KEY, or "none", "|"-separated.
  guard arguments.count >= 4 else { fail("usage: raw-values SUITE|standard KEY...") }
  let defaults = plainDefaults(arguments[2])
  print(
    arguments.dropFirst(3).map { defaults.object(forKey: $0).map { "\($0)" } ?? "none" }.joined(
      separator: "|"))
case "plain-write-then-read":
  // plain-write-then-read SUITE|standard KEY VALUE: reads KEY through an unobserved store, sets
  // VALUE through plain UserDefaults in this process, reads KEY again at once; prints both reads.
  guard arguments.count == 5 else { fail("usage: plain-write-then-read SUITE|standard KEY VALUE") }
  let target = arguments[2] == "standard" ? "standard" : "suite:\(arguments[2])"
  let store = store(target)
  let before = store.value(forKey: arguments[3], default: "<default>")
  plainDefaults(arguments[2]).set(arguments[4], forKey: arguments[3])
  print(before, store.value(forKey: arguments[3], default: "<default>"))
case "raw-set":
  // raw-set SUITE|standard KEY VALUE: sets a string through plain UserDefaults and synchronizes
  // (swift-corelibs-foundation writes its file only then).
  guard arguments.count == 5 else { fail("usage: raw-set SUITE|standard KEY VALUE") }
  let defaults = plainDefaults(arguments[2])
  defaults.set(arguments[4], forKey: arguments[3])
  guard defaults.synchronize() else { fail("synchronize() failed") }
case "read":
  // read KIND KEY [-Key value …]: prints the value of KEY read as KIND from an in-memory store
  // that honours launch arguments.
  guard arguments.count >= 4 else { fail("usage: read KIND KEY [overrides]") }
  let store = PreferenceStore(backend: InMemoryBackend())
  let key = arguments[3]
  switch arguments[2] {
  case "bool": print(store.value(forKey: key, default: false))
  case "int": print(store.value(forKey: key, default: -1))
  case "double": print(store.value(forKey: key, default: -1.0))
  case "string": print(store.value(forKey: key, default: "<default>"))
  case "strings": print(store.value(forKey: key, default: [String]()))
  case "dictionary": print(store.value(forKey: key, default: [String: Int]()).sorted { $0.key < $1.key })
  case "date": print(store.value(forKey: key, default: Date(timeIntervalSince1970: 0)).timeIntervalSince1970)
  case "stored": print(store.hasStoredValue(forKey: key))
  default: fail("unknown kind \(arguments[2])")
  }
case "config-home":
  // config-home: prints the folder swift-corelibs-foundation's CFPreferences keeps this process's
  // preferences in (its own function, for this process's environment): the oracle for where the
  // library's Linux UserDefaults store writes.
  #if !canImport(Darwin)
    guard let path = _CFXDGCreateConfigHomePath() else { fail("no configuration folder") }
    print("\(path)")
  #else
    fail("config-home is swift-corelibs-foundation's")
  #endif
default:
  fail("unknown command; see Sources/PreferencesTestHelper/main.swift")
}
