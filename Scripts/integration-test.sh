#!/usr/bin/env bash
# Builds and runs the integration package (a user's package that applies the plugin) in Debug, in
# Release and with Swift Build (Xcode's engine), then checks that a bad declaration and a missing
# plugin fail the build with the right message.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# UserDefaults files of the programs below go here, not to the user's ~/.config.
export XDG_CONFIG_HOME="$work/config"
build() { swift build --package-path "$root/IntegrationTest" --scratch-path "$root/IntegrationTest/.build" "$@"; }

# Builds the package with `$2…` (a build command and its arguments) into the log named `$1`;
# generated code must compile without a warning (a user cannot edit it, and some build with
# warnings as errors). Then each program writes, and a new process verifies, with the
# executables it built: a default-MainActor target with Xcode 26's upcoming features, the real
# default of a new Xcode 26 app (Swift 5 mode, MainActor, approachable concurrency), and Swift 5
# targets; the first three and CorpusSwift6 (Swift 6, nonisolated) read back every form of the
# default corpus.
build_and_verify() {
  local name="$1"
  shift
  "$@" >"$work/$name.log" 2>&1 || { cat "$work/$name.log"; exit 1; }
  tail -n 1 "$work/$name.log"
  if grep -E "\.generated\.swift:[0-9]+:[0-9]+: (warning|error)" "$work/$name.log"; then
    echo "error: the generated registry drew compiler diagnostics ($name)"; exit 1
  fi
  local bin
  bin=$("$@" --show-bin-path)
  "$bin/IntegrationApp" "$work/$name.plist" write
  "$bin/IntegrationApp" "$work/$name.plist" verify
  for program in CorpusSwift6 MainActorApp Xcode26DefaultApp SettingsProbe Swift5App Swift5Handoff ScannerStress; do
    # A configuration folder of each build's own, so that its programs' values come from it.
    XDG_CONFIG_HOME="$work/config-$name" "$bin/$program" write
    XDG_CONFIG_HOME="$work/config-$name" "$bin/$program" verify
  done
}

echo "== integration package: build, then each program writes and a new process verifies"
build_and_verify debug build
bin=$(build --show-bin-path)
# A library of public preferences used by another module, over the previous version's data.
"$bin/SettingsClient" previous-version
"$bin/SettingsClient" write
"$bin/SettingsClient" verify

echo "== the same in Release: whole-module and optimized, as an archive builds it"
# (Diagnostics can differ there: an optimized build's region check once refused the corpus
# check's code that a debug build accepted.)
build_and_verify release build -c release

echo "== the same with Swift Build, the engine Xcode builds packages with"
swiftbuild() {
  swift build --build-system swiftbuild --package-path "$root/IntegrationTest" \
    --scratch-path "$root/IntegrationTest/.build-swiftbuild" "$@"
}
build_and_verify swiftbuild swiftbuild

echo "== an unchanged target recompiles nothing"
# (SwiftPM on Linux sometimes relinks the scanner tool, which reruns the build command; the
# scanner then leaves the registry's bytes, and so the app, untouched.)
output=$(build 2>&1)
if grep -v "Compiling plugin" <<<"$output" | grep -q "Compiling"; then
  echo "error: a no-change build recompiled the app:"; echo "$output"; exit 1
fi

echo "== a user's tests with PreferencesTesting's trait (Xcode 26 app and template settings)"
swift test --package-path "$root/IntegrationTest" --scratch-path "$root/IntegrationTest/.build" \
  >"$work/test.log" 2>&1 || { cat "$work/test.log"; exit 1; }
if ! grep -qE "Test run with 4 tests in 2 suites passed" "$work/test.log"; then
  cat "$work/test.log"; echo "error: the stand-in tests did not all run and pass"; exit 1
fi
grep -E "Test run with" "$work/test.log"

# A package of IntegrationApp alone, whose path dependency points back here: the scenarios
# below break it in different ways.
make_copy() {
  rm -rf "$work/copy"
  mkdir -p "$work/copy/Sources"
  cp -R "$root/IntegrationTest/Sources/IntegrationApp" "$work/copy/Sources/"
  cat >"$work/copy/Package.swift" <<PACKAGE
// swift-tools-version: 6.1
import PackageDescription

let package = Package(
  name: "IntegrationCopy",
  platforms: [.macOS(.v14), .iOS(.v17)],
  dependencies: [.package(name: "swift-preferences", path: "$root")],
  targets: [
    .executableTarget(
      name: "IntegrationApp",
      dependencies: [.product(name: "Preferences", package: "swift-preferences")],
      plugins: [.plugin(name: "PreferenceRegistryPlugin", package: "swift-preferences")]
    )
  ],
  swiftLanguageModes: [.v6]
)
PACKAGE
}

# Builds of the copy: $1 names the log; must_fail also takes the pattern the failure prints.
copy_build() { swift build --package-path "$work/copy" --scratch-path "$root/IntegrationTest/.build-broken" >"$work/$1.log" 2>&1; }
copy_lock() {
  (cd "$work/copy" && swift package --scratch-path "$root/IntegrationTest/.build-broken" \
    --allow-writing-to-package-directory preferences lock --target IntegrationApp "$@") >"$work/lock.log" 2>&1
}
copy_command() {
  (cd "$work/copy" && swift package --scratch-path "$root/IntegrationTest/.build-broken" \
    --allow-writing-to-package-directory preferences "$@" --target IntegrationApp) >"$work/command.log" 2>&1 \
    || { echo "error: preferences $1 failed:"; cat "$work/command.log"; exit 1; }
}
must_fail() {
  if copy_build "$1"; then echo "error: $1: the build succeeded"; exit 1; fi
  grep -E "$2" "$work/$1.log" | head -n 1 | grep . || { echo "error: $1: expected /$2/:"; cat "$work/$1.log"; exit 1; }
}
must_build() { copy_build "$1" || { echo "error: $1: the build failed:"; cat "$work/$1.log"; exit 1; }; }

echo "== a declaration without a default fails the build with file:line:column"
make_copy
cat >"$work/copy/Sources/IntegrationApp/Broken.swift" <<'SWIFT'
struct Broken {
  @Preference var missing: Int
}
SWIFT
must_fail broken "Broken.swift:2:4: error: @Preference 'missing' has no default value"

echo "== a key declared twice with another default fails the build naming both places"
make_copy
cat >"$work/copy/Sources/IntegrationApp/Duplicate.swift" <<'SWIFT'
extension ContentView {
  struct Other {
    @Preference(key: "ContentView.username") var again = ""
  }
}
SWIFT
must_fail dup "error: preference key 'ContentView.username' is also declared at"
grep -E "error: preference key 'ContentView.username' is also declared at" "$work/dup.log" | grep "Duplicate.swift:3:6" | grep -q "Settings.swift:6:4" || {
  cat "$work/dup.log"; exit 1
}

echo "== a RawRepresentable struct whose raw type is not a preference value fails at its declaration"
make_copy
cat >"$work/copy/Sources/IntegrationApp/Handle.swift" <<'SWIFT'
struct Cursor: Equatable {}
struct Handle: RawRepresentable, Equatable {
  var rawValue: Cursor
}
struct HandleSettings {
  @Preference var handle: Handle? = nil
}
SWIFT
must_fail handle "Handle.swift:2:[0-9]+: error: .*'Handle' does not conform to protocol"

echo "== an enum-keyed store's keys carry their types: a value of another type does not compile"
make_copy
# (A key of a Foundation type, in a file with no preference: the generated keys repeat its import.)
cat >"$work/copy/Sources/IntegrationApp/Keys.swift" <<'SWIFT'
import Foundation
import Preferences

enum AppKeys: String, PreferenceKeys {
  case name, overscrollRate, lastOpened
  var defaultValue: any PreferenceValue {
    switch self {
    case .name: "Anonymous"
    case .overscrollRate: 0.25
    case .lastOpened: Date(timeIntervalSince1970: 0)
    }
  }
}

func typedKeys(_ store: KeyedPreferences<AppKeys>) {
  let rate = store[.overscrollRate]  // a Double, no annotation
  store.set(rate * 2, for: .overscrollRate)
  store.set(store[.lastOpened].addingTimeInterval(60), for: .lastOpened)
  store.set(42, for: .name)
}
SWIFT
must_fail typedkeys "Keys.swift:19:13: error: cannot convert value of type 'Int' to expected argument type 'String'"
sed -i.bak 's/store.set(42, for: .name)/let name: Int = store.value(for: .name)/' "$work/copy/Sources/IntegrationApp/Keys.swift"
must_fail typedkeys-read "Keys.swift:19:.*error: cannot convert value of type 'String' to specified type 'Int'"
sed -i.bak 's/let name: Int = store.value(for: .name)/_ = store.string(for: .name)/' "$work/copy/Sources/IntegrationApp/Keys.swift"
must_build typedkeys-ok

echo "== in a default-MainActor target, a Codable type that is not nonisolated fails at its declaration"
make_copy
sed -i.bak 's/swift-tools-version: 6.1/swift-tools-version: 6.2/; s/plugins: \[\.plugin/swiftSettings: [.defaultIsolation(MainActor.self)], plugins: [.plugin/' \
  "$work/copy/Package.swift"
cat >"$work/copy/Sources/IntegrationApp/Isolated.swift" <<'SWIFT'
struct Window: Codable { var width = 800 }
struct WindowSettings { @Preference var window = Window() }
SWIFT
# The scanner reads the target's default isolation from the manifest and says so at the
# declaration, naming the fix.
must_fail isolated "Isolated.swift:2:[0-9]+: error: @Preference 'window' stores Window, .*this target's default isolation is MainActor.*declare it 'nonisolated struct Window: …'"
# Where it cannot read the setting (here a configuration that states otherwise, as an .xcconfig
# the scanner does not read would), the compiler rejects the generated conformance at the
# type's declaration, and the line it quotes names the fix.
echo '{"defaultIsolation": "nonisolated", "requireLock": false}' >"$work/copy/Sources/IntegrationApp/preferences-config.json"
must_fail isolated-unread "Isolated.swift:1:[0-9]+: error: type 'Window' does not conform to protocol 'PreferenceValue'"
grep -q "declare the type or its conformance nonisolated" "$work/isolated-unread.log" || { echo "error: the fix is not shown"; exit 1; }
rm "$work/copy/Sources/IntegrationApp/preferences-config.json"
# Declared nonisolated, as the docs say, it builds.
sed -i.bak 's/^struct Window:/nonisolated struct Window:/' "$work/copy/Sources/IntegrationApp/Isolated.swift"
must_build isolated-fixed
# Where the docs send background reads: a nonisolated class builds, and a nonisolated struct
# does not (Swift 6 rejects a property wrapper in a Sendable one). The scanner warns, naming the
# fix, where it sees that the struct is Sendable, and the compiler must still reject it (this
# notices when a compiler stops, and the warning would then be wrong); where the scanner cannot
# see it (a property whose type syntax does not show), the compiler alone says so.
cat >"$work/copy/Sources/IntegrationApp/Background.swift" <<'SWIFT'
nonisolated final class SyncSettings { @Preference var batchSize = 100 }
@concurrent func batchSize() async -> Int { SyncSettings().batchSize }
SWIFT
must_build background-class
cp "$work/copy/Sources/IntegrationApp/Background.swift" "$work/Background.swift"
cat >>"$work/copy/Sources/IntegrationApp/Background.swift" <<'SWIFT'
nonisolated struct SyncState {
  @Preference var cursor = 0
}
SWIFT
must_fail background-struct "Background.swift:4:4: warning: @Preference 'cursor' is declared in 'SyncState', a nonisolated struct that is Sendable without saying so .*remove 'nonisolated' from 'SyncState'"
grep -qE "Background.swift:4:[0-9]+: error: 'nonisolated' cannot be applied to mutable stored properties" "$work/background-struct.log" || {
  echo "error: the compiler no longer rejects a preference in a nonisolated Sendable struct; the scanner's warning is wrong"; exit 1
}
cp "$work/Background.swift" "$work/copy/Sources/IntegrationApp/Background.swift"
cat >>"$work/copy/Sources/IntegrationApp/Background.swift" <<'SWIFT'
nonisolated struct SyncCursor {
  @Preference var cursor = 0
  var started = startTime()
}
nonisolated func startTime() -> Double { 0 }
SWIFT
must_fail background-struct-compiler "Background.swift:4:[0-9]+: error: 'nonisolated' cannot be applied to mutable stored properties"

echo "== where conformances are inferred isolated, a main-actor Codable type needs a nonisolated conformance"
make_copy
sed -i.bak 's/swift-tools-version: 6.1/swift-tools-version: 6.2/; s/plugins: \[\.plugin/swiftSettings: [.enableUpcomingFeature("InferIsolatedConformances")], plugins: [.plugin/' \
  "$work/copy/Package.swift"
cat >"$work/copy/Sources/IntegrationApp/Inferred.swift" <<'SWIFT'
@MainActor struct Pane: Codable { var width = 240 }
@MainActor struct PaneSettings {
  @Preference var pane = Pane()
}
SWIFT
must_fail inferred "Inferred.swift:3:4: error: @Preference 'pane' stores Pane, .*'Pane' is isolated to @MainActor, and this target infers isolated conformances.*declare its conformance ': nonisolated Codable'"
sed -i.bak 's/struct Pane: Codable/struct Pane: nonisolated Codable/' "$work/copy/Sources/IntegrationApp/Inferred.swift"
must_build inferred-fixed

echo "== a Sendable class that no actor isolates holds preferences as @unchecked Sendable"
make_copy
cat >"$work/copy/Sources/IntegrationApp/Shared.swift" <<'SWIFT'
final class SharedOptions: Sendable {
  @Preference var retries = 3
}
SWIFT
must_fail sendable-class "Shared.swift:2:[0-9]+: error: stored property '_retries' of 'Sendable'-conforming class 'SharedOptions' is mutable"
sed -i.bak 's/: Sendable {/: @unchecked Sendable {/' "$work/copy/Sources/IntegrationApp/Shared.swift"
must_build sendable-class-fixed

echo "== without the plugin, @Preference is a compile error that names the fix"
make_copy
sed -i.bak '/plugins:/d' "$work/copy/Package.swift"
rm "$work/copy/Sources/IntegrationApp/main.swift"
echo 'print(ContentView().username)' >"$work/copy/Sources/IntegrationApp/main.swift"
must_fail noplugin "Settings.swift:6:4: error: .*apply the build plugin to this target"

echo "== the command plugin: --help, and a misspelled option stops it before it writes"
make_copy
copy_lock --help || { cat "$work/lock.log"; exit 1; }
grep -q "^SUBCOMMANDS:" "$work/lock.log" || { echo "error: --help printed no help"; cat "$work/lock.log"; exit 1; }
if copy_lock --retrie ContentView.username; then echo "error: --retrie was accepted"; exit 1; fi
grep -q "unknown option '--retrie'" "$work/lock.log" || { echo "error: no error names --retrie"; cat "$work/lock.log"; exit 1; }
if [ -e "$work/copy/Sources/IntegrationApp/Preferences.lock" ]; then echo "error: the lock was written"; exit 1; fi

echo "== a committed manifest catches a rename; declaring it keeps the user's value"
copy_lock || { cat "$work/lock.log"; exit 1; }
grep -q "^ContentView.username: String$" "$work/copy/Sources/IntegrationApp/Preferences.lock" || {
  echo "error: the lock command did not record ContentView.username"; cat "$work/copy/Sources/IntegrationApp/Preferences.lock"; exit 1
}
must_build v1
bin=$(swift build --package-path "$work/copy" --scratch-path "$root/IntegrationTest/.build-broken" --show-bin-path)
"$bin/IntegrationApp" "$work/renamed.plist" write
# The user's values, exported from the file the app wrote, as a document.
copy_command export-values --plist "$work/renamed.plist" --output "$work/values.json"
grep -q '"ContentView.username"' "$work/values.json" || { echo "error: export-values:"; cat "$work/values.json"; exit 1; }
# Version 2 renames username to displayName without saying so: the build must fail.
sed -i.bak 's/username/displayName/g' "$work/copy/Sources/IntegrationApp/Settings.swift" "$work/copy/Sources/IntegrationApp/main.swift"
must_fail v2 "Preferences.lock:[0-9]+:1: error: preference key 'ContentView.username' \\(String\\) was shipped but no declaration uses it"
# Declaring the rename fixes the build, and the value stored under the old key is read.
sed -i.bak 's/@Preference var displayName/@Preference(renamedFrom: "ContentView.username") var displayName/' \
  "$work/copy/Sources/IntegrationApp/Settings.swift"
must_build v3
"$bin/IntegrationApp" "$work/renamed.plist" verify

echo "== the values move: imported into a fresh file after the rename, the app reads them; reset removes them"
copy_command import-values --plist "$work/moved.plist" --document "$work/values.json"
grep -q "imported 3 of 3 values (renamed: ContentView.username → ContentView.displayName)" "$work/command.log" || {
  echo "error: import-values:"; cat "$work/command.log"; exit 1
}
"$bin/IntegrationApp" "$work/moved.plist" verify
copy_command reset-values --plist "$work/moved.plist"
grep -q "removed 3 values" "$work/command.log" || { echo "error: reset-values:"; cat "$work/command.log"; exit 1; }
if "$bin/IntegrationApp" "$work/moved.plist" verify 2>/dev/null; then echo "error: reset left the values"; exit 1; fi

echo "== rename matrix: refactors that would lose a stored value fail the build, with the fix"
make_copy
cat >"$work/copy/Sources/IntegrationApp/Matrix.swift" <<'SWIFT'
import Preferences

enum Counters {
  static let start = 0
  static func compute() -> Int { 7 }
}

struct Matrix {
  @Preference var inferred = Counters.start
  @Preference var computed = Counters.compute()
  @Preference var shared = false
  @Preference var live = "live"
  @Preference var ceiling = Int.max
}
SWIFT
matrix="$work/copy/Sources/IntegrationApp/Matrix.swift"
lockfile="$work/copy/Sources/IntegrationApp/Preferences.lock"
copy_lock || { cat "$work/lock.log"; exit 1; }
must_build matrix-v1
cp "$matrix" "$work/Matrix.v1"
# A default whose type the scanner cannot tell: the lock keeps the default, and the build has the
# compiler compare its type with the declaration's.
grep -qx 'Matrix.ceiling: type(of: Int.max)' "$lockfile" || { cat "$lockfile"; exit 1; }
if grep -q "cannot tell the type" "$work/lock.log"; then cat "$work/lock.log"; exit 1; fi
sed -i.bak 's/@Preference var ceiling = Int.max/@Preference var ceiling = Int.min/' "$matrix"
must_build shipped-default-same-type
sed -i.bak 's/@Preference var ceiling = Int.min/@Preference var ceiling = Double.greatestFiniteMagnitude/' "$matrix"
must_fail shipped-default-retyped \
  "Matrix.swift:13:[0-9]+: error: .*preference 'Matrix.ceiling' was shipped as type\\(of: Int.max\\)"
sed -i.bak 's/@Preference var ceiling = Double.greatestFiniteMagnitude/@Preference var ceiling = "max"/' "$matrix"
must_fail shipped-default-literal "Matrix.swift:13:[0-9]+: error: .*'Matrix.ceiling' was shipped as type\\(of: Int.max\\)"
cp "$work/Matrix.v1" "$matrix"

# Deprecating shipped preferences (how one is replaced) builds without a warning in generated
# code: the lock's checks of their types, and the defaults it evaluates, are as deprecated.
sed -i.bak -e 's/^  @Preference var inferred/  @available(*, deprecated, message: "Use live")\n  @Preference var inferred/' \
  -e 's/^  @Preference var computed/  @available(*, deprecated)\n  @Preference var computed/' "$matrix"
grep -q "deprecated, message" "$matrix" || { echo "error: the sed did not deprecate"; exit 1; }
must_build deprecated
# (Nothing else names them: a warning that they are deprecated comes from generated code, which
# reports the lock's check at the declaration.)
if grep -E "\.generated\.swift:[0-9]+:[0-9]+: warning|warning: '(inferred|computed)' is deprecated" "$work/deprecated.log"; then
  echo "error: deprecated preferences drew warnings in generated code"; exit 1
fi
cp "$work/Matrix.v1" "$matrix"

# A retype the declaration does not spell: the static's type changes.
sed -i.bak 's/static let start = 0/static let start = "0"/' "$matrix"
must_fail inferred "Matrix.swift:9:4: error: .*'Matrix.inferred' was shipped as Int"
# Running lock again (what users do after a build error) refuses to record it.
if copy_lock; then echo "error: lock recorded an incompatible retype"; cat "$work/lock.log"; exit 1; fi
grep -q "accept-retype Matrix.inferred" "$work/lock.log" || { cat "$work/lock.log"; exit 1; }
cp "$work/Matrix.v1" "$matrix"

# A retype through a static function's result type.
sed -i.bak 's/static func compute() -> Int { 7 }/static func compute() -> String { "7" }/' "$matrix"
must_fail computed "Matrix.swift:10:4: error: .*'Matrix.computed' was shipped as Int"
cp "$work/Matrix.v1" "$matrix"

# A retype the scanner cannot see (a subscript's result): the generated code makes the compiler
# check the locked type.
sed -i.bak -e 's/static let start = 0/static let start = 0; static let values = ["7"]/' \
  -e 's/@Preference var computed = Counters.compute()/@Preference var computed = Counters.values[0]/' "$matrix"
must_fail opaque "error: .*preference 'Matrix.computed' was shipped as Int"
cp "$work/Matrix.v1" "$matrix"

# A move to another store, undeclared, then declared.
sed -i.bak 's/@Preference var shared = false/@Preference(store: .suite("group.matrix")) var shared = false/' "$matrix"
must_fail moved "error: preference 'Matrix.shared' was shipped in store .default"
sed -i.bak 's/store: .suite("group.matrix"))/store: .suite("group.matrix"), movedFrom: .standard)/' "$matrix"
must_build moved-declared
cp "$work/Matrix.v1" "$matrix"

# renamedFrom a key another declaration still uses would move its live value.
sed -i.bak 's/@Preference var shared = false/@Preference(renamedFrom: "Matrix.live") var shared = false/' "$matrix"
must_fail thief "error: @Preference 'shared' is renamedFrom 'Matrix.live', which the declaration at .* still uses"
cp "$work/Matrix.v1" "$matrix"

# A lock with merge-conflict markers fails at the marker; lock resolves it as the union.
cp "$lockfile" "$work/lock.v1"
{ echo "<<<<<<< ours"; echo "Matrix.ours: Int"; echo "======="; echo "Matrix.theirs: Int"; echo ">>>>>>> theirs"; } >>"$lockfile"
must_fail conflict "Preferences.lock:[0-9]+:1: error: Preferences.lock has unresolved merge conflict markers"
copy_lock || { cat "$work/lock.log"; exit 1; }
grep -q "^Matrix.theirs: Int" "$lockfile" && grep -q "^Matrix.ours: Int" "$lockfile" || {
  echo "error: lock did not keep the union"; cat "$lockfile"; exit 1
}
cp "$work/lock.v1" "$lockfile"

# A deleted lock is one warning that says how to create it.
rm "$lockfile"
must_build nolock
grep -q "warning: this target has no Preferences.lock" "$work/nolock.log" || { cat "$work/nolock.log"; exit 1; }

echo "integration: 8 passed, 0 failed"
