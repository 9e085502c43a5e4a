import Foundation
import Testing

@testable import PreferencesScannerCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The scanner's calls to the operating system (`FileSystem`), which replace what only
/// Foundation's full library had: file status, unsynced writes, the standard streams and the
/// running executable's path.
@Suite struct FileSystemTests {
  /// A path's file name, read by bytes, is what splitting at `/` gave: the last non-empty
  /// component, or the path itself when it has none.
  @Test(arguments: [
    "Sources/App/View.swift", "View.swift", "/abs/path/Café Été.swift", "Sources/App/", "/", "", "//",
    "a//b", "Module/Équipe.swift", "/View.swift",
  ])
  func aFileNameIsThePathsLastComponent(path: String) {
    #expect(FileSystem.fileName(of: path) == (path.split(separator: "/").last.map(String.init) ?? path))
  }

  @Test func statusTellsFilesFoldersAndLinksApart() throws {
    let root = CommandTests.Directory()
    root.write("File.swift", "12345")
    let file = root.url.appendingPathComponent("File.swift").path
    let link = root.url.appendingPathComponent("Link").path
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: root.url.path)

    let status = try #require(FileSystem.status(file))
    #expect(status.size == 5 && !status.isDirectory)
    let modified = try #require(
      try FileManager.default.attributesOfItem(atPath: file)[.modificationDate] as? Date)
    #expect(abs(Double(status.modified) / 1e9 - modified.timeIntervalSince1970) < 0.001)
    #expect(FileSystem.status(root.url.path)?.isDirectory == true)
    #expect(FileSystem.status(link)?.isDirectory == true)
    #expect(FileSystem.status(link, followingLinks: false)?.isDirectory == false)
    #expect(FileSystem.status(root.url.appendingPathComponent("Missing").path) == nil)
  }

  @Test func unsyncedWritesReplaceTheFileAndReportFailure() throws {
    let root = CommandTests.Directory()
    let path = root.url.appendingPathComponent("entry").path
    for text in ["a longer first text", "short", ""] {
      let written = Array(text.utf8).withUnsafeBytes { FileSystem.writeUnsynced($0, to: path) }
      #expect(written)
      #expect(root.read("entry") == text)
    }
    let missing = root.url.appendingPathComponent("no/such/folder").path
    #expect(!Array("x".utf8).withUnsafeBytes { FileSystem.writeUnsynced($0, to: missing) })
  }

  /// Every byte arrives, also when the text is larger than a pipe holds at once (the reader
  /// drains it meanwhile, as a build system reads the scanner's output).
  @Test func aStandardStreamGetsEveryByte() async throws {
    var descriptors: [Int32] = [0, 0]
    try #require(pipe(&descriptors) == 0)
    let (reading, writing) = (descriptors[0], descriptors[1])
    let text = String(repeating: "line é\n", count: 40_000)
    let reader = Task.detached { () -> [UInt8] in
      var received: [UInt8] = []
      var buffer = [UInt8](repeating: 0, count: 65_536)
      while true {
        let count = buffer.withUnsafeMutableBytes { read(reading, $0.baseAddress, $0.count) }
        if count <= 0 { break }
        received += buffer[..<count]
      }
      close(reading)
      return received
    }
    FileSystem.write(text, toDescriptor: writing)
    close(writing)
    #expect(String(decoding: await reader.value, as: UTF8.self) == text)
  }

  @Test func theExecutablePathIsTheRunningProcess() throws {
    let path = try #require(FileSystem.executablePath)
    #expect(path.hasPrefix("/"))
    #expect(FileSystem.status(path).map { !$0.isDirectory && $0.size > 0 } == true)
    let started = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().path
    #expect(path == started)
  }
}
