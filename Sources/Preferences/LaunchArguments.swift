import Foundation

/// Parses `-Key value` launch arguments, the way UserDefaults' argument domain does.
enum LaunchArguments {
  /// The overrides in `arguments`: every `-Key value` pair after the executable name. `--flags`
  /// and arguments after a bare `--` are ignored.
  static func overrides(in arguments: [String]) -> [String: String] {
    var result: [String: String] = [:]
    var index = 1
    while index < arguments.count {
      let argument = arguments[index]
      if argument == "--" { break }
      if argument.count > 1, argument.hasPrefix("-"), !argument.hasPrefix("--"),
        index + 1 < arguments.count, Double(argument) == nil
      {
        result[String(argument.dropFirst())] = arguments[index + 1]
        index += 2
      } else {
        index += 1
      }
    }
    return result
  }
}
