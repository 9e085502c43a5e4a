#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif
#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The scanner's few calls to the operating system that Foundation's essentials do not make.
///
/// The scanner imports `FoundationEssentials` where it is a module of its own (Linux) and
/// `Foundation` elsewhere: the full Foundation of Linux also loads its internationalization
/// library and ICU, which cost the scanner's process about 3 ms to start, on every build the plugin
/// runs it in (Benchmarks/README.md). On Apple platforms `Foundation` is part of the system and
/// costs nothing to load. What follows is the same on both but for how the executable's path is
/// found. No call here takes a callback.
enum FileSystem {
  /// What `stat` says of a file.
  struct Status: Equatable {
    var size: UInt64
    /// The last modification, in nanoseconds since 1970.
    var modified: UInt64
    var isDirectory: Bool
  }

  /// The last component of `path`, trailing slashes ignored (`Sources/App/View.swift` →
  /// `View.swift`); `path` itself when it has no slash.
  static func fileName(of path: String) -> String {
    path.lastComponent { $0 == UInt8(ascii: "/") }
  }

  /// The status of the file at `path`, or `nil` when there is none; of a link itself where
  /// `followingLinks` is `false`.
  static func status(_ path: String, followingLinks: Bool = true) -> Status? {
    var info = stat()
    guard (followingLinks ? stat(path, &info) : lstat(path, &info)) == 0 else { return nil }
    #if canImport(Darwin)
      let time = info.st_mtimespec
    #else
      let time = info.st_mtim
    #endif
    return Status(
      size: UInt64(info.st_size),
      modified: UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec),
      isDirectory: info.st_mode & S_IFMT == S_IFDIR)
  }

  /// Writes `bytes` to the file at `path`, replacing it, with C's stdio: no temporary file,
  /// rename or `fsync`, for files that only save later runs work (a file cut short by a crash
  /// must be recognizable as such by its reader). Returns whether every byte was written.
  @discardableResult
  static func writeUnsynced(_ bytes: UnsafeRawBufferPointer, to path: String) -> Bool {
    guard let file = fopen(path, "wb") else { return false }
    let written = bytes.isEmpty ? 0 : fwrite(bytes.baseAddress, 1, bytes.count, file)
    return fclose(file) == 0 && written == bytes.count
  }

  /// Writes `text` to the standard output (`descriptor` 1) or error (2), unbuffered, as
  /// `FileHandle` did.
  static func write(_ text: String, toDescriptor descriptor: Int32) {
    var text = text
    text.withUTF8 { buffer in
      var offset = 0
      while offset < buffer.count {
        let result = systemWrite(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
        if result > 0 {
          offset += result
        } else if result < 0, errno == EINTR {
          continue
        } else {
          return  // Closed or full: what cannot be written is dropped, as FileHandle would.
        }
      }
    }
  }

  private static func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
      Glibc.write(descriptor, bytes, count)
    #elseif canImport(Musl)
      Musl.write(descriptor, bytes, count)
    #else
      Darwin.write(descriptor, bytes, count)
    #endif
  }

  /// The path of the running executable, to tell one build of the scanner from another.
  static let executablePath: String? = {
    #if canImport(FoundationEssentials)
      // Linux names it through procfs; elsewhere, the path it was started by.
      var buffer = [CChar](repeating: 0, count: 4096)
      let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
      if count > 0 {
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
      }
      let started = CommandLine.arguments.first ?? ""
      return started.contains("/") ? started : nil
    #else
      // Apple platforms, where the scanner runs on the Mac that builds: `Bundle.executablePath`
      // is available from macOS 10.0 (Apple's Foundation documentation), and names the
      // executable of a command-line tool too.
      return Bundle.main.executablePath
    #endif
  }()
}
