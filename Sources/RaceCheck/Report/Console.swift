#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Writes text to standard output or standard error, unbuffered, for the report and command-line layers.
package enum Console {
  /// Writes `text` and a newline to standard output.
  package static func print(_ text: String) {
    writeAll(text + "\n", to: STDOUT_FILENO)
  }

  /// Writes `text` and a newline to standard error.
  package static func printError(_ text: String) {
    writeAll(text + "\n", to: STDERR_FILENO)
  }

  private static func writeAll(_ text: String, to descriptor: Int32) {
    var text = text
    text.withUTF8 { bytes in
      var offset = 0
      while offset < bytes.count {
        let written = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
        if written <= 0 { return }
        offset += written
      }
    }
  }
}
