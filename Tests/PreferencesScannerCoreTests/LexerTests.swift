import Testing

@testable import PreferencesScannerCore

@Suite struct LexerTests {
  func kinds(_ source: String) -> [Token.Kind] { Lexer.tokenize(Array(source.utf8)).tokens.map(\.kind) }
  func texts(_ source: String) -> [String] {
    let bytes = Array(source.utf8)
    return Lexer.tokenize(bytes).tokens.map {
      String(decoding: bytes[Int($0.start)..<Int($0.end)], as: UTF8.self)
    }
  }

  @Test func commentsProduceNoTokens() {
    #expect(kinds("// a { b\n/* c { /* nested } */ d */ /// doc\n/** block */").isEmpty)
  }

  @Test func stringFormsAreSingleTokens() {
    let sources = [
      #""a } \" { b""#,
      #""interp \(f("}", x: "{")) \(g(")")) end""#,
      "\"\"\"\n  multi \" \"\" }\n  \\(a(\"\"\"\n  inner\n  \"\"\")) {\n  \"\"\"",
      ##"#"raw \" } \(not) " still"#"##,
      ###"##"very "# raw"##"###,
      ##"#"raw \#(interp("}")) done"#"##,
    ]
    for source in sources { #expect(kinds(source) == [.string], "\(source)") }
  }

  /// A raw string whose closing delimiter is on its opening line is one line long, even when it
  /// opens with `"""` (`#"""#` is a quote, as in CodeEdit's `replacingOccurrences(of: #"""#, …)`).
  @Test(arguments: [
    (##"f(#"""#, x)"##, ["f", "(", ##"#"""#"##, ",", "x", ")"]),
    (###"a(##"""##) { }"###, ["a", "(", ###"##"""##"###, ")", "{", "}"]),
    (##"let s = #"""abc"""#; }"##, ["let", "s", "=", ##"#"""abc"""#"##, ";", "}"]),
    (##"let q = #""" "# + "}""##, ["let", "q", "=", ##"#""" "#"##, "+", #""}""#]),
    (
      "let m = #\"\"\"\n  a \"# b\n  \"\"\"#\n}",
      ["let", "m", "=", "#\"\"\"\n  a \"# b\n  \"\"\"#", "}"]
    ),
  ])
  func rawStringsThatLookMultiline(source: String, expected: [String]) {
    #expect(texts(source) == expected)
    #expect(Lexer.tokenize(Array(source.utf8)).problems.isEmpty)
  }

  @Test func extendedRegexLiteralsAreSingleTokens() {
    #expect(kinds(##"#/a{2}"}/#"##) == [.regex])
    #expect(kinds("#/\n  a { b\n/#") == [.regex])
  }

  /// Bare `/…/` literals follow the language's rule: a regex where an expression is expected,
  /// a division where an operator is.
  @Test(arguments: [
    (#"x.contains(/\/*/)"#, ["x", ".", "contains", "(", #"/\/*/"#, ")"]),
    (#"let a = /\//"#, ["let", "a", "=", #"/\//"#]),
    (#"let b = /"/"#, ["let", "b", "=", #"/"/"#]),
    ("let c = /{/ ; }", ["let", "c", "=", "/{/", ";", "}"]),
    ("let d = 1 / 2 / 3", ["let", "d", "=", "1", "/", "2", "/", "3"]),
    ("let e = a/b/c", ["let", "e", "=", "a", "/", "b", "/", "c"]),
    ("let f = x / y", ["let", "f", "=", "x", "/", "y"]),
    (
      "let g = try? /x/.wholeMatch(in: s)",
      ["let", "g", "=", "try", "?", "/x/", ".", "wholeMatch", "(", "in", ":", "s", ")"]
    ),
    ("f(/, x)", ["f", "(", "/", ",", "x", ")"]),
    ("let h = !/x/.matches", ["let", "h", "=", "!", "/x/", ".", "matches"]),
    ("return /a b/", ["return", "/a b/"]),
    ("let i = [/x/, / y/]", ["let", "i", "=", "[", "/x/", ",", "/", "y", "/", "]"]),
    (
      "static func /(a: T, b: T) -> T",
      ["static", "func", "/", "(", "a", ":", "T", ",", "b", ":", "T", ")", "->", "T"]
    ),
  ])
  func bareRegexLiterals(source: String, expected: [String]) {
    #expect(texts(source) == expected)
  }

  @Test func aByteOrderMarkIsSkippedButCountsTowardColumns() {
    let lexed = Lexer.tokenize([0xEF, 0xBB, 0xBF] + Array("struct A { @Preference var x = 1 }".utf8))
    #expect(lexed.tokens.first?.kind == .identifier)
    #expect(lexed.tokens.first?.start == 3)
    // The compiler's #column counts the three bytes of the mark: `@` is at column 12 without it.
    #expect(lexed.tokens[3].column == 12 + 3)
  }

  @Test func positionsAreOneBasedBytesAndBackticksAreStripped() {
    let lexed = Lexer.tokenize(Array("  @Preference var `default` = 1\n\té".utf8))
    let attribute = lexed.tokens[1]
    #expect((attribute.line, attribute.column) == (1, 4))
    let name = lexed.tokens[3]
    #expect(name.isBackticked)
    #expect((name.start, name.end) == (19, 26))
    #expect(lexed.tokens.last!.line == 2 && lexed.tokens.last!.column == 2)
    #expect(lexed.lineCount == 2)
  }

  @Test func docCommentsAttachToTheNextToken() {
    let lexed = Lexer.tokenize(
      Array("/// One\n/// Two\nvar x\n// plain\nvar y\n/**\n * Block\n */\nvar z".utf8))
    #expect(lexed.docComments[0] == "One\nTwo")
    #expect(lexed.docComments[2] == nil)
    #expect(lexed.docComments[4] == "Block")
  }

  @Test func unterminatedInputIsReportedNotFatal() {
    #expect(Lexer.tokenize(Array("/* never closed".utf8)).problems.count == 1)
    #expect(Lexer.tokenize(Array("let s = \"open\nnext".utf8)).problems.count == 1)
    #expect(Lexer.tokenize(Array("let s = \"\"\"\nnever".utf8)).problems.count == 1)
    #expect(Lexer.tokenize(Array("let r = #/never".utf8)).problems.count == 1)
  }

  @Test func directivesAreTokensAndTheirConditionsOrdinaryOnes() {
    #expect(
      texts("#if os(iOS) && DEBUG // note\n#elseif canImport(AppKit)\n#else\n#endif") == [
        "#if", "os", "(", "iOS", ")", "&&", "DEBUG", "#elseif", "canImport", "(", "AppKit", ")", "#else",
        "#endif",
      ])
  }

  /// Generated records are raw literals: each must read back as exactly the text written, and
  /// lex as one string token, whatever quotes, backslashes and `#` runs the text holds.
  @Test(arguments: [
    "", "plain", #"{"key":"a"}"#, #"\"#, #"a\"#, #"a""#, ##""#""##, ##"\#"##, ###""##"###, ###"x\##y"###,
    ##"{"k":"#tag","v":"\"quoted\""}"##, "tab\there", "line\nbreak", "é \u{2028}",
    #"""#, #"""abc""#, #""""#,
  ])
  func rawQuotedTextReadsBackExactly(_ text: String) {
    let literal = StringLiteral.rawQuote(text)
    #expect(StringLiteral.value(of: literal) == text, "\(literal)")
    let tokens = Lexer.tokenize(Array("let x = \(literal)\n".utf8)).tokens
    #expect(tokens.map(\.kind) == [.identifier, .identifier, .punctuation, .string], "\(literal)")
  }

}
