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

  /// Replaces standard error's status line with `text`, cut to the terminal's width, or clears it for nil.
  ///
  /// `\r` goes back to the start of the line and `ESC [ K` erases it, so the next text, a
  /// status or a report line, starts on a clean line.
  package static func showStatus(_ text: String?) {
    guard let text else {
      writeAll("\r\u{1B}[K", to: STDERR_FILENO)
      return
    }
    var size = winsize()
    let columns =
      ioctl(STDERR_FILENO, UInt(TIOCGWINSZ), &size) == 0 && size.ws_col > 1 ? Int(size.ws_col) : 80
    writeAll("\r\u{1B}[K" + String(text.prefix(columns - 1)), to: STDERR_FILENO)
  }

  /// Whether standard error is a terminal, where a status line can update in place.
  package static var standardErrorIsTerminal: Bool { isatty(STDERR_FILENO) == 1 }

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
