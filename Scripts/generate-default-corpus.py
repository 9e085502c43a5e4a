#!/usr/bin/env python3
"""Writes IntegrationTest/Sources/DefaultCorpus/DefaultCorpus.swift: default forms, each declared
once as a `@Preference` and once as a case of a `PreferenceKeys` enum, with a check that reads each
back through the wrapper and through its typed key. The integration package compiles the file in
every setting users build with (Swift 6, Swift 6 with MainActor isolation by default, Swift 5, and
Xcode 26's template), and its programs run the check.

With --check, fails when the checked-in file differs from what this script writes.
"""
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
OUTPUT = ROOT / "IntegrationTest/Sources/MainActorApp/DefaultCorpus.swift"

# (declaration after `var name`, enum case's default or None to reuse the declaration's
# expression, expected value or None to reuse the expression; "stable" for a default that
# differs at each evaluation, read back only for consistency).
# WRAPPER_ONLY: a default that names a member isolated to the main actor in a target whose default
# isolation is MainActor, which an enum's (nonisolated) `defaultValue` cannot read.
# A declaration that writes a type (`: T = .init(…)`) gives the enum form an expression that
# names it, since an enum case's default has no contextual type.
WRAPPER_ONLY = "wrapper only"

FORMS = [
    # Literals.
    ("= 42", None, None),
    ("= -7", None, None),
    ("= 1_000_000", None, None),
    ("= 0x1F", None, None),
    ("= 0b1010", None, None),
    ("= 0o17", None, None),
    ("= 2.5", None, None),
    ("= 1e3", None, None),
    ("= 1.5e-3", None, None),
    ("= true", None, None),
    ("= false", None, None),
    ('= "plain"', None, None),
    ('= ""', None, None),
    ('= "a \\(1 + 1) b"', None, None),
    ('= #"raw \\n"#', None, None),
    ('= "tab\\tand\\nnewline"', None, None),
    ('= "caf\\u{E9}"', None, None),
    # Literals with a written type.
    (": Double = 1", "Double(1)", None),
    (": Float = 2", "Float(2)", None),
    (": CGFloat = 3", "CGFloat(3)", None),
    (": UInt8 = 255", "UInt8(255)", None),
    (": Int64 = -1", "Int64(-1)", None),
    (": Int16 = 300", "Int16(300)", None),
    (": UInt32 = 42", "UInt32(42)", None),
    (': Character = "y"', 'Character("y")', None),
    (': Unicode.Scalar = "z"', 'Unicode.Scalar(UInt8(122))', 'Unicode.Scalar(UInt8(122))'),
    (": [Double] = [1, 2]", "[Double(1), 2]", "[1.0, 2.0]"),
    (": Set<Int> = [1, 2]", "Set([1, 2])", "Set([1, 2])"),
    (': [String: Double] = ["a": 1]', '["a": Double(1)]', '["a": 1.0]'),
    (': [String: [String]] = ["k": ["v"]]', None, None),
    (": [String] = []", "[String]()", "[String]()"),
    (": [String: Int] = [:]", "[String: Int]()", "[String: Int]()"),
    (": Set<String> = []", "Set<String>()", "Set<String>()"),
    (": ClosedRange<Double> = 0...1", "0.0...1.0", "0.0...1.0"),
    (": Range<Int> = 0..<10", None, None),
    (": Double = .pi", "Double.pi", "Double.pi"),
    (": Duration = .seconds(2)", "Duration.seconds(2)", "Duration.seconds(2)"),
    (": String.Encoding = .ascii", "String.Encoding.ascii", "String.Encoding.ascii"),
    # Collections of literals.
    ("= [1, 2, 3]", None, None),
    ('= ["a", "b"]', None, None),
    ("= [1.5, 2]", None, None),
    ("= [true, false]", None, None),
    ('= ["a": 1, "b": 2]', None, None),
    ('= ["a": [1, 2]]', None, None),
    ("= [[1, 2], [3]]", None, None),
    ('= [1: "one"]', None, None),
    ("= 1...5", None, None),
    ("= 0..<3", None, None),
    ("= 0.0...1.0", None, None),
    # Foundation's values: static members and initializers of another module's types.
    ("= Date.now", None, "stable"),
    ("= Date()", None, "stable"),
    ("= Date.distantPast", None, None),
    ("= Date.distantFuture", None, None),
    ("= Date(timeIntervalSince1970: 0)", None, None),
    ("= Date(timeIntervalSinceReferenceDate: 60)", None, None),
    ("= Date(timeIntervalSince1970: 0).addingTimeInterval(3600)", None, None),
    ('= URL(fileURLWithPath: "/tmp")', None, None),
    ('= URL(string: "https://example.com")!', None, None),
    ('= URL(fileURLWithPath: "/tmp").appendingPathComponent("x")', None, None),
    ('= URL(string: "https://example.com/a")', None, None),
    ("= Locale.current", None, "Locale(identifier: Locale.current.identifier)"),  # stored as its identifier
    ('= Locale(identifier: "fr_FR")', None, None),
    ("= TimeZone.current", None, None),
    ('= TimeZone(identifier: "Europe/Paris")!', None, None),
    ("= TimeZone(secondsFromGMT: 3600)!", None, None),
    ("= UUID()", None, "stable"),
    ('= UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!', None, None),
    ("= Data()", None, None),
    ("= Data([1, 2, 3])", None, None),
    ('= Data("hi".utf8)', None, None),
    ("= Data(repeating: 0, count: 2)", None, None),
    ('= Data(base64Encoded: "aGk=")!', None, None),
    ('= Decimal(string: "19.99")!', None, None),
    ("= Decimal(5)", None, None),
    ("= CGPoint(x: 1, y: 2)", None, None),
    ("= CGPoint.zero", None, None),
    ("= NSPoint(x: 0.5, y: 0.8)", None, None),
    ("= NSSize(width: 3, height: 4)", None, None),
    ("= CGSize(width: 800, height: 600)", None, None),
    ("= CGRect(x: 0, y: 0, width: 10, height: 20)", None, None),
    ("= NSRect(x: 1, y: 1, width: 2, height: 2)", None, None),
    ("= CGSize.zero", None, None),
    (": CGSize = .init(width: 1, height: 1)", "CGSize.init(width: 1, height: 1)", "CGSize(width: 1, height: 1)"),
    (": NSPoint = .zero", "NSPoint.zero", "NSPoint.zero"),
    ("= Duration.seconds(30)", None, None),
    ("= Duration.milliseconds(1500)", None, None),
    ("= String.Encoding.utf16", None, None),
    ('= Character("x")', None, None),
    ("= Unicode.Scalar(UInt8(65))", None, None),
    ('= String(format: "%02d", 7)', None, None),
    ('= "a b".replacingOccurrences(of: " ", with: "-")', None, None),
    ("= ProcessInfo.processInfo.processorCount", None, None),
    ("= pow(2.0, 10.0)", None, None),
    # The standard library's members, functions and generic initializers.
    ("= Int.max", None, None),
    ("= Int.min", None, None),
    ("= UInt64.max", None, None),
    ("= Int8.min", None, None),
    ("= Double.pi", None, None),
    ("= Double.greatestFiniteMagnitude", None, None),
    ("= Float.pi", None, None),
    ("= CGFloat.pi", None, None),
    ("= -Double.pi", None, None),
    ("= Int.bitWidth", None, None),
    ("= Int32.max", None, None),
    ("= Int16(-300)", None, None),
    ("= Float(0.5)", None, None),
    ("= CGFloat(12.5)", None, None),
    ("= Double(3)", None, None),
    ("= Int(3.9)", None, None),
    ("= max(2, 3)", None, None),
    ("= min(1.5, 2.5)", None, None),
    ("= abs(-4)", None, None),
    ("= (2.0).squareRoot()", None, None),
    ('= String(repeating: "a", count: 3)', None, None),
    ("= String(42)", None, None),
    ('= Int("42")!', None, None),
    ('= Int("x") ?? 7', None, None),
    ('= Double("2.5") ?? 0', None, None),
    ("= Array(1...3)", None, None),
    ('= Array(repeating: "x", count: 2)', None, None),
    ("= Array<Int>()", None, None),
    ("= [Int]()", None, None),
    ("= Set<String>()", None, None),
    ("= [String: Int]()", None, None),
    ("= Dictionary<String, Double>()", None, None),
    ("= Set([1, 2])", None, None),
    ('= Dictionary(uniqueKeysWithValues: zip(["a", "b"], [1, 2]))', None, None),
    ("= [1, 2, 3].map { $0 * 2 }", None, None),
    ("= (1...4).map { $0 * $0 }", None, None),
    ("= [3, 1, 2].sorted()", None, None),
    ("= [1, 2, 3].filter { $0 > 1 }", None, None),
    ('= ["b", "a"].sorted().joined(separator: ",")', None, None),
    ("= [1, 2, 3].reduce(0, +)", None, None),
    ("= [1, 2, 3].map(\\.description)", None, None),
    ('= "Hello".lowercased()', None, None),
    ('= "hello".hasPrefix("he")', None, None),
    ('= "abc".count', None, None),
    ('= String("abc".reversed())', None, None),
    ('= "x" + "y"', None, None),
    ("= 1 + 2", None, None),
    ("= 2 * 3.5", None, None),
    ("= 10 / 4", None, None),
    ("= 7 % 3", None, None),
    ("= 1 << 4", None, None),
    ("= !true", None, None),
    ("= 1 < 2", None, None),
    ('= true ? "a" : "b"', None, None),
    ("= corpusCount() > 2 ? 1.5 : 2.5", None, None),
    ("= { 5 }()", None, None),
    ('= { () -> String in "made" }()', None, None),
    ("= Optional(3)", None, None),
    # Optionals.
    (": Int? = nil", "Int?.none", "Int?.none"),
    (': String? = "x"', 'String?("x")', 'String?("x")'),
    (": Date? = .distantPast", "Date?.some(.distantPast)", "Date?.some(.distantPast)"),
    (": [Int]? = nil", "[Int]?.none", "[Int]?.none"),
    (": KitTint? = .red", "KitTint?.some(.red)", "KitTint?.some(.red)"),
    ('= KitTint(rawValue: "nope")', None, None),
    # Another module's enums, structs, constants and functions.
    ("= KitTint.red", None, None),
    ("= KitTint.brand", None, None),
    ('= KitTint.named("green")', None, None),
    ('= KitTint(rawValue: "blue")!', None, None),
    ('= KitTint(rawValue: "x") ?? .red', None, None),
    ("= KitTint.allCases", None, None),
    ("= [KitTint.red, .blue]", None, None),
    ("= [KitTint.red: 1.0]", None, None),
    (": KitTint = .green", "KitTint.green", "KitTint.green"),
    ("= KitUnit.pixels", None, None),
    ("= KitMargin.standard", None, None),
    ("= KitMargin(top: 2)", None, None),
    ("= KitMargin()", None, None),
    (": KitMargin = .init(top: 3, leading: 4)", "KitMargin.init(top: 3, leading: 4)", "KitMargin(top: 3, leading: 4)"),
    ("= KitLayout.Density.compact", None, None),
    ("= KitLayout.defaultColumns", None, None),
    ("= kitDefaultName()", None, None),
    ("= kitVersion", None, None),
    ("= KitLevel.high", None, None),
    ("= KitLevel(rawValue: 3)", None, None),
    ("= KitTint.corpusFavorite", None, None),
    # The module's own types, constants and functions.
    ("= CorpusMode.on", None, None),
    ("= CorpusMode.preferred", WRAPPER_ONLY, None),
    ("= CorpusMode.fallback", None, None),
    (": CorpusMode = .off", "CorpusMode.off", "CorpusMode.off"),
    ('= CorpusMode(rawValue: "on")!', None, None),
    ("= CorpusLevel.high", None, None),
    ("= CorpusPoint()", None, None),
    ("= CorpusPoint(x: 1, y: 2)", None, None),
    ("= CorpusPoint.origin", None, None),
    (": CorpusPoint = .init(x: 3)", "CorpusPoint.init(x: 3)", "CorpusPoint(x: 3)"),
    ("= CorpusShape.circle(radius: 2)", None, None),
    ("= CorpusFlags.bold", None, None),
    (": CorpusFlags = [.bold, .italic]", "CorpusFlags([.bold, .italic])", "CorpusFlags([.bold, .italic])"),
    ('= CorpusTag(rawValue: "swift")', None, None),
    ('= CorpusToken(rawValue: UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!)', None, None),
    ("= [CorpusMode.on]", None, None),
    ("= [CorpusPoint()]", None, None),
    ("= [CorpusMode.on: true]", None, None),
    # A module enum stored only inside nested collections: its conformance is written all the same.
    (': [[String: CorpusLayer]] = [["a": .base]]', '[["a": CorpusLayer.base]]', '[["a": CorpusLayer.base]]'),
    (': [String: [CorpusLayer]?] = ["b": [.top]]', '["b": [CorpusLayer.top] as [CorpusLayer]?]',
     '["b": [CorpusLayer.top] as [CorpusLayer]?]'),
    ("= corpusCount()", None, None),
    ("= corpusLabel()", WRAPPER_ONLY, None),
    ("= corpusIdentity(5)", WRAPPER_ONLY, None),
    ("= DefaultCorpus.seed", WRAPPER_ONLY, None),
    ("= DefaultCorpus.makeSeed()", WRAPPER_ONLY, None),
    ("= DefaultCorpus.computedSeed", WRAPPER_ONLY, None),
    ("= CorpusMode.allCases.count", None, None),
    ("= DefaultCorpus.sharedSeed", None, None),
    ("= corpusNonisolatedIdentity(8)", None, None),
    # Forms the scanner once named or isolated otherwise than the compiler.
    ("= corpusCount() > 2 ? 1.5 as Double : 2", None, None),
    ("= CorpusLibrary.defaultSort()", None, None),
    ("= CorpusLibrary.defaultColumns", None, None),
    (": CorpusDensity = .standard", "CorpusDensity.standard", "CorpusDensity.standard"),
    (": CorpusStyle = .standard", WRAPPER_ONLY, "CorpusStyle.fancy"),
    (": Date = .distantPast", "Date.distantPast", "Date.distantPast"),
    (": TimeZone = .current", "TimeZone.current", "TimeZone.current"),
    ("= CorpusLayout()", None, None),
    ("= CorpusSeparator.tab", None, None),
    # A nested type that must be written in backticks, named directly and through a static.
    # (In an expression, Swift reads `` CorpusItem.`Type` `` as the metatype still: the enum form
    # names the value through a static.)
    (": CorpusItem.`Type` = .folder", "CorpusItem.standardType", "CorpusItem.standardType"),
    ("= CorpusItem.standardType", None, None),
]


def render() -> str:
    names = [f"d{index:03}" for index in range(len(FORMS))]
    out = []
    out.append("// Generated by Scripts/generate-default-corpus.py. Do not edit.\n")
    out.append("// swift-format-ignore-file\n")
    out.append("import CorpusKit\nimport Foundation\nimport IntegrationSupport\nimport Preferences\n\n")
    out.append(f"/// {len(FORMS)} default forms, each declared as users write it.\n")
    out.append("struct DefaultCorpus {\n")
    out.append("  static let seed = 5\n")
    out.append("  static func makeSeed() -> Int { 6 }\n")
    out.append("  static var computedSeed: Int { 7 }\n")
    out.append("  nonisolated static let sharedSeed = 9\n\n")
    for name, (declaration, _, _) in zip(names, FORMS):
        out.append(f"  @Preference var {name}{declaration_text(declaration)}\n")
    out.append("}\n\n")
    out.append("/// The same defaults as the cases of an enum of keys, each typed by the compiler.\n")
    keyed = [name for name, form in zip(names, FORMS) if form[1] != WRAPPER_ONLY]
    out.append("enum CorpusKeys: String, PreferenceKeys {\n")
    for start in range(0, len(keyed), 10):
        out.append("  case " + ", ".join(keyed[start:start + 10]) + "\n")
    out.append("  var defaultValue: any PreferenceValue {\n    switch self {\n")
    for name, form in zip(names, FORMS):
        if form[1] != WRAPPER_ONLY:
            out.append(f"    case .{name}: {key_expression(form)}\n")
    out.append("    }\n  }\n}\n\n")
    out.append("/// Reads every default back through the wrapper and through its typed key, and compares\n")
    out.append("/// each with the expression evaluated here.\n")
    out.append("func checkDefaultCorpus() {\n")
    out.append("  let corpus = DefaultCorpus()\n")
    out.append("  let keys = PreferenceStore.default.keyed(by: CorpusKeys.self)\n")
    out.append("  var failed: [String] = []\n")
    out.append("  func same<T: Equatable>(_ name: String, _ read: T, _ keyed: T, _ expected: T) {\n")
    # The comparisons are made before `||`, whose right side is a closure: in a main-actor
    # module, an optimized build's region check refuses a non-Sendable `T` captured by it.
    out.append("    let readMatches = read == expected, keyedMatches = keyed == expected\n")
    out.append("    if !readMatches || !keyedMatches { failed.append(\"\\(name): \\(read), \\(keyed), expected \\(expected)\") }\n")
    out.append("  }\n")
    out.append("  func read<T: Equatable>(_ name: String, _ read: T, _ expected: T) {\n")
    out.append("    if read != expected { failed.append(\"\\(name): \\(read), expected \\(expected)\") }\n")
    out.append("  }\n")
    out.append("  func stable<T: Equatable>(_ name: String, _ read: T, _ again: T, _ keyed: T, _ keyedAgain: T) {\n")
    out.append("    let readStable = read == again, keyedStable = keyed == keyedAgain\n")
    out.append("    if !readStable || !keyedStable { failed.append(\"\\(name) changed between reads\") }\n")
    out.append("  }\n")
    for name, form in zip(names, FORMS):
        declaration, key, expected = form
        if key == WRAPPER_ONLY:
            value = expected if expected is not None else expression_of(declaration)
            out.append(f"  read(\"{name}\", corpus.{name}, {value})\n")
        elif expected == "stable":
            out.append(
                f"  stable(\"{name}\", corpus.{name}, corpus.{name}, keys.value(for: .{name}), keys.value(for: .{name}))\n")
        else:
            value = expected if expected is not None else key_expression(form)
            out.append(f"  same(\"{name}\", corpus.{name}, keys.value(for: .{name}), {value})\n")
    out.append(
        f"  check(failed.isEmpty, \"default forms that did not read back: \\(failed)\")\n"
        f"  passed(\"{len(FORMS)} default forms read back through the wrapper, {len(keyed)} through typed keys too\")\n}}\n")
    return "".join(out)


def declaration_text(declaration: str) -> str:
    return (" " if declaration.startswith("=") else "") + declaration


def expression_of(declaration: str) -> str:
    """The default expression of a declaration (`= e`, or `: T = e`)."""
    separator = "=" if declaration.startswith("=") else " = "
    return declaration.split(separator, 1)[1].strip()


def key_expression(form) -> str:
    declaration, key, _ = form
    if key is not None:
        return key
    return expression_of(declaration)


def main() -> int:
    text = render()
    if "--check" in sys.argv[1:]:
        if OUTPUT.read_text() != text:
            print(f"error: {OUTPUT.relative_to(ROOT)} is not what Scripts/generate-default-corpus.py writes; run it")
            return 1
        return 0
    OUTPUT.write_text(text)
    print(f"wrote {OUTPUT.relative_to(ROOT)}: {len(FORMS)} default forms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
