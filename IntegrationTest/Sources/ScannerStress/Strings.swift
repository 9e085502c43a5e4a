// Strings that look like code: declarations, braces and comment markers inside literals.
struct Texts {
  static let fake = "@Preference var notReal = 1 } {"
  static let raw = #"a "quoted" \(not interpolated) @Preference var alsoNot = 2 }"#
  static let multiline = """
    struct Fake {
      @Preference var hidden = "}"
    /* not a comment
    """
  static let interpolated = "value: \("{" + "}") \(["a", "b"].map { "\($0)/" }.joined())"

  @Preference var greeting = "Hello, \"world\" // not a comment /* either */"
  @Preference var template = """
    Line one
    "two" }
    """
}
