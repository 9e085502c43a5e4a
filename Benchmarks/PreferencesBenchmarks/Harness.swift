import Foundation

/// A small benchmark harness: warm-up, several rounds of many iterations, median and spread.
struct Harness {
  var rounds: Int
  var scale: Double

  struct Measurement {
    var name: String
    var median: Double  // nanoseconds per operation
    var low: Double
    var high: Double
  }

  /// Runs `body` `iterations` times per round and returns nanoseconds per call.
  ///
  /// Every row calls its body the same way, through an opaque function value: otherwise the
  /// optimizer inlines some bodies into the loop (and hoists their setup out of it) but not
  /// others, and the rows stop measuring the same thing.
  func measure(_ name: String, iterations: Int, _ body: @escaping () -> Void) -> Measurement {
    let body = opaque(body)
    let count = max(1, Int(Double(iterations) * scale))
    for _ in 0..<max(1, count / 10) { body() }  // warm-up
    var samples: [Double] = []
    for _ in 0..<rounds {
      let start = DispatchTime.now().uptimeNanoseconds
      for _ in 0..<count { body() }
      let end = DispatchTime.now().uptimeNanoseconds
      samples.append(Double(end - start) / Double(count))
    }
    samples.sort()
    return Measurement(name: name, median: samples[samples.count / 2], low: samples.first!, high: samples.last!)
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

