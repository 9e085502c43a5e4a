#!/usr/bin/env python3
"""What the first read after launch costs: an app whose module declares N preferences of mixed
types (the registry registers every default at the first read) against the same app written by
hand (one `UserDefaults.standard.register(defaults:)` of the same dictionary, then one read).

Usage: Scripts/launch-benchmark.py [--sizes 100,1200] [--rounds 21] [--check RATIO] [--keep DIR]

It writes a package in a temporary directory (the app and the hand-written app at each size, the
app through this checkout's package and build plugin), builds it in release, and runs each
executable `--rounds` times, interleaved, in a fresh `HOME` each time (so no stored value
exists), printing for each size:

- start to first read: from spawning the process to its first read returning (dynamic loading,
  the runtime's start-up and the registration of every default), on the one monotonic clock the
  script and the process both read; the ratio is the median of each round's app/by-hand ratio;
- main to first read: from the first line of `main` to the first read returning, measured inside
  the process (the registration itself);
- process to exit: from spawning the process to its exit, right after the first read;
- memory per preference: the growth of the resident set (`/proc/self/statm`) from before the
  first read to after every preference was read once, divided by N (the app), against the
  hand-written app's register-and-read-everything.

Medians of the rounds. With `--check RATIO` it fails when the start-to-first-read ratio passes
RATIO at any size in two measurements in a row (the second made only when the first passes it;
`.ci/run` checks 1,200 preferences against the bound Benchmarks/README.md gives). Linux only (it reads `/proc`).
"""

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PER_TYPE = 20

# The kinds of preference, in turn: (Swift type, Swift default, the hand-written app's
# property-list value for `register(defaults:)`, the hand-written read).
KINDS = [
    ("Int", "{i}", "{i}", "integer(forKey: {key})"),
    ("Double", "{i}.5", "{i}.5", "double(forKey: {key})"),
    ("Bool", "true", "true", "bool(forKey: {key})"),
    ("String", '"value {i}"', '"value {i}"', "string(forKey: {key})"),
    ("Mode", "Mode.automatic", '"automatic"', "string(forKey: {key})"),
    ("[String]", '["a", "b"]', '["a", "b"]', "stringArray(forKey: {key})"),
    ("[String: Int]", '["a": {i}]', '["a": {i}]', "dictionary(forKey: {key})"),
    ("Layout", "Layout(columns: 2, title: \"t\")", '#"{{"columns":2,"title":"t"}}"#', "string(forKey: {key})"),
    ("Date", "Date.distantPast", "Date.distantPast", "object(forKey: {key})"),
    ("URL?", "URL?.none", None, "url(forKey: {key})"),
]

SHARED = """import Foundation

enum Mode: String, Codable, Sendable { case automatic, light, dark }

struct Layout: Codable, Sendable, Equatable {
  var columns: Int
  var title: String
}

/// Nanoseconds on the monotonic clock.
func now() -> UInt64 {
  var time = timespec()
  clock_gettime(CLOCK_MONOTONIC, &time)
  return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
}

/// Resident bytes (`/proc/self/statm`).
func memory() -> Int {
  let statm = (try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8)) ?? ""
  let pages = statm.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
  return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
}

/// Prints `first=<ns>` (main to the first read), `at=<ns>` (the monotonic clock when the first
/// read returned, which the script compares with the time it spawned the process), and with
/// `--all` the memory every read added.
func report(start: UInt64, first: UInt64, before: Int?, readAll: () -> Void) {
  var line = "first=\\(first - start) at=\\(first)"
  if let before {
    readAll()
    let after = memory()
    line += " resident=\\(after - before)"
  }
  print(line)
}
"""


def generate(directory, size):
    """The app (`LaunchApp<size>`) and the hand-written app (`LaunchHand<size>`)."""
    types = (size + PER_TYPE - 1) // PER_TYPE
    app = [SHARED, "import Preferences\n"]
    hand_defaults, hand_reads = [], []
    read_all = []
    index = 0
    for t in range(types):
        app.append(f"struct Settings{t} {{\n")
        for p in range(PER_TYPE):
            if index == size:
                break
            swift_type, default, plist, read = KINDS[index % len(KINDS)]
            key = f'"Settings{t}.p{p}"'
            app.append(f"  @Preference var p{p}: {swift_type} = {default.format(i=index)}\n")
            if plist is not None:
                hand_defaults.append(f"  {key}: {plist.format(i=index)},\n")
            hand_reads.append(f"  _ = defaults.{read.format(key=key)}\n")
            read_all.append(f"  _ = settings{t}.p{p}\n")
            index += 1
        app.append("}\n")
    app.append("\nfunc readAll() {\n")
    for t in range(types):
        app.append(f"  let settings{t} = Settings{t}()\n")
    app += read_all
    app.append("}\n\n@main enum Launch {\n  static func main() {\n")
    app.append("    let start = now()\n    let all = CommandLine.arguments.contains(\"--all\")\n")
    app.append("    let before = all ? memory() : nil\n")
    app.append("    let value = Settings0().p0\n    let first = now()\n    precondition(value == 0)\n")
    app.append("    report(start: start, first: first, before: before, readAll: readAll)\n  }\n}\n")

    hand = [SHARED]
    hand.append("\nfunc readAll() {\n  let defaults = UserDefaults.standard\n")
    hand += hand_reads
    hand.append("}\n\n@main enum Launch {\n  static func main() {\n")
    hand.append("    let start = now()\n    let all = CommandLine.arguments.contains(\"--all\")\n")
    hand.append("    let before = all ? memory() : nil\n")
    hand.append("    let defaults = UserDefaults.standard\n    let registered: [String: Any] = [\n")
    hand += ["  " + line for line in hand_defaults]
    hand.append("    ]\n    defaults.register(defaults: registered)\n")
    hand.append('    let value = defaults.integer(forKey: "Settings0.p0")\n    let first = now()\n')
    hand.append("    precondition(value == 0)\n")
    hand.append("    report(start: start, first: first, before: before, readAll: readAll)\n  }\n}\n")

    for name, text in ((f"LaunchApp{size}", app), (f"LaunchHand{size}", hand)):
        target = directory / "Sources" / name
        target.mkdir(parents=True)
        (target / "main.swift").write_text("".join(text).replace("@main enum Launch", "enum Launch") + "\nLaunch.main()\n")


def package(directory, sizes):
    targets = []
    for size in sizes:
        targets.append(
            f'    .executableTarget(name: "LaunchApp{size}", dependencies: [.product(name: "Preferences", '
            f'package: "swift-preferences")], plugins: [.plugin(name: "PreferenceRegistryPlugin", '
            f'package: "swift-preferences")]),\n')
        targets.append(f'    .executableTarget(name: "LaunchHand{size}"),\n')
    (directory / "Package.swift").write_text(
        "// swift-tools-version: 6.2\nimport PackageDescription\n\nlet package = Package(\n"
        '  name: "Launch",\n  platforms: [.macOS(.v14)],\n'
        f'  dependencies: [.package(name: "swift-preferences", path: "{ROOT}")],\n  targets: [\n' + "".join(targets) + "  ]\n)\n")


def run(executable, arguments, home):
    if home.exists():
        shutil.rmtree(home)
    home.mkdir()
    environment = dict(os.environ, HOME=str(home))
    # CLOCK_MONOTONIC, the clock the process reads (`now()`), so that the spawn and the first
    # read compare.
    started = time.monotonic_ns()
    output = subprocess.run([str(executable)] + arguments, env=environment, capture_output=True, text=True)
    elapsed = time.monotonic_ns() - started
    if output.returncode != 0:
        raise SystemExit(f"error: {executable.name} failed: {output.stderr[-2000:]}")
    fields = {key: int(value) for key, value in (item.split("=") for item in output.stdout.split())}
    fields["spawn"] = fields["at"] - started
    return elapsed, fields


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="100,1200")
    parser.add_argument("--rounds", type=int, default=21)
    parser.add_argument("--check", type=float, metavar="RATIO",
                        help="fail when the median ratio of start to first read passes RATIO at any size")
    parser.add_argument("--keep", help="build the package in DIR and keep it (reused when it exists)")
    options = parser.parse_args()
    sizes = [int(size) for size in options.sizes.split(",")]
    directory = Path(options.keep) if options.keep else Path(tempfile.mkdtemp(prefix="launch-benchmark-"))
    try:
        if not (directory / "Sources").exists():
            directory.mkdir(parents=True, exist_ok=True)
            package(directory, sizes)
            for size in sizes:
                generate(directory, size)
        print(f"building {directory} (release)", flush=True)
        build = subprocess.run(["swift", "build", "-c", "release"], cwd=directory, capture_output=True, text=True)
        if build.returncode != 0:
            print(build.stdout[-6000:] + build.stderr[-3000:])
            raise SystemExit("error: the launch package does not build")
        products = Path(subprocess.run(["swift", "build", "-c", "release", "--show-bin-path"], cwd=directory,
                                       capture_output=True, text=True).stdout.strip())
        home = directory / "home"
        print("| preferences | start to first read, app | by hand | ratio | main to first read, app | by hand | "
              "process to exit, app | by hand | resident per preference, app | by hand |")
        print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
        failures = []

        def measure(size):
            """One row: `--rounds` interleaved runs of the app and the hand-written app."""
            app, hand = products / f"LaunchApp{size}", products / f"LaunchHand{size}"
            samples = {name: [] for name in ("app", "hand")}
            ratios = []
            for _ in range(options.rounds):
                pair = {}
                for name, executable in (("app", app), ("hand", hand)):
                    pair[name] = run(executable, [], home)
                    samples[name].append(pair[name])
                ratios.append(pair["app"][1]["spawn"] / pair["hand"][1]["spawn"])
            memory = {name: run(executable, ["--all"], home)[1] for name, executable in (("app", app), ("hand", hand))}

            def median(name, pick):
                return statistics.median(pick(sample) for sample in samples[name]) / 1e6

            spawn = {name: median(name, lambda s: s[1]["spawn"]) for name in samples}
            first = {name: median(name, lambda s: s[1]["first"]) for name in samples}
            process = {name: median(name, lambda s: s[0]) for name in samples}
            ratio = statistics.median(ratios)
            print(f"| {size} | {spawn['app']:.1f} ms | {spawn['hand']:.1f} ms | {ratio:.2f}× | "
                  f"{first['app']:.2f} ms | {first['hand']:.2f} ms | "
                  f"{process['app']:.1f} ms | {process['hand']:.1f} ms | "
                  f"{memory['app']['resident'] / size:.0f} B | {memory['hand']['resident'] / size:.0f} B |",
                  flush=True)
            return ratio

        for size in sizes:
            ratio = measure(size)
            if options.check is not None and ratio > options.check:
                # Measured again before failing: a machine busy with something else for a few
                # seconds moves one row (2.02× once, beside other builds); a slower library moves
                # both.
                print(f"{size} preferences: {ratio:.2f}× is over the bound of {options.check}×; measuring again",
                      flush=True)
                again = measure(size)
                if again > options.check:
                    failures.append(f"{size} preferences: the first read costs {ratio:.2f}× and then {again:.2f}× "
                                    f"the hand-written app's, over the bound of {options.check}×")
        for failure in failures:
            print(f"error: {failure}", file=sys.stderr)
        if failures:
            return 1
    finally:
        if not options.keep:
            shutil.rmtree(directory, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
