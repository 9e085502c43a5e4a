#!/usr/bin/env bash
# What adding swift-preferences costs a clean build, as a new user meets it: a minimal app with
# one @Preference and the build plugin, against the same app with a plain stored property and no
# package, each built from an empty .build in Debug and in Release; then the package's share per
# module (the scanner, which the plugin runs, and the runtime library): the sum of each module's
# compile jobs' wall clocks in a clean build of the package. Seconds; the machine should be
# otherwise idle.
#
# Usage: Scripts/clean-build-benchmark.sh [--rounds N]   (default 1; reports each round)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
rounds=1
while [ $# -gt 0 ]; do
  case "$1" in
  --rounds) rounds="$2"; shift 2 ;;
  *) echo "usage: $0 [--rounds N]" >&2; exit 2 ;;
  esac
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

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
  dependencies: [.package(name: "swift-preferences", path: "$root")],
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

# Seconds for `swift build` of package $1 with options $2..., from an empty scratch path.
clean_build() {
  local package="$1"; shift
  rm -rf "$work/scratch"
  local start end
  start=$(date +%s.%N)
  swift build --package-path "$package" --scratch-path "$work/scratch" "$@" >"$work/build.log" 2>&1 \
    || { cat "$work/build.log"; exit 1; }
  end=$(date +%s.%N)
  python3 -c "print(f'{$end - $start:.1f}')"
}

# Each module's compile time (the frontend's wall clock, from -stats-output-dir) in a clean build
# of the package's runtime in configuration $1 (SwiftPM builds the scanner with it: plugins' tools
# are built for every build of the package). Prints "module seconds (SIL optimization, LLVM)".
module_times() {
  rm -rf "$work/scratch" "$work/stats"
  mkdir -p "$work/stats"
  swift build --package-path "$root" --scratch-path "$work/scratch" -c "$1" --target Preferences \
    -Xswiftc -stats-output-dir -Xswiftc "$work/stats" >"$work/build.log" 2>&1 || { cat "$work/build.log"; exit 1; }
  python3 - "$work/stats" <<'PYTHON'
import json, os, sys
totals = {}
for name in os.listdir(sys.argv[1]):
    stats = json.load(open(os.path.join(sys.argv[1], name)))
    module = name.split("-swift-frontend-")[1].split("-")[0]
    wall = lambda key: sum(v for k, v in stats.items() if k.startswith(key) and k.endswith(".wall"))
    entry = totals.setdefault(module, [0.0, 0.0, 0.0])
    entry[0] += wall("time.swift-frontend.")
    entry[1] += wall("time.swift.SIL optimization")
    entry[2] += wall("time.swift.LLVM pipeline")
for module, (total, sil, llvm) in sorted(totals.items(), key=lambda item: -item[1][0]):
    if total >= 0.5:
        print(f"    {module:24} {total:6.1f} s (SIL optimization {sil:5.1f} s, LLVM {llvm:5.1f} s)")
PYTHON
}

for round in $(seq "$rounds"); do
  echo "round $round"
  for configuration in debug release; do
    plain=$(clean_build "$work/plain" -c "$configuration")
    with=$(clean_build "$work/with" -c "$configuration")
    python3 -c "print(f'  {\"$configuration\":8} without the package {$plain:6.1f} s   with it {$with:6.1f} s   added {$with - $plain:+6.1f} s')"
  done
  for configuration in debug release; do
    echo "  $configuration, each module's compile time in a clean build of the package:"
    module_times "$configuration"
  done
done
