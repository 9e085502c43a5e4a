import Preferences

/// Preferences of an Xcode app target whose product name has a space: its module is
/// `Settings_Probe`, and the keys are the same as a SwiftPM build of these sources would derive.
struct Probe {
  @Preference var username = "Anonymous"
  @Preference var launches = 0

  struct Window {
    @Preference var width = 800.0
  }
}

#if canImport(SwiftUI)
  import SwiftUI

  /// A view that keeps view state in `@State` beside a preference: `@State` is a macro from
  /// Xcode 27's SDK on (a property wrapper before), and `@Preference` neither composes with it
  /// nor depends on it. `main.swift` checks the key and a write; CI builds the view with the
  /// image's default Xcode and with Xcode 26.
  struct GreetingView: View {
    @State private var draft = ""
    @Preference var greeting = "Hello"

    var body: some View {
      VStack {
        TextField("Greeting", text: $greeting.binding)
        TextField("Name", text: $draft)
        Text("\(greeting), \(draft)")
      }
    }
  }
#endif
