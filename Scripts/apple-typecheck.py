#!/usr/bin/env python3
"""Type-checks the code that only Apple platforms compile, on Linux, as each Apple platform
compiles it.

The Linux toolchain cannot build for Apple platforms, and most of the project's Apple-only code
sits in files or `#if` branches that a Linux build never reads. This script:

1. copies each checked target's sources to a scratch folder and rewrites their `#if`
   conditions into what one platform's build sees (`os(iOS)`, `canImport(UIKit)`,
   `targetEnvironment(macCatalyst)`, … become `true` or `false`; `compiler(…)`, `swift(…)`,
   `hasFeature(…)` and flags stay for the compiler), and their `import Foundation` /
   `CoreFoundation` / `Dispatch` into the overlays below;
2. type-checks them in Swift 6 mode (complete strict concurrency) against declarations of the
   Apple API the project uses (`Scripts/AppleSDK/*.swift`: `Darwin`, `os`, `SwiftUI`, `UIKit`,
   `AppKit`, `WatchKit`, `XcodeProjectPlugin`, and overlays of Foundation, CoreFoundation and
   Dispatch), each written from Apple's documentation page, which it cites, in the strictest
   form any supported Xcode has;
3. fails when a line only Apple compiles refers to a declaration of the Linux system modules
   underneath (Foundation, Dispatch, Glibc, …) that `Scripts/AppleSDK/shared-with-linux.txt`
   does not list: every Apple API the code uses is declared, or listed as one whose Linux
   declaration matches Apple's, so the declarations cannot silently fall behind the code.

Limits (MAINTAINERS.md, "Apple-only code"): availability (`@available`, deployment targets) is
not checked; Linux's Foundation, Dispatch and libc sit underneath, so shared code is checked
against their annotations, not Apple's; toll-free bridging casts (`as CFString`) are checked as
forced casts; the runtime's generated registry code is not part of the runtime.

Usage: Scripts/apple-typecheck.py [--platform NAME]… [--check NAME]… [--keep DIR] [--list]
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SDK = ROOT / "Scripts" / "AppleSDK"

# What `canImport` answers on each platform, for every module a condition in this project names.
# A condition naming a module missing here stops the script: add the module to every platform.
COMMON = {"Darwin", "Foundation", "CoreFoundation", "Dispatch", "os", "ObjectiveC", "Observation",
          "Synchronization", "SwiftUI", "Combine"}
PLATFORMS = {
    "iOS": dict(os="iOS", env=set(), imports=COMMON | {"UIKit", "WidgetKit"}),
    "macOS": dict(os="macOS", env=set(), imports=COMMON | {"AppKit", "WidgetKit"}),
    "tvOS": dict(os="tvOS", env=set(), imports=COMMON | {"UIKit"}),
    "watchOS": dict(os="watchOS", env=set(), imports=COMMON | {"UIKit", "WatchKit", "WidgetKit"}),
    "visionOS": dict(os="visionOS", env=set(), imports=COMMON | {"UIKit", "WidgetKit"}),
    "macCatalyst": dict(os="iOS", env={"macCatalyst"}, imports=COMMON | {"UIKit", "WidgetKit"}),
}
LINUX = dict(os="Linux", env=set(),
             imports={"Glibc", "Foundation", "FoundationEssentials", "Dispatch", "Observation",
                      "Synchronization"})
KNOWN_MODULES = set().union(*(p["imports"] for p in PLATFORMS.values()), LINUX["imports"],
                            {"Musl", "Bionic", "XcodeProjectPlugin", "WinSDK", "Android"})
KNOWN_OS = {"iOS", "macOS", "tvOS", "watchOS", "visionOS", "Linux", "Android", "Windows",
            "FreeBSD", "OpenBSD", "WASI"}
# Modules the overlays stand in for, by the name code imports.
OVERLAYS = {"Foundation": "Foundation_Apple", "CoreFoundation": "CoreFoundation_Apple",
            "Dispatch": "Dispatch_Apple"}
# Linux system modules: a declaration of theirs used by Apple-only code must be listed in
# shared-with-linux.txt.
LINUX_SYSTEM = {"Foundation", "FoundationEssentials", "FoundationInternationalization",
                "FoundationNetworking", "FoundationXML", "Dispatch", "Glibc", "SwiftGlibc",
                "CoreFoundation", "_FoundationCShims", "_FoundationCollections", "Musl"}
# Stub modules, in build order (each may import the ones before it), and where they exist.
STUBS = [
    ("Darwin", None), ("CoreFoundation_Apple", None), ("Dispatch_Apple", None),
    ("Foundation_Apple", None), ("os", None), ("SwiftUI", None),
    ("UIKit", {"iOS", "tvOS", "watchOS", "visionOS", "macCatalyst"}), ("AppKit", {"macOS"}),
    ("WatchKit", {"watchOS"}), ("WidgetKit", {"iOS", "macOS", "watchOS", "visionOS", "macCatalyst"}),
]

DIRECTIVE = re.compile(r"^(\s*#(?:if|elseif))(\s+)(.*)$")
ATOM = re.compile(r"\b(os|canImport|targetEnvironment|arch|_runtime|_endian|_pointerBitWidth)\(([^)]*)\)")
IMPORT = re.compile(
    r"^(\s*(?:@\w+\s+)*(?:(?:public|package|internal|fileprivate|private)\s+)?import\s+)"
    r"(Foundation|CoreFoundation|Dispatch)\s*(//.*)?$")
KIND_IMPORT = re.compile(r"^\s*(?:@\w+\s+)*import\s+(?:struct|class|enum|protocol|typealias|func|var|let)\s+"
                         r"(Foundation|CoreFoundation|Dispatch)\.")


class Failure(Exception):
    pass


def atom_value(kind, argument, platform, path, line):
    argument = argument.strip()
    if kind == "os":
        if argument not in KNOWN_OS:
            raise Failure(f"{path}:{line}: unknown platform os({argument})")
        return argument == platform["os"]
    if kind == "canImport":
        module = argument.split(",")[0].strip()
        if module not in KNOWN_MODULES:
            raise Failure(f"{path}:{line}: canImport({module}) names a module the platform table of "
                          f"Scripts/apple-typecheck.py does not know; add it to every platform")
        return module in platform["imports"]
    if kind == "targetEnvironment":
        return argument in platform["env"]
    if kind == "arch":
        return argument == ("arm64" if platform is not LINUX else "x86_64")
    if kind == "_runtime":
        return (argument == "_ObjC") == (platform is not LINUX)
    if kind == "_endian":
        return argument == "little"
    if kind == "_pointerBitWidth":
        return argument == "_64"
    raise Failure(f"{path}:{line}: unknown condition {kind}({argument})")


def rewrite_condition(condition, platform, path, line):
    return ATOM.sub(lambda m: "true" if atom_value(m.group(1), m.group(2), platform, path, line)
                    else "false", condition)


def evaluate(condition, platform, path, line):
    """The condition's value for line classification: platform atoms exactly, `compiler(>=…)` and
    `swift(>=…)` against a Swift 6 compiler, `hasFeature`/`hasAttribute` true, flags false."""
    text = re.sub(r"//.*$", "", condition)
    text = re.sub(r"/\*.*?\*/", "", text)
    text = rewrite_condition(text, platform, path, line)
    text = re.sub(r"\b(compiler|swift)\(\s*(>=|<)\s*([0-9.]+)\s*\)",
                  lambda m: str((tuple(int(p) for p in m.group(3).split(".")) <= (6, 0))
                                == (m.group(2) == ">=")).lower(), text)
    text = re.sub(r"\b(hasFeature|hasAttribute)\([^)]*\)", "true", text)
    text = text.replace("&&", " and ").replace("||", " or ")
    text = re.sub(r"!(?!=)", " not ", text)
    text = re.sub(r"\btrue\b", "True", text)
    text = re.sub(r"\bfalse\b", "False", text)
    text = re.sub(r"\b(?!True\b|False\b|and\b|or\b|not\b)[A-Za-z_][A-Za-z0-9_]*\b", "False", text)
    try:
        return bool(eval(text, {"__builtins__": {}}))
    except SyntaxError as error:
        raise Failure(f"{path}:{line}: cannot read the condition '{condition}': {error}")


def active_lines(lines, platform, path):
    """For each line, whether `platform`'s build compiles it."""
    stack = []  # (parent active, taken, this branch active)
    result = []
    for number, text in enumerate(lines, 1):
        stripped = text.strip()
        parent = stack[-1][2] if stack else True
        if stripped.startswith("#if ") or stripped.startswith("#if("):
            value = evaluate(stripped[3:], platform, path, number)
            stack.append((parent, value, parent and value))
            result.append(parent)
        elif stripped.startswith("#elseif"):
            outer, taken, _ = stack.pop()
            value = not taken and evaluate(stripped[7:], platform, path, number)
            stack.append((outer, taken or value, outer and value))
            result.append(outer)
        elif stripped.startswith("#else"):
            outer, taken, _ = stack.pop()
            stack.append((outer, True, outer and not taken))
            result.append(outer)
        elif stripped.startswith("#endif"):
            outer, _, _ = stack.pop()
            result.append(outer)
        else:
            result.append(parent)
    if stack:
        raise Failure(f"{path}: unterminated #if")
    return result


def rewrite(source, platform, path):
    out = []
    for number, text in enumerate(source.splitlines(), 1):
        match = DIRECTIVE.match(text)
        if match:
            text = match.group(1) + match.group(2) + rewrite_condition(match.group(3), platform, path, number)
        elif KIND_IMPORT.match(text):
            raise Failure(f"{path}:{number}: a scoped import of an overlaid module; import the module")
        else:
            imported = IMPORT.match(text)
            if imported:
                text = imported.group(1) + OVERLAYS[imported.group(2)]
            # Toll-free bridging, which declarations cannot express: checked as a forced cast.
            text = re.sub(r"\bas (CF[A-Z][A-Za-z]*)\b", r"as! \1", text)
        out.append(text)
    return "\n".join(out) + "\n"


def run(command, log):
    process = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    log.append((command, process.returncode, process.stderr))
    return process


def build_stubs(platform_name, work, swiftc):
    out = work / "sdk" / platform_name
    if out.exists():
        return out
    out.mkdir(parents=True)
    flags = ["-D", "APPLE_" + platform_name.upper()]
    if platform_name == "macCatalyst":
        flags += ["-D", "APPLE_IOS"]
    for module, platforms in STUBS:
        if platforms is not None and platform_name not in platforms:
            continue
        source = SDK / f"{module}.swift"
        command = [swiftc, "-emit-module", "-parse-as-library", "-swift-version", "6",
                   "-module-name", module, "-I", str(out), "-emit-module-path",
                   str(out / f"{module}.swiftmodule"), *flags, str(source)]
        process = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        if process.returncode != 0:
            raise Failure(f"the declarations of {module} do not compile for {platform_name}:\n"
                          + process.stderr)
    # XcodeProjectPlugin builds on PackagePlugin, which only the plugin check loads.
    return out


def swift_files(directory):
    return sorted(p for p in (ROOT / directory).rglob("*.swift") if p.is_file())


def generated_files(target):
    """The registry the build plugin generated for `target` in this checkout's debug build."""
    # SwiftPM names the folder after the package's identity: the checkout's folder name.
    bases = sorted((ROOT / ".build" / "plugins" / "outputs").glob(f"*/{target}/destination"),
                   key=lambda p: p.stat().st_mtime)
    base = bases[-1] if bases else ROOT / ".build" / "plugins" / "outputs" / "<package>" / target
    files = sorted(p for p in base.rglob("*.swift") if not p.name.endswith(".tmp")) if bases else []
    if not files:
        raise Failure(f"no generated registry for {target} under {base}: run `swift build --build-tests` first")
    return files


class Check:
    """One compilation: files of the project (rewritten) plus files taken as they are."""

    def __init__(self, name, module, files, platforms, extra_files=(), flags=(), emits=False,
                 depends=None, plugin=None, library=True):
        self.name, self.module, self.files, self.platforms = name, module, files, platforms
        self.extra_files, self.flags = list(extra_files), list(flags)
        self.emits, self.depends, self.plugin, self.library = emits, depends, plugin, library


def tools_version():
    first = (ROOT / "Package.swift").read_text().splitlines()[0]
    match = re.search(r"swift-tools-version:\s*([0-9.]+)", first)
    if not match:
        raise Failure("Package.swift does not start with a swift-tools-version line")
    return match.group(1)


def plugin_api():
    toolchain = Path(shutil.which("swiftc")).resolve().parent.parent
    api = toolchain / "lib" / "swift" / "pm" / "PluginAPI"
    if not (api / "PackagePlugin.swiftmodule").exists():
        raise Failure(f"PackagePlugin not found under {api}")
    return api


def checks():
    runtime = [p.relative_to(ROOT) for p in swift_files("Sources/Preferences")]
    result = [Check("runtime", "Preferences", runtime, list(PLATFORMS), emits=True,
                    flags=["-enable-testing"])]
    for plugin in ("PreferenceRegistryPlugin", "PreferencesCommand"):
        # Every file of the plugin's folder, the shared ones (links) among them.
        files = sorted(Path(f"Plugins/{plugin}").glob("*.swift"))
        # SwiftPM builds plugins for the host (macOS); Xcode adds XcodeProjectPlugin.
        result.append(Check(f"plugin {plugin} (SwiftPM)", plugin, files, ["macOS"], plugin="SwiftPM"))
        result.append(Check(f"plugin {plugin} (Xcode)", plugin, files, ["macOS"], plugin="Xcode"))
    helper = [p.relative_to(ROOT) for p in swift_files("Sources/PreferencesTestHelper")]
    tests = [p.relative_to(ROOT) for p in swift_files("Tests/PreferencesTests")]
    result.append(Check("test helper", "PreferencesTestHelper", helper, ["macOS"], depends="runtime",
                        extra_files=["generated:PreferencesTestHelper"], library=False))
    result.append(Check("tests", "PreferencesTests", tests, ["macOS"], depends="runtime",
                        extra_files=["generated:PreferencesTests"]))
    return result


def classify(texts, platform_name):
    """Apple-only lines of each file: compiled on `platform_name`, not on Linux."""
    only = {}
    for path, text in texts.items():
        lines = text.splitlines()
        apple = active_lines(lines, PLATFORMS[platform_name], path)
        linux = active_lines(lines, LINUX, path)
        only[str(path)] = {n for n, (a, l) in enumerate(zip(apple, linux), 1) if a and not l}
    return only


DECL = re.compile(r'decl="([A-Za-z_][A-Za-z0-9_]*)\.\(file\)\.([^"@]*)(?:@[^"]*)?"')
LOCATION = re.compile(r"location=([^ ]+?):(\d+):(\d+) ")


def normalize(symbol):
    symbol = re.sub(r" \[with .*$", "", symbol)
    return symbol.replace(" extension.", ".").strip()


def read_shared_list():
    listed = {}
    for number, line in enumerate((SDK / "shared-with-linux.txt").read_text().splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        parts = line.split()
        if len(parts) < 2 or not parts[1].startswith("https://"):
            raise Failure(f"Scripts/AppleSDK/shared-with-linux.txt:{number}: write a symbol and the "
                          f"Apple documentation page that shows its declaration")
        listed[parts[0]] = parts[1]
    return listed


class Result:
    def __init__(self):
        self.failures = []
        self.unlisted = {}
        self.used_listed = set()
        self.checks = 0
        self.apple_only_lines = 0

    @property
    def ok(self):
        return not self.failures and not self.unlisted


def compile_stub(swiftc, module, sdk, extra):
    stub = sdk / f"{module}.swiftmodule"
    if stub.exists():
        return
    process = subprocess.run(
        [swiftc, "-emit-module", "-parse-as-library", "-swift-version", "6", "-module-name", module,
         "-I", str(sdk), *extra, "-emit-module-path", str(stub), str(SDK / f"{module}.swift")],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if process.returncode != 0:
        raise Failure(f"the declarations of {module} do not compile:\n" + process.stderr)


def typecheck(swiftc, work, platforms, only_checks=None, plant=None, sdk_root=None):
    """Type-checks every check of `platforms`; `plant` = (path, old, new) edits one source first."""
    listed = read_shared_list()
    result = Result()
    planted = False
    jobs = str(os.cpu_count() or 2)
    for platform_name in platforms:
        sdk = build_stubs(platform_name, sdk_root or work, swiftc)
        platform = PLATFORMS[platform_name]
        emitted = {}
        all_checks = checks()
        for check in all_checks:
            if platform_name not in check.platforms:
                continue
            wanted = only_checks is None or any(check.name.startswith(c) for c in only_checks)
            dependency_of_wanted = only_checks is not None and any(
                c.depends == check.name.split()[0] and any(c.name.startswith(o) for o in only_checks)
                for c in all_checks)
            if not (wanted or dependency_of_wanted):
                continue
            result.checks += 1
            folder = work / platform_name / re.sub(r"[^A-Za-z0-9]+", "-", check.name)
            folder.mkdir(parents=True, exist_ok=True)
            sources, texts = [], {}
            for path in check.files:
                text = (ROOT / path).read_text()
                if plant and Path(plant[0]) == path:
                    if plant[1] not in text:
                        raise Failure(f"the planted error's site is gone from {path}: update the self-test")
                    text = text.replace(plant[1], plant[2], 1)
                    planted = True
                texts[str(path)] = text
                target = folder / path
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_text(rewrite(text, platform, path))
                sources.append(target)
            for extra in check.extra_files:
                for generated in generated_files(extra.split(":", 1)[1]):
                    target = folder / "generated" / generated.name
                    target.parent.mkdir(parents=True, exist_ok=True)
                    target.write_text(rewrite(generated.read_text(), platform, generated.name))
                    sources.append(target)
            includes = ["-I", str(sdk)]
            flags = list(check.flags)
            if check.plugin is not None:
                # SwiftPM builds a plugin without XcodeProjectPlugin on the search path; Xcode with it.
                api = plugin_api()
                includes += ["-I", str(api)]
                # The package's tools version decides which PackagePlugin API is available.
                flags = ["-package-description-version", tools_version()]
                if check.plugin == "Xcode":
                    compile_stub(swiftc, "XcodeProjectPlugin", sdk, ["-I", str(api)] + flags)
                for source in sources:
                    source.write_text(source.read_text().replace(
                        "canImport(XcodeProjectPlugin)", "true" if check.plugin == "Xcode" else "false"))
            if check.depends:
                if check.depends not in emitted:
                    result.failures.append(f"== {check.name} as {platform_name} builds it: not checked, "
                                           f"because the {check.depends} did not type-check")
                    continue
                includes += ["-I", str(emitted[check.depends])]
            # `-dump-ast` type-checks every file and prints their trees (to standard error, between
            # the diagnostics, which the LLVM style keeps to one line each).
            command = [swiftc, "-dump-ast", "-j", jobs, "-diagnostic-style=llvm", "-swift-version", "6",
                       "-module-name", check.module, *(["-parse-as-library"] if check.library else []),
                       *includes, *flags, *map(str, sources)]
            process = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            # A diagnostic may follow a tree's last line without a line break.
            errors = [m.group(1) for m in re.finditer(r'([^\s()"]+\.swift:\d+:\d+: error: .*)', process.stderr)]
            if process.returncode != 0 or errors:
                if not errors:
                    errors = [l for l in process.stderr.splitlines()
                              if re.match(r"^(<unknown>:0: )?error: ", l)][:20]
                result.failures.append(f"== {check.name} as {platform_name} builds it: "
                                       f"{len(errors)} error(s)\n" + to_original("\n".join(errors), folder))
                continue
            needed = any(c.depends == check.name.split()[0] and platform_name in c.platforms
                         and (only_checks is None or any(c.name.startswith(o) for o in only_checks))
                         for c in all_checks)
            if check.emits and needed:
                module_dir = folder / "module"
                module_dir.mkdir(exist_ok=True)
                emit = subprocess.run(
                    [swiftc, "-emit-module", "-j", jobs, "-swift-version", "6", "-module-name", check.module,
                     "-parse-as-library", *includes, *flags, "-emit-module-path",
                     str(module_dir / f"{check.module}.swiftmodule"), *map(str, sources)],
                    stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                if emit.returncode != 0:
                    result.failures.append(f"== {check.name}: emitting the module failed\n" + emit.stderr)
                emitted[check.name.split()[0]] = module_dir
            # References from Apple-only lines to Linux's system modules.
            only = classify(texts, platform_name)
            result.apple_only_lines += sum(len(v) for v in only.values())
            for line in process.stderr.splitlines():
                decl = DECL.search(line)
                if not decl or decl.group(1) not in LINUX_SYSTEM:
                    continue
                location = LOCATION.search(line)
                if not location:
                    continue
                try:
                    relative = str(Path(location.group(1)).relative_to(folder))
                except ValueError:
                    continue
                number = int(location.group(2))
                if number not in only.get(relative, ()):
                    continue
                symbol = normalize(decl.group(2))
                if symbol in listed:
                    result.used_listed.add(symbol)
                    continue
                result.unlisted.setdefault(symbol, set()).add(f"{relative}:{number} ({platform_name})")
    if plant and not planted:
        raise Failure(f"the planted error's file {plant[0]} is not in any check")
    return result


# Errors the check must catch (the self-test plants each and expects the message): the two
# `Sendable` errors Apple's compiler reported, a Darwin-only constant the declarations lack, and
# an Apple API used without being declared or listed.
PLANTS = [
    ("Sources/Preferences/Stores/UserDefaults/FoundationDefaultsDomain.swift",
     "nonisolated(unsafe) let defaults: UserDefaults", "let defaults: UserDefaults",
     "has non-Sendable type 'UserDefaults'"),
    ("Sources/Preferences/Stores/UserDefaults/FoundationDefaultsDomain.swift",
     "private let domainName: String",
     "private let domainName: String\n    private let applicationID: CFString = kCFPreferencesCurrentApplication",
     "has non-Sendable type 'CFString'"),
    ("Sources/Preferences/Stores/PropertyListFile.swift",
     "if fcntl(descriptor, F_FULLFSYNC) == 0 { return true }",
     "if fcntl(descriptor, F_FULLFSYNC) == 0 || fcntl(descriptor, F_NOCACHE, 1) == 0 { return true }",
     "cannot find 'F_NOCACHE' in scope"),
    ("Sources/Preferences/Stores/UserDefaults/FoundationDefaultsDomain.swift",
     "func flush() throws {}", "func flush() throws { _ = defaults.synchronize() }",
     "UserDefaults.synchronize()"),
]


def self_test(swiftc, work):
    """Plants each error of PLANTS and checks that the type-check fails, naming it."""
    failed = False
    for number, (path, old, new, expected) in enumerate(PLANTS):
        folder = work / f"plant-{number}"
        folder.mkdir(parents=True)
        result = typecheck(swiftc, folder, ["macOS"], ["runtime"], (Path(path), old, new), sdk_root=work)
        report = "\n".join(result.failures) + "\n" + "\n".join(result.unlisted)
        if result.ok or expected not in report:
            print(f"error: self-test: planting '{new.strip()}' in {path} did not fail the check with "
                  f"'{expected}':\n{report}", file=sys.stderr)
            failed = True
        else:
            print(f"self-test: caught '{expected}'")
    return not failed


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--platform", action="append", choices=list(PLATFORMS))
    parser.add_argument("--check", action="append", help="runtime, plugin, test helper, tests")
    parser.add_argument("--keep", help="keep the rewritten sources and modules in this folder")
    parser.add_argument("--list", action="store_true", help="print the Linux declarations Apple-only lines use")
    parser.add_argument("--self-test", action="store_true",
                        help="plant known errors and check that each fails the type-check")
    options = parser.parse_args()
    swiftc = shutil.which("swiftc")
    work = Path(options.keep) if options.keep else Path(tempfile.mkdtemp(prefix="apple-typecheck-"))
    if options.keep and work.exists():
        shutil.rmtree(work)
    work.mkdir(parents=True, exist_ok=True)
    platforms = options.platform or list(PLATFORMS)
    try:
        if not swiftc:
            raise Failure("swiftc not found")
        if options.self_test:
            return 0 if self_test(swiftc, work) else 1
        result = typecheck(swiftc, work, platforms, options.check)
        listed = read_shared_list()
    except Failure as failure:
        print(f"error: {failure}", file=sys.stderr)
        return 1
    finally:
        if not options.keep:
            shutil.rmtree(work, ignore_errors=True)
    if options.list:
        for symbol in sorted(result.used_listed | set(result.unlisted)):
            print(symbol)
    for failure in result.failures:
        print(failure, file=sys.stderr)
    if result.unlisted:
        print("error: Apple-only code uses declarations of Linux's Foundation, Dispatch or libc that "
              "Scripts/AppleSDK does not cover. Declare each in the stub module Apple ships it in (from "
              "its Apple documentation page), or, if its Linux declaration is exactly Apple's, list it "
              "with that page in Scripts/AppleSDK/shared-with-linux.txt:", file=sys.stderr)
        for symbol in sorted(result.unlisted):
            print(f"  {symbol}: {', '.join(sorted(result.unlisted[symbol])[:3])}", file=sys.stderr)
    complete = not options.platform and not options.check
    stale = set(listed) - result.used_listed if complete else set()
    if stale:
        print("error: Scripts/AppleSDK/shared-with-linux.txt lists declarations no Apple-only line uses "
              "(remove them): " + ", ".join(sorted(stale)), file=sys.stderr)
    if not result.ok or stale:
        return 1
    print(f"Apple type-check: {result.checks} compilations over {', '.join(platforms)}; "
          f"{result.apple_only_lines} Apple-only lines, every declaration they use covered.")
    return 0


def to_original(text, folder):
    """Diagnostics name the project's files, not the scratch copies."""
    return text.replace(str(folder) + "/", "")


if __name__ == "__main__":
    sys.exit(main())
