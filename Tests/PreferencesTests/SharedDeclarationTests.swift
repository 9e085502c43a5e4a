import Foundation
import Observation
import Synchronization
import Testing

@_spi(Generated) @testable import Preferences

/// Settings declared once, as a port from Defaults declares them: key, store and default here.
struct SharedSettings {
  nonisolated static let memory = PreferenceStore.inMemory()

  @Preference(key: "showFooter", store: SharedSettings.memory) var showFooter = true
  @Preference var fontScale = SharedSettings.defaultScale()
  @Preference var recent: [String] = ["Inbox"]

  static func defaultScale() -> Double { 1.5 }
}

/// Static settings, in a type isolated to a global actor as Swift 6 requires of static wrappers.
@MainActor enum SharedCounters {
  @Preference static var launches = 7
}

/// Views that show those settings: one line each, no key, store or default repeated.
struct FooterView {
  @Preference(\SharedSettings.showFooter) var showFooter
  @Preference(\SharedSettings.fontScale) var scale
}

@MainActor struct CounterView {
  @Preference(\SharedCounters.Type.launches) var launches
  @Preference(\SharedSettings.showFooter) static var footerShown
}

struct HistoryView {
  @Preference(\SharedSettings.recent) var recent: [String]
}

@Suite struct SharedDeclarationTests {
  @Test @MainActor func aSharingDeclarationReadsTheDefaultsOfTheDeclarationItNames() {
    PreferenceStandIns().run {
      let view = FooterView()
      #expect(view.showFooter == true)
      #expect(view.scale == 1.5)
      #expect(CounterView().launches == 7)
      #expect(HistoryView().recent == ["Inbox"])
      #expect(view.$scale.defaultValue == 1.5)
    }
  }

  @Test @MainActor func itTakesTheKeyAndStoreOfTheDeclarationItNames() {
    PreferenceStandIns().run {
      let (view, settings) = (FooterView(), SharedSettings())
      #expect(view.$showFooter.key == "showFooter")
      #expect(view.$showFooter.store === settings.$showFooter.store)
      #expect(view.$scale.key == "SharedSettings.fontScale")
      #expect(CounterView().$launches.key == "SharedCounters.launches")
      #expect(CounterView.$footerShown.key == "showFooter")
    }
  }

  @Test @MainActor func aWriteThroughEitherIsReadThroughTheOther() {
    PreferenceStandIns().run {
      let (view, settings) = (FooterView(), SharedSettings())
      view.showFooter = false
      #expect(settings.showFooter == false)
      #expect(CounterView.footerShown == false)
      settings.fontScale = 2
      #expect(view.scale == 2)
      SharedCounters.launches = 8
      #expect(CounterView().launches == 8)
      view.$scale.removeValue()
      #expect(settings.fontScale == 1.5)
    }
  }

  @Test func aTrackedReadOfASharingDeclarationSeesWritesThroughTheDeclaration() {
    PreferenceStandIns().run {
      let (view, settings) = (FooterView(), SharedSettings())
      let changed = Mutex(false)
      withObservationTracking {
        _ = view.scale
      } onChange: {
        changed.withLock { $0 = true }
      }
      settings.fontScale = 3
      #expect(changed.withLock { $0 })
    }
  }

  @Test func theRegistryListsEachPreferenceOnceWithTheLocationsThatShareIt() throws {
    let records = PreferenceRegistry.preferences.filter { $0.key == "SharedSettings.fontScale" }
    #expect(records.count == 1)
    let catalog = RegistryCatalog.of(PreferenceRegistry.self)
    let entry = try #require(catalog.allEntries().first { $0.descriptor.key == "SharedSettings.fontScale" })
    // The line of `@Preference(\SharedSettings.fontScale) var scale` in this file.
    let line = try #require(Self.line(of: "@Preference(\\SharedSettings.fontScale) var scale"))
    let shared = try #require(catalog.entry(fileID: #fileID, location: UInt64(line)))
    #expect(shared === entry)
  }

  /// The line of this file that contains `text`, as `#line` counts.
  static func line(of text: String) -> Int? {
    let source = try? String(contentsOfFile: #filePath, encoding: .utf8)
    return source?.split(separator: "\n", omittingEmptySubsequences: false).firstIndex {
      $0.contains(text) && !$0.contains("firstIndex")
    }.map { $0 + 1 }
  }
}
