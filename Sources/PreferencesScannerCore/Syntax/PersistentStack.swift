/// A stack whose states can be saved and restored in O(1): nodes are shared, never copied. Used
/// where `#if` branches must each start from the state their group started with.
struct PersistentStack<Element> {
  final class Node {
    let element: Element
    let parent: Node?
    let depth: Int
    init(_ element: Element, _ parent: Node?) {
      self.element = element
      self.parent = parent
      self.depth = (parent?.depth ?? 0) + 1
    }
  }

  private(set) var head: Node?

  init() {}

  var top: Element? { head?.element }
  var count: Int { head?.depth ?? 0 }
  var isEmpty: Bool { head == nil }

  mutating func push(_ element: Element) { head = Node(element, head) }

  @discardableResult
  mutating func pop() -> Element? {
    guard let head else { return nil }
    self.head = head.parent
    return head.element
  }

  /// The elements, innermost first.
  var elements: UnfoldSequence<Element, Node?> {
    sequence(state: head) { node in
      guard let current = node else { return nil }
      node = current.parent
      return current.element
    }
  }
}
