#if canImport(SwiftUI)
  import SwiftUI

  /// A preference in a SwiftUI view that refreshes the view when the value changes, from any
  /// source; `$name` is a `Binding` for controls. A thin layer over ``ObservablePreference``.
  ///
  /// ```swift
  /// struct SettingsView: View {
  ///   @PreferenceState(ContentView().$username) var username
  ///   var body: some View { TextField("Name", text: $username) }
  /// }
  /// ```
  @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
  @MainActor
  @propertyWrapper
  public struct PreferenceState<Value: PreferenceValue>: DynamicProperty {
    @State private var model: ObservablePreference<Value>

    /// Observes the preference behind a projected value.
    public init(_ preference: PreferenceProjection<Value>) {
      _model = State(initialValue: ObservablePreference(preference))
    }

    /// Observes `key` in `store`.
    public init(
      key: String, store: PreferenceStore = .default,
      default defaultValue: @autoclosure @escaping @Sendable () -> Value
    ) {
      _model = State(initialValue: ObservablePreference(key: key, store: store, default: defaultValue()))
    }

    public var wrappedValue: Value {
      get { model.value }
      nonmutating set { model.value = newValue }
    }

    public var projectedValue: Binding<Value> {
      let model = self.model
      return Binding(get: { model.value }, set: { model.value = $0 })
    }
  }
#endif
