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

  /// The value stored under `key`, if any.
  public func value(forKey key: String) -> PropertyListValue? { values.withLock { $0[key] } }
  /// Stores `value` under `key`; `nil` removes it.
  public func setValue(_ value: PropertyListValue?, forKey key: String) {
    values.withLock { $0[key] = value }
  }
  /// Stores `value` only if `expected` is stored, in one step.
  public func replaceValue(
    forKey key: String, ifEqualTo expected: PropertyListValue?, with value: PropertyListValue?
  ) -> Bool {
    values.withLock { values in
      guard values[key] == expected else { return false }
      values[key] = value
      return true
    }
  }
  /// Every stored value, by key.
  public func allValues() -> [String: PropertyListValue] { values.withLock { $0 } }
  /// Removes every stored value.
  public func removeAll() { values.withLock { $0.removeAll() } }
  /// Writes pending changes to durable storage, returning when they are there.
  public func flush() {}
  /// Where the values live, for diagnostics.
  public var location: String { "memory" }
}
