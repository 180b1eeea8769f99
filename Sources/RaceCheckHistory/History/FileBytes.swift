#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads a whole file into one byte array, which the history readers scan.
///
/// Reading through `Data` and copying it into an array held the file twice: 276 MB at the
/// peak for a 138 MB history. Here the bytes go from the kernel into the array itself.
///
/// ```swift
/// guard let bytes = FileBytes.contents(atPath: "history.edn") else { throw .unreadable(path) }
/// ```
enum FileBytes {
  /// The file's bytes; nil when it cannot be opened or read.
  static func contents(atPath path: String) -> [UInt8]? {
    let descriptor = open(path, O_RDONLY)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    var status = stat()
    guard fstat(descriptor, &status) == 0 else { return nil }
    // One byte more than the size, so that a full array says the file grew while it was read.
    let size = max(Int(status.st_size), 0)
    var failed = false
    var bytes = [UInt8](unsafeUninitializedCapacity: size + 1) { buffer, count in
      count = 0
      while count < buffer.count {
        let got = read(descriptor, buffer.baseAddress! + count, buffer.count - count)
        if got == 0 { return }
        if got < 0 {
          if errno == EINTR { continue }
          failed = true
          return
        }
        count += got
      }
    }
    guard !failed else { return nil }
    guard bytes.count > size else { return bytes }
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let got = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      if got == 0 { return bytes }
      if got < 0 {
        if errno == EINTR { continue }
        return nil
      }
      bytes.append(contentsOf: chunk[..<got])
    }
  }
}
