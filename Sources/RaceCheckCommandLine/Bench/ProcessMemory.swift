import Foundation
import RaceCheckEngine

/// The peak resident memory of this process, as Linux counts it for its address space.
///
/// `VmHWM` in `/proc/self/status` belongs to the address space the process has since its
/// last `exec`. `ru_maxrss` does not do for a child started by `posix_spawn`: Linux carries
/// the parent's high-water mark over into the child's at `exec`, so a small child of a large
/// parent would look as large as the parent.
package enum ProcessMemory {
  /// The peak resident set of this process in bytes, or nil where `/proc` does not say.
  package static func peakResidentBytes() -> Int? {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else {
      return nil
    }
    for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
      let kilobytes = line.dropFirst("VmHWM:".count).split(whereSeparator: \.isWhitespace).first
        .flatMap { Int($0) }
      return kilobytes.map { $0 * 1024 }
    }
    return nil
  }
}
