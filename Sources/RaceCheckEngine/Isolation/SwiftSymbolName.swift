#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Swift's mangled symbol names: turning them into readable names and finding the module that owns them.
///
/// Demangling runs in-process through libswiftCore, which every Swift process has loaded:
/// no toolchain binary is needed and a name costs microseconds, where piping names through
/// `swift-demangle --simplified` costs a process launch per batch. The runtime's
/// `_swift_backtrace_demangle` (the SPI its own backtracer uses) gives the same simplified
/// form as `swift-demangle --simplified`; if a runtime lacks it, the exported
/// `swift_demangle` gives the full form instead.
package enum SwiftSymbolName {
  /// Whether `symbol` is a Swift mangled name rather than a C or C++ one.
  package static func isMangled(_ symbol: String) -> Bool {
    manglingPrefixes.contains { symbol.hasPrefix($0) }
  }

  /// The readable form of a Swift (or C++) mangled name, or nil when it is not one the runtime can demangle.
  ///
  /// ```swift
  /// SwiftSymbolName.demangle("$sSayxSicigSi_Tg5")  // "specialized Array.subscript.getter"
  /// ```
  package static func demangle(_ symbol: String) -> String? {
    let demangler = Demangler.shared
    let result: UnsafeMutablePointer<CChar>? = symbol.withCString { name in
      let length = strlen(name)
      if let simplified = demangler.simplified { return simplified(name, length, nil, nil) }
      if let full = demangler.full { return full(name, length, nil, nil, 0) }
      return nil
    }
    guard let result else { return nil }
    defer { free(result) }
    return String(cString: result)
  }

  /// The full readable form of a Swift mangled name, modules and signature included, or nil when it is not one.
  ///
  /// ```swift
  /// SwiftSymbolName.demangleFully("$s5Tests9CacheTestC9testCacheyyF")  // "Tests.CacheTest.testCache() -> ()"
  /// ```
  package static func demangleFully(_ symbol: String) -> String? {
    guard let full = Demangler.shared.full,
      let result = symbol.withCString({ full($0, strlen($0), nil, nil, 0) })
    else { return nil }
    defer { free(result) }
    return String(cString: result)
  }

  /// The module that declares a mangled Swift symbol's outermost context, or nil when it has none.
  ///
  /// An extension's module wins over the extended type's, so a user's `extension Array`
  /// belongs to the user. Specializations and closures mangle their original entity first,
  /// so they belong where that entity was declared.
  ///
  /// ```swift
  /// SwiftSymbolName.module(ofMangled: "$s9RaceCheck12StressRunnerV3runyyF")  // "RaceCheck"
  /// SwiftSymbolName.module(ofMangled: "$sSayxSicigSi_Tg5")                     // "Swift"
  /// ```
  package static func module(ofMangled symbol: String) -> String? {
    guard let prefix = manglingPrefixes.first(where: { symbol.hasPrefix($0) }), prefix != "_T0"
    else {
      return nil
    }
    var scanner = Scanner(symbol.utf8.dropFirst(prefix.utf8.count))
    var module: String
    switch scanner.next() {
    case UInt8(ascii: "s"):
      module = "Swift"
    case UInt8(ascii: "S"):
      // Standard substitutions: `So`/`SC` are imported C declarations, the rest are
      // standard-library types (`Sa` Array, `SS` String, `Sc…` concurrency types).
      switch scanner.next() {
      case UInt8(ascii: "o"): module = "__C"
      case UInt8(ascii: "C"): module = "__C_Synthesized"
      case let letter? where isLetter(letter):
        module = "Swift"
        if letter == UInt8(ascii: "c") { _ = scanner.next() }
      default: return nil
      }
    case let digit? where isDigit(digit):
      scanner.back()
      guard let identifier = scanner.identifier() else { return nil }
      module = identifier
    default:
      return nil
    }
    // Walk the chain of nominal types; an identifier followed by `E` is the module of an extension.
    while let identifier = scanner.identifier(), let kind = scanner.next() {
      if kind == UInt8(ascii: "E") {
        module = identifier
        break
      }
      guard nominalKinds.contains(kind) else { break }
    }
    return module
  }

  /// The prefixes of Swift 5+ manglings (`_$s` on Darwin), of Swift 4.2, of Embedded Swift, and Swift 4's.
  private static let manglingPrefixes = ["$s", "_$s", "$S", "_$S", "$e", "_$e", "_T0"]

  /// The letters that end a nominal type in a context chain: struct, class, enum, protocol.
  private static let nominalKinds: Set<UInt8> = [
    UInt8(ascii: "V"), UInt8(ascii: "C"), UInt8(ascii: "O"), UInt8(ascii: "P"),
  ]

  /// Whether `byte` is an ASCII digit.
  private static func isDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) }
  /// Whether `byte` is an ASCII letter.
  private static func isLetter(_ byte: UInt8) -> Bool {
    (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
  }

  /// A cursor over a mangled name's bytes.
  private struct Scanner {
    /// The mangled name after its `$s` prefix.
    let bytes: [UInt8]
    /// The position of the next byte to read.
    var index = 0

    /// A scanner at the start of `bytes`.
    init(_ bytes: Substring.UTF8View) { self.bytes = Array(bytes) }

    /// The next byte, or nil at the end.
    mutating func next() -> UInt8? {
      guard index < bytes.count else { return nil }
      defer { index += 1 }
      return bytes[index]
    }

    /// Steps back over the byte `next()` returned.
    mutating func back() { index -= 1 }

    /// A length-prefixed identifier (`4main`); nil for word-substituted or punycode ones, which begin with `0`.
    mutating func identifier() -> String? {
      let start = index
      var length = 0
      while index < bytes.count, SwiftSymbolName.isDigit(bytes[index]) {
        length = length * 10 + Int(bytes[index] - 0x30)
        index += 1
        if length > bytes.count { break }
      }
      guard index > start, bytes[start] != UInt8(ascii: "0"), index + length <= bytes.count else {
        index = start
        return nil
      }
      defer { index += length }
      return String(decoding: bytes[index..<index + length], as: UTF8.self)
    }
  }

  /// The runtime's demangling entry points, looked up once.
  private struct Demangler: @unchecked Sendable {
    // @unchecked Sendable: C function pointers, set once with `shared` and only read after.
    /// `_swift_backtrace_demangle(name, length, buffer, bufferSize)`: simplified UI form, C++ too.
    typealias Simplified =
      @convention(c) (
        UnsafePointer<CChar>?, Int, UnsafeMutablePointer<CChar>?, UnsafeMutablePointer<Int>?
      ) -> UnsafeMutablePointer<CChar>?
    /// `swift_demangle(name, length, buffer, bufferSize, flags)`: the full form.
    typealias Full =
      @convention(c) (
        UnsafePointer<CChar>?, Int, UnsafeMutablePointer<CChar>?, UnsafeMutablePointer<Int>?, UInt32
      ) -> UnsafeMutablePointer<CChar>?

    // Immutable after `shared` is initialized, which Swift does once, thread-safely.
    /// `_swift_backtrace_demangle`, if this runtime exports it.
    let simplified: Simplified?
    /// `swift_demangle`, if this runtime exports it.
    let full: Full?

    /// The entry points of the runtime this process has loaded.
    static let shared: Demangler = {
      // The process's global scope: the executable and everything it loaded, libswiftCore included.
      let process = dlopen(nil, RTLD_NOW)
      return Demangler(
        simplified: dlsym(process, "_swift_backtrace_demangle").map {
          unsafeBitCast($0, to: Simplified.self)
        },
        full: dlsym(process, "swift_demangle").map { unsafeBitCast($0, to: Full.self) })
    }()
  }
}
