#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One question for llvm-symbolizer: an address in a module file, as the input line `"<module>" 0x<address>`.
///
/// The address is the file's virtual address, which is the captured offset for a shared
/// library or a position-independent executable (both are linked at 0), and the pc itself
/// for an executable linked at a fixed address. A return address is moved back one byte so
/// that it lands in the call instruction and the line is the call's, not the next statement's.
package struct SymbolizerQuery: Hashable, Sendable {
  /// The module file to read, as a path that exists.
  package var module: String
  /// The virtual address in that file.
  package var address: UInt

  /// The input line llvm-symbolizer reads on stdin.
  package var inputLine: String { "\"\(module)\" 0x\(String(address, radix: 16))\n" }

  /// Finds the module files of captured frames, once per path in a batch.
  package struct Resolver {
    /// Each module path seen so far, and its file (nil when it cannot be symbolized).
    private var modules: [String: Module?] = [:]

    /// A module file on disk and whether it is linked at a fixed address.
    private struct Module {
      var path: String
      var isFixedAddress: Bool
    }

    /// Creates a resolver with nothing looked up yet.
    package init() {}

    /// The question to ask about `frame`, or nil when it cannot be asked (no module, no such file).
    package mutating func query(for frame: RawFrame, isReturnAddress: Bool) -> SymbolizerQuery? {
      guard let path = frame.module, let offset = frame.offset else { return nil }
      if modules[path] == nil { modules[path] = Self.locate(path) }
      guard let module = modules[path] ?? nil else { return nil }
      let address = module.isFixedAddress ? frame.pc : offset
      guard !isReturnAddress || address > 0 else { return nil }
      return SymbolizerQuery(module: module.path, address: isReturnAddress ? address - 1 : address)
    }

    /// The file for a captured module path, or nil if it is gone or cannot be written as an input line.
    private static func locate(_ path: String) -> Module? {
      // llvm-symbolizer's input syntax has no escape for a quote or a line break.
      guard !path.isEmpty, !path.contains(where: { $0 == "\"" || $0.isNewline }) else { return nil }
      var resolved = path
      if access(path, R_OK) != 0 {
        // `dladdr` names the main executable by its argv[0], which may be a bare or relative name
        // that means nothing here. The crashed child is usually this very executable.
        guard let executable = currentExecutable, basename(of: executable) == basename(of: path)
        else {
          return nil
        }
        resolved = executable
      }
      return Module(path: resolved, isFixedAddress: isFixedAddressExecutable(resolved))
    }

    /// Whether the ELF file at `path` is an `ET_EXEC` image, loaded where it was linked.
    private static func isFixedAddressExecutable(_ path: String) -> Bool {
      let descriptor = open(path, O_RDONLY | O_CLOEXEC)
      guard descriptor >= 0 else { return false }
      defer { close(descriptor) }
      var header = [UInt8](repeating: 0, count: 18)
      guard read(descriptor, &header, header.count) == header.count,
        header[0..<4].elementsEqual([0x7f, 0x45, 0x4c, 0x46])
      else { return false }
      // e_type is the 16-bit field at byte 16, in the byte order EI_DATA (byte 5) names.
      let type =
        header[5] == 2
        ? UInt16(header[16]) << 8 | UInt16(header[17])
        : UInt16(header[17]) << 8 | UInt16(header[16])
      return type == 2
    }

    /// The path of this process's executable.
    private static let currentExecutable: String? = {
      var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
      let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
      guard length > 0 else { return nil }
      return String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }()

    /// The last component of `path`.
    private static func basename(of path: String) -> Substring {
      path.split(separator: "/").last ?? Substring(path)
    }
  }
}
