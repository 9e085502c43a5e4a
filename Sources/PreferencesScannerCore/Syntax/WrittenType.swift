/// A type as written in source, taken apart once: the model the analyses read a written type
/// through (its optionals, collections, dotted components and generic arguments, tuples,
/// function types, protocol types and metatypes), instead of each cutting the text at brackets
/// and colons again.
///
/// `[[String: Theme]]` is an array of dictionaries from `String` to `Theme`; `Kit.Theme?` an
/// optional of the type named `Kit`, `Theme`; `Box<Int>.Mode` a type nested in a generic one;
/// `[any P.Type]` an array of existential metatypes. What the model does not take apart (`~Copyable`,
/// `repeat each T`, text whose brackets do not balance) is ``other(_:)``, which the analyses leave to the compiler.
package indirect enum WrittenType: Hashable, Sendable {
  /// `T?`, `T!`, `Optional<T>`.
  case optional(WrittenType)
  /// `[T]`, `Array<T>`.
  case array(WrittenType)
  /// `Set<T>`.
  case set(WrittenType)
  /// `[K: V]`, `Dictionary<K, V>`.
  case dictionary(key: WrittenType, value: WrittenType)
  /// A nominal type by its dotted components, each with its generic arguments: `Kit.Theme`,
  /// `Pair<Int>`, `Box<Int>.Mode`.
  case named([Component])
  /// `()`, `(Int, String)`, `(x: Int, y: Int)`: the elements' types, and the tuple as written
  /// (its labels; blanks made one space), which ``text`` and ``code`` write. A type in
  /// parentheses alone, `(Int)`, is that type.
  case tuple([WrittenType], written: String)
  /// `(Int) -> Bool`, `@Sendable () async throws -> Void`: the parameters' and the result's
  /// types, and the function type as written (its attributes, labels and effects).
  case function(parameters: [WrittenType], result: WrittenType, written: String)
  /// `any P`, `any P & Q`.
  case existential(WrittenType)
  /// `some P`.
  case opaque(WrittenType)
  /// `P & Q`.
  case composition([WrittenType])
  /// `T.Type`, or `T.Protocol` (`isProtocol`).
  case metatype(WrittenType, isProtocol: Bool)
  /// A fixed-size inline array (Swift 6.2) written `[3 of Int]`, as written. (`InlineArray<3,
  /// Int>` is a named type, arguments and all.)
  case inlineArray(String)
  /// Anything else, as written.
  case other(String)

  /// One dotted component of a named type.
  package struct Component: Hashable, Sendable {
    /// The name, without backticks (`Type` of `` Item.`Type` ``): as declarations name it.
    package var name: String
    package var arguments: [WrittenType]
    /// Whether it was written in backticks, as it is written again.
    package var isEscaped: Bool

    package init(name: String, arguments: [WrittenType] = [], isEscaped: Bool = false) {
      self.name = name
      self.arguments = arguments
      self.isEscaped = isEscaped
    }

    /// The name as written: in backticks where it was.
    var spelled: String { isEscaped ? "`" + name + "`" : name }

    /// A component naming the declaration `name`, in backticks where a path must write it so
    /// (`` Item.`Type` ``, a keyword).
    package static func declared(_ name: String) -> Component {
      Component(name: name, isEscaped: SwiftIdentifier.keywords.contains(name))
    }
  }

  /// Nested deeper than this (optionals counted), a type is ``other(_:)``: bounded work for any
  /// text.
  static let depthLimit = 32

  /// `text` taken apart.
  package init(parsing text: some StringProtocol) {
    // Most types are one name or a dotted path (`String`, `Kit.Theme`): read without the parser,
    // which the unoptimized scanner users run would make a tenth of a scan (MAINTAINERS.md's
    // debug-build rules).
    if let path = Self.plainPath(String(text)) {
      self = .named(path.map { Component(name: $0) })
      return
    }
    var parser = Parser(bytes: Array(text.utf8))
    if let type = parser.type(depth: 0), parser.atEnd {
      self = type
    } else {
      self = .other(String(text).trimmingBlanks())
    }
  }

  /// The components of `text` if it is identifiers joined by single dots, and nothing else.
  private static func plainPath(_ text: String) -> [String]? {
    var components: [String] = []
    return text.utf8.withContiguousStorageIfAvailable { bytes -> [String]? in
      var start = 0
      var index = 0
      while index <= bytes.count {
        if index == bytes.count || bytes[index] == 0x2E {  // `.`
          guard index > start, !(bytes[start] >= 0x30 && bytes[start] <= 0x39) else { return nil }
          components.append(
            String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self))
          start = index + 1
        } else if !Parser.isIdentifierByte(bytes[index]) || bytes[index] == 0x60 {  // not a backtick either
          return nil
        }
        index += 1
      }
      // `Int.Type` is a metatype.
      guard components.count < 2 || (components.last != "Type" && components.last != "Protocol") else {
        return nil
      }
      return components
    } ?? nil
  }

  /// The names of a ``named(_:)`` type's components (`["Box", "Mode"]` for `Box<Int>.Mode`), or
  /// `nil` for any other type.
  package var componentNames: [String]? {
    guard case .named(let components) = self else { return nil }
    return components.map(\.name)
  }

  /// The names of a ``named(_:)`` type none of whose components has generic arguments
  /// (`["Kit", "Theme"]`), or `nil`.
  package var path: [String]? {
    guard case .named(let components) = self, components.allSatisfy(\.arguments.isEmpty) else { return nil }
    return components.map(\.name)
  }

  /// The type without its optionals (`Theme` of `Theme??`), and whether it had any.
  package var unwrapped: (type: WrittenType, isOptional: Bool) {
    var type = self
    var isOptional = false
    while case .optional(let wrapped) = type {
      type = wrapped
      isOptional = true
    }
    return (type, isOptional)
  }

  /// The types this one is made of, in the order written: an optional's, a collection's
  /// elements, generic arguments, tuple elements, a function's parameters and result.
  package var parts: [WrittenType] {
    switch self {
    case .optional(let inner), .array(let inner), .set(let inner), .existential(let inner),
      .opaque(let inner),
      .metatype(let inner, _):
      [inner]
    case .dictionary(let key, let value): [key, value]
    case .named(let components): components.flatMap(\.arguments)
    case .tuple(let elements, _), .composition(let elements): elements
    case .function(let parameters, let result, _): parameters + [result]
    case .inlineArray, .other: []
    }
  }

  /// The type with each ``named(_:)`` path, at any depth, replaced by what `transform` makes of
  /// it (its generic arguments already transformed).
  package func mappingPaths(_ transform: ([Component]) -> [Component]) -> WrittenType {
    switch self {
    case .optional(let inner): .optional(inner.mappingPaths(transform))
    case .array(let inner): .array(inner.mappingPaths(transform))
    case .set(let inner): .set(inner.mappingPaths(transform))
    case .dictionary(let key, let value):
      .dictionary(key: key.mappingPaths(transform), value: value.mappingPaths(transform))
    case .named(let components):
      // Most paths have no generic arguments: nothing inside to map.
      .named(
        transform(
          components.allSatisfy(\.arguments.isEmpty)
            ? components
            : components.map {
              Component(
                name: $0.name, arguments: $0.arguments.map { $0.mappingPaths(transform) },
                isEscaped: $0.isEscaped)
            }))
    // As written where nothing in it changed; else written from its parts.
    case .tuple(let elements, let written):
      Self.tuple(mapping: elements, written: written, transform)
    case .function(let parameters, let result, let written):
      Self.function(mapping: parameters, result, written: written, transform)
    case .existential(let inner): .existential(inner.mappingPaths(transform))
    case .opaque(let inner): .opaque(inner.mappingPaths(transform))
    case .composition(let parts): .composition(parts.map { $0.mappingPaths(transform) })
    case .metatype(let inner, let isProtocol):
      .metatype(inner.mappingPaths(transform), isProtocol: isProtocol)
    case .inlineArray, .other: self
    }
  }

  private static func tuple(
    mapping elements: [WrittenType], written: String, _ transform: ([Component]) -> [Component]
  ) -> WrittenType {
    let mapped = elements.map { $0.mappingPaths(transform) }
    return .tuple(mapped, written: mapped == elements ? written : "")
  }

  private static func function(
    mapping parameters: [WrittenType], _ result: WrittenType, written: String,
    _ transform: ([Component]) -> [Component]
  ) -> WrittenType {
    let mapped = parameters.map { $0.mappingPaths(transform) }
    let mappedResult = result.mappingPaths(transform)
    return .function(
      parameters: mapped, result: mappedResult,
      written: mapped == parameters && mappedResult == result ? written : "")
  }

  /// The first name of every type path in the type, at any depth, in the order written (`Kit`
  /// and `Int` of `Kit.Box<Int>`): the names that resolve where the type is written. In
  /// ``other(_:)`` and ``inlineArray(_:)`` text, each identifier that does not follow a dot.
  package var leadingNames: [String] {
    var names: [String] = []
    func visit(_ type: WrittenType) {
      switch type {
      case .named(let components):
        names.append(components[0].name)
        for component in components { component.arguments.forEach(visit) }
      case .other(let text), .inlineArray(let text):
        names += Self.identifiers(in: text)
      default:
        type.parts.forEach(visit)
      }
    }
    visit(self)
    return names
  }

  /// Each identifier in `text` that does not follow a dot, split at bytes that cannot be part of
  /// one (not a lexer: text the parser could not take apart).
  private static func identifiers(in text: String) -> [String] {
    var names: [String] = []
    let bytes = Array(text.utf8)
    var position = 0
    while position < bytes.count {
      guard Parser.isIdentifierByte(bytes[position]) else {
        position += 1
        continue
      }
      let start = position
      while position < bytes.count, Parser.isIdentifierByte(bytes[position]) { position += 1 }
      let afterDot = start > 0 && bytes[start - 1] == UInt8(ascii: ".")
      if !afterDot, !(0x30...0x39).contains(bytes[start]), bytes[start] != UInt8(ascii: "`") {
        names.append(String(decoding: bytes[start..<position], as: UTF8.self))
      }
    }
    return names
  }

  /// The type written back without spaces (but after `any` and `some`, and in what is kept as
  /// written), collections in their short forms: `[String:Theme]?`, `Pair<Int>`, `(any P).Type`.
  package var text: String { written(spaced: false) }

  /// The type as generated code writes it, with Swift's usual spacing: `[String: Theme]?`,
  /// `Pair<Int, String>`, `any P & Q`. What was written by hand is kept (a tuple's labels, a
  /// function type's attributes and effects).
  package var code: String { written(spaced: true) }

  private func written(spaced: Bool) -> String {
    let comma = spaced ? ", " : ","
    func write(_ type: WrittenType) -> String { type.written(spaced: spaced) }
    switch self {
    case .optional(let wrapped):
      return wrapped.isCompound ? "(" + write(wrapped) + ")?" : write(wrapped) + "?"
    case .array(let element): return "[" + write(element) + "]"
    case .set(let element): return "Set<" + write(element) + ">"
    case .dictionary(let key, let value): return "[" + write(key) + (spaced ? ": " : ":") + write(value) + "]"
    case .named(let components):
      return components.map { component in
        component.arguments.isEmpty
          ? component.spelled
          : component.spelled + "<" + component.arguments.map(write).joined(separator: comma) + ">"
      }.joined(separator: ".")
    case .tuple(let elements, let written):
      return written.isEmpty ? "(" + elements.map(write).joined(separator: comma) + ")" : written
    case .function(let parameters, let result, let written):
      return written.isEmpty
        ? "(" + parameters.map(write).joined(separator: comma) + ") -> " + write(result) : written
    case .existential(let inner): return "any " + write(inner)
    case .opaque(let inner): return "some " + write(inner)
    case .composition(let parts): return parts.map(write).joined(separator: spaced ? " & " : "&")
    case .metatype(let inner, let isProtocol):
      return (inner.isCompound ? "(" + write(inner) + ")" : write(inner))
        + (isProtocol ? ".Protocol" : ".Type")
    case .inlineArray(let text), .other(let text): return text
    }
  }

  /// Whether the type's text must be parenthesized before a `?` or `.Type` (`(() -> Void)?`).
  package var isCompound: Bool {
    switch self {
    case .function, .existential, .opaque, .composition: true
    case .other(let text): text.contains(" ") || text.contains("->") || text.contains("&")
    default: false
    }
  }
}
