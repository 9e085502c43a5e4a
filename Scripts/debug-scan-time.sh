#!/usr/bin/env bash
# Times the scan the build plugin runs in users' builds: preferences-scanner built in debug (as
# SwiftPM builds a plugin's tool), over this repository's Swift sources, copied 8 times (about
# 200,000 lines). Fails when it takes longer than the bound (seconds, default 60: generous on a
# 2-core machine; the debug rules in MAINTAINERS.md keep it to a few seconds). On Linux, also
# fails when the scanner links Foundation's full library (FileSystem.swift says why it must not).
set -euo pipefail
cd "$(dirname "$0")/.."
bound=${1:-60}
swift build --product preferences-scanner >/dev/null
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
  mkdir -p "$work/$copy"
  cp -RL Sources Tests "$work/$copy/"
done
lines=$(find "$work" -name '*.swift' -print0 | xargs -0 cat | wc -l)
start=$(date +%s%N)
status=0
.build/debug/preferences-scanner scan --format text "$work" >/dev/null 2>&1 || status=$?
end=$(date +%s%N)
# 1 is "the sources hold error diagnostics" (the test fixtures do); anything else is a failure.
if ((status > 1)); then
  echo "error: the scanner ended with status $status"
  exit 1
fi
milliseconds=$(((end - start) / 1000000))
echo "debug-build scan: $lines lines in $milliseconds ms (bound $bound s)"
if ((milliseconds > bound * 1000)); then
  echo "error: the debug-build scan took $milliseconds ms, more than $bound s"
  exit 1
fi
