#!/usr/bin/env bash
# What adding swift-preferences costs a clean build, as a new user meets it: a minimal app with
# one @Preference and the build plugin, against the same app with a plain stored property and no
# package, each built from an empty scratch path in Debug and in Release. The app depends on the
# package as users do, by version: a copy of this working tree, committed and tagged 1.0.0 in a
# temporary git repository (so the build also shows that SwiftPM accepts the scanner's
# unsafeFlags from a versioned dependency; Package.swift says why they are there).
#
# Then the package's share per part, in the same configuration: each part's build dir removed
# from the finished app's scratch path and the app built again, which rebuilds that part alone
# (and the app's one file):
# - the scanner: PreferencesScannerCore and preferences-scanner, the tool the plugin runs (SwiftPM
#   builds it before the build, for the plugin), and the plugin step;
# - the runtime: the Preferences library;
# - the plugins: both plugins' sources, compiled by SwiftPM before it runs them.
# Seconds; the machine should be otherwise idle.
#
# With --build-system swiftbuild, SwiftPM builds with Swift Build, the engine Xcode builds packages
# with (the parts' shares are then not measured: they read the native build's layout).
#
# Usage: Scripts/clean-build-benchmark.sh [--rounds N] [--build-system native|swiftbuild]
#   (one round by default; reports each round)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
rounds=1
build_system=native
while [ $# -gt 0 ]; do
  case "$1" in
  --rounds) rounds="$2"; shift 2 ;;
  --build-system) build_system="$2"; shift 2 ;;
  *) echo "usage: $0 [--rounds N] [--build-system native|swiftbuild]" >&2; exit 2 ;;
  esac
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The package as users get it: this working tree (tracked and untracked files, not ignored ones),
# committed and tagged. Its directory's name is the package's identity.
package="$work/swift-preferences"
mkdir -p "$package"
# (Files deleted from the working tree but still tracked are left out.)
(cd "$root" && git ls-files -z --cached --others --exclude-standard \
  | while IFS= read -r -d '' file; do [ -e "$file" ] && printf '%s\0' "$file"; done \
  | tar --null -T - -cf -) | tar -xf - -C "$package"
git -C "$package" init -q
git -C "$package" add -A
git -C "$package" -c user.name=benchmark -c user.email=benchmark@localhost -c commit.gpgsign=false \
  commit -qm "benchmark"
git -C "$package" tag 1.0.0

# The two apps: the same program, with and without the package.
mkdir -p "$work/plain/Sources/App" "$work/with/Sources/App"
cat >"$work/plain/Package.swift" <<'PACKAGE'
// swift-tools-version: 6.2
import PackageDescription

let package = Package(
  name: "App", platforms: [.macOS(.v14), .iOS(.v17)],
  targets: [.executableTarget(name: "App")])
PACKAGE
cat >"$work/plain/Sources/App/main.swift" <<'SWIFT'
struct ContentView {
  var username = "Anonymous"
}
print(ContentView().username)
SWIFT
cat >"$work/with/Package.swift" <<PACKAGE
// swift-tools-version: 6.2
import PackageDescription

let package = Package(
  name: "App", platforms: [.macOS(.v14), .iOS(.v17)],
  dependencies: [.package(url: "file://$package", from: "1.0.0")],
  targets: [
    .executableTarget(
      name: "App", dependencies: [.product(name: "Preferences", package: "swift-preferences")],
      plugins: [.plugin(name: "PreferenceRegistryPlugin", package: "swift-preferences")])
  ])
PACKAGE
cat >"$work/with/Sources/App/main.swift" <<'SWIFT'
import Preferences

struct ContentView {
  @Preference var username = "Anonymous"
}
print(ContentView().username)
SWIFT
# Resolve once (the clone of the tagged package is not what is measured).
swift package --package-path "$work/with" --scratch-path "$work/resolved" resolve >/dev/null

# Seconds for `swift build` of package $1 in scratch path $2 with options $3...
timed_build() {
  local app="$1" scratch="$2"; shift 2
  local start end
  start=$(date +%s.%N)
  swift build --build-system "$build_system" --package-path "$app" --scratch-path "$scratch" "$@" \
    >"$work/build.log" 2>&1 \
    || { cat "$work/build.log" >&2; exit 1; }
  end=$(date +%s.%N)
  python3 -c "print(f'{$end - $start:.1f}')"
}

# Seconds for a build of package $1 with options $2..., from an empty scratch path (the
# dependency's checkout copied in, so nothing is fetched).
clean_build() {
  local app="$1"; shift
  rm -rf "$work/scratch"
  if [ "$app" = "$work/with" ]; then cp -R "$work/resolved" "$work/scratch"; fi
  timed_build "$app" "$work/scratch" "$@"
}

# Seconds to rebuild one part of the finished "with" build in configuration $1: the paths $2...
# (globs under the scratch path; PRODUCTS stands for the configuration's products directory)
# removed first.
rebuild() {
  local configuration="$1"; shift
  for path in "$@"; do
    # shellcheck disable=SC2086 # the globs are meant to expand
    rm -rf "$work/scratch/"${path//PRODUCTS/$configuration}
  done
  timed_build "$work/with" "$work/scratch" -c "$configuration"
}

for round in $(seq "$rounds"); do
  echo "round $round ($build_system)"
  for configuration in debug release; do
    plain=$(clean_build "$work/plain" -c "$configuration")
    with=$(clean_build "$work/with" -c "$configuration")
    bin=$(swift build --build-system "$build_system" --package-path "$work/with" --scratch-path "$work/scratch" \
      -c "$configuration" --show-bin-path)
    "$bin/App" | grep -qx Anonymous || { echo "error: the app did not run"; exit 1; }
    python3 -c "print(f'  {\"$configuration\":8} without the package {$plain:5.1f} s   with it {$with:5.1f} s   added {$with - $plain:+5.1f} s')"
    if [ "$build_system" != native ]; then continue; fi
    scanner=$(rebuild "$configuration" 'PRODUCTS/PreferencesScannerCore*.build' \
      'PRODUCTS/preferences_scanner*.build' 'PRODUCTS/preferences-scanner-tool*' 'PRODUCTS/Modules-tool' \
      'PRODUCTS/App.build/*.o')
    runtime=$(rebuild "$configuration" 'PRODUCTS/Preferences.build/*.o' 'PRODUCTS/Modules/Preferences.*' \
      'PRODUCTS/App.build/*.o')
    plugins=$(rebuild "$configuration" 'plugins/cache')
    python3 -c "
print(f'           rebuilt alone: the scanner and its plugin step {$scanner:5.1f} s, the runtime {$runtime:5.1f} s, the plugins {$plugins:4.1f} s')"
  done
done
