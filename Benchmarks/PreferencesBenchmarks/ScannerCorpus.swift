import Foundation
import PreferencesScannerCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A generated body of realistic Swift: types nested in types, doc and block comments, string
/// literals of every form, functions with closures, and `@Preference` declarations.
enum ScannerCorpus {
  struct Corpus {
    var files: [(path: String, contents: [UInt8])]
    var lineCount: Int
  }

  static func generate(lines target: Int) -> Corpus {
    var files: [(path: String, contents: [UInt8])] = []
    var total = 0
    var fileIndex = 0
    while total < target {
      var text = "import Foundation\nimport SwiftUI\n\n"
      for typeIndex in 0..<8 {
        let name = "Type\(fileIndex)_\(typeIndex)"
        text += """
          /// Documentation for \(name).
          /// It spans two lines and mentions @Preference var notReal = 1 in prose.
          public struct \(name): Equatable, Sendable {
            // A line comment with braces { and a string "quote".
            /* A block comment /* nested */ with @Preference var hidden = 2 */
            @Preference var enabled = true
            @Preference(key: "legacy.\(name)") var legacyCount = 0
            let title = "Title with \\(interpolation) and } brace"
            let raw = #"raw "string" with \\(no interpolation)"#
            let multiline = \"\"\"
              Multi-line text with "quotes" and { braces }
              and \\(value.map { "\\($0)" }.joined()) interpolation
              \"\"\"

            struct Nested<T: Hashable> where T: Sendable {
              @Preference var depth: Int = 3
              var values: [T] = []

              func transform(_ input: [String: Int]) -> [String] {
                input.filter { $0.value > 1 }.map { key, value in
                  "\\(key)=\\(value)"
                }.sorted()
              }
            }

            func compute(_ value: Int) -> Int {
              var result = value
              for index in 0..<value where index % 2 == 0 {
                result += index * 3 - 1
              }
              if result > 100 {
                return result / 2
              } else {
                return result
              }
            }
          }


          """
      }
      let lines = text.reduce(into: 0) { count, character in if character == "\n" { count += 1 } }
      total += lines
      files.append(("Corpus/File\(fileIndex).swift", Array(text.utf8)))
      fileIndex += 1
    }
    return Corpus(files: files, lineCount: total)
  }

  /// One file of thousands of declarations that reuse the same few type names (`distinct:
  /// false`): invalid Swift, but what a bad merge or a generator produces. Every name is declared,
  /// extended and used again and again (raw-value enums and their cases, classes inheriting in a
  /// cycle, protocols refining each other, type aliases naming each other), so any lookup that
  /// walks every same-named declaration shows up as time growing with the square of the input.
  /// With `distinct: true`, the same text with every repeat's names numbered apart: the linear
  /// baseline it is compared with.
  static func repeatedNames(lines target: Int, distinct: Bool) -> Corpus {
    let shapes = [
      "enum E#: String { case a }\nstruct T# { @Preference var e = E#.a }\n",
      "extension K# { @Preference static var s = K#.k }\nstruct K#: Codable { static let k = 1 }\n",
      "class C#: B# { @Preference var x = C#.y; static var y = 1 }\nclass B#: C# {}\n",
      "struct A# { struct B { enum E: Int { case a }; @Preference var v = B.E.a } }\n",
      "protocol P#: Q# {}\nprotocol Q#: P# {}\nstruct S#: P# { @Preference var p: S# = S#() }\n",
      "typealias X# = Y#\ntypealias Y# = X#\nstruct U# { @Preference var u: X# = .init() }\n",
      "let g# = 1\nstruct V# { @Preference var v = g# }\nfunc g#() -> Int { 1 }\n",
    ]
    var text = ""
    var lines = 0
    var index = 0
    while lines < target {
      let shape = shapes[index % shapes.count]
      text += shape.replacingOccurrences(of: "#", with: distinct ? "_\(index)" : "")
      lines += shape.reduce(into: 0) { count, character in if character == "\n" { count += 1 } }
      index += 1
    }
    return Corpus(files: [("Repeated/Repeated.swift", Array(text.utf8))], lineCount: lines)
  }

  /// Writes the corpus to a temporary directory, runs the `preferences-scanner` built beside this
  /// benchmark on it, and returns the scanner's peak resident memory in megabytes.
  ///
  /// On Linux a child's reported peak also counts the memory of the process it was spawned from
  /// at the moment it was spawned (the peak of the address space `exec` replaced), and this
  /// benchmark holds far more than the scanner needs by now. So the scanner is started by a
  /// fresh, small process: this benchmark again, with `--spawn-scanner`.
  static func peakMemoryOfScannerProcess(_ corpus: Corpus) -> Double? {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "scanner-corpus-\(getpid())")
    defer { try? FileManager.default.removeItem(at: directory) }
    do {
      try FileManager.default.createDirectory(
        at: directory.appendingPathComponent("Corpus"), withIntermediateDirectories: true)
      for file in corpus.files {
        try Data(file.contents).write(to: directory.appendingPathComponent(file.path))
      }
      let output = Pipe()
      let launcher = Process()
      launcher.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
      launcher.arguments = ["--spawn-scanner", directory.path]
      launcher.standardOutput = output
      try launcher.run()
      let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      launcher.waitUntilExit()
      return Double(text.trimmingCharacters(in: .whitespacesAndNewlines))
    } catch {
      return nil
    }
  }

  /// Runs `preferences-scanner scan` on `directory` and prints its peak resident memory in
  /// megabytes (the `--spawn-scanner` mode).
  static func spawnScanner(on directory: String) -> Never {
    let scanner = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
      .appendingPathComponent("preferences-scanner")
    // posix_spawn + wait4 give this child's own peak memory; getrusage(RUSAGE_CHILDREN) would
    // include whatever else this process had waited for.
    let arguments = [scanner.path, "scan", "--format", "json", directory]
    var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    var pid: pid_t = 0
    guard posix_spawn(&pid, scanner.path, &actions, nil, &argv, environ) == 0 else { exit(1) }
    var status: Int32 = 0
    var usage = rusage()
    guard wait4(pid, &status, 0, &usage) == pid else { exit(1) }
    #if canImport(Darwin)
      print(Double(usage.ru_maxrss) / 1_048_576)
    #else
      print(Double(usage.ru_maxrss) / 1024)
    #endif
    exit(0)
  }
}
