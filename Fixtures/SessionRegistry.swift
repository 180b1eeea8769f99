import Foundation

/// Hands out one shared session, made on first use: double-checked, but the second check is missing.
///
/// Two callers that both find no session before either takes the lock each make one.
final class SessionRegistry: @unchecked Sendable {
  private let lock = NSLock()
  private var session: Session?
  private(set) var sessionsMade = 0

  /// The shared session.
  func shared() -> Session {
    if let session { return session }
    lock.lock()
    defer { lock.unlock() }
    let made = Session()
    sessionsMade += 1
    session = made
    return made
  }
}

/// ``SessionRegistry`` fixed: the check and the making happen under the lock.
final class LockedSessionRegistry: @unchecked Sendable {
  private let lock = NSLock()
  private var session: Session?
  private(set) var sessionsMade = 0

  /// The shared session.
  func shared() -> Session {
    lock.lock()
    defer { lock.unlock() }
    if let session { return session }
    let made = Session()
    sessionsMade += 1
    session = made
    return made
  }
}

/// A connection's state, expensive to make, so made once.
final class Session: Sendable {}
