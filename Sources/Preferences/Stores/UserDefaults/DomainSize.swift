import Foundation

/// The most one `UserDefaults` domain may hold on a platform, and what ``UserDefaultsBackend``
/// does on the way there.
///
/// - iOS, iPadOS, Mac Catalyst, macOS and visionOS: CFPreferences refuses a domain of 4 MiB or
///   more ("Attempting to store >= 4194304 bytes of data in CFPreferences/NSUserDefaults on this
///   platform is invalid"), and once a domain is past it, later writes of the domain are not
///   persisted.
/// - watchOS: 1 MiB; an app past it has been seen to crash.
/// - tvOS: Apple documents a warning (`sizeLimitExceededNotification`) at 512 KB and the app's
///   termination at 1 MB
///   (https://developer.apple.com/documentation/foundation/userdefaults/sizelimitexceedednotification).
/// - Linux: no limit (swift-corelibs-foundation keeps a domain in a file of any size).
struct DomainSizeLimit: Sendable, Equatable {
  /// The size the platform refuses, or ends the app at.
  let bytes: Int

  /// From here a diagnostic names the largest keys: half the limit (tvOS's own warning).
  var warning: Int { bytes / 2 }
  /// A value this large is kept in a file, whatever the domain holds: an eighth of the limit.
  var largeValue: Int { bytes / 8 }
  /// A value that would bring the domain to this is kept in a file: three quarters of the limit.
  var ceiling: Int { bytes / 4 * 3 }

  static let fourMebibytes = DomainSizeLimit(bytes: 4 * 1024 * 1024)
  static let oneMebibyte = DomainSizeLimit(bytes: 1024 * 1024)
  /// tvOS's "1 megabyte", taken as the smaller reading.
  static let oneMegabyte = DomainSizeLimit(bytes: 1_000_000)

  /// This platform's limit, or `nil` where there is none.
  static var platform: DomainSizeLimit? {
    #if os(tvOS)
      oneMegabyte
    #elseif os(watchOS)
      oneMebibyte
    #elseif canImport(Darwin)
      fourMebibytes
    #else
      nil
    #endif
  }
}

/// Values kept outside a `UserDefaults` domain, each in a file of its own, so that one large value
/// never brings the domain to its platform's limit (where every later write of the domain is
/// lost).
///
/// The domain holds a small marker in the value's place, naming the file. A new value gets a new
/// file (written and made durable before the marker that names it is stored, so a reader finds the
/// file of any marker it reads); the previous file is removed once its marker is replaced.
/// Files use the property-list file store's atomic replacement, so a crash leaves a whole file or
/// none.
struct KeptValues: Sendable {
  /// The folder of the files, beside the store.
  let directory: URL

  /// The key of a marker's dictionary that names the file.
  static let markerKey = "swift-preferences.keptInFile"

  /// The file a marker names, or `nil` when `value` is not a marker.
  @inline(__always)
  static func fileName(of value: PropertyListValue?) -> String? {
    guard case .dictionary(let fields) = value, fields.count == 2, case .string(let name) = fields[markerKey]
    else { return nil }
    return name
  }

  /// Writes `value`, stored under `key`, to a new file, durably; returns the marker to store in
  /// the domain in its place.
  func keep(_ value: PropertyListValue, forKey key: String) throws -> PropertyListValue {
    let name = "\(StableName.of(key))-\(UUID().uuidString).plist"
    // Each file is written once, under a name no other writer uses: no lock is needed.
    try PropertyListFile(url: directory.appendingPathComponent(name), format: .binary).write(
      ["value": value], durable: true)
    return .dictionary([Self.markerKey: .string(name), "bytes": .integer(Int64(value.approximateByteCount))])
  }

  /// What reading a marker's file found.
  enum Read {
    case value(PropertyListValue)
    /// The file is gone: purged, or replaced by another process since the marker was read.
    case missing
    /// The file is there but cannot be read now (data protection while the device is locked,
    /// permissions, I/O): the value exists, and nothing may be decided from its absence.
    case unreadable(reason: String)
  }

  /// Reads the value a marker's file holds.
  func read(_ name: String) -> Read {
    let file = PropertyListFile(url: directory.appendingPathComponent(name), format: .binary)
    do {
      switch try file.read() {
      case .missing: return .missing
      case .values(let values):
        return values["value"].map(Read.value) ?? .unreadable(reason: "it holds no value")
      case .corrupt(let reason): return .unreadable(reason: reason)
      }
    } catch {
      return .unreadable(reason: PreferenceError.valueFreeReason(error))
    }
  }

  /// The path of the file `name`, for diagnostics.
  func path(of name: String) -> String { directory.appendingPathComponent(name).path }

  /// Removes the file a replaced marker named.
  func remove(_ name: String) {
    try? FileManager.default.removeItem(at: directory.appendingPathComponent(name))
  }

  /// How old a file no marker names must be before ``removeOrphans(keeping:now:)`` removes it:
  /// a younger one may be another process's, written just before the marker that will name it.
  static let orphanAge: TimeInterval = 24 * 60 * 60

  /// Removes the files no marker of the domain names (`named`) that are older than
  /// ``orphanAge``: left by a process that ended between writing a file and storing its marker,
  /// or by two writers of one key that replaced the same marker at once.
  func removeOrphans(keeping named: Set<String>, now: Date = Date()) {
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return }
    for name in names where name.hasSuffix(".plist") && !named.contains(name) {
      let url = directory.appendingPathComponent(name)
      guard
        let modified = (try? FileManager.default.attributesOfItem(atPath: url.path))?[.modificationDate]
          as? Date,
        now.timeIntervalSince(modified) > Self.orphanAge
      else { continue }
      remove(name)
    }
  }

}

/// What a `UserDefaults` domain holds, by key, as far as its backend has seen it (read, written,
/// or measured once, at the first write): updated by each read and write of a key, never by
/// converting the whole domain again.
struct DomainSizes {
  /// Bytes per key (the key and its stored form), or `nil` until the domain was measured once.
  private(set) var sizes: [String: Int]?
  private(set) var total = 0
  /// Whether the last warning has not been followed by a drop below the warning threshold.
  var warned = false

  var isMeasured: Bool { sizes != nil }

  /// Takes the whole domain's sizes, once.
  mutating func measure(_ values: [String: PropertyListValue]) {
    var sizes: [String: Int] = [:]
    for (key, value) in values { sizes[key] = Self.size(value, key) }
    self.sizes = sizes
    total = sizes.values.reduce(0, +)
  }

  /// Records what the domain now stores under `key`.
  mutating func note(_ value: PropertyListValue?, forKey key: String) {
    guard sizes != nil else { return }
    let size = value.map { Self.size($0, key) }
    total += (size ?? 0) - (sizes?[key] ?? 0)
    sizes?[key] = size
  }

  /// The domain's size without `key`'s value.
  func total(excluding key: String) -> Int { total - (sizes?[key] ?? 0) }

  /// The largest keys, largest first, each with its size.
  func largest(_ count: Int) -> [String] {
    (sizes ?? [:]).sorted { $0.value > $1.value || ($0.value == $1.value && $0.key < $1.key) }.prefix(count)
      .map { "\($0.key) (\($0.value) bytes)" }
  }

  static func size(_ value: PropertyListValue, _ key: String) -> Int {
    key.utf8.count + value.approximateByteCount
  }
}
