// Conditions with comments in them, nested groups and #elseif chains.
struct Platform {
  #if os(macOS) /* Apple desktops */ || os(Linux)  // and servers
    @Preference(sync: true) var syncedOnDesktop = "desktop"
  #elseif os(iOS)
    @Preference(sync: true) var syncedOnDesktop = "phone"
  #else
    @Preference(sync: true) var syncedOnDesktop = "other"
  #endif

  #if DEBUG
    #if canImport(Foundation)
      @Preference var nested = "debug+foundation"
    #else
      @Preference var nested = "debug"
    #endif
  #else
    @Preference var nested = "release"
  #endif
}
