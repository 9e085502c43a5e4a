import Foundation
import Observation
import Testing

@testable import Preferences

/// Declarations read through the wrapper, in a store each test empties first.
struct Tracked {
  nonisolated static let store = PreferenceStore.inMemory()
  @Preference(store: Tracked.store) var volume = 0.5
}

enum TrackedKeys: String, PreferenceKeys {
  case count
  var defaultValue: any PreferenceValue { 0 }
}

/// A file another process writes.
struct Shared {
  nonisolated static let store = PreferenceStore.propertyList(
    at: FileManager.default.temporaryDirectory.appendingPathComponent(
      "swift-preferences-tracked-\(UUID().uuidString).plist"))
  @Preference(store: Shared.store) var message = ""
}

/// An `@Observable` model holding a preference: the macro cannot wrap a property wrapper, so the
/// preference is `@ObservationIgnored`; reading it is tracked by the preference itself.
@Observable final class ObservableSettings {
  @ObservationIgnored @Preference(store: Tracked.store) var fontSize = 12.0
  var label: String { "\(fontSize) pt" }
}

/// Read through SwiftUI's `Binding` by the Apple-only `BindingTests`, in a store of its own.
struct Bound {
  nonisolated static let store = PreferenceStore.inMemory()
  @Preference(store: Bound.store) var volume = 0.5
}

/// A plain class holding a preference.
final class PlainSettings {
  @Preference(store: Tracked.store) var fontSize = 12.0
}

/// Whether `read`, tracked by Observation, is invalidated by `change`.
func isInvalidated(reading read: () -> Void, by change: () -> Void) -> Bool {
  let fired = Locked(0)
  withObservationTracking(read) { fired.withLock { $0 += 1 } }
  change()
  return fired.withLock { $0 } == 1
}

/// Every write path invalidates a tracked read once; writes that change nothing invalidate
/// nothing. Reads are tracked through `@Preference`, its projection, the enum-keyed store and
/// the store itself.
@Suite(.serialized) struct ObservationTrackingTests {
  enum Write: String, CaseIterable, CustomTestStringConvertible {
    case wrapper, store, projection, reset, removeAll, migration, registeredDefault, externalChange, sync
    var testDescription: String { rawValue }
  }

  /// Each test starts with nothing stored and the declared default registered (one test
  /// registers another).
  init() {
    Tracked.store.removeAllValues()
    Tracked.store.register(defaults: ["Tracked.volume": 0.5])
  }

  func perform(_ write: Write) {
    let store = Tracked.store
    switch write {
    case .wrapper: Tracked().volume = 0.9
    case .store: store.set(0.9, forKey: "Tracked.volume")
    case .projection: Tracked().$volume.value = 0.9
    case .reset: Tracked().$volume.removeValue()
    case .removeAll: store.removeAllValues()
    case .migration:
      store.set(0.9, forKey: "Tracked.loudness")
      store.migrate(from: ["Tracked.loudness"], to: "Tracked.volume")
    case .registeredDefault:
      // A later registration changes what a key without a stored value reads.
      store.register(defaults: ["Tracked.volume": 0.7])
    case .externalChange:
      store.backend.setValue(.double(0.9), forKey: "Tracked.volume")
      store.externalChange(["Tracked.volume"])
    case .sync:
      let remote = InMemoryRemoteStore()
      let other = PreferenceStore.inMemory()
      let here = PreferenceSync(local: store, remote: remote, keys: ["Tracked.volume"])
      let there = PreferenceSync(local: other, remote: remote, keys: ["Tracked.volume"])
      here.start()
      there.start()
      other.set(0.9, forKey: "Tracked.volume")
      remote.waitUntilDelivered()
      here.stop()
      there.stop()
    }
  }

  @Test(arguments: Write.allCases)
  func aWrapperReadIsInvalidatedByEveryWritePath(write: Write) {
    // The changes that need a stored value first make one, before tracking starts.
    let tracked = Tracked()
    if write == .reset || write == .removeAll {
      Tracked.store.set(0.9, forKey: "Tracked.volume")
      _ = tracked.volume
    }
    let before = tracked.volume
    let invalidated = isInvalidated(reading: { _ = tracked.volume }) { perform(write) }
    #expect(invalidated)
    #expect(tracked.volume != before, "the read after the invalidation sees the change")
  }

  @Test func projectionKeyedAndStoreReadsAreTracked() {
    let tracked = Tracked()
    let keyed = Tracked.store.keyed(by: TrackedKeys.self)
    #expect(
      isInvalidated(reading: { _ = tracked.$volume.value }) {
        Tracked.store.set(0.2, forKey: "Tracked.volume")
      })
    #expect(isInvalidated(reading: { _ = keyed.integer(for: .count) }) { keyed.set(3, for: .count) })
    #expect(
      isInvalidated(reading: { _ = Tracked.store.value(forKey: "Tracked.volume", default: 0.5) }) {
        tracked.volume = 0.3
      })
    #expect(
      isInvalidated(reading: { _ = keyed.integer(for: .count) }) { Tracked.store.set(4, forKey: "count") })
  }

  @Test func writesThatChangeNothingInvalidateNothing() {
    let tracked = Tracked()
    tracked.volume = 0.4
    #expect(!isInvalidated(reading: { _ = tracked.volume }) { tracked.volume = 0.4 })
    #expect(
      !isInvalidated(reading: { _ = tracked.volume }) { Tracked.store.set(0.4, forKey: "Tracked.volume") })
    // Storing the default over nothing stored reads the same.
    tracked.$volume.removeValue()
    #expect(!isInvalidated(reading: { _ = tracked.volume }) { tracked.volume = 0.5 })
    // Another key's change.
    #expect(!isInvalidated(reading: { _ = tracked.volume }) { Tracked.store.set(1, forKey: "count") })
  }

  @Test func anotherProcessesWriteInvalidatesATrackedRead() throws {
    let shared = Shared()
    _ = shared.message
    let fired = Locked(0)
    withObservationTracking({ _ = shared.message }) { fired.withLock { $0 += 1 } }
    let url = (Shared.store.backend as! PropertyListFileBackend).url
    try runHelper(["set-and-exit", url.path, "Shared.message", "from another process"])
    #expect(waitUntil { fired.withLock { $0 } == 1 })
    #expect(shared.message == "from another process")
  }

  @Test func observableAndPlainClassesHoldPreferences() {
    let model = ObservableSettings()
    #expect(model.$fontSize.key == "ObservableSettings.fontSize")
    #expect(isInvalidated(reading: { _ = model.label }) { model.fontSize = 14 })
    #expect(model.label == "14.0 pt")
    #expect(
      isInvalidated(reading: { _ = model.label }) {
        Tracked.store.set(16.0, forKey: "ObservableSettings.fontSize")
      })
    let plain = PlainSettings()
    #expect(plain.$fontSize.key == "PlainSettings.fontSize")
    #expect(isInvalidated(reading: { _ = plain.fontSize }) { PlainSettings().fontSize = 20 })
    #expect(plain.fontSize == 20)
  }
}

#if canImport(SwiftUI)
  import SwiftUI

  /// Apple platforms only (Linux has no SwiftUI): the binding a control gets from
  /// `$volume.binding` reads and writes the preference, and its writes invalidate tracked reads,
  /// as the projection's own writes do on every platform (`.projection` above).
  @Suite struct BindingTests {
    @Test @MainActor func theBindingReadsWritesAndInvalidatesTrackedReads() {
      Bound.store.removeAllValues()
      let bound = Bound()
      let binding = bound.$volume.binding
      #expect(binding.wrappedValue == 0.5)
      #expect(isInvalidated(reading: { _ = bound.volume }) { binding.wrappedValue = 0.8 })
      #expect(Bound.store.value(forKey: "Bound.volume", default: 0.0 as Double) == 0.8)
      #expect(isInvalidated(reading: { _ = binding.wrappedValue }) { bound.volume = 0.3 })
      #expect(binding.wrappedValue == 0.3)
    }
  }
#endif
