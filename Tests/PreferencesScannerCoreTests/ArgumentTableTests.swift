import Foundation
import Testing

@testable import PreferencesScannerCore

/// `PreferenceArguments.labels` is the one table of `@Preference`'s arguments that the parser, its
/// messages and the docs follow. The wrapper's public initializers spell the same arguments in
/// Swift; this holds the two together, naming any label one has and the other lacks, and any
/// initializer whose labels are out of the table's order (the order Swift requires them in).
@Suite struct ArgumentTableTests {
  /// The argument labels of each `public init(…)` in `source`, location defaults left out.
  static func initializerLabels(in source: String) -> [[String]] {
    var result: [[String]] = []
    var rest = Substring(source)
    while let start = rest.range(of: "public init(") {
      var depth = 1
      var index = start.upperBound
      var parameter = ""
      var parameters: [String] = []
      var previous: Character = " "
      while index < rest.endIndex, depth > 0 {
        let character = rest[index]
        switch character {
        case "(", "[", "<": depth += 1
        case ")", "]": depth -= 1
        case ">" where previous != "-": depth -= 1  // not the arrow of a function type
        default: break
        }
        previous = character
        if depth == 1, character == "," {
          parameters.append(parameter)
          parameter = ""
        } else if depth > 0 {
          parameter.append(character)
        }
        index = rest.index(after: index)
      }
      parameters.append(parameter)
      let labels = parameters.compactMap { parameter -> String? in
        let word = parameter.trimmingCharacters(in: .whitespacesAndNewlines).prefix {
          $0.isLetter || $0 == "_"
        }
        return word.isEmpty || word == "_" ? nil : String(word)
      }
      result.append(labels.filter { !["fileID", "line", "column"].contains($0) })
      rest = rest[index...]
    }
    return result
  }

  @Test func theWrappersInitializersAndTheScannersTableAgree() throws {
    let source = try String(
      contentsOf: packageRoot.appendingPathComponent("Sources/Preferences/Wrapper/DerivedPreference.swift"),
      encoding: .utf8)
    let initializers = Self.initializerLabels(in: source)
    #expect(initializers.count >= 5, "found \(initializers)")
    #expect(
      initializers.contains([
        "wrappedValue", "key", "store", "movedFrom", "format", "sync", "settings", "renamedFrom",
      ]),
      "the fullest initializer is read whole: \(initializers)")
    let table = PreferenceArguments.labels.map(\.label)
    let spelled = Set(initializers.flatMap { $0 })
    for label in spelled where !table.contains(label) {
      Issue.record(
        "DerivedPreference has an initializer with '\(label):', which PreferenceArguments.labels lacks")
    }
    for label in table where !spelled.contains(label) {
      Issue.record(
        "PreferenceArguments.labels has '\(label):', which no initializer of DerivedPreference takes")
    }
    for labels in initializers {
      let positions = labels.compactMap { table.firstIndex(of: $0) }
      #expect(
        positions == positions.sorted(),
        "init(\(labels.map { $0 + ":" }.joined())) takes its arguments out of the table's order \(table)")
    }
  }

  @Test func theCheckNamesAMismatch() {
    let labels = Self.initializerLabels(
      in:
        "public init(wrappedValue: Value, make: @autoclosure () -> Int, colour: Int = 1, _ more: String..., line: UInt = #line) {}"
    )
    #expect(labels == [["wrappedValue", "make", "colour"]])
  }
}
