#!/usr/bin/env bash
# What one property-wrapper declaration costs the compiler job that every incremental build runs
# over the whole module (emit-module), by the shape of the wrapper: the part of the build cost
# that the generated code does not control.
#
# A module W declares wrapper variants that differ in one respect each; a target of FILES files
# declares 4 properties per file with each variant (the files of Scripts/plugin-build-benchmark.sh,
# written by Scripts/benchmark-sources.sh). Each target's module is emitted as SwiftPM's incremental
# debug builds emit it (-experimental-skip-non-inlinable-function-bodies-without-types,
# -enable-testing, -Onone), ROUNDS times with the variants interleaved, and the script prints the
# lowest and median CPU seconds (user + system), and how much more the lowest is than the
# minimal wrapper's (the lowest is the steadier figure on a shared machine).
#
#   minimal      @propertyWrapper struct Minimal<V> { var wrappedValue: V } (the benchmark's baseline)
#   settable     a computed `wrappedValue { get nonmutating set }`, as SwiftUI needs
#   projected    settable, with a `projectedValue` (`$name`)
#   defaulted    settable, with init(wrappedValue:fileID:line:column:) taking plain defaults
#   located      settable, with the defaults #fileID, #line, #column (how @Preference finds its key)
#   fileID-only  settable, with #fileID alone
#
# Usage: [ROUNDS=7] [FILES=300] Scripts/declaration-cost.sh   (Linux: GNU time; about 2 minutes)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=Scripts/benchmark-sources.sh
source "$root/Scripts/benchmark-sources.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
rounds=${ROUNDS:-7}
files=${FILES:-300}
variants="minimal settable projected defaulted located fileID-only"

mkdir -p "$work/W"
cat >"$work/W/W.swift" <<'SWIFT'
@propertyWrapper public struct Minimal<V> {
  public var wrappedValue: V
  public init(wrappedValue: V) { self.wrappedValue = wrappedValue }
}
@propertyWrapper public struct Settable<V> {
  let value: V
  public var wrappedValue: V { get { value } nonmutating set {} }
  public init(wrappedValue: V) { value = wrappedValue }
}
@propertyWrapper public struct Projected<V> {
  let value: V
  public var wrappedValue: V { get { value } nonmutating set {} }
  public var projectedValue: [V] { [value] }
  public init(wrappedValue: V) { value = wrappedValue }
}
@propertyWrapper public struct Defaulted<V> {
  let value: V
  public var wrappedValue: V { get { value } nonmutating set {} }
  public init(wrappedValue: V, fileID: StaticString = "", line: UInt = 0, column: UInt = 0) { value = wrappedValue }
}
@propertyWrapper public struct Located<V> {
  let value: V
  public var wrappedValue: V { get { value } nonmutating set {} }
  public init(wrappedValue: V, fileID: StaticString = #fileID, line: UInt = #line, column: UInt = #column) {
    value = wrappedValue
  }
}
@propertyWrapper public struct FileIDOnly<V> {
  let value: V
  public var wrappedValue: V { get { value } nonmutating set {} }
  public init(wrappedValue: V, fileID: StaticString = #fileID) { value = wrappedValue }
}
SWIFT
swiftc -emit-module -module-name W -parse-as-library -swift-version 6 -o "$work/W/W.swiftmodule" "$work/W/W.swift"

wrapper_type() {
  case "$1" in
    minimal) echo Minimal ;; settable) echo Settable ;; projected) echo Projected ;; defaulted) echo Defaulted ;;
    located) echo Located ;; fileID-only) echo FileIDOnly ;;
  esac
}

for variant in $variants; do
  mkdir -p "$work/$variant"
  write_screens "$work/$variant" W "@$(wrapper_type "$variant") " "$files"
done

cpu() { # emits the module of $1's files; prints user + system CPU seconds
  /usr/bin/time -f "%U %S" -o "$work/time" swiftc -frontend -emit-module -module-name App \
    -parse-as-library -swift-version 6 -Onone -enable-testing -I "$work/W" -o "$work/App.swiftmodule" \
    -experimental-skip-non-inlinable-function-bodies-without-types "$work/$1"/*.swift
  awk '{ printf "%.3f", $1 + $2 }' "$work/time"
}

declare -A samples=()
for round in $(seq 1 "$rounds"); do
  for variant in $variants; do samples[$variant]+=" $(cpu "$variant")"; done
done

stat() { # prints "lowest median" of its arguments
  printf '%s\n' "$@" | sort -n | awk '{ v[NR] = $1 } END { printf "%.2f %.2f", v[1], v[int((NR + 1) / 2)] }'
}
# shellcheck disable=SC2086 # word splitting of the sample list is intended
read -r base_low base_median <<<"$(stat ${samples[minimal]})"
printf '| wrapper (%d declarations) | emit-module CPU, lowest | median | lowest − minimal |\n| --- | --- | --- | --- |\n' \
  "$((files * 4))"
for variant in $variants; do
  # shellcheck disable=SC2086
  read -r low median <<<"$(stat ${samples[$variant]})"
  printf '| %s | %s s | %s s | %+.2f s |\n' "$variant" "$low" "$median" \
    "$(awk -v a="$low" -v b="$base_low" 'BEGIN { print a - b }')"
done
echo
echo "CPU seconds of $rounds emit-module runs per variant, interleaved; the minimal wrapper's median is $base_median s."
