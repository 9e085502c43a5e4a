#!/usr/bin/env python3
"""Checks the scanner against real Swift code, with an independent parser as the oracle.

For each ROOT (a checkout of any Swift project), in temporary copies:

1. Lexing: a `// @Preference` comment is appended to every .swift file, so that the scanner
   reads every file in full, and `preferences-scanner scan` must report nothing: code that
   compiles never gives the scanner a reason for a diagnostic.
2. Keys: `@Preference` is added to every member stored `var` whose initial value is a literal
   (or `nil`, `[]` with a simple type annotation), found with tree-sitter's Swift grammar. The
   scanner must find exactly these declarations, and derive for each the key tree-sitter's view
   of the enclosing types gives (`Outer.Inner.property`; an extension's extended type names
   the outer types). Files tree-sitter cannot parse are left out of this check. Diagnostics that mixing several modules into one scan makes legitimate
   (duplicate keys, two files of one name) are counted, not failed.

Files in DocC catalogs (`*.docc/`) are skipped, as SwiftPM does not compile them.

Needs `pip install tree-sitter "tree-sitter-language-pack<0.10"` and the scanner built
(`PREFERENCES_OPTIMIZED_SCANNER=1 swift build -c release --product preferences-scanner`; without the
variable it is built unoptimized, as users' builds run it). Exit status 1 when a check fails.

Usage: Scripts/real-world-check.py [--scanner PATH] [--any-default] ROOT...
"""
import json
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile

from tree_sitter_language_pack import get_parser

PARSER = get_parser("swift")
ANY_DEFAULT = False  # --any-default: every initial value, not only literals
SIMPLE_TYPES = {
    "Int", "Double", "Bool", "String", "Float", "Int8", "Int16", "Int32", "Int64", "UInt", "UInt8",
    "UInt16", "UInt32", "UInt64", "CGFloat", "TimeInterval", "[String]", "[Int]", "[Double]",
    "[Bool]", "String?", "Int?", "Double?", "Bool?", "[String: String]", "[String: Int]",
    "[String: Bool]", "Set<String>",
}
LITERALS = {"integer_literal", "real_literal", "boolean_literal", "line_string_literal"}
# Diagnostics that scanning several modules as one makes legitimate.
EXPECTED_ACROSS_MODULES = ("duplicate preference key", "first declared here", "is reported at",
                           "with another type, default or options",
                           # a module's own `Preference` type (iina's) collides with the wrapper
                           "has the name of the @Preference property wrapper",
                           "a nested type of that name hides the wrapper here")
# With --any-default, properties of types no preference can store (views, tasks, class instances)
# are ported too; the scanner must say so, naming the fix.
UNSTORABLE = ("does not conform to PreferenceValue, and the registry cannot add the conformance",
              "does not conform to PreferenceDictionaryKey",
              "but a stored dictionary is keyed by text",
              "cannot conform to PreferenceValue, so no store can hold it",
              # a generic type's property of its parameter's type: one key for every specialization
              "so two specializations would overwrite each other's values")
# Properties of structs whose Codable conformance the compiler synthesizes are ported too; the
# scanner must say that the conformance cannot include a preference.
IN_CODABLE = "conformance cannot include a preference"
# Properties of nonisolated Sendable types (swift-protobuf's messages) are ported too; Swift
# 6 rejects a property wrapper there, and the scanner must say so (a warning), naming the fix.
IN_NONISOLATED_SENDABLE = "rejects a property wrapper there"
# Properties of @Observable classes are ported too, without @ObservationIgnored; the macro would
# store them a second time, and the scanner must say so, naming the fix.
IN_OBSERVABLE = "is in an @Observable class"


def swift_files(root):
    return [p for p in sorted(root.rglob("*.swift")) if ".docc" not in p.as_posix() and p.is_file()]


def is_literal(node, source):
    if node.type in LITERALS:
        return not (node.type == "line_string_literal" and b"\\(" in source[node.start_byte:node.end_byte])
    if node.type == "prefix_expression":
        return is_literal(node.children[-1], source)
    if node.type == "array_literal":
        elements = node.named_children
        return bool(elements) and len({e.type for e in elements}) == 1 and all(is_literal(e, source) for e in elements)
    return False


def kind_of(declaration):
    kind = declaration.child_by_field_name("declaration_kind")
    return kind.text.decode() if kind is not None else ""


def candidate(declaration, body, source):
    """Whether a property declaration is a member stored var a user could make a preference."""
    if kind_of(body.parent) not in ("struct", "class", "actor", "enum"):
        return False
    kinds = [c.type for c in declaration.children]
    if "computed_property" in kinds or "willset_didset_block" in kinds or kinds.count("pattern") != 1 or "," in kinds:
        return False
    modifiers = " ".join(c.text.decode() for c in declaration.children if c.type == "modifiers")
    if "@" in modifiers or re.search(r"\b(lazy|weak|unowned|override|static|class|dynamic)\b", modifiers):
        return False
    binding = [c for c in declaration.children if c.type == "value_binding_pattern"]
    value = declaration.child_by_field_name("value")
    if not binding or binding[0].text.decode() != "var" or value is None:
        return False
    annotation = [c for c in declaration.children if c.type == "type_annotation"]
    if ANY_DEFAULT:
        pass
    elif annotation:
        type_text = annotation[0].text.decode().lstrip(":").strip()
        if type_text not in SIMPLE_TYPES:
            return False
        if value.text == b"nil":
            if not type_text.endswith("?"):
                return False
        elif not (value.type == "array_literal" and not value.named_children) and not is_literal(value, source):
            return False
    elif not is_literal(value, source):
        return False
    ancestor = body.parent.parent
    while ancestor is not None:  # a type local to a function is not supported: leave it out
        if ancestor.type in ("function_body", "computed_property", "lambda_literal", "statements"):
            return False
        ancestor = ancestor.parent
    return True


def port(path):
    """Adds @Preference to the candidates in one file; returns {line: expected key}."""
    source = path.read_bytes()
    tree = PARSER.parse(source)
    if tree.root_node.has_error:
        return None  # the oracle cannot read this file: leave it out
    inserts, expected = [], {}

    def walk(node, types):
        for child in node.children:
            inner = types
            if child.type in ("class_declaration", "protocol_declaration"):
                name = child.child_by_field_name("name")
                text = name.text.decode() if name is not None else "?"
                if kind_of(child) == "extension":
                    inner = re.sub(r"<[^<>]*>", "", text).split(".")
                else:
                    inner = types + [text]
            if child.type == "property_declaration" and node.type in ("class_body", "enum_class_body"):
                if candidate(child, node, source):
                    inserts.append(child.start_byte)
                    pattern = [c for c in child.children if c.type == "pattern"][0].text.decode().strip("`")
                    expected[child.start_point[0] + 1] = ".".join(inner + [pattern])
            walk(child, inner)

    walk(tree.root_node, [])
    for offset in sorted(inserts, reverse=True):
        source = source[:offset] + b"@Preference " + source[offset:]
    if inserts:
        path.write_bytes(source)
    return expected


def scan(scanner, root):
    result = subprocess.run(
        [scanner, "scan", "--module", "M", "--format", "json", str(root)], capture_output=True, text=True)
    if result.returncode not in (0, 1):
        sys.exit(f"scanner failed on {root}: {result.stderr}")
    return json.loads(result.stdout)


def copy(root, into):
    for file in swift_files(root):
        target = into / file.relative_to(root)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(file, target)


def check(scanner, root):
    failures = 0
    with tempfile.TemporaryDirectory() as work:
        lexed = pathlib.Path(work) / "lexed"
        copy(root, lexed)
        files = swift_files(lexed)
        lines = 0
        for file in files:
            data = file.read_bytes()
            lines += data.count(b"\n")
            file.write_bytes(data + b"\n// @Preference\n")
        diagnostics = scan(scanner, lexed)["diagnostics"]
        for d in diagnostics:
            # A module type named as the generated code's declarations collides with them
            # whether or not the module declares preferences (iina's `struct Preference`).
            collides = "so the two collide" in d["message"]
            print(f"  lexing: {d['file']}:{d['line']}:{d['column']}: {d['severity']}: {d['message']}"
                  + (" (expected)" if collides else ""))
            failures += 0 if collides else 1

        ported = pathlib.Path(work) / "ported"
        copy(root, ported)
        expected, unread = {}, 0
        for file in swift_files(ported):
            keys = port(file)
            if keys is None:
                unread += 1
                continue
            for line, key in keys.items():
                expected[(file.relative_to(ported).as_posix(), line)] = key
        output = scan(scanner, ported)
        found = {}
        for p in output["preferences"]:
            found[(pathlib.Path(p["file"]).relative_to(ported).as_posix(), p["line"])] = p["key"]
        for place in sorted(set(expected) | set(found)):
            if expected.get(place) != found.get(place):
                print(f"  key: {place[0]}:{place[1]}: tree-sitter {expected.get(place)}, scanner {found.get(place)}")
                failures += 1
        legitimate, unstorable, in_codable, in_nonisolated, in_observable = 0, 0, 0, 0, 0
        for d in output["diagnostics"]:
            if any(text in d["message"] for text in EXPECTED_ACROSS_MODULES):
                legitimate += 1
            elif IN_CODABLE in d["message"]:
                in_codable += 1
            elif IN_NONISOLATED_SENDABLE in d["message"]:
                in_nonisolated += 1
            elif IN_OBSERVABLE in d["message"]:
                in_observable += 1
            elif ANY_DEFAULT and any(text in d["message"] for text in UNSTORABLE):
                unstorable += 1
            else:
                print(f"  ported: {d['file']}:{d['line']}:{d['column']}: {d['severity']}: {d['message']}")
                failures += 1
    print(
        f"{root}: {len(files)} files, {lines} lines lexed; {len(expected)} declarations ported "
        f"({unread} files tree-sitter cannot parse left out), "
        f"{len(found)} found; {legitimate} cross-module diagnostics; "
        + (f"{unstorable} values reported unstorable; " if ANY_DEFAULT else "")
        + f"{in_codable} in structs with synthesized Codable; "
        + f"{in_nonisolated} in nonisolated Sendable types; "
        + f"{in_observable} in @Observable classes; "
        + f"{failures} failures")
    return failures


def main():
    arguments = sys.argv[1:]
    scanner = str(pathlib.Path(__file__).resolve().parent.parent / ".build/release/preferences-scanner")
    global ANY_DEFAULT
    while arguments[:1] in (["--scanner"], ["--any-default"]):  # in either order
        if arguments[0] == "--scanner":
            scanner, arguments = arguments[1], arguments[2:]
        else:
            ANY_DEFAULT, arguments = True, arguments[1:]
    if not arguments:
        sys.exit(__doc__)
    failures = sum(check(scanner, pathlib.Path(root)) for root in arguments)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
