// The scanner's second golden fixture, beside Showcase.swift: a file whose declarations need no
// generated code (literal defaults outside `#if`, the default store), so that its table is
// generated as two static strings, the form most files get. This target compiles it with the
// golden registry and checks at run time that it resolves like any other table.
import Preferences

struct LiteralDefaults {
  @Preference var count = 3
  @Preference var title = "Hello, \"world\""
  @Preference(key: "Literal.enabled", renamedFrom: "enabled") var enabled = true
  @Preference var ratio = 0.25
  @Preference var lastSearch: String?
}
