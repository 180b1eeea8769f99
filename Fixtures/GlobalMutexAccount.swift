// `GlobalMutexAccount`, written for racecheck (row 36): an account whose balance a global
// `Synchronization.Mutex` guards, the way a module-level lock shared by all instances is written.
// Bug: `withdraw()` checks the balance without the lock and takes the money under it, where
// it traps (`precondition`) if the balance went below zero meanwhile: two threads that both
// saw one unit both go on, and the second traps while it holds the Mutex.
//
// Schedule mode cannot model a global Mutex (it models those of the objects a schedule
// allocates): it sees this one held at its scheduling points, and says so. The trap, while
// the other thread may wait for the Mutex, is a crash, found in an isolated child.

import Synchronization

/// The lock of every `GlobalMutexAccount`.
private let accountsLock = Mutex(())

/// An account holding one unit, whose `withdraw()` checks, then takes, under a global lock.
///
/// ```swift
/// let account = GlobalMutexAccount()
/// account.withdraw()  // true
/// account.withdraw()  // false
/// ```
public final class GlobalMutexAccount: @unchecked Sendable {
  private var balance = 1

  /// Creates an account with one unit.
  public init() {}

  /// Takes one unit if there is one (row 36's bug: the check is outside the critical section).
  public func withdraw() -> Bool {
    guard balance >= 1 else { return false }
    accountsLock.withLock { _ in
      precondition(balance >= 1, "the balance went below zero")
      balance -= 1
    }
    return true
  }

  /// The balance.
  public var current: Int { accountsLock.withLock { _ in balance } }
}
