#!/usr/bin/env bash
# Measures what PreferenceRegistryPlugin adds to builds of a 1,000-file target: an incremental
# build after a one-file edit, and a build with nothing changed, with and without the plugin.
# Usage: Scripts/plugin-build-benchmark.sh [FILES]   (takes several minutes on 2 cores)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
files=${1:-1000}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

make_package() { # $1 = directory, $2 = with plugin (yes|no)
  mkdir -p "$1/Sources/App"
  local plugins=""
  [ "$2" = yes ] && plugins='plugins: [.plugin(name: "PreferenceRegistryPlugin", package: "swift-preferences")]'
  cat >"$1/Package.swift" <<SWIFT
// swift-tools-version: 6.1
import PackageDescription
let package = Package(
  name: "Bench", dependencies: [.package(name: "swift-preferences", path: "$root")],
  targets: [.executableTarget(name: "App", dependencies: [.product(name: "Preferences", package: "swift-preferences")], $plugins)])
SWIFT
  for i in $(seq 1 "$files"); do
    if [ "$2" = yes ]; then
      printf 'import Preferences\n\n/// Screen %s.\nstruct Screen%s {\n  @Preference var title = "Screen %s"\n  @Preference var count = %s\n  var local = 0\n  func render() -> String { "\\(title) \\(count) \\(local)" }\n}\n' "$i" "$i" "$i" "$i" >"$1/Sources/App/Screen$i.swift"
    else
      printf 'import Preferences\n\n/// Screen %s.\nstruct Screen%s {\n  var title = "Screen %s"\n  var count = %s\n  var local = 0\n  func render() -> String { "\\(title) \\(count) \\(local)" }\n}\n' "$i" "$i" "$i" "$i" >"$1/Sources/App/Screen$i.swift"
    fi
  done
  echo 'print(Screen1().render())' >"$1/Sources/App/main.swift"
}

measure() { # $1 = directory; prints seconds of a build
  local start end
  start=$(date +%s%N)
  swift build -v --package-path "$1" >"$1.log" 2>&1
  end=$(date +%s%N)
  local ms=$(((end - start) / 1000000))
  printf '%d.%03d' $((ms / 1000)) $((ms % 1000))
}

for mode in yes no; do
  dir="$work/$mode"
  make_package "$dir" "$mode"
  swift build --package-path "$dir" >/dev/null 2>&1   # first build
  swift build --package-path "$dir" >/dev/null 2>&1   # settle
  nochange=$(measure "$dir")
  echo "// edited" >>"$dir/Sources/App/Screen500.swift"
  edit=$(measure "$dir")
  recompiled=$(grep -oE -- "-primary-file [^ ]*/Sources/App/[^ ]+" "$dir.log" | sort -u | wc -l)
  echo "plugin=$mode files=$files no-change build: ${nochange}s; one-file edit: ${edit}s ($recompiled files recompiled)"
done
