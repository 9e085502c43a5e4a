/// Reads one file's syntax: type declarations and extensions (nested to any depth), the members
/// a default may name, imports, `#if` branches, `#sourceLocation` directives, and every
/// `@Preference` declaration with its arguments, type and default.
///
/// It knows nothing of other files and decides nothing about meaning (whether a name is
/// reachable, isolated or generic): that is the analysis stage's job. Every step is O(1) or
/// bounded per token, so time and memory are linear in the file, however it nests.
///
/// Its readers are `mutating` though most only read: SwiftPM builds the plugin's tool in debug,
/// and there a non-mutating method called from a mutating one gets a copy of `self`, retaining
/// each of its arrays and strings on every call (the lexer's readers are `mutating` for the same
/// reason). Passed in place, parsing runs about twice as fast in that build.
struct FileParser {
  /// An open `{ … }`: a type's body (its scope index) or anything else (a function, closure,
  /// computed property, initializer).
  struct Frame {
    var scope: Int?
    /// How many non-type frames are open, this one included.
    var others: Int
  }

  /// A type header seen, waiting for its `{`.
  struct PendingType {
    var kind: TypeScope.Kind
    var name: [String]
    var genericParameters: [String]
    var access: AccessLevel?
    var attributeNames: [String]
    var availability: [String]
    var isNonisolated: Bool
    var inherits: [String]
    var line: Int
    var column: Int
  }

  /// An open `#if` group.
  struct Group {
    var id: Int
    var branch: Int
    var frames: PersistentStack<Frame>
    var parentBranch: Int?
  }

  let source: SourceTokens
  let path: String
  let fileID: String
  let module: String

  var frames = PersistentStack<Frame>()
  var pendingType: PendingType?
  var groups: [Group] = []
  var nextGroup = 0
  /// `#sourceLocation`: the file it names, and how to turn a real line into the one it reports.
  var presumed: (fileID: String, lineOffset: Int)?

  var scopes: [TypeScope] = []
  var members: [MemberSyntax] = []
  var storedProperties: [StoredPropertySyntax] = []
  var keyDefaults: [KeyDefaultsSyntax] = []
  var imports: [ImportSyntax] = []
  var preferences: [PreferenceSyntax] = []
  var branches: [BranchSyntax] = []
  var diagnostics: [Diagnostic] = []

  static let attributeName: StaticString = "Preference"

  /// Parses `contents` of the file at `path` in `module`.
  static func parse(path: String, module: String, contents: [UInt8]) -> FileSyntax {
    let lexed = Lexer.tokenize(contents)
    let fileName = FileSystem.fileName(of: path)
    var parser = FileParser(
      source: SourceTokens(bytes: contents, lexed: lexed), path: path, fileID: module + "/" + fileName,
      module: module)
    for problem in lexed.problems {
      // A file the lexer could not read to the end cannot be scanned with certainty: the
      // declarations after the problem might be missed, and their values lost.
      parser.diagnostics.append(
        Diagnostic(
          .error,
          "\(problem.message); the scanner cannot read this file with certainty, so it cannot register its preferences",
          file: path, line: Int(problem.line), column: Int(problem.column)))
    }
    parser.run()
    return FileSyntax(
      path: path, fileID: parser.fileID, lineCount: lexed.lineCount, imports: parser.imports,
      scopes: parser.scopes,
      members: parser.members, storedProperties: parser.storedProperties, keyDefaults: parser.keyDefaults,
      preferences: parser.preferences,
      branches: parser.branches, diagnostics: parser.diagnostics)
  }

  init(source: SourceTokens, path: String, fileID: String, module: String) {
    self.source = source
    self.path = path
    self.fileID = fileID
    self.module = module
  }

  // MARK: Diagnostics

  mutating func error(_ message: String, at index: Int) {
    let token = source[min(index, source.count - 1)]
    diagnostics.append(
      Diagnostic(.error, message, file: path, line: Int(token.line), column: Int(token.column)))
  }

  mutating func warning(_ message: String, at index: Int) {
    let token = source[min(index, source.count - 1)]
    diagnostics.append(
      Diagnostic(.warning, message, file: path, line: Int(token.line), column: Int(token.column)))
  }

  var currentBranch: Int? { mutating get { groups.last.map(\.branch) } }
  var innermostScope: Int? { mutating get { frames.top?.scope } }
  var isInsideOther: Bool { mutating get { (frames.top?.others ?? 0) > 0 } }
  /// Directly in a type's body (not in a function inside it).
  var isInTypeBody: Bool { mutating get { frames.top?.scope != nil } }
  var isAtFileScope: Bool { mutating get { frames.isEmpty } }

  // MARK: Main loop

  mutating func run() {
    var index = 0
    while index < source.count {
      let token = source[index]
      switch token.kind {
      case .directive:
        index = directive(index)
        continue
      case .pound:
        if source.text(index) == "#sourceLocation" {
          index = sourceLocation(index)
          continue
        }
      case .punctuation:
        switch source.bytes[Int(token.start)] {
        case UInt8(ascii: "{"):
          let others = (frames.top?.others ?? 0)
          if let pending = pendingType {
            frames.push(Frame(scope: openScope(pending, at: index), others: others))
          } else {
            frames.push(Frame(scope: nil, others: others + 1))
          }
          pendingType = nil
        case UInt8(ascii: "}"):
          if frames.pop() == nil {
            error(
              "unbalanced '}'; the scanner cannot tell which type the declarations after it belong to",
              at: index)
          }
        case UInt8(ascii: ";"):
          pendingType = nil
        case UInt8(ascii: "@")
        where isAttribute(index + 1, Self.attributeName) && !source.isPunct(index + 2, UInt8(ascii: ".")):
          index = declaration(at: index)
          continue
        default:
          break
        }
      case .identifier where !token.isBackticked:
        identifier(at: index)
      default:
        break
      }
      index += 1
    }
    if !frames.isEmpty {
      error(
        "a '{' in this file is never closed; the scanner cannot tell which type the declarations after it belong to",
        at: source.count - 1)
    }
    if !groups.isEmpty {
      error("#if is never closed with #endif", at: max(0, source.count - 1))
    }
  }

  mutating func isAttribute(_ index: Int, _ name: StaticString) -> Bool {
    source.isWord(index, name)
      || (source.isIdentifier(index) && source[index].isBackticked && source.text(index) == "\(name)")
  }

  /// Dispatches on keywords that start something the scanner records.
  mutating func identifier(at index: Int) {
    switch source.bytes[Int(source[index].start)] {
    case UInt8(ascii: "i"):
      if isAtFileScope && source.isWord(index, "import") {
        importDeclaration(at: index)
      } else if source.isWord(index, "init") && isInTypeBody && !source.isPunct(index - 1, UInt8(ascii: "."))
      {
        member(.initializer, name: "init", introducer: index, nameIndex: index)
      }
    case UInt8(ascii: "s"), UInt8(ascii: "c"), UInt8(ascii: "e"), UInt8(ascii: "a"), UInt8(ascii: "p"):
      if source.isWord(index, "case") {
        if isInTypeBody { enumCases(at: index) }
      } else {
        typeHeader(at: index)
      }
    case UInt8(ascii: "v"), UInt8(ascii: "l"), UInt8(ascii: "f"), UInt8(ascii: "t"):
      guard isInTypeBody || isAtFileScope else { return }
      if source.isWord(index, "var") || source.isWord(index, "let") {
        property(at: index)
      } else if source.isWord(index, "func"), source.isIdentifier(index + 1) {
        member(
          .function, name: source.text(index + 1), introducer: index, nameIndex: index + 1,
          type: returnType(ofFunctionNamedAt: index + 1))
      } else if source.isWord(index, "typealias"), source.isIdentifier(index + 1) {
        // `typealias Name = Target`: its target, so that what stores `Name` is checked as
        // `Target` (a generic alias, `Name<T>`, is not followed).
        var target: String?
        if source.isPunct(index + 2, UInt8(ascii: "=")) {
          let end = typeEnd(from: index + 3)
          if end > index + 3 { target = source.normalizedText(from: index + 3, through: end - 1) }
        }
        member(
          .typeAlias, name: source.text(index + 1), introducer: index, nameIndex: index + 1, type: target)
      }
    default:
      break
    }
  }

}

extension BranchSyntax {
  /// The condition under which `branch` is compiled, as Swift: `!(A) && (B)`. Bounded in length
  /// (a condition nested thousands deep is summarized with a leading `…`), so that output stays
  /// linear in input; generated code does not use it, it mirrors the `#if` structure instead.
  package static func condition(of branch: Int, in branches: [BranchSyntax], limit: Int = 256) -> String {
    var parts: [String] = []
    var length = 0
    var truncated = false
    var current: Int? = branch
    outer: while let index = current {
      var node: Int? = index
      var own = true
      while let step = node {
        if let clause = branches[step].clause {
          let part = own ? "(\(clause))" : "!(\(clause))"
          length += part.count + 4
          if length > limit {
            truncated = true
            break outer
          }
          parts.append(part)
        }
        own = false
        node = branches[step].previous
      }
      current = branches[index].parent
    }
    if parts.isEmpty { return truncated ? "…" : "true" }
    return (truncated ? "… && " : "") + parts.reversed().joined(separator: " && ")
  }
}
