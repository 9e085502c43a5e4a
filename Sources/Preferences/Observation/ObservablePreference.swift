import Foundation

#if canImport(Observation)
  import Observation

  /// One preference as an `Observable` object: code that reads ``value`` inside
  /// `withObservationTracking`, an `@Observable` model's computed property, or a SwiftUI view's
  /// `body` is updated when the preference changes, however it changed.
  ///
  /// ```swift
  /// let username = ObservablePreference(view.$username)
  /// withObservationTracking { print(username.value) } onChange: { print("changed") }
  /// ```
  @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
  public final class ObservablePreference<Value: PreferenceValue>: Observable, Sendable {
    private let registrar = ObservationRegistrar()
    private let observation = Locked<PreferenceObservation?>(nil)
    /// The preference's key.
    public let key: String
    /// The store the preference lives in.
    public let store: PreferenceStore
    private let makeDefault: @Sendable () -> Value

    /// Observes `key` in `store`.
    public init(
      key: String, store: PreferenceStore, default defaultValue: @autoclosure @escaping @Sendable () -> Value
    ) {
      self.key = key
      self.store = store
      self.makeDefault = defaultValue
      let listener = store.addListener(for: [key]) { [weak self] _ in
        guard let self else { return }
        self.registrar.withMutation(of: self, keyPath: \.value) {}
      }
      observation.withLock { $0 = listener }
    }

    /// Observes the preference behind a projected value: `ObservablePreference(view.$username)`.
    public convenience init(_ preference: PreferenceProjection<Value>) {
      self.init(key: preference.key, store: preference.store, default: preference.defaultValue)
    }

    /// The current value; reading it is tracked by the Observation framework.
    public var value: Value {
      get {
        registrar.access(self, keyPath: \.value)
        return store.value(forKey: key, default: makeDefault())
      }
      set { store.set(newValue, forKey: key) }
    }
  }
#endif
