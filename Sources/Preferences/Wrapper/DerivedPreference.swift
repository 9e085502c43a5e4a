import Foundation

/// The property wrapper behind `@Preference`: a value stored under a key that the build plugin
/// derived from the enclosing type and property names.
///
/// You write `@Preference`; the registry that `PreferenceRegistryPlugin` generates declares
/// `typealias Preference<Value> = DerivedPreference<Value, PreferenceRegistry>` in your module.
///
/// ```swift
/// struct ContentView: View {
///   @Preference var username = "Anonymous"               // key "ContentView.username"
///   @Preference(key: "HighScore") var highScore = 0       // an explicit key for existing data
///   @Preference(store: .suite("group.com.example")) var shared = false
///
///   var body: some View {
///     TextField("Name", text: $username.binding)         // refreshes when the value changes
///   }
/// }
/// ```
///
/// Creating the wrapper records where it was declared (two words) and keeps nothing else, not
/// even the default, which the generated registry evaluates once, for every instance. The first
/// read registers every default of the module with the store; later reads come from the store's
/// cache. Every read is tracked by the Observation framework, so a SwiftUI view (or an
/// `@Observable` model) that reads a preference is updated when it changes, from any source.
@propertyWrapper
public struct DerivedPreference<Value: PreferenceValue, Registry: GeneratedPreferenceRegistry>: Sendable {
  // Only the declaration's location: creating a wrapper (which happens every time its enclosing
  // value is created) stores two words, and does nothing else (but for the few declarations
  // that keep their default or their store, which the registry cannot evaluate: those hand it
  // over at their first creation and check one lock after). Not even the default: it comes
  // from the registry (see `DeclarationDefaults`), so the wrapper is a trivial value, which the
  // optimizer creates and destroys as it does plain integers.
  // The address of the `#fileID` literal: immortal, immutable text, so sharing it is safe.
  @usableFromInline let fileIDAddress: UInt
  // The declaration's line: with its file, what finds it in the registry (the scanner allows
  // one `@Preference` per line). No `#column`: it cost every declaration's compile a third
  // more than the other two literals together (Benchmarks/README.md).
  @usableFromInline let location: UInt64

  /// Declares a preference whose key is derived from the enclosing type and property name:
  /// `@Preference var username = "Anonymous"`.
  ///
  /// Options come in this order, each optional, and are read from source by the build plugin:
  ///
  /// - `key:` An explicit key, for data stored under a name that does not follow the
  ///   `Type.property` scheme. A string literal.
  /// - `store:` The store for this preference; ``PreferenceStore/default`` if omitted. The build
  ///   plugin evaluates this expression in the generated registry.
  /// - `movedFrom:` The store this preference was kept in before `store:` named another: its
  ///   value moves to the new store once, when the new store holds none.
  /// - `format:` How the value is stored: ``PreferenceFormat/propertyList`` (the default) or
  ///   ``PreferenceFormat/json``, for data that other code stored as JSON text. A literal.
  /// - `sync:` Whether ``PreferenceSync`` mirrors this preference to the user's other devices
  ///   (listed in `PreferenceRegistry.syncedKeys`). A literal.
  /// - `settings:` Whether `swift package preferences export --format settings-plist` lists this
  ///   preference in the iOS Settings app's `Root.plist`. A literal.
  /// - `exported:` `false` for device state or a secret: an export of the user's values
  ///   (`PreferenceRegistry.exportValues()`) leaves it out, an import does not set it, and
  ///   `PreferenceRegistry.resetAllValues()` keeps it. A literal.
  /// - `renamedFrom:` Keys this preference was stored under before a rename, newest first.
  ///   String literals.
  ///
  /// The initializers that take options are generated into your module with its registry, one for
  /// each combination of options the module's declarations write
  /// (`@Preference(key: "HighScore") var highScore = 0` gets
  /// `init(wrappedValue:key:fileID:line:)`). The compiler matches every declaration of a module
  /// against every initializer it can see, in every build, so initializers for options a module
  /// never writes would slow the compile of every declaration. An option the module has not
  /// used before is known to the compiler once the plugin has run, at the next build (until
  /// then, an editor may flag it).
  ///
  /// - Parameters:
  ///   - wrappedValue: The default value, used until a value is stored. Like a stored property's
  ///     initial value, it is evaluated each time the enclosing value is created (the optimizer
  ///     drops the evaluation of a literal, which the wrapper does not keep); what reads use is the
  ///     registry's evaluation, registered with the store.
  ///   - fileID: Where the declaration is, as the compiler reports it; leave the default.
  ///   - line: Likewise. A file declares at most one preference per line: its file and line
  ///     are what find its key.
  @inlinable
  public init(wrappedValue: Value, fileID: StaticString = #fileID, line: UInt = #line) {
    self.init(fileID: fileID, line: line, default: wrappedValue)
  }

  /// Declares an optional preference without a default: `@Preference var lastSearch: String?`
  /// reads `nil` until a value is stored, like a plain optional property. It takes the options of
  /// ``init(wrappedValue:fileID:line:)``, through initializers generated likewise
  /// (`@Preference(key: "query") var lastSearch: String?`).
  @inlinable
  public init(fileID: StaticString = #fileID, line: UInt = #line) where Value: ExpressibleByNilLiteral {
    self.init(fileID: fileID, line: line, default: nil)
  }

  /// What the initializers generated for a module's options create: a preference declared at
  /// `fileID` and `line` with `defaultValue`. Generated code only.
  @_spi(Generated) @inlinable
  public static func _declared(fileID: StaticString, line: UInt, default defaultValue: Value) -> Self {
    Self(fileID: fileID, line: line, default: defaultValue)
  }

  /// What the initializers generated for a module's options that include `store:` create: a
  /// preference declared at `fileID` and `line` with `defaultValue`, which evaluates `store` when
  /// its `store:` names a private member that generated code cannot see
  /// (``GeneratedPreferenceRegistry/_keepsStore(line:)``). Generated code only.
  @_spi(Generated) @inlinable
  public static func _declared(
    fileID: StaticString, line: UInt, default defaultValue: Value, store: @autoclosure () -> PreferenceStore
  ) -> Self {
    let declared = Self(fileID: fileID, line: line, default: defaultValue)
    if Registry._keepsStore(line: line) { declared.keep(store) }
    return declared
  }

  /// Gives the registry the store this declaration evaluates, if its record says that the
  /// declaration keeps its store (`_keepsStore(line:)` names lines, which declarations in other
  /// files share). Every creation gives it until one has finished doing so (the first store
  /// given wins), so that no value of the declaration resolves its store before the registry
  /// knows it; later creations evaluate nothing.
  @usableFromInline
  func keep(_ store: () -> PreferenceStore) {
    let location = DeclarationDefaults.Location(address: fileIDAddress, line: location)
    guard !KeptStores.locations.withLock({ $0.contains(location) }) else { return }
    let catalog = RegistryCatalog.of(Registry.self)
    let fileID = String(cString: UnsafePointer<CChar>(bitPattern: fileIDAddress)!)
    if let entry = catalog.entry(fileID: fileID, location: self.location),
      entry.core.storeIsKeptByDeclaration
    {
      // Evaluated as the registry evaluates every store: outside a test's stand-ins, whose
      // factories would otherwise make it a stand-in for the whole process.
      catalog.keepStore(PreferenceStandIns.outside(store), of: entry)
    }
    KeptStores.locations.withLock { _ = $0.insert(location) }
  }

  /// What the initializer generated for `@Preference(\Settings.showFooter) var showFooter`
  /// creates: a declaration at `fileID` and `line` that shares another declaration's preference
  /// (whose registry record lists this location), so it keeps no default. Generated code only.
  @_spi(Generated) @inlinable
  public static func _sharing(fileID: StaticString, line: UInt) -> Self {
    Self(sharingAt: fileID, line: line)
  }

  /// A declaration that shares another's preference: its location only.
  @inlinable
  init(sharingAt fileID: StaticString, line: UInt) {
    self.fileIDAddress = UInt(bitPattern: fileID.utf8Start)
    self.location = UInt64(line)
  }

  /// What every declaration form stores: where the declaration is. The default is kept only
  /// where the registry cannot evaluate it (the generated `_keepsDefault(line:)`, folded into a
  /// constant by the optimizer); the other arguments are read by the build plugin from source.
  ///
  /// The default is taken as a value, not an `@autoclosure` that would spare its evaluation: an
  /// autoclosure made the edit that shifts lines build markedly slower than the keyed wrapper
  /// (`Scripts/plugin-build-benchmark.sh`; the figures are in Benchmarks/README.md).
  @inlinable
  init(fileID: StaticString, line: UInt, default defaultValue: Value) {
    self.fileIDAddress = UInt(bitPattern: fileID.utf8Start)
    self.location = UInt64(line)
    if Registry._keepsDefault(line: line) {
      DeclarationDefaults.keep(defaultValue, fileIDAddress, location, fromDeclaration: true)
    }
  }

  /// The stored value, or the default.
  public var wrappedValue: Value {
    @inlinable get {
      if let (number, registry, store) = DeclarationTable.lookup(fileIDAddress, location),
        let value = store._withUnsafeGuaranteedRef({
          $0.cachedValue(number: number, registry: registry, as: Value.self)
        })
      {
        return value
      }
      return read()
    }
    nonmutating set {
      let (resolution, store) = resolve()
      store.set(newValue, forKey: resolution.key)
    }
  }

  /// Access to the key, the stored state, observation and reset: `$username.key`,
  /// `$username.removeValue()`, `$username.binding` (SwiftUI).
  public var projectedValue: PreferenceProjection<Value> {
    let (resolution, store) = resolve()
    return PreferenceProjection(key: resolution.key, store: store) { [self] in
      declaredDefault(resolution, store)
    }
  }

  /// The key this preference is stored under.
  public var key: String { resolve().resolution.key }

  /// The store this preference lives in.
  public var store: PreferenceStore { resolve().store }

  /// The read when the value is not cached, or the declaration not resolved yet.
  @usableFromInline
  func read() -> Value {
    let (resolution, store) = resolve()
    return store.value(number: resolution.number, key: resolution.key) { declaredDefault(resolution, store) }
  }

  /// The declaration's default: the one its initializer kept, else the registry's, decoded once
  /// (see ``DeclarationDefaults``).
  func declaredDefault(_ resolution: DeclarationTable.Resolution, _ store: PreferenceStore) -> Value {
    if let (value, fromDeclaration) = DeclarationDefaults.kept(fileIDAddress, location, as: Value.self) {
      // The registry cannot evaluate this default: the first read registers it.
      if fromDeclaration, store.registeredDefault(forKey: resolution.key) == nil,
        let encoded = try? store.encode(value, forKey: resolution.key)
      {
        store.register(encoded: [resolution.key: encoded])
      }
      return value
    }
    let value: Value
    let fileID = String(cString: UnsafePointer<CChar>(bitPattern: fileIDAddress)!)
    let catalog = RegistryCatalog.of(Registry.self)
    let entry = catalog.entry(fileID: fileID, location: location)
    if let entry, let stored = catalog.declaredDefault(of: entry, in: store),
      let decoded: Value = try? PreferenceStore.decode(stored, json: entry.core.format == .json)
    {
      value = decoded
    } else if let none = (Value.self as? any ExpressibleByNilLiteral.Type)?.init(nilLiteral: ()) as? Value {
      value = none
    } else {
      // A declaration the registry does not list (reported when it was resolved), or one whose
      // default did not encode.
      if entry != nil {
        PreferenceDiagnostics.report(
          .encodingFailed(
            key: resolution.key, type: String(describing: Value.self),
            reason:
              "the registry could not store its default, so reads that find no value return a substitute"))
      }
      value = DeclarationDefaults.substitute(
        as: Value.self,
        why: "@Preference '\(resolution.key)' (\(fileID):\(location)) has no default the registry can give")
    }
    DeclarationDefaults.keep(value, fileIDAddress, location, fromDeclaration: false)
    return value
  }

  /// This declaration's key and store, resolved through the registry once; registers the
  /// module's defaults with the store on its first use.
  func resolve() -> (resolution: DeclarationTable.Resolution, store: PreferenceStore) {
    let resolution =
      DeclarationTable.resolution(fileIDAddress, location)
      ?? DeclarationResolver.resolve(Registry.self, fileIDAddress: fileIDAddress, location: location)
    let store =
      if let declared = resolution.store {
        PreferenceStandIns.current?.store(standingInFor: declared) ?? declared
      } else {
        PreferenceStore.default
      }
    if !store.hasRegistered(registry: resolution.registry) {
      RegistryCatalog.of(Registry.self).ensureRegistered(in: store)
    }
    return (resolution, store)
  }
}

/// A type that declares preferences keeps its synthesized `Equatable` and `Hashable`
/// conformances.
///
/// Every instance's preference of one declaration is the same stored value (one key, one store),
/// so two wrappers are equal when they come from the same declaration, whatever the value: the
/// comparison reads no store. `struct Filter: Hashable { var text = ""; @Preference var ascending
/// = true }` compares and hashes by `text`.
extension DerivedPreference: Hashable {
  /// Whether both wrappers come from the same declaration, which is to say they read and write
  /// the same stored value.
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.fileIDAddress == rhs.fileIDAddress && lhs.location == rhs.location
  }

  /// Hashes the declaration, as `==` compares it.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(fileIDAddress)
    hasher.combine(location)
  }
}

/// What `print` and `dump` of a type that declares preferences show for each: its key and its
/// current value, `Preference("ContentView.username": "Paul")`, not the wrapper's fields.
extension DerivedPreference: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
  /// The key and the current value, as `"key": value`.
  public var description: String {
    let (key, value) = keyAndValue()
    var text = ""
    debugPrint(key, terminator: ": ", to: &text)
    debugPrint(value, terminator: "", to: &text)
    return text
  }

  /// `Preference(` the key and the current value `)`.
  public var debugDescription: String { "Preference(\(description))" }

  /// The key and the current value, for `dump` and debuggers.
  public var customMirror: Mirror {
    let (key, value) = keyAndValue()
    return Mirror(self, children: ["key": key, "value": value], displayStyle: .struct)
  }

  /// The key, and the value a read returns.
  private func keyAndValue() -> (key: String, value: Value) {
    let (resolution, store) = resolve()
    return (
      resolution.key,
      store.value(number: resolution.number, key: resolution.key) { declaredDefault(resolution, store) }
    )
  }
}

/// Resolves declarations through their registry, and says so loudly when a declaration has no
/// entry (a stale build, or a declaration the scanner could not read).
enum DeclarationResolver {
  static func resolve<Registry: GeneratedPreferenceRegistry>(
    _ registry: Registry.Type, fileIDAddress: UInt, location: UInt64
  ) -> DeclarationTable.Resolution {
    let fileID = String(cString: UnsafePointer<CChar>(bitPattern: fileIDAddress)!)
    let catalog = RegistryCatalog.of(registry)
    let resolution: DeclarationTable.Resolution
    if let entry = catalog.entry(fileID: fileID, location: location) {
      let store = catalog.store(of: entry)
      if entry.core.storeIsKeptByDeclaration, let store {
        // A declaration that keeps its store is resolved after its first creation gave the
        // store, so every registration of a store that starts later includes it; one that ran
        // before (or runs now) did not: it is registered here, before the resolution is
        // published for the fast read path.
        let target = PreferenceStandIns.current?.store(standingInFor: store) ?? store
        if !target.hasRegistered(registry: catalog.number) { catalog.ensureRegistered(in: target) }
        catalog.registerKept(entry, in: target)
      }
      resolution = DeclarationTable.Resolution(
        number: KeyNumbers.number(of: entry.core.key), registry: catalog.number,
        store: store, key: entry.core.key, format: entry.core.format)
    } else {
      let place = "\(fileID):\(location)"
      PreferenceDiagnostics.report(.unresolvedDeclaration(location: place))
      resolution = DeclarationTable.Resolution(
        number: KeyNumbers.number(of: place), registry: catalog.number, store: UnresolvedStore.shared,
        key: place,
        format: .propertyList)
    }
    DeclarationTable.insert(resolution, fileIDAddress, location)
    return resolution
  }
}

/// The declarations whose store the registry has been given (see `DerivedPreference.keep(_:)`).
enum KeptStores {
  static let locations = Locked<Set<DeclarationDefaults.Location>>([])
}

/// Where values of declarations without a registry entry are kept: memory only, so that a
/// made-up key never reaches the user's stored data. Reaching it is reported loudly.
private enum UnresolvedStore {
  static let shared = PreferenceStore.inMemory()
}

/// The projected value of `@Preference`: `$name.key`, `$name.hasStoredValue`,
/// `$name.removeValue()`.
public struct PreferenceProjection<Value: PreferenceValue>: Sendable {
  /// The key the value is stored under.
  public let key: String
  /// The store the value lives in.
  public let store: PreferenceStore
  /// The declared default value.
  public var defaultValue: Value { declaredDefault() }
  private let declaredDefault: @Sendable () -> Value

  init(key: String, store: PreferenceStore, defaultValue: @escaping @Sendable () -> Value) {
    self.key = key
    self.store = store
    self.declaredDefault = defaultValue
  }

  /// The current value; reading it is tracked by the Observation framework.
  public var value: Value {
    get { store.value(forKey: key, default: defaultValue) }
    nonmutating set { store.set(newValue, forKey: key) }
  }

  /// Whether a value is explicitly stored (as opposed to the default being used).
  public var hasStoredValue: Bool { store.hasStoredValue(forKey: key) }

  /// Removes the stored value, so that the preference reads its default again.
  public func removeValue() { store.removeValue(forKey: key) }
}
