// AppKit, as Apple's SDKs show it to Swift (the parts the project uses).
import Foundation
