import Foundation

#if canImport(Observation)
  import Observation
#endif

/// One preference of one store as an `Observable` value: every read through the library
/// registers an access to its cell, and every actual change of the key's value is a mutation of
/// it, so a SwiftUI `body`, an `@Observable` model's computed property, or
/// `withObservationTracking` that read the preference is invalidated when it changes.
///
/// The cell holds no value of its own; the store decides when the value changed.
@usableFromInline
final class PreferenceCell: Sendable {
  /// The key this cell stands for.
  let key: String
  #if canImport(Observation)
    @usableFromInline let registrar = ObservationRegistrar()
  #endif

  init(key: String) { self.key = key }

  /// A stand-in for the value, for key paths.
  @usableFromInline var value: Void { () }

  /// The key path every access and mutation names, kept by each cell: a read loads it from the
  /// cell it already holds. Forming the literal on each read costs more than the rest of a
  /// cached read, and a shared `static let` costs a lazy-initialization check (`swift_once`) on
  /// every read.
  ///
  /// `nonisolated(unsafe)` is safe: a key path is an immutable object once formed (the standard
  /// library does not mark `KeyPath` `Sendable`, only key path literals it can prove are), and
  /// this `let` is never reassigned.
  @usableFromInline nonisolated(unsafe) let keyPath: KeyPath<PreferenceCell, Void> = \.value

  /// Registers an access with the Observation framework, if a tracking scope is active.
  @inlinable @inline(__always)
  func track() {
    #if canImport(Observation)
      registrar.access(self, keyPath: keyPath)
    #endif
  }

  /// Tells the Observation framework that the value changed.
  func changed() {
    #if canImport(Observation)
      registrar.withMutation(of: self, keyPath: keyPath) {}
    #endif
  }
}
