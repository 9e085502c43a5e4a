import PackagePlugin

@main struct PreferenceRegistryPlugin: BuildToolPlugin {
  func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] { [] }
}
