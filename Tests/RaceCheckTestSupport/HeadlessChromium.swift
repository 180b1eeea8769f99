import Foundation

/// Debian's `chromium`, run headless on a page as CI runs it: the DOM once the page's script ran, or a screenshot.
package enum HeadlessChromium {
  /// Why a run of chromium gave nothing to read.
  package struct Failure: Error, CustomStringConvertible {
    package var description: String
  }

  /// The browser: `$CHROMIUM`, else `chromium` or `chromium-browser` on the `PATH`; nil when there is none.
  package static let executable: String? = {
    let environment = ProcessInfo.processInfo.environment
    if let chosen = environment["CHROMIUM"], !chosen.isEmpty { return chosen }
    let folders = (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
    for name in ["chromium", "chromium-browser"] {
      for folder in folders where access("\(folder)/\(name)", X_OK) == 0 {
        return "\(folder)/\(name)"
      }
    }
    return nil
  }()

  /// Whether the tests run in CI (`CI` is set), where a missing browser fails its tests instead of skipping them.
  package static var isCI: Bool {
    !(ProcessInfo.processInfo.environment["CI"] ?? "").isEmpty
  }

  /// The DOM of the page at `path` after its scripts ran, as `--dump-dom` prints it.
  package static func dumpDOM(of path: String) throws -> String {
    try dumpDOM(at: "file://" + path)
  }

  /// The DOM of the page at `url` after its scripts ran, as `--dump-dom` prints it.
  package static func dumpDOM(at url: String) throws -> String {
    let output = try run([
      "--headless=new", "--no-sandbox", "--disable-gpu", "--virtual-time-budget=5000",
      "--dump-dom", url,
    ])
    return String(decoding: output, as: UTF8.self)
  }

  /// Writes a PNG of the page at `path`, in a window of `width` by `height`, to `screenshot`.
  package static func screenshot(of path: String, to screenshot: String, width: Int, height: Int)
    throws
  {
    try? FileManager.default.removeItem(atPath: screenshot)
    _ = try run([
      "--headless=new", "--no-sandbox", "--disable-gpu", "--screenshot=" + screenshot,
      "--window-size=\(width),\(height)", "file://" + path,
    ])
    guard FileManager.default.fileExists(atPath: screenshot) else {
      throw Failure(description: "chromium wrote no screenshot at \(screenshot)")
    }
  }

  /// Runs the browser with `arguments` and returns its standard output; stopped after `timeout` seconds.
  private static func run(_ arguments: [String], timeout: Double = 60) throws -> Data {
    guard let executable else { throw Failure(description: "chromium is not installed") }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    let output = Pipe()
    process.standardOutput = output
    // Chromium complains on standard error about the D-Bus a container lacks; none of it matters here.
    process.standardError = FileHandle.nullDevice
    try process.run()
    let watchdog = DispatchWorkItem { [process] in process.terminate() }
    DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: watchdog)
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    watchdog.cancel()
    guard process.terminationReason == .exit, process.terminationStatus == 0 else {
      throw Failure(
        description:
          "chromium \(arguments.joined(separator: " ")) ended with status \(process.terminationStatus)"
          + (process.terminationReason == .uncaughtSignal
            ? " (a signal: killed after \(timeout) s?)" : ""))
    }
    return data
  }
}
