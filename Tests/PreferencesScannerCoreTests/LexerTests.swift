import Testing

@testable import PreferencesScannerCore

@Suite struct LexerTests {
  func kinds(_ source: String) -> [Token.Kind] { Lexer.tokenize(Array(source.utf8)).tokens.map(\.kind) }

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
    for source in sources {
      #expect(kinds(source) == [.string], "\(source)")
    }
  }

  @Test func regexLiteralsAreSkipped() {
    #expect(kinds(##"#/a{2}"}/#"##) == [.regex])
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
  }

  @Test func directivesCarryTheirCondition() {
    let lexed = Lexer.tokenize(
      Array("#if os(iOS) && DEBUG // note\n#elseif canImport(AppKit)\n#else\n#endif".utf8))
    #expect(lexed.tokens.map(\.kind) == [.directive, .directive, .directive, .directive])
    #expect(lexed.directiveConditions[0] == "os(iOS) && DEBUG")
    #expect(lexed.directiveConditions[1] == "canImport(AppKit)")
  }
}
