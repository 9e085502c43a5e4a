#!/usr/bin/env bash
# What @Preference and PreferenceRegistryPlugin cost a target's builds, against the same target
# written with a minimal property wrapper (`@propertyWrapper struct Simple<V> { var
# wrappedValue: V }`, the baseline), with that wrapper plus the `#fileID`, `#line`
# default arguments by which @Preference finds its key (`located`: what the mechanism alone costs,
# with no plugin, registry or options), with an @AppStorage-shaped wrapper that takes the default
# and a String key and reads UserDefaults (`keyed`: what users would write instead), and with
# plain stored properties.
#
# Each target has FILES files declaring 4 properties each. For each variant and size it measures
# debug builds of the target (its dependencies already built):
#   clean     the target rebuilt from scratch (its objects and the plugin's outputs removed)
#   shift     after inserting a line at the top of one file, which moves its declarations
#   no-shift  after appending a line at the end of one file
# and prints the median of ROUNDS builds, with the ratio to the minimal wrapper. A size under 100
# files gets at least SMALL_ROUNDS rounds (default 9): its builds take a second or two, and the
# build system's job order alone moves one of them by half a second now and then
# (Benchmarks/README.md), which a median of few rounds can catch for one variant only.
#
# Usage: [ROUNDS=3] [SMALL_ROUNDS=9] [SIZES="25 300"] Scripts/plugin-build-benchmark.sh
# (variants interleaved per round)
# (25 files = 100 preferences, 300 files = 1,200; about 20 minutes on 2 cores with ROUNDS=3)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
rounds=${ROUNDS:-3}
# shellcheck source=Scripts/benchmark-sources.sh
source "$root/Scripts/benchmark-sources.sh"

make_package() { # $1 = directory, $2 = preference|minimal|located|keyed|plain, $3 = files
  mkdir -p "$1/Sources/App"
  local plugins="" wrapper="@Preference "
  case "$2" in
    preference) plugins=', plugins: [.plugin(name: "PreferenceRegistryPlugin", package: "swift-preferences")]' ;;
    minimal)
      wrapper="@Simple "
      printf '@propertyWrapper struct Simple<Value> {\n  var wrappedValue: Value\n}\n' >"$1/Sources/App/Simple.swift"
      ;;
    located)
      wrapper="@Located "
      cat >"$1/Sources/App/Located.swift" <<'SWIFT'
@propertyWrapper struct Located<Value> {
  var wrappedValue: Value
  init(wrappedValue: Value, fileID: StaticString = #fileID, line: UInt = #line) {
    self.wrappedValue = wrappedValue
  }
}
SWIFT
      ;;
    keyed)
      wrapper='@Keyed("KEY") '
      cat >"$1/Sources/App/Keyed.swift" <<'SWIFT'
import Foundation

@propertyWrapper struct Keyed<Value> {
  let key: String
  let defaultValue: Value
  init(wrappedValue: Value, _ key: String) {
    self.key = key
    self.defaultValue = wrappedValue
  }
  var wrappedValue: Value {
    get { UserDefaults.standard.object(forKey: key) as? Value ?? defaultValue }
    nonmutating set { UserDefaults.standard.set(newValue, forKey: key) }
  }
}
SWIFT
      ;;
    plain) wrapper="" ;;
  esac
  cat >"$1/Package.swift" <<SWIFT
// swift-tools-version: 6.1
import PackageDescription
let package = Package(
  name: "Bench", platforms: [.macOS(.v14)], dependencies: [.package(name: "swift-preferences", path: "$root")],
  targets: [.executableTarget(name: "App", dependencies: [.product(name: "Preferences", package: "swift-preferences")]$plugins)])
SWIFT
  write_screens "$1/Sources/App" Preferences "$wrapper" "$3"
  echo 'print(Screen1().render())' >"$1/Sources/App/main.swift"
}

seconds() { # runs a build of $1, prints its wall time in seconds
  local start end
  start=$(date +%s%N)
  swift build --package-path "$1" >"$1.log" 2>&1 || { cat "$1.log" >&2; exit 1; }
  end=$(date +%s%N)
  awk -v ns=$((end - start)) 'BEGIN { printf "%.2f", ns / 1e9 }'
}

median() { printf '%s\n' "$@" | sort -n | sed -n "$((($# + 1) / 2))p"; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f×", a / b }'; }

variants="minimal keyed preference located plain"
printf '| target | clean build | edit that shifts lines | edit that does not |\n| --- | --- | --- | --- |\n'
for files in ${SIZES:-25 300}; do
  declare -A clean=() shifted=() unshifted=() cleans=() shifts=() noshifts=()
  for variant in $variants; do
    make_package "$work/$variant-$files" "$variant" "$files"
    swift build --package-path "$work/$variant-$files" >/dev/null 2>&1 # dependencies, and a first build
  done
  # Rounds interleave the variants, so that a machine that slows down or speeds up during the
  # run moves every variant's numbers alike.
  size_rounds=$rounds
  if ((files < 100 && size_rounds < ${SMALL_ROUNDS:-9})); then size_rounds=${SMALL_ROUNDS:-9}; fi
  for round in $(seq 1 "$size_rounds"); do
    for variant in $variants; do
      dir="$work/$variant-$files"
      edited="$dir/Sources/App/Screen$(((files + 1) / 2)).swift"
      # A clean build of the target: its objects and generated sources gone, every source newer.
      # (Removing its build folder would also remove the build plan's file map.)
      rm -f "$dir"/.build/*/debug/App.build/*.o "$dir"/.build/*/debug/App.build/*.swiftdeps
      rm -rf "$dir"/.build/plugins/outputs/*/App/*/PreferenceRegistryPlugin/{GeneratedPreferences,ParseCache}
      find "$dir/Sources" -name '*.swift' -exec touch {} +
      cleans[$variant]+=" $(seconds "$dir")"
      printf '// shift %s\n%s\n' "$round" "$(cat "$edited")" >"$edited"
      shifts[$variant]+=" $(seconds "$dir")"
      printf '// edit %s\n' "$round" >>"$edited"
      noshifts[$variant]+=" $(seconds "$dir")"
    done
  done
  for variant in $variants; do
    # shellcheck disable=SC2086 # word splitting of the lists is intended
    clean[$variant]=$(median ${cleans[$variant]})
    # shellcheck disable=SC2086
    shifted[$variant]=$(median ${shifts[$variant]})
    # shellcheck disable=SC2086
    unshifted[$variant]=$(median ${noshifts[$variant]})
  done
  for variant in preference keyed located minimal plain; do
    case "$variant" in
      preference) label="$((files * 4)) preferences, @Preference" ;;
      keyed) label="$((files * 4)) preferences, @AppStorage-shaped keyed wrapper" ;;
      located) label="$((files * 4)) preferences, minimal wrapper + location defaults" ;;
      minimal) label="$((files * 4)) preferences, minimal wrapper" ;;
      plain) label="$((files * 4)) plain stored properties" ;;
    esac
    printf '| %s | %s s (%s) | %s s (%s) | %s s (%s) |\n' "$label" \
      "${clean[$variant]}" "$(ratio "${clean[$variant]}" "${clean[minimal]}")" \
      "${shifted[$variant]}" "$(ratio "${shifted[$variant]}" "${shifted[minimal]}")" \
      "${unshifted[$variant]}" "$(ratio "${unshifted[$variant]}" "${unshifted[minimal]}")"
  done
  printf '| %s | %s | %s | %s |\n' "$((files * 4)) preferences, @Preference against the keyed wrapper" \
    "$(ratio "${clean[preference]}" "${clean[keyed]}")" "$(ratio "${shifted[preference]}" "${shifted[keyed]}")" \
    "$(ratio "${unshifted[preference]}" "${unshifted[keyed]}")"
  unset clean shifted unshifted cleans shifts noshifts
done
echo
echo "Medians of $rounds debug builds (at least ${SMALL_ROUNDS:-9} for under 100 files), the variants interleaved round by round; ratios to the minimal wrapper. Targets: clean ≤ 1.5×, shifting edit ≤ 1.2×."
