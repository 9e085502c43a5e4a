import CorpusKit
import Foundation

// The module's own types, constants and functions that the default corpus
// (DefaultCorpus.swift) names. Types stored as JSON text or through a raw value are
// `nonisolated`, as a target whose default isolation is MainActor requires of them.

enum CorpusMode: String, CaseIterable {
  case on, off
  static let preferred = CorpusMode.off
  nonisolated static let fallback = CorpusMode.on
}

enum CorpusLevel: Int {
  case low = 1, high = 5
}

nonisolated struct CorpusPoint: Codable, Equatable {
  var x = 0.0
  var y = 0.0
  static let origin = CorpusPoint()
}

nonisolated enum CorpusShape: Codable, Equatable {
  case circle(radius: Double)
  case square
}

nonisolated struct CorpusFlags: OptionSet, Sendable {
  let rawValue: Int
  static let bold = CorpusFlags(rawValue: 1)
  static let italic = CorpusFlags(rawValue: 2)
}

nonisolated struct CorpusTag: RawRepresentable, Equatable {
  var rawValue: String
}

/// Raw values of a type the scanner has no list for: the compiler decides it is a preference value.
nonisolated struct CorpusToken: RawRepresentable, Equatable {
  var rawValue: UUID
}

nonisolated func corpusCount() -> Int { 12 }
func corpusLabel() -> String { "label" }
func corpusIdentity<T>(_ value: T) -> T { value }
nonisolated func corpusNonisolatedIdentity<T>(_ value: T) -> T { value }

extension KitTint {
  static let corpusFavorite = KitTint.green
}

/// A nested type and a type alias that static members name, as real apps' settings do.
nonisolated struct CorpusLibrary {
  enum Sort: String { case name, date }
  typealias Columns = [String]
  static func defaultSort() -> Sort { .date }
  static let defaultColumns: Columns = ["title"]
}

/// A case named `standard`, beside a static member of another type of that name that a target
/// whose default isolation is MainActor isolates: `.standard` of each is what its declared type
/// says.
nonisolated enum CorpusDensity: String { case compact, standard }

/// Stored only inside nested collections (`[[String: CorpusLayer]]`).
enum CorpusLayer: String { case base, top }

enum CorpusStyle: String {
  case plain, fancy
  static var standard: CorpusStyle { .fancy }
}

/// A `Codable` type whose stored properties' types only their initial values show: the registry
/// proves it `Sendable` from them.
nonisolated struct CorpusLayout: Codable, Equatable {
  var ratio = 16.0 / 9.0
  var range = 0...10
  var url = URL(string: "https://example.com")!
  var minutes = 60 * 24
}

/// An enum whose raw values are characters, stored as its raw value.
enum CorpusSeparator: Character {
  case comma = ",", tab = "\t"
}

/// A type with a nested type that must be written in backticks.
nonisolated enum CorpusItem {
  enum `Type`: String { case file, folder }
  static let standardType: `Type` = .folder
}
