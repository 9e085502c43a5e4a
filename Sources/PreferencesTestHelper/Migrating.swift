import Preferences

/// Preferences whose keys changed in every way the registry migrates: a configured migration
/// (`Migrating.username` → `Migrating.userName`), a declared rename, and a store move from
/// `.standard` into a suite. The tests run them at first use, then end the process.
struct Migrating {
  @Preference var userName = "Anonymous"
  @Preference(renamedFrom: "Migrating.nick") var nickname = "none"
  @Preference(store: .suite("swift-preferences-helper-moved"), movedFrom: .standard) var theme = "light"
}
