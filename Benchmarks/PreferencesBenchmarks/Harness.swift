import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A small benchmark harness: warm-up, several rounds of many iterations, median and spread.
struct Harness {
  var rounds: Int
  var scale: Double

  struct Measurement {
    var name: String
    var median: Double  // nanoseconds per operation
    var low: Double
    var high: Double
    /// Nanoseconds per operation in each round, in round order.
    var samples: [Double] = []
    /// Measurements of one `compare` call share a group: their rounds ran interleaved.
    var group: Int? = nil

    init(name: String, samples: [Double], group: Int? = nil) {
      let sorted = samples.sorted()
      self.name = name
      self.median = sorted[sorted.count / 2]
      self.low = sorted.first!
      self.high = sorted.last!
      self.samples = samples
      self.group = group
    }

    /// How many times slower than `baseline`. For measurements taken together, the median of
    /// the per-round ratios: a slow moment of a noisy machine then slows both sides of a ratio
    /// instead of one.
    func ratio(to baseline: Measurement) -> Double {
      guard let group, group == baseline.group, samples.count == baseline.samples.count else {
        return median / baseline.median
      }
      let ratios = zip(samples, baseline.samples).map { $0 / $1 }.sorted()
      return ratios[ratios.count / 2]
    }
  }

  /// One operation to measure: a name, iterations per round (before scaling), and the body.
  typealias Case = (name: String, iterations: Int, body: () -> Void)

  /// Runs `body` `iterations` times per round and returns nanoseconds per call.
  func measure(_ name: String, iterations: Int, _ body: @escaping () -> Void) -> Measurement {
    compare([(name, iterations, body)])[0]
  }

  /// What a round is timed by.
  enum Clock {
    /// Elapsed time.
    case wall
    /// CPU time of every thread of this process: the work a round caused, wherever it ran (a
    /// background flush included), and what a busy machine's other processes do not change.
    /// Waiting (for a lock, for the disk) is not counted.
    case processCPU

    /// Now, in nanoseconds.
    func now() -> UInt64 {
      switch self {
      case .wall: return DispatchTime.now().uptimeNanoseconds
      case .processCPU:
        var time = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
      }
    }
  }

  /// Measures several operations with their rounds interleaved (round 1 of each, then round 2
  /// of each, …), so that they can be compared as ratios on a noisy machine.
  ///
  /// Every body is called the same way, through an opaque function value: otherwise the
  /// optimizer inlines some bodies into the loop (and hoists their setup out of it) but not
  /// others, and the rows stop measuring the same thing. `settle` runs at the end of every
  /// round, inside its time: the work a round left to the background (a store's flush) is then
  /// counted in that round and never in the next case's.
  func compare(_ cases: [Case], clock: Clock = .wall, settle: () -> Void = {}) -> [Measurement] {
    // The start time names the group: no two calls start at the same nanosecond.
    let group = Int(truncatingIfNeeded: DispatchTime.now().uptimeNanoseconds)
    let bodies = cases.map { opaque($0.body) }
    let counts = cases.map { max(1, Int(Double($0.iterations) * scale)) }
    for (body, count) in zip(bodies, counts) {
      for _ in 0..<max(1, count / 10) { body() }  // warm-up
      settle()  // its background work stays out of the first round
    }
    var samples = Array(repeating: [Double](), count: cases.count)
    for _ in 0..<rounds {
      for (index, (body, count)) in zip(bodies, counts).enumerated() {
        let start = clock.now()
        for _ in 0..<count { body() }
        settle()
        let end = clock.now()
        samples[index].append(Double(end - start) / Double(count))
      }
    }
    return zip(cases, samples).map {
      Measurement(name: $0.name, samples: $1, group: cases.count > 1 ? group : nil)
    }
  }
}

/// Returns `value` unchanged, hidden from the optimizer.
@inline(never) func opaque<T>(_ value: T) -> T { value }

/// Keeps values alive so the optimizer cannot remove the work being measured.
@inline(never) @_optimize(none) func blackHole<T>(_ value: T) {
  withExtendedLifetime(value) {}
}

func format(_ nanoseconds: Double) -> String {
  if nanoseconds >= 1_000_000 { return String(format: "%.2f ms", nanoseconds / 1_000_000) }
  if nanoseconds >= 1_000 { return String(format: "%.2f µs", nanoseconds / 1_000) }
  return String(format: "%.1f ns", nanoseconds)
}
