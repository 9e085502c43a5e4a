#!/usr/bin/env bash
# Runs the named test suites, and fails unless the run ran exactly the tests those suites hold:
# a suite name that matches nothing (a typo, a rename) or a filter that matches only part of a
# suite fails instead of passing with "0 tests".
#
# Usage: Scripts/filtered-tests.sh SUITE [SUITE ...] [-- SWIFT-TEST-OPTIONS ...]
#   SUITE is a suite's type name (`DurabilityTests`), in any test target.
#   Options after `--` go to both `swift test list` and `swift test` (`--scratch-path .build-tsan
#   --sanitize=thread`).
set -euo pipefail
cd "$(dirname "$0")/.."
suites=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do suites+=("$1"); shift; done
[ "${1:-}" = "--" ] && shift
options=("$@")
[ ${#suites[@]} -gt 0 ] || { echo "usage: $0 SUITE [SUITE ...] [-- OPTIONS]" >&2; exit 2; }

listing=$(swift test list "${options[@]}")
expected=0
for suite in "${suites[@]}"; do
  count=$(printf '%s\n' "$listing" | grep -cE "^[A-Za-z0-9_]+\.${suite}/" || true)
  if [ "$count" -eq 0 ]; then
    echo "error: no test suite named '$suite' (see 'swift test list')" >&2
    exit 1
  fi
  expected=$((expected + count))
done
pattern="^[A-Za-z0-9_]+\.($(IFS='|'; echo "${suites[*]}"))/"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0
swift test --skip-build "${options[@]}" --filter "$pattern" 2>&1 | tee "$log" || status=$?
ran=$(grep -oE "Test run with [0-9]+ tests?" "$log" | tail -n 1 | grep -oE "[0-9]+" || echo 0)
if [ "$ran" -ne "$expected" ]; then
  echo "error: the run ran $ran tests; the suites ${suites[*]} hold $expected" >&2
  exit 1
fi
echo "filtered-tests: ran all $ran tests of ${#suites[@]} suites"
exit "$status"
