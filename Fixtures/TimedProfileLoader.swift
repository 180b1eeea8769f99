import Dispatch
import Foundation

/// Loads a profile with a timeout: the response and the timer each call the completion handler.
///
/// Whichever comes second calls it again: a caller that resumes a continuation there traps,
/// and one that updates a screen shows a timeout after the profile.
final class TimedProfileLoader: Sendable {
  /// Loads the profile, calling `completion` with it, or with a timeout after `timeout`.
  func load(
    timeout: DispatchTimeInterval,
    completion: @escaping @Sendable (Result<String, LoadTimedOut>) -> Void
  ) {
    DispatchQueue.global().asyncAfter(deadline: .now() + timeout) {
      completion(.failure(LoadTimedOut()))
    }
    DispatchQueue.global().async {
      completion(.success("Ada"))
    }
  }
}

/// ``TimedProfileLoader`` fixed: whichever of the response and the timer comes first completes, and the other finds it done.
final class OnceTimedProfileLoader: Sendable {
  /// Loads the profile, calling `completion` once, with it or with a timeout after `timeout`.
  func load(
    timeout: DispatchTimeInterval,
    completion: @escaping @Sendable (Result<String, LoadTimedOut>) -> Void
  ) {
    let once = CompletionOnce(completion)
    DispatchQueue.global().asyncAfter(deadline: .now() + timeout) {
      once.complete(.failure(LoadTimedOut()))
    }
    DispatchQueue.global().async {
      once.complete(.success("Ada"))
    }
  }
}

/// Calls a completion handler the first time it is asked to, and never again.
private final class CompletionOnce: @unchecked Sendable {
  private let lock = NSLock()
  private var handler: (@Sendable (Result<String, LoadTimedOut>) -> Void)?

  init(_ handler: @escaping @Sendable (Result<String, LoadTimedOut>) -> Void) {
    self.handler = handler
  }

  func complete(_ result: Result<String, LoadTimedOut>) {
    lock.lock()
    let handler = self.handler
    self.handler = nil
    lock.unlock()
    handler?(result)
  }
}

/// The load's timer fired before its response came.
struct LoadTimedOut: Error {}

/// Counts a completion handler's calls, from whatever thread makes them.
final class CompletionCount: @unchecked Sendable {
  private let lock = NSLock()
  private var calls = 0

  /// Counts one more call and returns how many there have been.
  func increment() -> Int {
    lock.lock()
    defer { lock.unlock() }
    calls += 1
    return calls
  }
}
