/// Mirrors a file's `#if` structure around generated code: items are emitted in source order,
/// each inside the branches its declaration sits in, with empty branches in between where
/// needed. Output is linear in the number of items and branches, however deep the nesting or
/// long the `#elseif` chain.
struct ConditionalEmitter {
  let branches: [BranchSyntax]
  /// Each group's branches in order.
  private let groups: [Int: [Int]]
  /// How many branches enclose each branch, itself included.
  private let depths: [Int]

  init(branches: [BranchSyntax]) {
    self.branches = branches
    var groups: [Int: [Int]] = [:]
    var depths: [Int] = []
    depths.reserveCapacity(branches.count)
    for (index, branch) in branches.enumerated() {
      groups[branch.group, default: []].append(index)
      depths.append((branch.parent.map { depths[$0] } ?? 0) + 1)
    }
    self.groups = groups
    self.depths = depths
  }

  private func line(_ branch: Int, opening: Bool) -> String {
    let node = branches[branch]
    if opening || node.index == 0 { return "#if \(node.clause ?? "true")\n" }
    return node.clause.map { "#elseif \($0)\n" } ?? "#else\n"
  }

  /// Emits `items` (each with its branch, in source order), grouping consecutive items of the
  /// same branch into one call of `render`; with `chunked` false, `render` still receives runs,
  /// which it renders item by item.
  ///
  /// Moving from one item's branch to the next walks only the branches between them, and each
  /// directive line is written once, so the work and the output are linear in the input.
  func emit<Item>(
    _ items: [(Int?, Item)], chunked: Bool = false, _ render: ([Item]) -> String
  ) -> String {
    var out = ""
    var current: [Int] = []  // the open branches, outermost first
    var run: [Item] = []
    func flush() {
      if !run.isEmpty { out += render(run) }
      run.removeAll()
    }
    for (branch, item) in items {
      if branch == current.last {
        run.append(item)
        continue
      }
      flush()
      // The branches from the target up to the first one that is open (reversed: innermost first).
      var tail: [Int] = []
      var step = branch
      while let node = step, !(depths[node] <= current.count && current[depths[node] - 1] == node) {
        tail.append(node)
        step = branches[node].parent
      }
      var shared = step.map { depths[$0] } ?? 0
      // Same group, a later branch: close what is nested deeper, then move along the group.
      if let next = tail.last, shared < current.count, branches[current[shared]].group == branches[next].group
      {
        for _ in (shared + 1)..<current.count { out += "#endif\n" }
        let members = groups[branches[next].group] ?? []
        let from = branches[current[shared]].index + 1
        let to = branches[next].index
        if from <= to { for member in members[from...to] { out += line(member, opening: false) } }
        current.removeLast(current.count - shared)
        current.append(next)
        tail.removeLast()
        shared += 1
      } else {
        for _ in shared..<current.count { out += "#endif\n" }
        current.removeLast(current.count - shared)
      }
      for node in tail.reversed() {
        let members = groups[branches[node].group] ?? []
        for (offset, member) in members[0...branches[node].index].enumerated() {
          out += line(member, opening: offset == 0)
        }
        current.append(node)
      }
      run.append(item)
    }
    flush()
    for _ in current { out += "#endif\n" }
    return out
  }
}
