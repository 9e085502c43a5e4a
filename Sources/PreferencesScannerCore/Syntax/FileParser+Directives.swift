/// `#if` groups and their conditions, and `#sourceLocation` directives.
extension FileParser {
  // MARK: #if and #sourceLocation

  mutating func directive(_ index: Int) -> Int {
    let word = source.text(index)
    switch word {
    case "#if":
      let (clause, next) = condition(after: index)
      branches.append(
        BranchSyntax(parent: currentBranch, group: nextGroup, index: 0, clause: clause, previous: nil))
      groups.append(
        Group(id: nextGroup, branch: branches.count - 1, frames: frames, parentBranch: currentBranch))
      nextGroup += 1
      pendingType = nil
      return next
    case "#elseif", "#else":
      var next = index + 1
      var clause: String?
      if word == "#elseif" { (clause, next) = condition(after: index) }
      guard var group = groups.popLast() else {
        error("\(word) without #if", at: index)
        return next
      }
      let previous = group.branch
      branches.append(
        BranchSyntax(
          parent: group.parentBranch, group: group.id, index: branches[previous].index + 1, clause: clause,
          previous: previous))
      group.branch = branches.count - 1
      // Each branch starts from the nesting its group started with.
      frames = group.frames
      groups.append(group)
      pendingType = nil
      return next
    default:  // #endif
      if groups.popLast() == nil { error("#endif without #if", at: index) }
      return index + 1
    }
  }

  /// The condition after `#if` or `#elseif`: an expression that ends where a line ends without
  /// an operator or open parenthesis carrying it on. Comments inside it are dropped.
  mutating func condition(after directive: Int) -> (String, Int) {
    var index = directive + 1
    let first = index
    var depth = 0
    while index < source.count {
      let token = source[index]
      if token.kind == .directive
        || token.kind == .pound && index > first && depth == 0 && token.followsNewline
      {
        break
      }
      if index > first && token.followsNewline && depth == 0 {
        let previous = source[index - 1]
        let carries =
          previous.kind == .operator || source.isPunct(index - 1, UInt8(ascii: "("))
          || source.isPunct(index - 1, UInt8(ascii: ","))
        if !carries
          && !(token.kind == .operator && (source.isOperator(index, "||") || source.isOperator(index, "&&")))
        {
          break
        }
      }
      if token.kind == .punctuation {
        switch source.bytes[Int(token.start)] {
        case UInt8(ascii: "("): depth += 1
        case UInt8(ascii: ")"): depth = max(0, depth - 1)
        default: break
        }
      }
      index += 1
    }
    return (source.normalizedText(from: first, through: index - 1), index)
  }

  /// `#sourceLocation(file: "X", line: N)` and `#sourceLocation()`: the compiler then reports the
  /// following lines as lines of X, from N on, and `#fileID` as `Module/X`.
  mutating func sourceLocation(_ index: Int) -> Int {
    guard source.isPunct(index + 1, UInt8(ascii: "(")) else {
      error(
        "#sourceLocation needs its arguments: #sourceLocation(file: \"…\", line: …) or #sourceLocation()",
        at: index)
      return index + 1
    }
    let close = source.matchingClose(index + 1)
    let directiveLine = Int(source[index].line)
    if close == index + 2 {
      presumed = nil
      return close + 1
    }
    var file: String?
    var line: Int?
    var cursor = index + 2
    while cursor < close {
      if source.isWord(cursor, "file"), source.isPunct(cursor + 1, UInt8(ascii: ":")), cursor + 2 < close,
        source[cursor + 2].kind == .string
      {
        file = StringLiteral.value(of: source.text(cursor + 2))
        cursor += 3
      } else if source.isWord(cursor, "line"), source.isPunct(cursor + 1, UInt8(ascii: ":")),
        cursor + 2 < close,
        source[cursor + 2].kind == .number
      {
        line = Int(source.text(cursor + 2))
        cursor += 3
      } else {
        cursor += 1
      }
    }
    guard let file, let line else {
      error(
        "the scanner cannot read this #sourceLocation directive; write #sourceLocation(file: \"Name.swift\", line: 1)",
        at: index)
      return close + 1
    }
    let name = FileSystem.fileName(of: file)
    presumed = (module + "/" + name, line - (directiveLine + 1))
    return close + 1
  }

  // MARK: Conditions

  /// The full condition of `branch`: its own clause, the negations of its group's earlier
  /// clauses, and the conditions of the branches it is nested in.
  mutating func branchCondition(_ branch: Int) -> String {
    BranchSyntax.condition(of: branch, in: branches, limit: .max)
  }
}
