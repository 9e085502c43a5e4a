/// The `@available` attributes around a declaration, as generated code that names its type must
/// repeat them.
///
/// An extension of a type that is only available from some OS version must say so itself
/// (`@available(iOS 17, *) extension NewSettings`), and code outside it may name the type only
/// under `if #available(iOS 17, *)`; the compiler rejects either otherwise, on the platforms the
/// attribute names. Code that names a deprecated type draws the compiler's deprecation warning
/// unless it is deprecated itself, so generated code that names one is deprecated too. A type
/// unavailable on some platform may be named only by code unavailable there as well, which the
/// index's protocol witness cannot be: outside its extension, generated code names it only to
/// evaluate its store, under `#if` where it is available (``compiledCondition``).
package struct Availability: Sendable, Equatable {
  /// The attributes, outermost first, each once, as written (comments made one space).
  package let attributes: [String]
  /// The arguments of the `#available` check under which code outside may name the type
  /// (`iOS 17, macOS 14, *`): each platform's latest introduction. `nil` when none is named.
  package let condition: String?
  /// Whether an attribute deprecates the declaration, anywhere.
  package let isDeprecated: Bool
  /// Whether an attribute makes the declaration unavailable (or obsolete), anywhere.
  package let isUnavailable: Bool
  /// The `#if` condition under which code may name the declaration, where an attribute makes it
  /// unavailable on a platform (`@available(watchOS, unavailable)`: `!os(watchOS)`; `*`:
  /// `false`). `nil` when none does, or when only a version (`obsoleted:`) or a platform `#if`
  /// cannot tell (app extensions) does.
  package let compiledCondition: String?

  package init(_ written: [String]) {
    var attributes: [String] = []
    for attribute in written where !attributes.contains(attribute) { attributes.append(attribute) }
    self.attributes = attributes
    var introduced: [(platform: String, version: String)] = []
    var isDeprecated = false
    var isUnavailable = false
    var excluded: [String] = []
    for attribute in attributes {
      let (versions, deprecates, removes, unavailableOn) = Self.read(attribute)
      isDeprecated = isDeprecated || deprecates
      isUnavailable = isUnavailable || removes
      if excluded != ["*"], let platform = unavailableOn {
        if platform == "*" {
          excluded = ["*"]
        } else if let condition = Self.platformConditions[platform], !excluded.contains(condition) {
          excluded.append(condition)
        }
      }
      for (platform, version) in versions {
        if let index = introduced.firstIndex(where: { $0.platform == platform }) {
          if Self.isLater(version, than: introduced[index].version) { introduced[index].version = version }
        } else {
          introduced.append((platform, version))
        }
      }
    }
    self.isDeprecated = isDeprecated
    self.isUnavailable = isUnavailable
    if excluded.isEmpty {
      compiledCondition = nil
    } else if excluded == ["*"] {
      compiledCondition = "false"
    } else if excluded.count == 1 {
      compiledCondition = "!" + excluded[0]
    } else {
      compiledCondition = "!(" + excluded.joined(separator: " || ") + ")"
    }
    condition =
      introduced.isEmpty
      ? nil : (introduced.map { "\($0.platform) \($0.version)" } + ["*"]).joined(separator: ", ")
  }

  /// Platforms `#available` takes. App-extension platforms (`iOSApplicationExtension`) are left
  /// out: the same attribute names the app's platform in practice, and the check would not take them.
  static let platforms: Set<String> = [
    "iOS", "macOS", "OSX", "tvOS", "watchOS", "visionOS", "xrOS", "macCatalyst", "driverKit", "DriverKit",
  ]

  /// The platform versions `@available(…)` introduces the declaration in, whether it deprecates
  /// it, whether it makes it unavailable or obsolete, and the platform (or `*`) it makes it
  /// unavailable on outright (`@available(watchOS, unavailable)`). Short form `@available(iOS 17,
  /// macOS 14, *)`; long form `@available(iOS, introduced: 17, deprecated: 18, message: "…")`;
  /// `@available(*, deprecated)`.
  static func read(_ attribute: String)
    -> (versions: [(String, String)], deprecates: Bool, removes: Bool, unavailableOn: String?)
  {
    guard attribute.hasPrefix("@available("), attribute.hasSuffix(")") else { return ([], false, false, nil) }
    let arguments = Self.arguments(attribute.dropFirst("@available(".count).dropLast())
    guard let first = arguments.first else { return ([], false, false, nil) }
    let unavailableOn = arguments.dropFirst().contains("unavailable") ? String(first) : nil
    func names(_ argument: Substring, _ words: [String]) -> Bool {
      words.contains { argument == $0 || argument.hasPrefix($0 + ":") || argument.hasPrefix($0 + " :") }
    }
    func deprecates(_ argument: Substring) -> Bool { names(argument, ["deprecated"]) }
    func removes(_ argument: Substring) -> Bool { names(argument, ["unavailable", "obsoleted"]) }
    if first == "*" {
      return (
        [], arguments.dropFirst().contains(where: deprecates), arguments.dropFirst().contains(where: removes),
        unavailableOn
      )
    }
    let words = first.split(separator: " ")
    if words.count == 2 {
      // The short form: every argument is a platform and a version, or `*`.
      let versions = arguments.compactMap { argument -> (String, String)? in
        let parts = argument.split(separator: " ")
        guard parts.count == 2, Self.platforms.contains(String(parts[0])) else { return nil }
        return (String(parts[0]), String(parts[1]))
      }
      return (versions, false, false, nil)
    }
    // The long form: one platform, then its labelled arguments.
    let platform = String(first)
    var versions: [(String, String)] = []
    var deprecated = false
    var removed = false
    for argument in arguments.dropFirst() {
      if deprecates(argument) { deprecated = true }
      if removes(argument) { removed = true }
      if argument.hasPrefix("introduced:"), Self.platforms.contains(platform) {
        let version = argument.dropFirst("introduced:".count).drop { $0 == " " }
        if !version.isEmpty { versions.append((platform, String(version))) }
      }
    }
    return (versions, deprecated, removed, unavailableOn)
  }

  /// The `#if` condition of each platform `@available` names that `#if` can tell.
  static let platformConditions: [String: String] = [
    "iOS": "os(iOS)", "macOS": "os(macOS)", "OSX": "os(macOS)", "tvOS": "os(tvOS)", "watchOS": "os(watchOS)",
    "visionOS": "os(visionOS)", "xrOS": "os(visionOS)", "macCatalyst": "targetEnvironment(macCatalyst)",
  ]

  /// The comma-separated arguments, each without the spaces around it (a `message:` string may
  /// hold commas and parentheses).
  static func arguments(_ text: Substring) -> [Substring] {
    var arguments: [Substring] = []
    var start = text.startIndex
    var inString = false
    var escaped = false
    var index = text.startIndex
    while index < text.endIndex {
      let character = text[index]
      if inString {
        if escaped {
          escaped = false
        } else if character == "\\" {
          escaped = true
        } else if character == "\"" {
          inString = false
        }
      } else if character == "\"" {
        inString = true
      } else if character == "," {
        arguments.append(text[start..<index])
        start = text.index(after: index)
      }
      index = text.index(after: index)
    }
    arguments.append(text[start...])
    return arguments.map { Substring($0.trimmingBlanks()) }.filter { !$0.isEmpty }
  }

  /// Whether version `a` (`17.2`) is later than `b` (`17`).
  static func isLater(_ a: String, than b: String) -> Bool {
    let left = a.split(separator: ".").map { Int($0) ?? 0 }
    let right = b.split(separator: ".").map { Int($0) ?? 0 }
    for index in 0..<max(left.count, right.count) {
      let (x, y) = (index < left.count ? left[index] : 0, index < right.count ? right[index] : 0)
      if x != y { return x > y }
    }
    return false
  }
}
