#!/usr/bin/env bash
# Formats the package with the toolchain's swift-format and the checked-in .swift-format.
# Pass --lint to check without changing files.
set -euo pipefail
cd "$(dirname "$0")/.."
paths=(Package.swift Sources Tests Plugins IntegrationTest/Package.swift IntegrationTest/Sources)
if [ "${1:-}" = "--lint" ]; then
  swift format lint --strict --recursive "${paths[@]}"
else
  swift format --in-place --recursive "${paths[@]}"
fi
