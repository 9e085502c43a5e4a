#!/usr/bin/env bash
# What one property-wrapper declaration costs the compiler job that every incremental build runs
# over the whole module (emit-module), by the shape of the wrapper: the part of the build cost
# that the generated code does not control.
#
# A module W declares wrapper variants that differ in one respect each; a target of FILES files
# declares 4 properties per file with each variant (the files of Scripts/plugin-build-benchmark.sh,
# written by Scripts/benchmark-sources.sh). Each target's module is emitted as SwiftPM's incremental
# debug builds emit it (-experimental-skip-non-inlinable-function-bodies-without-types,
# -enable-testing, -Onone, Swift 6 mode).
#
#   minimal      @propertyWrapper struct Minimal<V> { var wrappedValue: V } (the benchmark's baseline)
#   keyed        an @AppStorage-shaped wrapper: init(wrappedValue:_ key: String), reading UserDefaults
#                (what users would write instead, as in Scripts/plugin-build-benchmark.sh)
#   settable     a computed `wrappedValue { get nonmutating set }`, as SwiftUI needs
#   projected    settable, with a `projectedValue` (`$name`)
#   defaulted    settable, with init(wrappedValue:fileID:line:) taking plain defaults
#   located      settable, with the defaults #fileID and #line (how @Preference finds its key)
#   with-column  located, with #column too (how @Preference found its key until #column was dropped)
#   fileID-only  settable, with #fileID alone
#   located-string  located, with the location as String and Int (not StaticString and UInt)
#   one-init     located, with every option @Preference takes in one initializer (all defaulted),
#                where @Preference has one initializer per first option
#   preference   this package's @Preference, with the registry its scanner generates for the target
#                (the real thing: its set of initializers, its generic registry, the generated files)
#
# Every variant's files import a module that re-exports Preferences, so that loading it (and
# Foundation) costs each variant alike; the package is built first (debug) for its Preferences
# module and scanner.
#
# MEASURE=instructions (the default where valgrind is installed) counts the compiler's
# instructions under `valgrind --tool=callgrind`, once per variant: the same count on every run,
# whatever else the machine does. It prints each variant's count, what it adds to the minimal
# wrapper's per declaration, and where that goes: type checking (Sema), SIL generation (SILGen),
# the SIL diagnostic passes (which include Swift 6's region-based isolation checking) and the
# rest (serialization, module loading). FILES defaults to 75 (300 declarations): counts grow
# linearly with the declarations.
#
# MEASURE=cpu times each variant ROUNDS times, interleaved, and prints the lowest and median CPU
# seconds (user + system); FILES defaults to 300. Noisier: differences of 0.1 s move between runs.
#
# VARIANTS="minimal keyed preference" measures only those (minimal, the baseline, is always kept).
#
# Usage: [MEASURE=instructions|cpu] [FILES=N] [ROUNDS=7] [VARIANTS=…] Scripts/declaration-cost.sh
#        (Linux: GNU time for cpu; about 8 minutes for instructions, 4 for cpu)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=Scripts/benchmark-sources.sh
source "$root/Scripts/benchmark-sources.sh"
work=$(mktemp -d)
[[ -n "${KEEP:-}" ]] && echo "work: $work" >&2 || trap 'rm -rf "$work"' EXIT
rounds=${ROUNDS:-7}
measure=${MEASURE:-$(command -v valgrind >/dev/null && echo instructions || echo cpu)}
case "$measure" in
  instructions) files=${FILES:-75} ;;
  cpu) files=${FILES:-300} ;;
  *) echo "MEASURE must be instructions or cpu, not '$measure'" >&2 && exit 2 ;;
esac
variants="minimal ${VARIANTS:-keyed settable projected defaulted located with-column fileID-only located-string one-init preference}"
variants="minimal ${variants//minimal/}"

swift build --package-path "$root" --product preferences-scanner >/dev/null
swift build --package-path "$root" --target Preferences >/dev/null
bin=$(swift build --package-path "$root" --show-bin-path)

mkdir -p "$work/W"
cat >"$work/W/W.swift" <<'SWIFT'
@_exported import Preferences
import Foundation
@propertyWrapper public struct Minimal<V> {
  public var wrappedValue: V
  public init(wrappedValue: V) { self.wrappedValue = wrappedValue }
}
@propertyWrapper public struct Keyed<V> {
  let key: String
  let defaultValue: V
  public init(wrappedValue: V, _ key: String) {
    self.key = key
    self.defaultValue = wrappedValue
  }
  public var wrappedValue: V {
    get { UserDefaults.standard.object(forKey: key) as? V ?? defaultValue }
    nonmutating set { UserDefaults.standard.set(newValue, forKey: key) }
  }
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
  public init(wrappedValue: V, fileID: StaticString = "", line: UInt = 0) { value = wrappedValue }
}
@propertyWrapper public struct Located<V> {
  let value: V
  public var wrappedValue: V { get { value } nonmutating set {} }
  public init(wrappedValue: V, fileID: StaticString = #fileID, line: UInt = #line) { value = wrappedValue }
}
@propertyWrapper public struct WithColumn<V> {
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
@propertyWrapper public struct LocatedString<V> {
  let value: V
  public var wrappedValue: V { get { value } nonmutating set {} }
  public init(wrappedValue: V, fileID: String = #fileID, line: Int = #line) {
    value = wrappedValue
  }
}
@propertyWrapper public struct OneInit<V> {
  let value: V
  public var wrappedValue: V { get { value } nonmutating set {} }
  public init(
    wrappedValue: V, key: StaticString? = nil, store: @autoclosure () -> PreferenceStore = .default,
    movedFrom: @autoclosure () -> PreferenceStore? = nil, format: PreferenceFormat = .propertyList,
    sync: Bool = false, settings: Bool = false, renamedFrom: StaticString...,
    fileID: StaticString = #fileID, line: UInt = #line
  ) { value = wrappedValue }
}
SWIFT
swiftc -emit-module -module-name W -parse-as-library -swift-version 6 -I "$bin/Modules" \
  -module-cache-path "$work/module-cache" -o "$work/W/W.swiftmodule" "$work/W/W.swift"

wrapper_type() {
  case "$1" in
    minimal) echo Minimal ;; keyed) echo 'Keyed("KEY")' ;; settable) echo Settable ;; projected) echo Projected ;; defaulted) echo Defaulted ;;
    located) echo Located ;; with-column) echo WithColumn ;; fileID-only) echo FileIDOnly ;;
    located-string) echo LocatedString ;; one-init) echo OneInit ;;
    preference) echo Preference ;;
  esac
}

for variant in $variants; do
  mkdir -p "$work/$variant"
  write_screens "$work/$variant" W "@$(wrapper_type "$variant") " "$files"
done
# The registry of the @Preference target, as the build plugin generates it (every file planned).
planned=()
for source in "$work/preference"/Screen*.swift; do planned+=(--planned "$source"); done
"$bin/preferences-scanner" generate --module App --output-directory "$work/preference" "${planned[@]}" \
  "$work/preference"/Screen*.swift 2>"$work/generate.log" || { cat "$work/generate.log" >&2; exit 1; }

emit_module_arguments() { # the emit-module job of $1's files, as an incremental debug build runs it
  echo -frontend -emit-module -module-name App -parse-as-library -swift-version 6 -Onone -enable-testing \
    -I "$work/W" -I "$bin/Modules" -module-cache-path "$work/module-cache" -o "$work/App.swiftmodule" \
    -experimental-skip-non-inlinable-function-bodies-without-types "$work/$1"/*.swift
}
# A first run fills the module cache (Foundation's C modules), which no measured run should pay.
# shellcheck disable=SC2046 # the argument list is split on purpose
swiftc $(emit_module_arguments preference) >/dev/null

if [ "$measure" = instructions ]; then
  frontend=$(dirname "$(command -v swiftc)")/swift-frontend
  # Inclusive instructions of the functions that begin each phase, from callgrind_annotate.
  phase() { # $1 = profile, $2 = function name; prints its inclusive instruction count
    # (awk reads to the end: stopping early would fail the pipeline under pipefail)
    callgrind_annotate --inclusive=yes "$1" | awk -v f="$2" '!found && index($0, f) { gsub(",", "", $1); print $1; found = 1 }'
  }
  declare -A total=() sema=() silgen=() diagnostics=()
  for variant in $variants; do
    # shellcheck disable=SC2046 # the argument list is split on purpose
    valgrind --tool=callgrind --callgrind-out-file="$work/$variant.callgrind" "$frontend" \
      $(emit_module_arguments "$variant") 2>"$work/valgrind.log" || {
      cat "$work/valgrind.log" >&2
      exit 1
    }
    total[$variant]=$(awk '/Collected :/ { print $NF }' "$work/valgrind.log")
    sema[$variant]=$(phase "$work/$variant.callgrind" "swift::CompilerInstance::performSema()")
    silgen[$variant]=$(phase "$work/$variant.callgrind" "swift::Lowering::SILGenModule::emitSourceFile(")
    diagnostics[$variant]=$(phase "$work/$variant.callgrind" "swift::runSILDiagnosticPasses(")
  done
  declarations=$((files * 4))
  printf '| wrapper (%d declarations) | emit-module instructions | more than minimal, per declaration | Sema | SILGen | SIL diagnostics | rest |\n' "$declarations"
  printf '| --- | --- | --- | --- | --- | --- | --- |\n'
  for variant in $variants; do
    awk -v name="$variant" -v n="$declarations" -v t="${total[$variant]}" -v t0="${total[minimal]}" \
      -v a="${sema[$variant]}" -v a0="${sema[minimal]}" -v b="${silgen[$variant]}" -v b0="${silgen[minimal]}" \
      -v c="${diagnostics[$variant]}" -v c0="${diagnostics[minimal]}" 'BEGIN {
        if (name == "minimal") { printf "| %s | %.3f G | | | | | |\n", name, t / 1e9; exit }
        d = t - t0; da = a - a0; db = b - b0; dc = c - c0
        printf "| %s | %.3f G | +%.0f k | %+.0f k | %+.0f k | %+.0f k | %+.0f k |\n", name, t / 1e9, d / n / 1e3,
          da / n / 1e3, db / n / 1e3, dc / n / 1e3, (d - da - db - dc) / n / 1e3 }'
  done
  echo
  echo "Instructions of one emit-module run per variant (valgrind --tool=callgrind; the same on every run)."
  exit 0
fi

cpu() { # emits the module of $1's files; prints user + system CPU seconds
  # shellcheck disable=SC2046 # the argument list is split on purpose
  /usr/bin/time -f "%U %S" -o "$work/time" swiftc $(emit_module_arguments "$1")
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
