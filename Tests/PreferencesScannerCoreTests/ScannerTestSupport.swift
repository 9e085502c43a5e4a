import Foundation
import Testing

@testable import PreferencesScannerCore

func scan(
  _ source: String, file: String = "Sources/App/File.swift", module: String = "App",
  configuration: ScannerConfiguration = ScannerConfiguration(),
  lock: String? = nil
) -> PreferenceScanner.Result {
  scan([(file, source)], module: module, configuration: configuration, lock: lock)
}

func scan(
  _ files: [(String, String)], module: String = "App",
  configuration: ScannerConfiguration = ScannerConfiguration(),
  lock: String? = nil
) -> PreferenceScanner.Result {
  PreferenceScanner(
    module: module, configuration: configuration,
    lock: lock.map {
      PreferenceLock.Committed(PreferenceLock.parse($0), path: "Sources/App/Preferences.lock")
    }
  ).scan(files: files.map { ($0.0, Array($0.1.utf8)) })
}

func keys(_ source: String) -> [String] { scan(source).plans.map(\.key) }

func errors(_ result: PreferenceScanner.Result) -> [String] {
  result.diagnostics.filter { $0.severity == .error }.map(\.description)
}

func warnings(_ result: PreferenceScanner.Result) -> [String] {
  result.diagnostics.filter { $0.severity == .warning }.map(\.description)
}

extension PreferenceScanner.Result {
  func plan(_ key: String) -> PreferencePlan? { plans.first { $0.key == key } }
}

extension PreferencePlan {
  /// How the default reaches the store, in one word (and why, for first-read registration).
  var how: String {
    switch registration {
    case .none: "none"
    case .literal: "literal"
    case .registry: "registry"
    case .mainActor: "mainActor"
    case .defaultIsolation: "defaultIsolation"
    case .firstRead(let reason): "firstRead: \(reason)"
    }
  }
}

/// The package's root, found from this file's path.
let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
  .deletingLastPathComponent()
