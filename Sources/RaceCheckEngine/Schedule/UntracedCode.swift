import CRaceCheckSupport
import Foundation

/// The C code a schedule ran whose plain loads and stores it did not see: what keeps a pass from being a proof.
///
/// The scheduler sees a Swift program's stored state through the runtime's exclusivity
/// checks, and a C program's plain memory only when its target is built with load and
/// store tracing (`-fsanitize-coverage=func,trace-pc,trace-loads,trace-stores`), whose callbacks
/// make each load and store a scheduling point. A C function that ran without them may
/// change memory between two points in ways no schedule of those points shows: two plain
/// stores look like one. The code a schedule is known to have run is where its C threads
/// started and the functions that created them; such a function counts as traced once its
/// traced entry (`trace-pc`), or one traced load or store, came from it.
///
/// The functions are the executable's own, where a user's C targets are linked: the
/// libraries it loads from the system and the toolchain start threads of their own
/// machinery, not of the code under test.
enum UntracedCode {
  /// The names of the C functions of the executable holding an address of `run` that no address of `traced` falls in, in address order.
  static func functions(run: Set<UInt>, traced: Set<UInt>) -> [String] {
    guard !run.isEmpty else { return [] }
    let addresses = run.sorted() + traced
    var functions = [(name: String, start: UInt)?](repeating: nil, count: addresses.count)
    withUnsafeMutablePointer(to: &functions) { found in
      _ = addresses.withUnsafeBufferPointer { buffer in
        rc_executable_functions_at(
          buffer.baseAddress, Int32(buffer.count),
          { index, name, start, context in
            let found = context!.assumingMemoryBound(to: [(name: String, start: UInt)?].self)
            found.pointee[Int(index)] = (String(cString: name!), UInt(start))
          }, found)
      }
    }
    let tracedStarts = Set(functions[run.count...].compactMap { $0?.start })
    return functions[..<run.count].compactMap { function in
      guard let function, !SwiftSymbolName.isMangled(function.name),
        !tracedStarts.contains(function.start)
      else { return nil }
      return function.name
    }.uniqued()
  }
}
