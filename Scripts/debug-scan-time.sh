#!/usr/bin/env bash
# Times the scan the build plugin runs in users' builds: preferences-scanner built in debug (users'
# Debug and Release builds both run it unoptimized: Package.swift), over this repository's Swift
# sources, copied 8 times (about 200,000 lines), against the optimized scanner's scan of the same
# corpus in the same run (PREFERENCES_OPTIMIZED_SCANNER=1 swift build -c release).
#
# Fails when:
# - the scan's output is not what one copy's scan predicts (8 times its declarations, at least 8
#   times its error diagnostics, the exit status they imply, and at least 100 declarations per
#   copy), so a scanner that fails at once, or finds nothing, fails the gate;
# - the debug scan takes more than RATIO times the optimized scan (default 11: the two measured
#   6.9–8.1 on this project's 2-core machine, so a rule that halves the debug build's speed fails;
#   MAINTAINERS.md's debug-build rules say what keeps it there);
# - the debug scan takes longer than BOUND seconds (default 60: a backstop on any machine);
# - on Linux, the scanner links Foundation's full library (FileSystem.swift says why it must not).
#
# Usage: Scripts/debug-scan-time.sh [BOUND [RATIO]]. Builds the optimized scanner unless the
# benchmark (which .ci/run runs first) already has.
set -euo pipefail
cd "$(dirname "$0")/.."
bound=${1:-60}
ratio_bound=${2:-11}
swift build --product preferences-scanner >/dev/null
# The optimized scanner (Package.swift builds it without optimization unless told otherwise).
PREFERENCES_OPTIMIZED_SCANNER=1 swift build -c release --product preferences-scanner >/dev/null
if command -v readelf >/dev/null; then
  libraries=$(readelf -d .build/debug/preferences-scanner | sed -n 's/.*Shared library: \[\(.*\)\]/\1/p')
  for library in libFoundation.so libFoundationInternationalization.so; do
    if grep -qx "$library" <<<"$libraries"; then
      echo "error: preferences-scanner links $library; import FoundationEssentials where it exists (FileSystem.swift)"
      exit 1
    fi
  done
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for copy in 1 2 3 4 5 6 7 8; do
  mkdir -p "$work/corpus/$copy"
  cp -RL Sources Tests "$work/corpus/$copy/"
done
lines=$(find "$work/corpus" -name '*.swift' -print0 | xargs -0 cat | wc -l)

# Scans PATH with SCANNER; sets `declarations`, `errors` and `status`.
scan() {
  status=0
  "$1" scan --format text "$2" >"$work/out" 2>"$work/err" || status=$?
  declarations=$(grep -c '^[^ ]*:[0-9]*:[0-9]*: [^ ]' "$work/out" || true)
  errors=$(grep -c ': error: ' "$work/err" || true)
}

# One copy, with the debug scanner: what the timed scans must report 8 times over.
scan .build/debug/preferences-scanner "$work/corpus/1"
one_declarations=$declarations
one_errors=$errors
expected_status=$((one_errors > 0 ? 1 : 0))
if ((status != expected_status || one_declarations < 100)); then
  echo "error: the scanner ended with status $status and reported $one_declarations declarations and $one_errors errors in one copy of Sources and Tests (expected at least 100 declarations)"
  sed -n '1,20p' "$work/err"
  exit 1
fi

# Milliseconds of the fastest of 3 scans of the whole corpus with SCANNER, each checked.
timed() {
  local best=0
  for _ in 1 2 3; do
    local start end
    start=$(date +%s%N)
    scan "$1" "$work/corpus"
    end=$(date +%s%N)
    # The copies share one module, so their keys also collide: more errors than 8 copies' own.
    if ((status != expected_status || declarations != 8 * one_declarations || errors < 8 * one_errors)); then
      echo "error: $1 ended with status $status and reported $declarations declarations and $errors errors; 8 copies hold $((8 * one_declarations)) declarations and at least $((8 * one_errors)) errors" >&2
      exit 1
    fi
    local elapsed=$(((end - start) / 1000000))
    if ((best == 0 || elapsed < best)); then best=$elapsed; fi
  done
  echo "$best"
}
debug=$(timed .build/debug/preferences-scanner)
release=$(timed .build/release/preferences-scanner)
ratio=$(awk -v d="$debug" -v r="$release" 'BEGIN { printf "%.1f", d / (r > 0 ? r : 1) }')
echo "debug-build scan: $lines lines, $((8 * one_declarations)) declarations in $debug ms; release build $release ms; ratio $ratio (bound $ratio_bound); bound $bound s"
if awk -v x="$ratio" -v b="$ratio_bound" 'BEGIN { exit !(x > b) }'; then
  echo "error: the debug-build scan took $ratio times the release build's, more than $ratio_bound (see the debug-build rules in MAINTAINERS.md)"
  exit 1
fi
if ((debug > bound * 1000)); then
  echo "error: the debug-build scan took $debug ms, more than $bound s"
  exit 1
fi
