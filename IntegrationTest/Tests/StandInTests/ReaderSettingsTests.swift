import Foundation
import Preferences
import PreferencesTesting
import Testing

/// A settings type as an app declares it; in these targets it is main-actor isolated by default.
struct ReaderSettings {
  @Preference var fontSize = 14
  @Preference(store: .suite("integration.stand-ins.reader")) var theme = "light"
}

/// What a user's tests write with the trait: parallel tests over the same preferences, each from
/// the declared defaults, none reaching the real stores.
@Suite(.isolatedPreferences)
struct ReaderSettingsTests {
  @Test(arguments: 1...10)
  func eachTestStartsFromTheDefaultsAndReadsItsOwnWrites(_ size: Int) async {
    let settings = ReaderSettings()
    #expect(settings.fontSize == 14 && settings.theme == "light")
    settings.fontSize = size
    settings.theme = "theme \(size)"
    for _ in 0..<10 { await Task.yield() }
    #expect(settings.fontSize == size && settings.theme == "theme \(size)")
    let real = await Task.detached {
      PreferenceStore.default.hasStoredValue(forKey: "ReaderSettings.fontSize")
        || PreferenceStore.suite("integration.stand-ins.reader").hasStoredValue(forKey: "ReaderSettings.theme")
    }.value
    #expect(!real, "the real stores are untouched")
  }

  @Test func standInsWorkAroundAnyCodeToo() async {
    let standIns = PreferenceStandIns()
    await standIns.run {
      ReaderSettings().fontSize = 30
      #expect(ReaderSettings().fontSize == 30)
    }
    #expect(standIns.writesOutside.isEmpty)
  }
}
