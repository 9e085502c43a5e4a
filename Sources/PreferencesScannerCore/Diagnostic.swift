/// A problem found in source, printed as `file:line:column: severity: message`.
package struct Diagnostic: Sendable, Equatable, CustomStringConvertible {
  package enum Severity: String, Sendable { case error, warning, note }

  package var severity: Severity
  package var message: String
  package var file: String
  package var line: Int
  package var column: Int

  package init(_ severity: Severity, _ message: String, file: String, line: Int, column: Int) {
    self.severity = severity
    self.message = message
    self.file = file
    self.line = line
    self.column = column
  }

  /// The compiler's format, which SwiftPM and Xcode show inline; a line break in the message
  /// (never expected) is made a space so that one diagnostic stays one line.
  package var description: String {
    "\(file):\(line):\(column): \(severity.rawValue): \(message.singleLine)"
  }
}
