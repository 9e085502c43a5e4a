import Foundation
import PreferencesScannerCore

exit(ScannerCommand().run(Array(CommandLine.arguments.dropFirst())))
