import Foundation

#if canImport(Darwin)
  import os
#else
  import Synchronization
  #if canImport(Glibc)
    import Glibc
  #elseif canImport(Musl)
    import Musl
  #endif
#endif

/// A value protected by a lock: `os_unfair_lock` on Apple platforms, the standard library's
/// `Synchronization.Mutex` on Linux.
///
/// Reads of cached preferences take one of these locks, so it is the cheapest correct lock of
/// each platform: `Mutex` needs macOS 15 / iOS 18 (above this package's floor) and `NSLock` costs
/// two dynamic calls per acquisition, so Apple platforms use `os_unfair_lock`; on Linux, `Mutex`
/// (a futex word) costs about half of glibc's `pthread_mutex_lock`/`unlock` per read
/// (`PreferencesBenchmarks`' cached reads; Benchmarks/README.md).
///
/// `@unchecked Sendable` is safe here: `value` is only read or written inside `withLock`, which
/// holds the lock for the whole access, so no two threads touch it at once. The lock lives at a
/// stable address (a heap allocation on Apple platforms, freed in `deinit`; a stored `Mutex` of
/// this final class on Linux), so it is never moved while in use.
///
/// ThreadSanitizer cannot see into `Mutex`, whose lock is compiled into the toolchain's
/// uninstrumented Synchronization library: it would report every access the lock protects as a
/// race. A process that has ThreadSanitizer loaded (found once, with `dlsym`) therefore gets a
/// `pthread_mutex_t`, which it intercepts, so that the sanitizer checks this type's discipline
/// (every access inside `withLock`) as it checks the rest.
///
/// The value lives behind a pointer as well: a class's stored `var` would pay Swift's dynamic
/// exclusivity checks on every access, which the lock already makes unnecessary.
@usableFromInline
final class Locked<Value>: @unchecked Sendable {
  #if canImport(Darwin)
    @usableFromInline let lock: UnsafeMutablePointer<os_unfair_lock>
  #else
    @usableFromInline let lock = Mutex<Void>(())
    /// The lock used instead of `lock` under ThreadSanitizer.
    @usableFromInline let sanitizedLock: UnsafeMutablePointer<pthread_mutex_t>?
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
      if ThreadSanitizer.isLoaded {
        let sanitizedLock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        sanitizedLock.initialize(to: pthread_mutex_t())
        pthread_mutex_init(sanitizedLock, nil)
        self.sanitizedLock = sanitizedLock
      } else {
        sanitizedLock = nil
      }
    #endif
  }

  deinit {
    #if canImport(Darwin)
      lock.deinitialize(count: 1)
      lock.deallocate()
    #else
      if let sanitizedLock {
        pthread_mutex_destroy(sanitizedLock)
        sanitizedLock.deinitialize(count: 1)
        sanitizedLock.deallocate()
      }
    #endif
    value.deinitialize(count: 1)
    value.deallocate()
  }

  @inlinable @inline(__always) @discardableResult
  func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    #if canImport(Darwin)
      os_unfair_lock_lock(lock)
      defer { os_unfair_lock_unlock(lock) }
      return try body(&value.pointee)
    #else
      if let sanitizedLock {
        pthread_mutex_lock(sanitizedLock)
        defer { pthread_mutex_unlock(sanitizedLock) }
        return try body(&value.pointee)
      }
      let value = self.value
      // The result is passed out through a variable: `Mutex` asks its body for a `sending`
      // result, which a value read from the protected state is not; it is returned to this
      // caller only, as with the lock on Apple platforms.
      nonisolated(unsafe) var result: Result?
      try lock.withLock { _ throws in result = try body(&value.pointee) }
      return result.unsafelyUnwrapped
    #endif
  }
}

#if !canImport(Darwin)
  /// Whether ThreadSanitizer's runtime is in the process (`swift test --sanitize=thread`).
  enum ThreadSanitizer {
    static let isLoaded: Bool = dlsym(dlopen(nil, RTLD_NOW), "__tsan_init") != nil
  }
#endif
