import Dispatch
import Synchronization

/// Holds the first call of a test hook on its thread until the test opens the gate; later calls pass.
///
/// The hook's thread is a server thread, so it may block; the test awaits ``arrival()`` to
/// know the hook was reached, then acts, then opens the gate. A test opens it in a `defer`
/// too, so that a failing test never leaves a server thread blocked.
final class HookGate: Sendable {
  private let arrivals: AsyncStream<String>
  private let arrived: AsyncStream<String>.Continuation
  private let opened = DispatchSemaphore(value: 0)
  private let armed = Mutex(true)
  private let passed = Mutex(false)

  init() {
    (arrivals, arrived) = AsyncStream.makeStream(of: String.self)
  }

  /// The hook: on the first call, reports `value` and blocks until ``open()``.
  func hold(_ key: String, _ value: String) {
    guard
      armed.withLock({ armed in
        defer { armed = false }
        return armed
      })
    else { return }
    arrived.yield(value)
    opened.wait()
    passed.withLock { $0 = true }
  }

  /// Waits until the first call reaches the gate, and returns the value it reported.
  func arrival() async -> String? {
    for await value in arrivals { return value }
    return nil
  }

  /// Lets the held call go on (and any later one pass at once).
  func open() {
    opened.signal()
  }

  /// Whether the held call went past the gate.
  var hasPassed: Bool { passed.withLock { $0 } }
}
