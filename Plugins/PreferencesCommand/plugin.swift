import PackagePlugin

@main struct PreferencesCommand: CommandPlugin {
  func performCommand(context: PluginContext, arguments: [String]) async throws {}
}
