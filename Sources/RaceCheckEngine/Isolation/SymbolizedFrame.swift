import Foundation

/// One frame of a symbolized stack: a function, where in the source it was, and whose code it is.
///
/// A captured address can stand for several frames when the compiler inlined calls into it;
/// each becomes a frame of its own, innermost first, and all but the outermost are marked
/// `isInlined`. A frame the symbolizer could not name keeps only its image and offset.
package struct SymbolizedFrame: Hashable, Sendable {
  /// The captured program counter this frame was symbolized from.
  package var pc: UInt
  /// The basename of the image that holds `pc` (`libdispatch.so`, `racecheck`).
  package var module: String?
  /// The offset of `pc` in `module`, as captured; what a raw frame shows.
  package var offset: UInt?
  /// The function, demangled and simplified (`StressRunner.runColumn(_:)`); nil for a raw frame.
  package var function: String?
  /// The function's linkage name as the object file spells it, mangled for Swift.
  package var symbol: String?
  /// The source file, as the debug information records it (usually absolute).
  package var file: String?
  /// The 1-based source line, when known.
  package var line: Int?
  /// The 1-based source column, when known.
  package var column: Int?
  /// Whether the compiler inlined this function into the frame below it.
  package var isInlined: Bool
  /// Whose code this is: the user's, or a layer the report folds away.
  package var kind: FrameKind

  /// Creates a frame; the symbolizer builds these, tests build them by hand.
  package init(
    pc: UInt, module: String?, offset: UInt? = nil, function: String?, symbol: String? = nil,
    file: String? = nil, line: Int? = nil, column: Int? = nil, isInlined: Bool = false,
    kind: FrameKind
  ) {
    self.pc = pc
    self.module = module
    self.offset = offset
    self.function = function
    self.symbol = symbol
    self.file = file
    self.line = line
    self.column = column
    self.isInlined = isInlined
    self.kind = kind
  }

  /// Whether the symbolizer named this frame; a raw frame has only its address.
  package var isSymbolized: Bool { function != nil }

  /// The frame as an address alone, `module+0xoffset`, or `0xpc` when its image is unknown.
  package var rawDescription: String {
    if let module, let offset { return "\(module)+0x\(String(offset, radix: 16))" }
    return "0x\(String(pc, radix: 16))"
  }

  /// `path:line` (relative under `directory`), else `(module)` for a named frame without source.
  package func location(
    relativeTo directory: String? = FileManager.default.currentDirectoryPath
  ) -> String? {
    guard let file else {
      return isSymbolized ? module.map { "(\($0))" } : nil
    }
    var path = file
    if let directory {
      let prefix = directory.hasSuffix("/") ? directory : directory + "/"
      if path.hasPrefix(prefix) { path.removeFirst(prefix.count) }
    }
    return line.map { "\(path):\($0)" } ?? path
  }

  /// How simplified demangled names of compiler-generated glue begin.
  static let gluePrefixes = [
    "thunk for ", "partial apply for ", "reabstraction thunk", "merged ", "outlined ", "@objc ",
  ]

  /// Whether the frame is compiler-generated glue (a thunk, a partial application) rather than code someone wrote.
  package var isGlue: Bool {
    guard let function else { return false }
    return Self.gluePrefixes.contains { function.hasPrefix($0) }
  }
}
