// A child process for the tests: they run it to check behaviour across processes and at exit.
import Foundation
import Preferences

let arguments = CommandLine.arguments
func fail(_ message: String) -> Never {
  FileHandle.standardError.write(Data("preferences-test-helper: \(message)\n".utf8))
  exit(2)
}

switch arguments.dropFirst().first {
case "write-loop":
  // write-loop FILE PREFIX COUNT: writes PREFIX-i = i for i in 0..<COUNT, flushing after each.
  guard arguments.count == 5, let count = Int(arguments[4]) else {
    fail("usage: write-loop FILE PREFIX COUNT")
  }
  let store = PreferenceStore.propertyList(at: URL(fileURLWithPath: arguments[2]))
  for index in 0..<count {
    store.set(index, forKey: "\(arguments[3])-\(index)")
    try store.flush()
  }
case "set-and-exit":
  // set-and-exit FILE|suite:NAME KEY VALUE: sets a string and exits normally without flushing.
  guard arguments.count == 5 else { fail("usage: set-and-exit TARGET KEY VALUE") }
  let target = arguments[2]
  let store =
    target.hasPrefix("suite:")
    ? PreferenceStore.suite(String(target.dropFirst(6)))
    : PreferenceStore.propertyList(at: URL(fileURLWithPath: target))
  store.set(arguments[4], forKey: arguments[3])
case "kill-loop":
  // kill-loop FILE: forever writes k0…k9 = n for n = 1, 2, … (continuing from the file), flushing
  // after each round, until killed.
  guard arguments.count == 3 else { fail("usage: kill-loop FILE") }
  let store = PreferenceStore(
    backend: PropertyListFileBackend(url: URL(fileURLWithPath: arguments[2])), arguments: [])
  var round = store.value(forKey: "k9", default: 0)
  while true {
    round += 1
    for index in 0..<10 { store.set(round, forKey: "k\(index)") }
    try store.flush()
  }
case "disjoint-writes":
  // disjoint-writes FILE PREFIX COUNT: like write-loop, but flushing only at exit.
  guard arguments.count == 5, let count = Int(arguments[4]) else {
    fail("usage: disjoint-writes FILE PREFIX COUNT")
  }
  let store = PreferenceStore.propertyList(at: URL(fileURLWithPath: arguments[2]))
  for index in 0..<count { store.set(index, forKey: "\(arguments[3])-\(index)") }
case "file-value":
  // file-value FILE KEY: prints the value a fresh process reads for KEY from the file, or "none".
  guard arguments.count == 4 else { fail("usage: file-value FILE KEY") }
  let store = PreferenceStore(
    backend: PropertyListFileBackend(url: URL(fileURLWithPath: arguments[2])), arguments: [])
  print(store.propertyListValue(forKey: arguments[3]).map { "\($0)" } ?? "none")
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
default:
  fail("unknown command; see Sources/PreferencesTestHelper/main.swift")
}
