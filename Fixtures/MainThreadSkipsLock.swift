// Written for racecheck, not ported from the posts: row 26.
// Bug (row 26): the account's two fields are written together under a lock, but a read on
// the main thread skips the lock ("only the main thread reads it, and reads are safe"): a
// write on a background thread between the read of the name and the read of the e-mail
// gives the main thread an account that was never stored, and a read of a string that a
// write is releasing reads freed memory.

import Foundation

/// A user's account, two strings written together under a lock, read without it on the main thread.
///
/// ```swift
/// let register = MainThreadSkipsLock()
/// register.update(["ann", "ann@example.com"])   // under the lock
/// register.account                              // on the main thread: no lock
/// ```
public final class MainThreadSkipsLock: @unchecked Sendable {
  private var name = ""
  private var email = ""
  private let lock = NSLock()

  /// Creates an empty account.
  public init() {}

  /// Stores a name and an e-mail address together, under the lock.
  public func update(_ account: [String]) {
    lock.withLock {
      name = account[0]
      email = account[1]
    }
  }

  /// The name and the e-mail address; on the main thread read without the lock (row 26's bug).
  public var account: [String] {
    if Thread.isMainThread { return [name, email] }
    return lock.withLock { [name, email] }
  }
}
