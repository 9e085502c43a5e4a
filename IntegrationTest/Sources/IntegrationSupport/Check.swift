import Foundation

/// Exits with a message naming the program and the failed check.
public func check(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
  guard condition() else {
    let program = URL(fileURLWithPath: CommandLine.arguments[0]).lastPathComponent
    FileHandle.standardError.write(Data("\(program): check failed: \(message())\n".utf8))
    exit(1)
  }
}

/// What a run does: write values, or verify (in a new process) that they persisted.
public enum Mode: String, Sendable {
  case write, verify

  /// The mode named by the first argument (a usage error otherwise).
  public static var current: Mode {
    guard CommandLine.arguments.count >= 2, let mode = Mode(rawValue: CommandLine.arguments[1]) else {
      FileHandle.standardError.write(Data("usage: \(CommandLine.arguments[0]) write|verify\n".utf8))
      exit(2)
    }
    return mode
  }
}

/// Prints that the program's checks passed.
public func passed(_ what: String) {
  let program = URL(fileURLWithPath: CommandLine.arguments[0]).lastPathComponent
  print("\(program): \(what)")
}

/// A flag that Observation's `onChange` (a `@Sendable` closure) can raise.
public final class Flag: @unchecked Sendable {
  // @unchecked: `raised` is only read or written while holding `lock`.
  private let lock = NSLock()
  private var raised = false
  public init() {}
  public func raise() { lock.withLock { raised = true } }
  public var isRaised: Bool { lock.withLock { raised } }
}
