import CRaceCheckSupport
import Foundation

/// What the executable's symbol table says of its `Synchronization` values, which reflection does not: read once.
///
/// The compiler erases a noncopyable type in the reflection metadata, so that older runtimes
/// never copy a value of it; a `Mutex` or `Atomic` stored property reads as `()`. The
/// demangled names of the property's accessors, initial value and field offset still say
/// what it is (`Module.Class.name.getter : Synchronization.Mutex<Int>`), and those of the
/// global and static variables give their addresses.
struct SynchronizationSymbols {
  /// A `Mutex` in global or static storage: the scheduler does not model it.
  struct GlobalMutex {
    /// Its lock word.
    let address: UInt
    /// `Module.name`, or `static Module.Type.name`.
    let name: String
  }

  /// The demangled symbols that mention `Synchronization` or a `Void` property.
  let names: [String]
  let globalMutexes: [GlobalMutex]

  /// The executable's, nil when it has no symbol table (a stripped binary).
  static let executable: SynchronizationSymbols? = {
    final class Found {
      var names: [String] = []
      var globalMutexes: [GlobalMutex] = []
    }
    let found = Found()
    var counts: [Int32] = []
    for needle in ["15Synchronization", "ytvp"] {
      counts.append(
        rc_executable_symbols_containing(
          needle,
          { name, address, context in
            guard let name, let context else { return }
            let found = Unmanaged<Found>.fromOpaque(context).takeUnretainedValue()
            let symbol = String(cString: name)
            found.names.append(symbol)
            guard address != 0, let type = SynchronizationSymbols.type(in: symbol),
              type.hasPrefix("Synchronization.Mutex<")
            else { return }
            let variable = symbol[..<symbol.index(symbol.endIndex, offsetBy: -type.count - 3)]
            found.globalMutexes.append(
              GlobalMutex(
                address: UInt(address), name: SynchronizationSymbols.readable(String(variable))))
          }, Unmanaged.passUnretained(found).toOpaque()))
    }
    guard !counts.contains(where: { $0 < 0 }) else { return nil }
    return SynchronizationSymbols(names: found.names, globalMutexes: found.globalMutexes)
  }()

  /// The type a demangled symbol of a variable or accessor ends with, after ` : `.
  static func type(in symbol: String) -> Substring? {
    symbol.range(of: " : ", options: .backwards).map { symbol[$0.upperBound...] }
  }

  /// `Fixtures.accountsLock` for `Fixtures.(accountsLock in _9D3E…)`: a private name without its discriminator.
  private static func readable(_ variable: String) -> String {
    guard let open = variable.range(of: "("), let discriminator = variable.range(of: " in _"),
      open.upperBound <= discriminator.lowerBound
    else { return variable }
    return String(
      variable[..<open.lowerBound] + variable[open.upperBound..<discriminator.lowerBound])
  }

  /// The class as its properties' symbols name it: `Module.(Private in _…)`, a generic one without its arguments (`Module.Box`).
  static func symbolName(of type: AnyClass) -> String? {
    guard let mangled = _mangledTypeName(type), let demangled = rc_demangle("$s" + mangled) else {
      return nil
    }
    defer { free(demangled) }
    var depth = 0
    return String(cString: demangled).filter { character in
      if character == "<" { depth += 1 }
      defer { if character == ">" { depth -= 1 } }
      return depth == 0 && character != ">"
    }
  }

  /// What the property `name` of `type` is, when reflection shows its type as `()`.
  func field(named name: String, of type: AnyClass) -> NoncopyableField {
    guard let owner = Self.symbolName(of: type) else { return .unknown }
    // `Owner.name : T`, `Owner.name.getter : T`, or, for a private property, `Owner.(name in _…)`.
    let spellings = ["\(owner).\(name) : ", "\(owner).\(name).", "\(owner).(\(name) in "]
    let kinds: [(typePrefix: String, field: NoncopyableField)] = [
      ("()", .void), ("Synchronization.Mutex<", .mutex), ("Synchronization.Atomic<", .atomic),
    ]
    for symbol in names where spellings.contains(where: { symbol.contains($0) }) {
      guard let fieldType = Self.type(in: symbol) else { continue }
      if let kind = kinds.first(where: { fieldType.hasPrefix($0.typePrefix) }) { return kind.field }
    }
    return .unknown
  }
}

/// What a class's stored property is when reflection shows its type as `()`: a real `Void`, or a noncopyable value.
enum NoncopyableField {
  case void
  case mutex
  case atomic
  /// Another noncopyable type, or one the symbol table does not name (a stripped executable).
  case unknown
}
