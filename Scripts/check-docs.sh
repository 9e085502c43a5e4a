#!/usr/bin/env bash
# Checks that the DocC catalog and the public doc comments are true to the code: builds the
# Preferences module's symbol graph and converts the catalog with every warning an error (a link
# to a symbol that was renamed or removed, an ambiguous link, a page whose symbol is gone).
# Uses the toolchain's docc (xcrun's on macOS); installs nothing.
#
# Usage: Scripts/check-docs.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
docc=$(command -v docc || xcrun --find docc)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

swift build --package-path "$root" --target Preferences --scratch-path "$root/.build-docs" \
  -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc "$work/graphs" >/dev/null
mkdir "$work/symbols"
cp "$work/graphs"/Preferences.symbols.json "$work/graphs"/Preferences@*.symbols.json "$work/symbols/"

"$docc" convert "$root/Sources/Preferences/Documentation.docc" \
  --additional-symbol-graph-dir "$work/symbols" \
  --fallback-display-name Preferences --fallback-bundle-identifier swift-preferences.Preferences \
  --output-path "$work/archive" --warnings-as-errors >"$work/log" 2>&1 || {
  cat "$work/log" >&2
  echo "check-docs: the DocC catalog does not build without warnings (above)" >&2
  exit 1
}
echo "check-docs: the DocC catalog builds without warnings"
