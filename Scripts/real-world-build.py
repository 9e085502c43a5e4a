#!/usr/bin/env python3
"""Builds real packages with preferences ported into them, with the compiler as the oracle.

For a package directory and some of its targets, in a copy under WORK (default /tmp/real-world-build):

1. The copy's manifest gains this checkout as a path dependency, and each named target the
   `Preferences` product and `PreferenceRegistryPlugin` (versioned manifests, `Package@swift-*.swift`,
   are removed so that SwiftPM reads the patched one).
2. `@Preference` is added to every member stored `var` with an initial value in the targets'
   sources, whatever the expression (found with tree-sitter's Swift grammar, as
   `Scripts/real-world-check.py --any-default` does), and `import Preferences` to each file
   changed.
3. Declarations the scanner rejects (values no preference can store: views, tasks, class
   instances) are put back as they were, and the rest is built with `swift build`.
4. Any error or warning in a generated file is a failure: the plugin wrote code that does not
   compile where the user's does. An error at a ported declaration (the compiler's "requires
   that 'URLRequest' conform to 'PreferenceValue'" for another module's type, which the scanner
   cannot see) puts that declaration back, and the build runs again, until it succeeds or an
   error is left that no declaration explains (a failure too).

Needs what `Scripts/real-world-check.py` needs (tree-sitter, a release build of the scanner) and
a package that builds offline. Exit status 1 when a check fails.

With `--main-actor`, the named targets build as Xcode 26's new targets do, with
`.defaultIsolation(MainActor.self)` (the manifest's tools version raised to 6.2 for it, and a
package that said less than 6.0 kept in Swift 5 mode), so generated code meets real code under
default main-actor isolation. The package is first built so, with nothing ported: a package that
does not build under that setting on its own is skipped (exit status 2).

Usage: Scripts/real-world-build.py [--work DIR] [--main-actor] PACKAGE TARGET[=PATH][,TARGET…]
       (PATH: the target's source directory, when it is not Sources/TARGET)
"""
import importlib.util
import json
import pathlib
import re
import shutil
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
spec = importlib.util.spec_from_file_location("real_world_check", ROOT / "Scripts/real-world-check.py")
check = importlib.util.module_from_spec(spec)
spec.loader.exec_module(check)
check.ANY_DEFAULT = True
SCANNER = ROOT / ".build/release/preferences-scanner"
DIAGNOSTIC = re.compile(r"(/[^:]+\.swift):(\d+):\d+: (error|warning): (.*)")


def patch_manifest(package, targets, main_actor=False):
    for versioned in package.glob("Package@swift-*.swift"):
        versioned.unlink()
    manifest = package / "Package.swift"
    text = manifest.read_text()
    # Build-tool plugins need tools version 5.6; `package:` access in the plugin's code, 5.9;
    # `.defaultIsolation`, 6.2 (which makes Swift 6 the default mode: a package that said less
    # than 6.0 is kept in Swift 5 mode).
    version = re.match(r"// swift-tools-version: ?(\d+)\.(\d+)(?:\.\d+)?", text)
    said = (int(version[1]), int(version[2])) if version else (5, 9)
    needed = (6, 2) if main_actor else (5, 9)
    if version and said < needed:
        text = f"// swift-tools-version:{needed[0]}.{needed[1]}" + text[version.end():]
    settings = ""
    if main_actor:
        settings = "\n  target.swiftSettings = (target.swiftSettings ?? []) + [.defaultIsolation(MainActor.self)]"
        if said < (6, 0):
            text += "\nif package.swiftLanguageModes == nil { package.swiftLanguageModes = [.v5] }\n"
    manifest.write_text(text + f"""
package.dependencies.append(.package(path: {json.dumps(str(ROOT))}))
for target in package.targets where {json.dumps(targets)}.contains(target.name) {{
  target.dependencies.append(.product(name: "Preferences", package: {json.dumps(ROOT.name)}))
  target.plugins = (target.plugins ?? []) + [.plugin(name: "PreferenceRegistryPlugin", package: {json.dumps(ROOT.name)})]{settings}
}}
""")


def port(originals, excluded):
    """Writes every source with @Preference on its candidates but the excluded; returns them."""
    ported = set()
    for path, source in originals.items():
        tree = check.PARSER.parse(source)
        inserts = []

        def walk(node):
            for child in node.children:
                if child.type == "property_declaration" and node.type in ("class_body", "enum_class_body"):
                    line = child.start_point[0] + 1
                    if check.candidate(child, node, source) and (str(path), line) not in excluded:
                        inserts.append(child.start_byte)
                        ported.add((str(path), line))
                walk(child)

        if not tree.root_node.has_error:
            walk(tree.root_node)
        text = source
        for offset in sorted(inserts, reverse=True):
            text = text[:offset] + b"@Preference " + text[offset:]
        path.write_bytes(b"import Preferences\n" + text if inserts else source)
    return ported


def main():
    arguments = sys.argv[1:]
    work = pathlib.Path("/tmp/real-world-build")
    main_actor = False
    while arguments[:1] in (["--work"], ["--main-actor"]):
        if arguments[0] == "--work":
            work, arguments = pathlib.Path(arguments[1]), arguments[2:]
        else:
            main_actor, arguments = True, arguments[1:]
    if len(arguments) != 2:
        sys.exit(__doc__)
    source, specs = pathlib.Path(arguments[0]).resolve(), arguments[1].split(",")
    targets = [spec.split("=")[0] for spec in specs]
    directories = {spec.split("=")[0]: spec.split("=")[1] if "=" in spec else f"Sources/{spec}" for spec in specs}
    package = work / source.name
    if package.exists():
        shutil.rmtree(package)
    shutil.copytree(source, package, symlinks=True, ignore=shutil.ignore_patterns(".build", ".git"))
    patch_manifest(package, targets, main_actor)
    build_command = ["swift", "build", "--package-path", str(package)] + [a for t in targets for a in ("--target", t)]
    if main_actor:
        baseline = subprocess.run(build_command, capture_output=True, text=True)
        if baseline.returncode != 0:
            errors = [m.group(0) for m in map(DIAGNOSTIC.match, (baseline.stdout + baseline.stderr).splitlines())
                      if m and m[3] == "error"]
            print(f"{source.name}: does not build with default main-actor isolation before porting "
                  f"({len(errors)} errors), skipped")
            for error in errors[:5]:
                print(f"  {error}")
            if not errors:
                print((baseline.stdout + baseline.stderr)[-2000:])
            return 2
        print(f"baseline: {source.name} builds with default main-actor isolation")
    originals = {
        path: path.read_bytes() for target in targets for path in sorted((package / directories[target]).rglob("*.swift"))
    }
    excluded = set()  # (path, line in the original source)
    for attempt in range(50):
        ported = port(originals, excluded)
        scan = subprocess.run(
            [str(SCANNER), "scan", "--module", "M", "--format", "json"] + [str(package / directories[t]) for t in targets],
            capture_output=True, text=True)
        rejected = [d for d in json.loads(scan.stdout)["diagnostics"] if d["severity"] == "error"]
        if rejected:
            for d in rejected:
                excluded.add((d["file"], d["line"] - 1))  # ported files start with one more line
                if not any(text in d["message"] for text in check.UNSTORABLE):
                    print(f"  scanner: {d['file']}:{d['line']}: {d['message']}")
            print(f"attempt {attempt}: {len(ported)} ported, {len(rejected)} rejected by the scanner")
            continue
        build = subprocess.run(build_command, capture_output=True, text=True)
        diagnostics = {m.groups() for m in map(DIAGNOSTIC.match, (build.stdout + build.stderr).splitlines()) if m}
        generated = sorted(d for d in diagnostics if d[0].endswith(".generated.swift"))
        errors = sorted(d for d in diagnostics if d[2] == "error" and not d[0].endswith(".generated.swift"))
        print(f"attempt {attempt}: {len(ported)} ported, build status {build.returncode}, "
              f"{len(errors)} errors in sources, {len(generated)} diagnostics in generated files")
        for path, line, severity, message in generated:
            print(f"  generated: {path}:{line}: {severity}: {message}")
        if generated:
            return 1
        if build.returncode == 0:
            print(f"{source.name}: {len(ported)} preferences built in {', '.join(targets)}")
            return 0
        explained = 0
        for path, line, _, message in errors:
            declaration = next(
                ((path, int(line) - 1 - back) for back in range(4) if (path, int(line) - 1 - back) in ported), None)
            print(f"  {'put back' if declaration else 'unexplained'}: {path}:{line}: {message}")
            if declaration and declaration not in excluded:
                excluded.add(declaration)
                explained += 1
        if not explained:
            print((build.stdout + build.stderr)[-4000:])
            return 1
    return 1


if __name__ == "__main__":
    sys.exit(main())
