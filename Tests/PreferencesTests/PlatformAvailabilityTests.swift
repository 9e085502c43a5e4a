import Foundation
import Testing

/// No macOS-only API is reachable from the library's code when it is compiled for iOS, tvOS,
/// watchOS, visionOS or Mac Catalyst: each source file of the runtime is read with the
/// conditional-compilation blocks that platform would compile, and every active line is
/// searched for APIs Apple documents for macOS only.
@Suite struct PlatformAvailabilityTests {
  /// APIs Apple's documentation lists for macOS only (or, for AppKit, not on iOS-family
  /// platforms), with the pattern that finds a use.
  static let macOSOnly: [(api: String, pattern: String)] = [
    ("FileManager.homeDirectoryForCurrentUser", #"homeDirectoryForCurrentUser"#),
    ("FileManager.homeDirectory(forUser:)", #"homeDirectory\(forUser"#),
    ("Process", #"(?<![A-Za-z_.])Process(\(|\.|\s*\{|>|\]|\))"#),
    ("NSTask", #"\bNSTask\b"#),
    ("Host.current()", #"\bHost\.current\b"#),
    ("NSWorkspace", #"\bNSWorkspace\b"#),
    ("NSApplication / NSApp", #"\bNSApp(lication)?\b"#),
    ("AppKit", #"import\s+AppKit"#),
    ("DistributedNotificationCenter", #"\bDistributedNotificationCenter\b"#),
    ("NSAppleScript", #"\bNSAppleScript\b"#),
    ("NSUserDefaultsController", #"\bNSUserDefaultsController\b"#),
  ]

  /// The platforms the library must build for, as `#if` sees them.
  static let platforms: [String: Set<String>] = [
    "iOS": ["os(iOS)", "canImport(Darwin)", "canImport(UIKit)", "canImport(SwiftUI)", "canImport(os)"],
    "tvOS": ["os(tvOS)", "canImport(Darwin)", "canImport(UIKit)", "canImport(SwiftUI)", "canImport(os)"],
    "watchOS": ["os(watchOS)", "canImport(Darwin)", "canImport(SwiftUI)", "canImport(os)"],
    "visionOS": [
      "os(visionOS)", "os(xrOS)", "canImport(Darwin)", "canImport(UIKit)", "canImport(SwiftUI)",
      "canImport(os)",
    ],
    "Mac Catalyst": [
      "os(iOS)", "targetEnvironment(macCatalyst)", "canImport(Darwin)", "canImport(UIKit)",
      "canImport(SwiftUI)",
      "canImport(os)",
    ],
  ]

  static let sources: URL = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Sources/Preferences")

  static func swiftFiles() -> [URL] {
    let enumerator = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)
    return (enumerator?.allObjects as? [URL] ?? []).filter { $0.pathExtension == "swift" }
      .sorted { $0.path < $1.path }
  }

  @Test func noMacOSOnlyAPIIsReachableOnOtherApplePlatforms() throws {
    let files = Self.swiftFiles()
    #expect(files.count > 20, "found the library's sources at \(Self.sources.path)")
    var findings: [String] = []
    for file in files {
      let text = try String(contentsOf: file, encoding: .utf8)
      for (platform, flags) in Self.platforms.sorted(by: { $0.key < $1.key }) {
        for (number, line) in ConditionalLines.active(in: text, flags: flags) {
          let code = line.components(separatedBy: "//").first ?? line
          for (api, pattern) in Self.macOSOnly
          where code.range(of: pattern, options: .regularExpression) != nil {
            findings.append(
              "\(file.lastPathComponent):\(number): \(api) is macOS-only but compiled for \(platform)")
          }
        }
      }
    }
    #expect(findings.isEmpty, "\(findings.joined(separator: "\n"))")
  }

  /// The check can fail: a macOS-only call outside any guard is found, one inside
  /// `#if os(macOS)` or `#if !canImport(Darwin)` is not.
  @Test func theCheckFindsUnguardedUsesAndSkipsGuardedOnes() {
    let source = """
      let a = FileManager.default.homeDirectoryForCurrentUser
      #if os(macOS)
        let b = Process()
      #elseif os(Linux)
        let c = Process()
      #else
        let d = Process()
      #endif
      #if !canImport(Darwin)
        let e = FileManager.default.homeDirectoryForCurrentUser
      #endif
      """
    let active = ConditionalLines.active(in: source, flags: Self.platforms["iOS"]!).map(\.0)
    #expect(active == [1, 7])
  }
}

/// The lines of a Swift file that a compilation with `flags` true (every other `os(…)`,
/// `canImport(…)` and `targetEnvironment(…)` false; `compiler(…)`, `swift(…)` and custom flags
/// true) would compile.
enum ConditionalLines {
  static func active(in text: String, flags: Set<String>) -> [(Int, String)] {
    // Each level: whether the enclosing level is active, whether this level's current branch
    // is, and whether an earlier branch of this level was taken.
    var stack: [(parent: Bool, current: Bool, taken: Bool)] = []
    var active: [(Int, String)] = []
    var isActive: Bool { stack.last.map { $0.parent && $0.current } ?? true }
    for (index, raw) in text.components(separatedBy: "\n").enumerated() {
      let line = raw.trimmingCharacters(in: .whitespaces)
      if line.hasPrefix("#if ") {
        let value = evaluate(String(line.dropFirst(4)), flags)
        stack.append((isActive, value, value))
      } else if line.hasPrefix("#elseif "), let top = stack.popLast() {
        let value = !top.taken && evaluate(String(line.dropFirst(8)), flags)
        stack.append((top.parent, value, top.taken || value))
      } else if line == "#else" || line.hasPrefix("#else "), let top = stack.popLast() {
        stack.append((top.parent, !top.taken, true))
      } else if line.hasPrefix("#endif") {
        _ = stack.popLast()
      } else if isActive {
        active.append((index + 1, raw))
      }
    }
    return active
  }

  /// Evaluates a condition of `!`, `&&`, `||`, parentheses and platform conditions.
  static func evaluate(_ condition: String, _ flags: Set<String>) -> Bool {
    var tokens: [String] = []
    var scanner = Substring(condition.components(separatedBy: "//").first ?? condition)
    while let first = scanner.first {
      if first.isWhitespace {
        scanner = scanner.dropFirst()
      } else if scanner.hasPrefix("&&") || scanner.hasPrefix("||") {
        tokens.append(String(scanner.prefix(2)))
        scanner = scanner.dropFirst(2)
      } else if first == "!" || first == "(" || first == ")" {
        tokens.append(String(first))
        scanner = scanner.dropFirst()
      } else {
        // A name, with its argument list if it has one: `os(iOS)`, `DEBUG`.
        var name = ""
        while let next = scanner.first, next.isLetter || next.isNumber || next == "_" {
          name.append(next)
          scanner = scanner.dropFirst()
        }
        if scanner.first == "(", let close = scanner.firstIndex(of: ")") {
          name += scanner[scanner.startIndex...close].replacingOccurrences(of: " ", with: "")
          scanner = scanner[scanner.index(after: close)...]
        }
        if name.isEmpty { scanner = scanner.dropFirst() } else { tokens.append(name) }
      }
    }
    var position = 0
    func primary() -> Bool {
      guard position < tokens.count else { return false }
      let token = tokens[position]
      position += 1
      if token == "!" { return !primary() }
      if token == "(" {
        let value = disjunction()
        position += 1
        return value
      }
      for prefix in ["os(", "canImport(", "targetEnvironment(", "arch("] where token.hasPrefix(prefix) {
        return flags.contains(token)
      }
      return true
    }
    func conjunction() -> Bool {
      var value = primary()
      while position < tokens.count, tokens[position] == "&&" {
        position += 1
        let right = primary()
        value = value && right
      }
      return value
    }
    func disjunction() -> Bool {
      var value = conjunction()
      while position < tokens.count, tokens[position] == "||" {
        position += 1
        let right = conjunction()
        value = value || right
      }
      return value
    }
    return disjunction()
  }
}
