#!/usr/bin/env bash
# Builds and runs the integration package (a user's package that applies the plugin), then
# checks that a bad declaration and a missing plugin fail the build with the right message.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# UserDefaults files of the programs below go here, not to the user's ~/.config.
export XDG_CONFIG_HOME="$work/config"
build() { swift build --package-path "$root/IntegrationTest" --scratch-path "$root/IntegrationTest/.build" "$@"; }

echo "== integration package: build, then each program writes and a new process verifies"
build 2>&1 | tail -n 3
bin=$(build --show-bin-path)
"$bin/IntegrationApp" "$work/prefs.plist" write
"$bin/IntegrationApp" "$work/prefs.plist" verify
# A default-MainActor target with Xcode 26's upcoming features, and a Swift 5 target.
for program in MainActorApp Swift5App ScannerStress; do
  "$bin/$program" write
  "$bin/$program" verify
done
# A library of public preferences used by another module, over the previous version's data.
"$bin/SettingsClient" previous-version
"$bin/SettingsClient" write
"$bin/SettingsClient" verify

echo "== an unchanged target recompiles nothing"
# (SwiftPM on Linux sometimes relinks the scanner tool, which reruns the build command; the
# scanner then leaves the registry's bytes, and so the app, untouched.)
output=$(build 2>&1)
if grep -v "Compiling plugin" <<<"$output" | grep -q "Compiling"; then
  echo "error: a no-change build recompiled the app:"; echo "$output"; exit 1
fi

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

echo "== a declaration without a default fails the build with file:line:column"
make_copy
cat >"$work/copy/Sources/IntegrationApp/Broken.swift" <<'SWIFT'
struct Broken {
  @Preference var missing: Int
}
SWIFT
if swift build --package-path "$work/copy" --scratch-path "$root/IntegrationTest/.build-broken" >"$work/broken.log" 2>&1; then
  echo "error: the build with a broken declaration succeeded"; exit 1
fi
grep -E "Broken.swift:2:4: error: @Preference 'missing' has no default value" "$work/broken.log" || {
  echo "error: expected the scanner's file:line:column message:"; cat "$work/broken.log"; exit 1
}

echo "== a duplicate key fails the build naming both places"
make_copy
cat >"$work/copy/Sources/IntegrationApp/Duplicate.swift" <<'SWIFT'
extension ContentView {
  struct Other {
    @Preference(key: "ContentView.username") var again = ""
  }
}
SWIFT
if swift build --package-path "$work/copy" --scratch-path "$root/IntegrationTest/.build-broken" >"$work/dup.log" 2>&1; then
  echo "error: the build with a duplicate key succeeded"; exit 1
fi
grep -E "error: duplicate preference key 'ContentView.username'" "$work/dup.log" | grep "Duplicate.swift:3:6" | grep "Settings.swift:6:4" || {
  cat "$work/dup.log"; exit 1
}

echo "== without the plugin, @Preference is a compile error that names the fix"
make_copy
sed -i.bak '/plugins:/d' "$work/copy/Package.swift"
rm "$work/copy/Sources/IntegrationApp/main.swift"
echo 'print(ContentView().username)' >"$work/copy/Sources/IntegrationApp/main.swift"
if swift build --package-path "$work/copy" --scratch-path "$root/IntegrationTest/.build-broken" >"$work/noplugin.log" 2>&1; then
  echo "error: the build without the plugin succeeded"; exit 1
fi
grep -E "Settings.swift:6:4: error: .*apply the build plugin to this target" "$work/noplugin.log" | head -n 1 || {
  cat "$work/noplugin.log"; exit 1
}
echo "== a committed manifest catches a rename; declaring it keeps the user's value"
make_copy
(cd "$work/copy" && swift package --scratch-path "$root/IntegrationTest/.build-broken" \
  --allow-writing-to-package-directory preferences lock --target IntegrationApp) >"$work/lock.log" 2>&1 || {
  cat "$work/lock.log"; exit 1
}
grep -q "^ContentView.username: String$" "$work/copy/Sources/IntegrationApp/Preferences.lock" || {
  echo "error: the lock command did not record ContentView.username"; cat "$work/copy/Sources/IntegrationApp/Preferences.lock"; exit 1
}
swift build --package-path "$work/copy" --scratch-path "$root/IntegrationTest/.build-broken" >"$work/v1.log" 2>&1 || {
  cat "$work/v1.log"; exit 1
}
bin=$(swift build --package-path "$work/copy" --scratch-path "$root/IntegrationTest/.build-broken" --show-bin-path)
"$bin/IntegrationApp" "$work/renamed.plist" write
# Version 2 renames username to displayName without saying so: the build must fail.
sed -i.bak 's/username/displayName/g' "$work/copy/Sources/IntegrationApp/Settings.swift" "$work/copy/Sources/IntegrationApp/main.swift"
if swift build --package-path "$work/copy" --scratch-path "$root/IntegrationTest/.build-broken" >"$work/v2.log" 2>&1; then
  echo "error: a build that dropped a shipped key succeeded"; exit 1
fi
grep -E "Preferences.lock:[0-9]+:1: error: preference key 'ContentView.username' \(String\) was shipped but no declaration uses it" "$work/v2.log" || {
  cat "$work/v2.log"; exit 1
}
# Declaring the rename fixes the build, and the value stored under the old key is read.
sed -i.bak 's/@Preference var displayName/@Preference(renamedFrom: "ContentView.username") var displayName/' \
  "$work/copy/Sources/IntegrationApp/Settings.swift"
swift build --package-path "$work/copy" --scratch-path "$root/IntegrationTest/.build-broken" >"$work/v3.log" 2>&1 || {
  cat "$work/v3.log"; exit 1
}
"$bin/IntegrationApp" "$work/renamed.plist" verify

echo "integration: 6 passed, 0 failed"
