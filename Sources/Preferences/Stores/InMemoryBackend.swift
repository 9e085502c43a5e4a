import Foundation

/// A backend that keeps values in memory only: for tests, previews and ephemeral state.
///
/// ```swift
/// let store = PreferenceStore.inMemory()
/// ```
public final class InMemoryBackend: PreferenceBackend {
  private let values: Locked<[String: PropertyListValue]>

  /// Creates a backend holding `values`.
  public init(_ values: [String: PropertyListValue] = [:]) {
    self.values = Locked(values)
  }

  public func value(forKey key: String) -> PropertyListValue? { values.withLock { $0[key] } }
  public func setValue(_ value: PropertyListValue?, forKey key: String) {
    values.withLock { $0[key] = value }
  }
  public func allValues() -> [String: PropertyListValue] { values.withLock { $0 } }
  public func removeAll() { values.withLock { $0.removeAll() } }
  public func flush() {}
  public var location: String { "memory" }
}
