import PreferencesScannerCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

exit(ScannerCommand().run(Array(CommandLine.arguments.dropFirst())))
