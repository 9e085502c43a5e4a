// Shared by both plugins (symlinked into each; not the scanner, which does not see PackagePlugin).
import Foundation
import PackagePlugin

extension SourceModuleTarget {
  /// The Swift sources of every module this target depends on, in this package or another, as
  /// the scanner takes them (`MODULE=PATH`): it reads the enums a default names from them.
  /// A macro's module and what it depends on (swift-syntax) are left out: the target never
  /// imports them, and they can be thousands of files.
  var dependencySourceArguments: [String] {
    var seen: Set<String> = []
    var arguments: [String] = []
    func visit(_ dependency: TargetDependency) {
      let targets: [Target]
      switch dependency {
      case .target(let target): targets = [target]
      case .product(let product): targets = product.targets
      @unknown default: targets = []
      }
      for target in targets where seen.insert(target.id).inserted {
        if let module = target.sourceModule {
          // `ModuleKind.macro`: PackagePlugin's since SwiftPM 5.9 (this package needs 6.2).
          if module.kind == .macro { continue }
          arguments += module.sourceFiles(withSuffix: "swift").map {
            PluginShared.dependencySource(module: module.moduleName, path: $0.url.path)
          }
        }
        target.dependencies.forEach(visit)
      }
    }
    dependencies.forEach(visit)
    return arguments
  }
}
