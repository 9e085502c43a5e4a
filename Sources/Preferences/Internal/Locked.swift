import Foundation

#if canImport(Darwin)
  import os
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// A value protected by a lock: `os_unfair_lock` on Apple platforms, a `pthread_mutex_t` on
/// Linux.
///
/// `Synchronization.Mutex` needs macOS 15 / iOS 18 and `NSLock` costs two dynamic calls per
/// acquisition; reads of cached preferences take one of these locks, so it is kept minimal.
///
/// `@unchecked Sendable` is safe here: `value` is private and is only read or written inside
/// `withLock`, which holds the lock for the whole access, so no two threads touch it at once. The
/// lock itself lives at a stable heap address allocated in `init` and freed in `deinit`, so it is
/// never moved while in use.
///
/// The value lives behind a pointer as well: a class's stored `var` would pay Swift's dynamic
/// exclusivity checks on every access, which the lock already makes unnecessary.
@usableFromInline
final class Locked<Value>: @unchecked Sendable {
  #if canImport(Darwin)
    @usableFromInline let lock: UnsafeMutablePointer<os_unfair_lock>
  #else
    @usableFromInline let lock: UnsafeMutablePointer<pthread_mutex_t>
  #endif
  @usableFromInline let value: UnsafeMutablePointer<Value>

  @usableFromInline
  init(_ value: Value) {
    self.value = .allocate(capacity: 1)
    self.value.initialize(to: value)
    #if canImport(Darwin)
      lock = .allocate(capacity: 1)
      lock.initialize(to: os_unfair_lock())
    #else
      lock = .allocate(capacity: 1)
      lock.initialize(to: pthread_mutex_t())
      pthread_mutex_init(lock, nil)
    #endif
  }

  deinit {
    #if !canImport(Darwin)
      pthread_mutex_destroy(lock)
    #endif
    lock.deinitialize(count: 1)
    lock.deallocate()
    value.deinitialize(count: 1)
    value.deallocate()
  }

  @inlinable @inline(__always) @discardableResult
  func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    #if canImport(Darwin)
      os_unfair_lock_lock(lock)
      defer { os_unfair_lock_unlock(lock) }
    #else
      pthread_mutex_lock(lock)
      defer { pthread_mutex_unlock(lock) }
    #endif
    return try body(&value.pointee)
  }
}
