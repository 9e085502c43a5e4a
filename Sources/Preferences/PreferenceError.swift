import Foundation

/// An error the library reports about stored data, files or values.
public enum PreferenceError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The stored value under `key` is not of the expected type; the default is used instead and
  /// the stored value is left untouched.
  case typeMismatch(key: String, expected: String, found: String)
  /// The stored value under `key` could not be decoded; the default is used instead and the
  /// stored value is left untouched.
  case decodingFailed(key: String, type: String, reason: String)
  /// The value for `key` could not be encoded; nothing was stored.
  case encodingFailed(key: String, type: String, reason: String)
  /// The property-list file at `path` could not be read. It was moved to `preservedAt` (if not
  /// `nil`) and the store continued with an empty file.
  case corruptFile(path: String, reason: String, preservedAt: String?)
  /// The preferences file at `path` exists but could not be read (permissions, I/O). The store
  /// runs on defaults and never replaces the file while it cannot read it.
  case readFailed(path: String, reason: String)
  /// Writing the preferences file at `path` failed; the values of `pendingKeys` stay in memory
  /// and are retried after a backoff, at the next write or flush, and at exit.
  case writeFailed(path: String, reason: String, pendingKeys: [String] = [])
  /// Writing the preferences file at `path` failed at process exit: the values of `keys` were
  /// lost.
  case unsavedAtExit(path: String, reason: String, keys: [String])
  /// A value of type `given` was written to a key declared with type `declared`; nothing was
  /// stored.
  case wrongValueType(key: String, declared: String, given: String)
  /// A `@Preference` at `location` is missing from the generated registry (a stale build or a
  /// declaration the scanner could not read); its values are kept in memory only.
  case unresolvedDeclaration(location: String)
  /// Two modules declare a preference under one key in one store (at `declarations`, each
  /// `Module/File.swift:line`), and the two cannot mean to share it: one key is derived from
  /// type and property names that happen to match, or the two disagree on the value's type or
  /// default. Both read and write the one stored value. Reported when the second module
  /// registers its defaults there.
  case keyDeclaredInTwoModules(key: String, declarations: [String])
  /// A synced preference could not be written to the remote store because of its quotas.
  case syncLimitExceeded(key: String, reason: String)
  /// The remote store cannot sync (no iCloud key-value entitlement, no account): preferences
  /// stay on this device until it can. Reported once per remote store.
  case syncUnavailable(store: String, reason: String)
  /// The platform refused to watch a file store's folder (on Linux, the user's inotify watch
  /// limit is used up): other processes' changes to it are found by checking the file while the
  /// store is observed, and when this process next writes it.
  case changesNotWatched(path: String, reason: String)
  /// A write made before the device's first unlock, after a read of the key that could only see
  /// the default, was dropped at unlock: the store held a value for the key, which it keeps.
  case heldWriteConflicted(key: String, store: String)
  /// Writes held until the device's first unlock were lost: the process ended before it.
  case heldWritesLost(keys: [String], store: String)
  /// `PreferenceStore.suite(_:)` was given the app's own domain, which is not a suite: the
  /// store of `.standard` is used.
  case suiteIsTheAppsDomain(name: String)
  /// A `UserDefaults` store (`store`) holds `bytes`, past half of `limit`, the most its platform
  /// lets one domain hold (past it, writes are lost or the app ends); `largestKeys` are its
  /// largest values, each with its size. Keep large data in files, or give the preferences that
  /// hold it a property-list file store.
  case domainNearSizeLimit(store: String, bytes: Int, limit: Int, largestKeys: [String])
  /// The value written under `key` (`bytes`, with its key) was large enough to bring `store`
  /// near its platform's `limit`, so it was kept in a file beside the store, and the domain holds
  /// a small marker in its place. Reads return the value; code that reads `UserDefaults` directly
  /// sees the marker.
  case valueKeptInFile(key: String, store: String, bytes: Int, limit: Int)
  /// The file that held `key`'s value outside `store` is gone (on tvOS, the system may purge it);
  /// reads return the default until a value is written again.
  case keptValueMissing(key: String, store: String, path: String)
  /// A document given to ``PreferenceValuesDocument/init(jsonData:)`` is not one this version
  /// reads; nothing was imported.
  case unreadableDocument(reason: String)

  /// A description for logs and diagnostics.
  public var description: String {
    switch self {
    case .typeMismatch(let key, let expected, let found):
      "preference '\(key)': stored value is \(found), expected \(expected); using the default value"
    case .decodingFailed(let key, let type, let reason):
      "preference '\(key)': stored value could not be decoded as \(type) (\(reason)); using the default value"
    case .encodingFailed(let key, let type, let reason):
      "preference '\(key)': value of type \(type) could not be encoded (\(reason)); nothing was stored"
    case .corruptFile(let path, let reason, let preservedAt):
      if let preservedAt {
        "preferences file '\(path)' is corrupt (\(reason)); it was moved to '\(preservedAt)' and the store starts empty"
      } else {
        "preferences file '\(path)' is corrupt (\(reason)); it could not be moved aside and is left untouched"
      }
    case .readFailed(let path, let reason):
      "preferences file '\(path)' could not be read (\(reason)); the store uses defaults and leaves the file untouched"
    case .writeFailed(let path, let reason, let keys):
      keys.isEmpty
        ? "preferences file '\(path)' could not be written (\(reason))"
        : "preferences file '\(path)' could not be written (\(reason)); the values of \(Self.list(keys)) are kept in memory and retried at the next write, flush and exit"
    case .unsavedAtExit(let path, let reason, let keys):
      "preferences file '\(path)' could not be written at exit (\(reason)); the values of \(Self.list(keys)) were lost"
    case .wrongValueType(let key, let declared, let given):
      "preference '\(key)' is declared as \(declared) but was given \(given); nothing was stored"
    case .keyDeclaredInTwoModules(let key, let declarations):
      "preference key '\(key)' is declared by two modules in one store (\(declarations.joined(separator: " and "))), so both read and write one value; give one a key of its own with @Preference(key: \"…\") or a \"prefix\" in its module's preferences-config.json (two declarations that mean to share a key both name it with key: and agree on its type and default)"
    case .syncLimitExceeded(let key, let reason):
      "preference '\(key)' was not synced: \(reason); it stays on this device"
    case .syncUnavailable(let store, let reason):
      "\(store) cannot sync (\(reason)); synced preferences stay on this device until it can"
    case .heldWriteConflicted(let key, let store):
      "preference '\(key)' in \(store) was written before the device's first unlock after a read that could only see its default; the stored value is kept and that write was dropped"
    case .heldWritesLost(let keys, let store):
      "writes to \(store) made before the device's first unlock were lost when the app ended before it: \(Self.list(keys))"
    case .suiteIsTheAppsDomain(let name):
      "'\(name)' is the app's own domain, not a suite (UserDefaults(suiteName:) refuses it); PreferenceStore.suite(\"\(name)\") returns PreferenceStore.standard, which is that domain's store"
    case .changesNotWatched(let path, let reason):
      "changes other processes make to '\(path)' cannot be watched (\(reason)); they are found by checking the file every 250 ms while the store is observed, and at this process's next write"
    case .domainNearSizeLimit(let store, let bytes, let limit, let largest):
      "\(store) holds \(bytes) bytes, past half of the \(limit) bytes this platform lets one UserDefaults domain hold (past the limit, writes are lost or the app ends); its largest values: \(largest.joined(separator: ", ")). Keep large data in files, or give those preferences a property-list file store with store: .propertyList(at: …)"
    case .valueKeptInFile(let key, let store, let bytes, let limit):
      "preference '\(key)' (\(bytes) bytes) would bring \(store) near the \(limit) bytes this platform lets one UserDefaults domain hold, so its value is kept in a file beside the store; reads return it, but code that reads UserDefaults directly sees a marker. Give this preference a property-list file store with store: .propertyList(at: …)"
    case .keptValueMissing(let key, let store, let path):
      "the file '\(path)' that kept preference '\(key)' outside \(store) is gone (the system may have purged it); reads return the default until a value is written again"
    case .unreadableDocument(let reason):
      "the document of preference values cannot be read: \(reason); nothing was imported"
    case .unresolvedDeclaration(let location):
      "@Preference at \(location) has no key in the generated registry; its values are kept in memory only. Rebuild; if it persists, report the declaration"
    }
  }

  static func list(_ keys: [String]) -> String {
    let shown = keys.prefix(10).map { "'\($0)'" }.joined(separator: ", ")
    return keys.count > 10 ? "\(shown) and \(keys.count - 10) more" : shown
  }

  /// What went wrong in `error`, in words that carry no stored value: a diagnostic is printed
  /// and logged where others may read it (standard error, the system log), and a stored value
  /// may be a secret. Decoding and encoding errors keep their kind and the type involved, never
  /// the text or value their own descriptions quote.
  static func valueFreeReason(_ error: any Error) -> String {
    switch error {
    case let error as PreferenceError:
      return error.description
    case let error as DecodingError:
      switch error {
      case .typeMismatch(let type, let context):
        return "expected \(type)\(Self.depth(context.codingPath))"
      case .valueNotFound(let type, let context):
        return "no \(type) value\(Self.depth(context.codingPath))"
      case .keyNotFound(_, let context):
        return "a key is missing\(Self.depth(context.codingPath))"
      case .dataCorrupted(let context):
        return "the data is not valid\(Self.depth(context.codingPath))"
      @unknown default:
        return "it does not decode"
      }
    case is EncodingError:
      return "a value in it cannot be encoded"
    default:
      return "\(type(of: error))"
    }
  }

  private static func depth(_ path: [any CodingKey]) -> String {
    path.isEmpty ? "" : " \(path.count) level\(path.count == 1 ? "" : "s") deep"
  }

  /// The reason part of a file error.
  var reason: String? {
    switch self {
    case .readFailed(_, let reason), .writeFailed(_, let reason, _), .unsavedAtExit(_, let reason, _):
      reason
    case .corruptFile(_, let reason, _): reason
    default: nil
    }
  }

  /// A failed write reported at exit, when no retry will come.
  var lostAtExit: PreferenceError {
    if case .writeFailed(let path, let reason, let keys) = self, !keys.isEmpty {
      return .unsavedAtExit(path: path, reason: reason, keys: keys)
    }
    return self
  }

  func withKey(_ key: String) -> PreferenceError {
    switch self {
    case .typeMismatch(_, let expected, let found): .typeMismatch(key: key, expected: expected, found: found)
    default: self
    }
  }
}

/// Where the library reports problems it recovers from: wrong stored types, undecodable values,
/// corrupt files, failed writes.
///
/// By default each distinct message is logged once (the unified logging system on Apple
/// platforms, standard error elsewhere), and a declaration the registry does not know (a stale
/// build) also stops debug builds with an assertion. Install your own handler to log, assert, or
/// collect diagnostics in tests; it replaces both:
///
/// ```swift
/// PreferenceDiagnostics.setHandler { error in
///   logger.error("\(error.description)")
/// }
/// ```
public enum PreferenceDiagnostics {
  /// A function that receives every diagnostic.
  public typealias Handler = @Sendable (PreferenceError) -> Void

  private static let state = Locked<(handler: Handler?, seen: Set<String>)>((nil, []))

  /// Replaces the handler; pass `nil` to restore the default: once per message, the unified
  /// logging system on Apple platforms (subsystem `swift-preferences`, visible in Console and
  /// Xcode's console on a device), standard error elsewhere.
  public static func setHandler(_ handler: Handler?) {
    state.withLock { $0.handler = handler }
  }

  /// Reports `error` to the installed handler.
  public static func report(_ error: PreferenceError) {
    let (handler, installed): (Handler?, Bool) = state.withLock { state in
      if let handler = state.handler { return (handler, true) }
      guard state.seen.insert(error.description).inserted else { return (nil, false) }
      return ({ error in DiagnosticsLog.write(error) }, false)
    }
    handler?(error)
    if case .unresolvedDeclaration = error, !installed {
      // A declaration without a registry entry keeps its value in memory only: loud in debug
      // builds, where it is found before users meet it.
      assertionFailure("swift-preferences: \(error.description)")
    }
  }
}
