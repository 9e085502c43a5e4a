// Dispatch, as Apple's SDKs show it to Swift: what only Apple's Dispatch has. The rest is
// Linux's Dispatch underneath, the same library (swift-corelibs-libdispatch).
@_exported import Dispatch

/// https://developer.apple.com/documentation/dispatch/dispatchsourcefilesystemobject
public protocol DispatchSourceFileSystemObject: DispatchSourceProtocol {
  var handle: Int32 { get }
  var data: DispatchSource.FileSystemEvent { get }
  var mask: DispatchSource.FileSystemEvent { get }
}

extension DispatchSource {
  /// https://developer.apple.com/documentation/dispatch/dispatchsource/makefilesystemobjectsource(filedescriptor:eventmask:queue:)
  public class func makeFileSystemObjectSource(
    fileDescriptor: Int32, eventMask: DispatchSource.FileSystemEvent, queue: DispatchQueue? = nil
  ) -> any DispatchSourceFileSystemObject { fatalError() }
}
