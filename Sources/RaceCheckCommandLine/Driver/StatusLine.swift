import RaceCheckEngine
import Synchronization

/// The one line a long command keeps updating on a terminal: at most ten updates a second, cleared before the command prints.
///
/// A command gets one from ``CommandContext/statusLine(for:)`` only when standard error is
/// a terminal and neither `--json` nor `--quiet` was given, so scripts and logs never see it.
final class StatusLine: Sendable {
  private let show: @Sendable (String?) -> Void
  /// When the line was last drawn, and whether it is on screen.
  private let drawn = Mutex<(at: MonotonicInstant?, showing: Bool)>((nil, false))

  /// The least time between two updates: faster ones are dropped, as no one reads them.
  static let interval: Duration = .milliseconds(100)

  init(show: @escaping @Sendable (String?) -> Void) {
    self.show = show
  }

  /// Shows `text` unless the line was drawn less than ``interval`` ago and the news can wait.
  func update(_ text: String, cannotWait: Bool = false) {
    let now = MonotonicInstant.now()
    let due = drawn.withLock { drawn in
      let recent = drawn.at.map { now - $0 < Self.interval } ?? false
      guard !recent || !drawn.showing || cannotWait else { return false }
      drawn = (now, true)
      return true
    }
    if due { show(text) }
  }

  /// Erases the line, so that what the command prints next starts on a clean one.
  func clear() {
    let showing = drawn.withLock { drawn in
      defer { drawn = (nil, false) }
      return drawn.showing
    }
    if showing { show(nil) }
  }

  /// A sink that shows a check's progress, each line after `prefix`.
  func progress(prefix: String = "") -> ProgressSink {
    // A failure found is news: it shows at once, and stays while the failure is explained.
    { [self] progress in
      update(prefix + progress.description, cannotWait: progress.stage == .explaining)
    }
  }
}

extension OptionSpec {
  /// `--quiet`, which the commands that show a status line take.
  static let quiet = OptionSpec.flag(
    "--quiet",
    "Show no status line while it runs (one shows only on a terminal, never with --json).")
}
