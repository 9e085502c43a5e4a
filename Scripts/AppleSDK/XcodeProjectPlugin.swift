// XcodeProjectPlugin, as Xcode 16 and later show it to a package plugin. Apple documents the
// module in prose only (https://developer.apple.com/documentation/xcode/writing-a-build-tool-plug-in,
// "Add support for Xcode projects"); the declarations follow Xcode 14.1's published interface
// (gist ikesyo/f152bf8ee60b1c9bff2e757b01a95fa9) plus the URL-based members Xcode 16 added
// beside PackagePlugin's (`directoryURL`, `pluginWorkDirectoryURL`). Nothing here is `Sendable`,
// like PackagePlugin's `File`, `FileList`, `Tool` and `Command`. PackagePlugin is the
// toolchain's own on every platform.
@_exported import PackagePlugin
import Foundation

/// A build-tool plugin's entry point for Xcode targets.
public protocol XcodeBuildToolPlugin: Plugin {
  func createBuildCommands(context: XcodePluginContext, target: XcodeTarget) throws -> [Command]
}

/// A command plugin's entry point for Xcode projects.
public protocol XcodeCommandPlugin: Plugin {
  func performCommand(context: XcodePluginContext, arguments: [String]) throws
}

/// What Xcode tells a plugin about the project.
public struct XcodePluginContext {
  public let xcodeProject: XcodeProject
  @available(_PackageDescription, deprecated: 6.0, renamed: "pluginWorkDirectoryURL")
  public var pluginWorkDirectory: Path { fatalError() }
  @available(_PackageDescription, introduced: 6.0)
  public var pluginWorkDirectoryURL: URL { fatalError() }
  public func tool(named name: String) throws -> PluginContext.Tool { fatalError() }
}

/// An Xcode project.
public struct XcodeProject {
  public typealias ID = String
  public let id: ID
  public let displayName: String
  @available(_PackageDescription, deprecated: 6.0, renamed: "directoryURL")
  public var directory: Path { fatalError() }
  @available(_PackageDescription, introduced: 6.0)
  public var directoryURL: URL { fatalError() }
  public let filePaths: PathList
  public let targets: [XcodeTarget]
}

/// A target of an Xcode project.
public struct XcodeTarget {
  public typealias ID = String
  public let id: ID
  public let displayName: String
  public let product: XcodeProduct?
  public let inputFiles: FileList
}

/// The product an Xcode target builds.
public struct XcodeProduct {
  public typealias ID = String
  public let id: ID
  public let name: String
}
