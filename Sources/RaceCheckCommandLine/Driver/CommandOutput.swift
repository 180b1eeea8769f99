import RaceCheckEngine

/// A sink for a command's lines, so that a program or a test can send standard output and standard error anywhere.
///
/// ```swift
/// let lines = Lines()  // any Sendable collector
/// let status = driver.run(["list"], output: CommandOutput { lines.append($0) })
/// ```
package struct CommandOutput: Sendable {
  /// Writes one line; the sink adds the line break.
  package var writeLine: @Sendable (String) -> Void
  /// Replaces the one status line a long command keeps updating (nil clears it), or nil when this output cannot show one.
  package var showStatus: (@Sendable (String?) -> Void)?

  /// Creates a sink that hands each line to `writeLine`, and each status line to `showStatus` when it is given.
  package init(
    _ writeLine: @escaping @Sendable (String) -> Void,
    showStatus: (@Sendable (String?) -> Void)? = nil
  ) {
    self.writeLine = writeLine
    self.showStatus = showStatus
  }

  /// The process's standard output.
  package static let standardOutput = CommandOutput { Console.print($0) }

  /// The process's standard error, with a status line when it is a terminal.
  package static let standardError = CommandOutput(
    { Console.printError($0) },
    showStatus: Console.standardErrorIsTerminal ? showTerminalStatus : nil)

  @Sendable private static func showTerminalStatus(_ text: String?) {
    Console.showStatus(text)
  }
}
