// Codable types written as such types usually are: several bindings on a line, names that share
// the type written after them, initial values that name a case or a static member, and a default
// that is a case with associated values; and a generic type whose declaration states Codable and
// Sendable, created with its arguments written or inferred. The registry proves each type
// Sendable (or reads it declared so) and writes its conformance, and values persist across
// processes.
import Foundation
import Preferences

enum StressCorner: String, Codable {
  case topLeading, bottomTrailing
}

struct StressFrame: Codable, Equatable {
  var x = 0.0, y = 0.0
  var width, height: Double
  var corner = StressCorner.topLeading, tags = Set<String>(), counts = Dictionary<String, Int>()
  var opened = Date.distantPast, limit = Int.max

  init(width: Double = 800, height: Double = 600) {
    self.width = width
    self.height = height
  }
}

enum StressLayout: Codable, Equatable {
  case list
  case grid(columns: Int)
}

struct StressRange<Bound: Codable & Sendable & Equatable>: Codable, Sendable, Equatable {
  var lower: Bound
  var upper: Bound
}

struct StoredPropertyForms {
  @Preference var frame = StressFrame()
  @Preference var layout = StressLayout.grid(columns: 2)
  @Preference var zoom = StressRange<Double>(lower: 0.5, upper: 4)
  @Preference var names = StressRange(lower: "a", upper: "z")
}
