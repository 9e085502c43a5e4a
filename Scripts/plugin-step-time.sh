#!/usr/bin/env bash
# Times the build plugin's step inside an edit: `preferences-scanner generate` built in debug (as
# SwiftPM builds a plugin's tool for a debug build), with the plugin's arguments, over the
# benchmark target's sources (Scripts/benchmark-sources.sh), its parse cache warm, after an edit
# that shifts the lines of one file. Prints each run's wall time and the median; with
# INSTRUCTIONS=1, also the instructions of one more such run under callgrind (valgrind).
# SCANNER=PATH times another build of the scanner (another commit's, side by side).
#   FILES=300 EDITS=9 [INSTRUCTIONS=1] [KEEP=1] [SCANNER=PATH] Scripts/plugin-step-time.sh
set -euo pipefail
cd "$(dirname "$0")/.."
source Scripts/benchmark-sources.sh
files=${FILES:-300}
edits=${EDITS:-9}
if [[ -n "${SCANNER:-}" ]]; then
  scanner=$SCANNER
else
  swift build --product preferences-scanner >/dev/null
  scanner=$PWD/.build/debug/preferences-scanner
fi
work=$(mktemp -d)
[[ -n "${KEEP:-}" ]] && echo "work: $work" || trap 'rm -rf "$work"' EXIT
mkdir -p "$work/Sources" "$work/plugin"
write_screens "$work/Sources" Preferences '@Preference ' "$files"
# The manifest the plugin names for the target's settings (Xcode 26's default isolation).
cat >"$work/Package.swift" <<'MANIFEST'
// swift-tools-version: 6.2
import PackageDescription
let package = Package(
  name: "Bench",
  targets: [.target(name: "Bench", path: "Sources", swiftSettings: [.defaultIsolation(MainActor.self)])])
MANIFEST
sources=("$work"/Sources/*.swift)
planned=()
for source in "${sources[@]}"; do planned+=(--planned "$source"); done
prefix=()
run() {
  "${prefix[@]}" "$scanner" generate --module Bench --output-directory "$work/plugin/GeneratedPreferences" \
    --cache "$work/plugin/ParseCache" --settings-from "$work/Package.swift" --target-name Bench \
    "${planned[@]}" -- "${sources[@]}"
}
run # cold: fills the parse cache
shift_lines() { # The edit users make most: a line inserted above the declarations of one file.
  local target="$work/Sources/Screen$((($1 * 37) % files + 1)).swift"
  { echo "// edit $1"; cat "$target"; } >"$target.new" && mv "$target.new" "$target"
}
times=()
for edit in $(seq 1 "$edits"); do
  shift_lines "$edit"
  start=$(date +%s%N)
  run
  end=$(date +%s%N)
  times+=($(((end - start) / 1000000)))
done
sorted=($(printf '%s\n' "${times[@]}" | sort -n))
echo "plugin step after a line-shifting edit, $files files ($((files * 4)) declarations): ${times[*]} ms; median ${sorted[$((edits / 2))]} ms"
if [[ -n "${INSTRUCTIONS:-}" ]]; then
  shift_lines $((edits + 1))
  prefix=(valgrind --tool=callgrind "--callgrind-out-file=$work/callgrind.out")
  run 2>"$work/callgrind.log"
  collected=$(sed -n 's/.*Collected : *//p' "$work/callgrind.log")
  echo "instructions of one such run (callgrind): $collected"
fi
