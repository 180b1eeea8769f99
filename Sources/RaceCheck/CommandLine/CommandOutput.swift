/// A sink for a command's lines, so that a program or a test can send standard output and standard error anywhere.
///
/// ```swift
/// let lines = Lines()  // any Sendable collector
/// let status = driver.run(["list"], output: CommandOutput { lines.append($0) })
/// ```
public struct CommandOutput: Sendable {
  /// Writes one line; the sink adds the line break.
  public var writeLine: @Sendable (String) -> Void

  /// Creates a sink that hands each line to `writeLine`.
  public init(_ writeLine: @escaping @Sendable (String) -> Void) {
    self.writeLine = writeLine
  }

  /// The process's standard output.
  public static let standardOutput = CommandOutput { Console.print($0) }

  /// The process's standard error.
  public static let standardError = CommandOutput { Console.printError($0) }
}
