import Foundation
import RaceCheckEngine
import RaceCheckSync

/// Measures what the RaceCheckSync primitives cost over the raw ones when no scheduler is installed.
enum PrimitiveOverhead {
  /// Nanoseconds per uncontended `sync` on a serial queue: the raw `DispatchQueue`'s and `SyncQueue`'s.
  static func queueSync(iterations: Int) -> (raw: Double, primitive: Double) {
    let raw = DispatchQueue(label: "bench.raw")
    let primitive = SyncQueue(label: "bench.primitive")
    var total = 0
    // Alternating rounds and keeping the best of each cancels out a busy neighbour's noise.
    var best = (raw: Double.infinity, primitive: Double.infinity)
    for _ in 0..<5 {
      best.raw = min(
        best.raw,
        time(iterations) { total &+= raw.sync { 1 } })
      best.primitive = min(
        best.primitive,
        time(iterations) { total &+= primitive.sync { 1 } })
    }
    blackHole(total)
    return best
  }

  /// Nanoseconds per uncontended lock and unlock: `NSLock`'s and `SyncLock`'s.
  static func lock(iterations: Int) -> (raw: Double, primitive: Double) {
    let raw = NSLock()
    let primitive = SyncLock()
    var best = (raw: Double.infinity, primitive: Double.infinity)
    for _ in 0..<5 {
      best.raw = min(
        best.raw,
        time(iterations) {
          raw.lock()
          raw.unlock()
        })
      best.primitive = min(
        best.primitive,
        time(iterations) {
          primitive.lock()
          primitive.unlock()
        })
    }
    return best
  }

  private static func time(_ iterations: Int, _ body: () -> Void) -> Double {
    let started = MonotonicInstant.now()
    for _ in 0..<iterations { body() }
    return started.elapsed.fractionalNanoseconds / Double(iterations)
  }
}
