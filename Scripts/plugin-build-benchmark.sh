#!/usr/bin/env bash
# Measures what PreferenceRegistryPlugin adds to builds of a FILES-file target (two @Preference
# each): a build with nothing changed and an incremental build after a one-file edit. The
# baseline is the same sources without the plugin, compiled against the registry the plugin
# generated (checked in as an ordinary source file), so the difference is the plugin's own cost:
# running the scanner and scheduling its command. A third variant uses plain stored properties,
# to show what property wrappers themselves cost the compiler.
# Usage: [ROUNDS=3] [MODES="plugin registry plain"] Scripts/plugin-build-benchmark.sh [FILES]
# (takes several minutes on 2 cores; each build is measured ROUNDS times and the median shown)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
files=${1:-1000}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

make_package() { # $1 = directory, $2 = plugin|registry|plain
  mkdir -p "$1/Sources/App"
  local plugins=""
  [ "$2" = plugin ] && plugins='plugins: [.plugin(name: "PreferenceRegistryPlugin", package: "swift-preferences")]'
  cat >"$1/Package.swift" <<SWIFT
// swift-tools-version: 6.1
import PackageDescription
let package = Package(
  name: "Bench", dependencies: [.package(name: "swift-preferences", path: "$root")],
  targets: [.executableTarget(name: "App", dependencies: [.product(name: "Preferences", package: "swift-preferences")], $plugins)])
SWIFT
  local wrapper="@Preference "
  [ "$2" = plain ] && wrapper=""
  for i in $(seq 1 "$files"); do
    printf 'import Preferences\n\n/// Screen %s.\nstruct Screen%s {\n  %svar title = "Screen %s"\n  %svar count = %s\n  var local = 0\n  func render() -> String { "\\(title) \\(count) \\(local)" }\n}\n' \
      "$i" "$i" "$wrapper" "$i" "$wrapper" "$i" >"$1/Sources/App/Screen$i.swift"
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

median() { printf '%s\n' "$@" | sort -n | sed -n "$((($# + 1) / 2))p"; }
rounds=${ROUNDS:-3}

for mode in ${MODES:-plugin registry plain}; do
  dir="$work/$mode"
  make_package "$dir" "$mode"
  if [ "$mode" = registry ]; then
    generated=$(find "$work/plugin/.build/plugins/outputs" -name PreferenceRegistry.generated.swift)
    cp "$generated" "$dir/Sources/App/"
  fi
  swift build --package-path "$dir" >/dev/null 2>&1   # first build
  swift build --package-path "$dir" >/dev/null 2>&1   # settle
  nochanges=() edits=()
  for round in $(seq 1 "$rounds"); do
    nochanges+=("$(measure "$dir")")
    echo "// edit $round" >>"$dir/Sources/App/Screen$((files / 2)).swift"
    edits+=("$(measure "$dir")")
    recompiled=$(grep -oE -- "-primary-file [^ ]*/Sources/App/[^ ]+" "$dir.log" | sort -u | wc -l)
  done
  echo "$mode: $files files, no-change build $(median "${nochanges[@]}")s, one-file edit $(median "${edits[@]}")s" \
    "(medians of $rounds: ${nochanges[*]} / ${edits[*]}; $recompiled file(s) recompiled)"
done
