import Foundation

/// A value protected by a lock.
///
/// `Synchronization.Mutex` needs macOS 15 / iOS 18; this library supports older systems, so it
/// wraps `NSLock` instead.
///
/// `@unchecked Sendable` is safe here: `value` is private and is only read or written inside
/// `withLock`, which holds `lock` for the whole access, so no two threads touch it at once. The
/// closures passed to `withLock` run synchronously and cannot retain `inout` access afterwards.
final class Locked<Value>: @unchecked Sendable {
  private let lock = NSLock()
  private var value: Value

  init(_ value: Value) { self.value = value }

  @inline(__always)
  func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    lock.lock()
    defer { lock.unlock() }
    return try body(&value)
  }
}
