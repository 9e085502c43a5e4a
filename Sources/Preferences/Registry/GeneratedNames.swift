/// The names by which generated registries refer to the library's types.
///
/// A generated registry is compiled in the user's module, where the module's own declarations
/// hide imported ones: an app that declares its own `PropertyListValue` enum or `PreferenceStore`
/// class (common names) would capture the registry's references to the library's types of those
/// names. Generated code names this namespace instead, whose name no app declares, and the
/// module's name never (a module may declare a type named `Preferences`). The one exception is
/// ``DerivedPreference``, which the module's `Preference` alias names directly: every
/// declaration resolves that alias, and one more alias in between cost each declaration's
/// compile 1 % (`Scripts/declaration-cost.sh`). The scanner reports a module type of that name.
/// What only generated code uses (a default's encoding, the lock's type checks) is declared in
/// it too.
///
/// Generated code only; not part of the public API.
public enum _Preferences {
  /// ``PreferenceValue``.
  public typealias Value = PreferenceValue
  /// ``PreferenceDictionaryKey``.
  public typealias DictionaryKey = PreferenceDictionaryKey
  /// ``GeneratedPreferenceRegistry``.
  public typealias Registry = GeneratedPreferenceRegistry
  /// ``TypedPreferenceKey``, which the registry extends with a `PreferenceKeys` enum's keys.
  public typealias TypedKey<Keys: PreferenceKeys, Value: PreferenceValue> = TypedPreferenceKey<Keys, Value>
  /// ``PreferenceStore``.
  public typealias Store = PreferenceStore
  /// ``PropertyListValue``.
  public typealias PropertyList = PropertyListValue
  /// ``PreferenceFormat``, which the initializers generated for `format:` take.
  public typealias Format = PreferenceFormat
}

extension _Preferences {
  /// The type of a `PreferenceKeys` default the build plugin cannot read from its text: generated
  /// code declares the default in a type conforming to this protocol, and the compiler infers
  /// `_PreferenceKeyValue` from it (the closure is never called). A default that is not a
  /// ``PreferenceValue`` fails to conform, at the line of its `case` clause. The names are ones no
  /// default expression uses: the expression is compiled inside the conforming type, where they
  /// would hide the user's.
  public protocol KeyDefaultType {
    /// The default's type.
    associatedtype _PreferenceKeyValue: PreferenceValue
    /// The default expression, never evaluated.
    static var _preferenceKeyDefault: @MainActor @Sendable () -> _PreferenceKeyValue { get }
  }
}

@_spi(Generated)
extension _Preferences {
  /// A source file's table.
  public typealias FileTable = PreferenceFileTable
  /// A store whose expression may need the main actor.
  public typealias IsolatedStore = PreferenceIsolatedStore
}
