// Compiled twice: into Preferences, and (through the symlink
// Sources/PreferencesScannerCore/Values/ValueRules.swift) into the scanner, which never links the
// runtime. So `swift package preferences import-values` checks a document's values, and both
// write and read its dates, exactly as the app's `PreferenceRegistry.importValues(_:)` does. Each
// module names its stored-value type `SharedValue` and gives `sampleDate` and `sampleData`; this
// file uses nothing else of either module, and only the standard library.

extension SharedValue {
  /// A value of the kind a preference of the standard type `type` stores (`Date?`: a date,
  /// `[String]`: a list of text), or `nil` for any other type, whose kind the stored values
  /// and the default alone show.
  static func sample(ofType type: String) -> SharedValue? {
    var name = Substring(type.filter { $0 != " " })
    while name.hasSuffix("?") { name = name.dropLast() }
    if name.hasPrefix("["), name.hasSuffix("]") {
      let inner = name.dropFirst().dropLast()
      // `[Key: Value]`: a colon outside any brackets of the key.
      var depth = 0
      for index in inner.indices {
        switch inner[index] {
        case "[", "<", "(": depth += 1
        case "]", ">", ")": depth -= 1
        case ":" where depth == 0:
          let value = sample(ofType: String(inner[inner.index(after: index)...]))
          return .dictionary(value.map { ["": $0] } ?? [:])
        default: break
        }
      }
      return .array(sample(ofType: String(inner)).map { [$0] } ?? [])
    }
    switch name {
    case "String": return .string("")
    case "Bool": return .bool(false)
    case "Date": return sampleDate
    case "Data": return sampleData
    case "Int", "Int8", "Int16", "Int32", "Int64", "UInt", "UInt8", "UInt16", "UInt32", "UInt64", "Double",
      "Float", "CGFloat", "TimeInterval":
      return .integer(0)
    default: return nil
    }
  }

  /// Why `self` cannot be the value of a preference whose values look like `expected`: a
  /// number where text belongs, a list where a number belongs. Integers and reals count as one
  /// kind (a `Double` preference stores `2` as an integer on some platforms); a list's elements
  /// are compared with the default's (or, where it has none, with each other: a stored list
  /// holds one kind), a dictionary's with the default's values.
  func kindMismatch(expecting expected: SharedValue) -> String? {
    func kind(_ value: SharedValue) -> String {
      switch value {
      case .integer, .unsignedInteger, .double: "number"
      case .bool: "Boolean"
      case .string: "text"
      case .data: "data"
      case .date: "date"
      case .array: "list"
      case .dictionary: "dictionary"
      }
    }
    switch (self, expected) {
    case (.array(let values), .array(let samples)):
      // A stored list holds one kind: with no sample in the default, its first element's.
      guard let sample = samples.first ?? values.first else { return nil }
      return values.lazy.compactMap { $0.kindMismatch(expecting: sample) }.first.map { "in the list: " + $0 }
    case (.dictionary(let values), .dictionary(let samples)):
      for (key, value) in values.sorted(by: { $0.key < $1.key }) {
        guard let sample = samples[key] ?? samples.values.first else { continue }
        if let problem = value.kindMismatch(expecting: sample) { return "under '\(key)': " + problem }
      }
      return nil
    default:
      let (given, wanted) = (kind(self), kind(expected))
      return given == wanted ? nil : "the document holds \(given), but the preference stores \(wanted)"
    }
  }
}

/// ISO 8601 text of an instant in UTC, to the microsecond, by arithmetic alone (no formatter,
/// which is slow to create and keeps whole seconds unless told otherwise; no C calendar calls).
enum ISO8601Text {
  /// `2026-11-28T11:00:00.5Z`: the fraction only where there is one, trailing zeros left out.
  /// An instant outside years 0 to 9999 (four digits; `Date.distantPast` is 0000-12-30 in
  /// this calendar) is written as the nearest one inside, and one that is not a number as
  /// 1970's first: never a trap on a date read from a damaged file.
  static func format(secondsSince1970 instant: Double) -> String {
    let interval = instant.isNaN ? 0 : min(max(instant, -62_167_219_200), 253_402_300_799)
    var whole = interval.rounded(.down)
    var micros = ((interval - whole) * 1_000_000).rounded()
    if micros >= 1_000_000 {
      whole += 1
      micros = 0
    }
    let total = Int64(whole)
    let days = total >= 0 ? total / 86_400 : (total - 86_399) / 86_400
    let time = total - days * 86_400
    let (year, month, day) = civil(daysSince1970: days)
    func pad(_ value: Int64, _ width: Int) -> String {
      let text = String(value)
      return String(repeating: "0", count: max(0, width - text.count)) + text
    }
    var text =
      "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T"
      + "\(pad(time / 3600, 2)):\(pad(time / 60 % 60, 2)):\(pad(time % 60, 2))"
    if micros > 0 {
      var fraction = pad(Int64(micros), 6)
      while fraction.hasSuffix("0") { fraction.removeLast() }
      text += "." + fraction
    }
    return text + "Z"
  }

  /// The instant `YYYY-MM-DD(T|t| )hh:mm:ss[(.|,)fraction](Z|z|±hh:mm|±hhmm)` names, or `nil`.
  static func secondsSince1970(_ text: String) -> Double? {
    let bytes = Array(text.utf8)
    var index = 0
    func digits(_ count: Int) -> Int64? {
      guard index + count <= bytes.count else { return nil }
      var value: Int64 = 0
      for byte in bytes[index..<index + count] {
        guard (48...57).contains(byte) else { return nil }
        value = value * 10 + Int64(byte - 48)
      }
      index += count
      return value
    }
    func skip(_ allowed: String) -> Bool {
      guard index < bytes.count, allowed.utf8.contains(bytes[index]) else { return false }
      index += 1
      return true
    }
    guard let year = digits(4), skip("-"), let month = digits(2), skip("-"), let day = digits(2), skip("Tt "),
      let hour = digits(2), skip(":"), let minute = digits(2), skip(":"), let second = digits(2),
      (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second <= 60
    else { return nil }
    var fraction = 0.0
    if skip(".,") {
      var scale = 0.1
      let start = index
      while index < bytes.count, (48...57).contains(bytes[index]) {
        fraction += Double(bytes[index] - 48) * scale
        scale /= 10
        index += 1
      }
      guard index > start else { return nil }
    }
    var offset: Int64 = 0
    if !skip("Zz") {
      guard index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") else {
        return nil
      }
      let sign: Int64 = bytes[index] == UInt8(ascii: "-") ? -1 : 1
      index += 1
      guard let hours = digits(2) else { return nil }
      _ = skip(":")
      guard let minutes = digits(2) else { return nil }
      offset = sign * (hours * 3600 + minutes * 60)
    }
    guard index == bytes.count else { return nil }
    let days = daysSince1970(year: year, month: month, day: day)
    return Double(days * 86_400 + hour * 3600 + minute * 60 + second - offset) + fraction
  }

  /// Days from 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's `days_from_civil`).
  static func daysSince1970(year: Int64, month: Int64, day: Int64) -> Int64 {
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yearOfEra = y - era * 400
    let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }

  /// The date `days` after 1970-01-01 (`civil_from_days`).
  static func civil(daysSince1970 days: Int64) -> (year: Int64, month: Int64, day: Int64) {
    let z = days + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let dayOfEra = z - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let monthIndex = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
    let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
    return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
  }
}
