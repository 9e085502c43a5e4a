#!/usr/bin/env python3
"""Plants each one-line bug of MAINTAINERS.md's mutation table in a scratch copy of the package
and runs the suites named for it: every mutation must be killed (a suite fails, or aborts).

Usage: Scripts/mutation-test.py [--only N[,N…]] [--runs N] [--scratch DIR] [--timeout SECONDS]

`--runs N` runs each mutation's suites N times (built once): it counts as killed only when every
run kills it, so a test that catches the bug only sometimes shows as a survivor.

The scratch copy (default /tmp/swift-preferences-mutations) holds this checkout's files as they
are in the working tree (tracked ones, and new ones git does not ignore); it is built once, and each mutation rebuilds incrementally.
Exit status: 0 when every mutation was killed; 1 when one survived, no longer applies (its
`find` text is not exactly once in its file) or no longer compiles.
"""

import argparse
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def code(cell):
    """The text of a Markdown table cell written as `code` (with `\\|` for a pipe)."""
    cell = cell.strip()
    if not (cell.startswith("`") and cell.endswith("`")):
        raise SystemExit(f"error: MAINTAINERS.md: expected `code` in the mutation table, got {cell!r}")
    return cell[1:-1]


def mutations():
    text = (ROOT / "MAINTAINERS.md").read_text()
    block = re.search(r"<!-- mutations -->\n(.*?)<!-- /mutations -->", text, re.S)
    if not block:
        raise SystemExit("error: MAINTAINERS.md has no mutation table")
    rows = []
    for line in block.group(1).splitlines():
        if not re.match(r"^\| \d+ \|", line):
            continue
        cells = [c.replace("\\|", "|") for c in re.split(r"(?<!\\)\|", line)[1:-1]]
        number, file, find, replace, suites = cells
        rows.append(dict(number=int(number), file="Sources/Preferences/" + file.strip(),
                         find=code(find), replace=code(replace), suites=suites.split()))
    return rows


def run(command, cwd, timeout=None):
    try:
        process = subprocess.run(command, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                 text=True, timeout=timeout)
        return process.returncode, process.stdout
    except subprocess.TimeoutExpired as expired:
        return None, (expired.stdout or b"").decode(errors="replace") if isinstance(expired.stdout, bytes) else (expired.stdout or "")


def refresh(scratch):
    """Copies the working tree's files (tracked, and new ones git does not ignore) into `scratch`,
    keeping its .build."""
    files = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                           stdout=subprocess.PIPE, check=True).stdout
    for name in files.decode().split("\0"):
        if not name:
            continue
        source = ROOT / name
        target = scratch / name
        if source.is_symlink():
            if target.is_symlink() or target.exists():
                target.unlink()
            target.parent.mkdir(parents=True, exist_ok=True)
            target.symlink_to(source.readlink())
        elif source.is_file():
            target.parent.mkdir(parents=True, exist_ok=True)
            if not target.exists() or target.read_bytes() != source.read_bytes():
                shutil.copy2(source, target)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", help="comma-separated mutation numbers")
    parser.add_argument("--scratch", default="/tmp/swift-preferences-mutations")
    parser.add_argument("--timeout", type=int, default=900, help="seconds per test run")
    parser.add_argument("--runs", type=int, default=1, help="test runs per mutation, all must kill it")
    options = parser.parse_args()
    scratch = Path(options.scratch)
    scratch.mkdir(parents=True, exist_ok=True)
    refresh(scratch)
    selected = mutations()
    if options.only:
        wanted = {int(n) for n in options.only.split(",")}
        selected = [m for m in selected if m["number"] in wanted]
    print(f"building the scratch copy at {scratch}", flush=True)
    status, output = run(["swift", "build", "--build-tests"], scratch)
    if status != 0:
        print(output[-4000:])
        raise SystemExit("error: the unmutated scratch copy does not build")
    results = []
    for mutation in selected:
        path = scratch / mutation["file"]
        original = path.read_text()
        count = original.count(mutation["find"])
        label = f"#{mutation['number']} {mutation['file']}"
        if count != 1:
            results.append((mutation, "stale", f"the find text occurs {count} times"))
            print(f"{label}: STALE ({count} occurrences of the find text)", flush=True)
            continue
        started = time.time()
        path.write_text(original.replace(mutation["find"], mutation["replace"]))
        try:
            status, output = run(["swift", "build", "--build-tests"], scratch)
            if status != 0:
                errors = [l for l in output.splitlines() if "error:" in l][:3]
                results.append((mutation, "does not compile", "; ".join(errors)))
                print(f"{label}: DOES NOT COMPILE: {errors}", flush=True)
                continue
            pattern = "^[A-Za-z0-9_]+\\.(" + "|".join(mutation["suites"]) + ")/"
            verdicts = []
            for _ in range(options.runs):
                status, output = run(["swift", "test", "--skip-build", "--filter", pattern], scratch,
                                     timeout=options.timeout)
                ran = re.findall(r"Test run with (\d+) tests?", output)
                if ran and int(ran[-1]) == 0:
                    verdicts.append(("no tests", "the suites matched no test"))
                elif status == 0:
                    verdicts.append(("survived", ""))
                else:
                    failed = re.findall(r"✘ Test (\S+)", output)
                    how = "aborted" if status is None or not failed else f"{len(set(failed))} test(s) failed"
                    verdicts.append(("killed", how))
                if verdicts[-1][0] != "killed":
                    break
            outcome, how = verdicts[-1]
            if outcome == "killed" and options.runs > 1:
                how = f"{options.runs} of {options.runs} runs: " + ", ".join(h for _, h in verdicts)
            elif outcome == "survived" and len(verdicts) > 1:
                how = f"killed in {len(verdicts) - 1} run(s), then survived"
            results.append((mutation, outcome, how))
            verdict = {"killed": f"killed ({how})", "survived": "SURVIVED" + (f" ({how})" if how else ""),
                       "no tests": "NO TESTS RAN"}[outcome]
            print(f"{label}: {verdict} in {time.time() - started:.0f} s", flush=True)
        finally:
            path.write_text(original)
    killed = sum(1 for _, outcome, _ in results if outcome == "killed")
    print(f"\n{killed} of {len(results)} mutations killed")
    for mutation, outcome, detail in results:
        if outcome != "killed":
            print(f"  #{mutation['number']} {outcome}: {mutation['find']} -> {mutation['replace']} {detail}")
    return 0 if killed == len(results) else 1


if __name__ == "__main__":
    sys.exit(main())
