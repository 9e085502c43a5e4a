// A module whose widest preference is `package` (a library's settings shared with the package's
// other modules, and no public API): the generated `Preference` and `PreferenceRegistry` are
// `package` too, and the registry's `public import` must still count as used, or the compiler
// warns about it in generated code (found porting hummingbird's HummingbirdCore).
import Preferences

struct PackageScoped {
  @Preference package var retries = 3
}
