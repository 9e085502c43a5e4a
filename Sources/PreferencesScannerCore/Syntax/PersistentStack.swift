/// A stack whose states can be saved and restored in O(1): nodes are shared, never copied. Used
/// where `#if` branches must each start from the state their group started with.
struct PersistentStack<Element> {
  final class Node {
    let element: Element
    let parent: Node?
    init(_ element: Element, _ parent: Node?) {
      self.element = element
      self.parent = parent
    }
  }

  private(set) var head: Node?

  init() {}

  var top: Element? { head?.element }
  var isEmpty: Bool { head == nil }

  mutating func push(_ element: Element) { head = Node(element, head) }

  @discardableResult
  mutating func pop() -> Element? {
    guard let head else { return nil }
    self.head = head.parent
    return head.element
  }
}
