import Foundation
import Testing

@testable import PreferencesScannerCore

func scan(
  _ source: String, file: String = "Sources/App/File.swift", module: String = "App",
  configuration: ScannerConfiguration = ScannerConfiguration()
) -> PreferenceScanner.Result {
  PreferenceScanner(module: module, configuration: configuration).scan(files: [(file, Array(source.utf8))])
}

func keys(_ source: String) -> [String] { scan(source).preferences.map(\.key) }

func errors(_ result: PreferenceScanner.Result) -> [String] {
  result.diagnostics.filter { $0.severity == .error }.map(\.description)
}

/// The package's root, found from this file's path.
let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
  .deletingLastPathComponent()
