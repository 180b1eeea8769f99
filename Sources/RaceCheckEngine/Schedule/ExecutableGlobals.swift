import CRaceCheckSupport

/// The executable's global variables by address, read once from its symbol table: what names the C globals that traced loads and stores touch.
///
/// A C file's `static` globals are local symbols, which only the full symbol table holds; a
/// stripped executable has none, and its accesses keep numbered names.
struct ExecutableGlobals {
  private struct Global {
    let start: UInt
    let size: UInt
    let name: String
  }

  /// By start address, without overlaps that matter: a name is looked up by the last start at or below an address.
  private let globals: [Global]

  /// Reads the executable's symbol table.
  init() {
    var found: [Global] = []
    withUnsafeMutablePointer(to: &found) { found in
      _ = rc_executable_objects(
        { name, address, size, context in
          let found = context!.assumingMemoryBound(to: [Global].self)
          found.pointee.append(
            Global(start: UInt(address), size: UInt(size), name: String(cString: name!)))
        }, found)
    }
    globals = found.sorted { $0.start < $1.start }
  }

  /// The name of the variable holding `address`, with the byte offset when it is not its first: `count`, `table+8`.
  func name(of address: UInt) -> String? {
    // The last global starting at or below the address.
    var low = 0
    var high = globals.count
    while low < high {
      let middle = (low + high) / 2
      if globals[middle].start <= address { low = middle + 1 } else { high = middle }
    }
    guard low > 0 else { return nil }
    let global = globals[low - 1]
    guard address < global.start + global.size else { return nil }
    let offset = address - global.start
    return offset == 0 ? global.name : "\(global.name)+\(offset)"
  }
}
