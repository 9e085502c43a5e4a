// A fixture of every declaration error the scanner reports; its diagnostics are snapshotted in
// Snapshots/Diagnostics.txt. (Excluded from the test target: it is read, not compiled.)
@Preference var topLevel = 1

struct Errors {
  func f() {
    @Preference var local = 2
  }
  @Preference var noDefault: Int
  @Preference let constant = 1
  @Preference(key: "") var emptyKey = 1
  @Preference(key: someConstant) var notLiteral = 1
  @Preference(key: Errors.legacyKey) var named = 1
  @Preference(colour: .red) var unknownArgument = 1
  @Preference(format: .yaml) var badFormat = 1
  @Preference @Preference var twice = 1
  @Preference var a = 1, b = 2
  private static let hidden = PreferenceStore.inMemory()
  static let isolated = PreferenceStore.inMemory()
  @Preference(store: Self.hidden) var privateStore = 1
  @Preference(store: Self.isolated) var isolatedStore = 1
  @Preference var action = Action.share
  @Preference var kept = 1
  @Preference(renamedFrom: "Errors.kept") var thief = 2
  @Preference(key: "Errors.kept") var duplicate = 3
}

enum Action { case share }  // no raw value, not Codable: the registry cannot make it storable

protocol P { @Preference var p: Int }

extension Errors { static let legacyKey = "Errors.legacy" }
