/// The `@Preference` you reach when the build plugin is not applied to your target.
///
/// Using it is a compile error that tells you to apply `PreferenceRegistryPlugin`: the plugin
/// generates a module-level `Preference` that shadows this one and knows every key.
@propertyWrapper
public struct Preference<Value: PreferenceValue>: Sendable {
  /// Unavailable: apply the build plugin to the target, which declares the `Preference` to use.
  @available(
    *, unavailable,
    message:
      "@Preference needs its key table: apply the build plugin to this target, plugins: [.plugin(name: \"PreferenceRegistryPlugin\", package: \"swift-preferences\")]"
  )
  public init(
    wrappedValue: Value, key: StaticString? = nil, store: @autoclosure () -> PreferenceStore = .default,
    movedFrom: @autoclosure () -> PreferenceStore? = nil, format: PreferenceFormat = .propertyList,
    sync: Bool = false, settings: Bool = false, exported: Bool = true, renamedFrom: StaticString...
  ) {
    fatalError("unreachable")
  }

  /// Unavailable: apply the build plugin to the target, which declares the `Preference` to use.
  @available(
    *, unavailable,
    message:
      "@Preference needs its key table: apply the build plugin to this target, plugins: [.plugin(name: \"PreferenceRegistryPlugin\", package: \"swift-preferences\")]"
  )
  public init(
    key: StaticString? = nil, store: @autoclosure () -> PreferenceStore = .default,
    movedFrom: @autoclosure () -> PreferenceStore? = nil, format: PreferenceFormat = .propertyList,
    sync: Bool = false, settings: Bool = false, exported: Bool = true, renamedFrom: StaticString...
  ) where Value: ExpressibleByNilLiteral {
    fatalError("unreachable")
  }

  /// Never available: see the initializer's message.
  public var wrappedValue: Value {
    get { fatalError("unreachable") }
    nonmutating set {}
  }
}
