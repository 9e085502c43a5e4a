#if canImport(SwiftUI)
  import SwiftUI

  extension PreferenceProjection {
    /// A binding to the preference, for controls that take one.
    ///
    /// ```swift
    /// struct ContentView: View {
    ///   @Preference var username = "Anonymous"
    ///
    ///   var body: some View {
    ///     TextField("Name", text: $username.binding)
    ///   }
    /// }
    /// ```
    ///
    /// The view needs nothing else to refresh: every read of a preference is tracked by the
    /// Observation framework, so `body` is evaluated again when the value changes, whether
    /// through this binding, another view, code elsewhere in the app, or another process.
    public var binding: Binding<Value> {
      Binding(get: { value }, set: { value = $0 })
    }
  }
#endif
