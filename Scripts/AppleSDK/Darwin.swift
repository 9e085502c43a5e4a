// Darwin, as Apple's SDKs show it to Swift: declarations of what the project uses that only
// Darwin has. The POSIX calls Darwin shares with Linux come from Glibc underneath; each one an
// Apple-only line uses is listed in shared-with-linux.txt with its Darwin manual page.
@_exported import Glibc

/// `open(2)`: "Descriptor requested for event notifications only" (<sys/fcntl.h>: 0x00008000).
/// https://developer.apple.com/library/archive/documentation/System/Conceptual/ManPages_iPhoneOS/man2/open.2.html
public var O_EVTONLY: Int32 { 0x0000_8000 }

/// `fcntl(2)`: "Does the same thing as fsync(2) then asks the drive to flush all buffered data to
/// the permanent storage device" (<sys/fcntl.h>: 51).
/// https://developer.apple.com/library/archive/documentation/System/Conceptual/ManPages_iPhoneOS/man2/fcntl.2.html
public var F_FULLFSYNC: Int32 { 51 }

/// `fcntl(2)`: a barrier: I/O issued before it completes before I/O issued after it (<sys/fcntl.h>:
/// 85). https://developer.apple.com/documentation/xcode/reducing-disk-writes
public var F_BARRIERFSYNC: Int32 { 85 }

extension stat {
  /// Darwin's `struct stat` names the modification time `st_mtimespec` (Linux: `st_mtim`).
  /// https://developer.apple.com/library/archive/documentation/System/Conceptual/ManPages_iPhoneOS/man2/stat.2.html
  public var st_mtimespec: timespec { st_mtim }
}

// <os/lock.h> (iOS 10, macOS 10.12, tvOS 10, watchOS 3, visionOS 1).
/// https://developer.apple.com/documentation/os/os_unfair_lock_s
public struct os_unfair_lock_s {
  public var _os_unfair_lock_opaque: UInt32
  public init() { _os_unfair_lock_opaque = 0 }
  public init(_os_unfair_lock_opaque: UInt32) { self._os_unfair_lock_opaque = _os_unfair_lock_opaque }
}
/// https://developer.apple.com/documentation/os/os_unfair_lock
public typealias os_unfair_lock = os_unfair_lock_s
/// https://developer.apple.com/documentation/os/os_unfair_lock_t
public typealias os_unfair_lock_t = UnsafeMutablePointer<os_unfair_lock_s>
/// https://developer.apple.com/documentation/os/1646466-os_unfair_lock_lock
public func os_unfair_lock_lock(_ lock: os_unfair_lock_t) {}
/// https://developer.apple.com/documentation/os/1646496-os_unfair_lock_unlock
public func os_unfair_lock_unlock(_ lock: os_unfair_lock_t) {}
/// https://developer.apple.com/documentation/os/1646468-os_unfair_lock_trylock
public func os_unfair_lock_trylock(_ lock: os_unfair_lock_t) -> Bool { fatalError() }


/// `<dlfcn.h>`: `struct dl_info`; no nullability annotations, so its pointers are implicitly
/// unwrapped. https://developer.apple.com/library/archive/documentation/System/Conceptual/ManPages_iPhoneOS/man3/dladdr.3.html
public struct dl_info {
  public var dli_fname: UnsafePointer<CChar>!
  public var dli_fbase: UnsafeMutableRawPointer!
  public var dli_sname: UnsafePointer<CChar>!
  public var dli_saddr: UnsafeMutableRawPointer!
  public init() {}
}
public typealias Dl_info = dl_info
/// https://developer.apple.com/library/archive/documentation/System/Conceptual/ManPages_iPhoneOS/man3/dladdr.3.html
public func dladdr(_ address: UnsafeRawPointer!, _ info: UnsafeMutablePointer<Dl_info>!) -> Int32 { 0 }
