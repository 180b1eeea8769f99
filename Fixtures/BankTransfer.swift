import Foundation

/// An account with its own lock, as a ledger service keeps them.
final class LedgerAccount: @unchecked Sendable {
  let lock = NSLock()
  var balance: Int

  init(balance: Int) {
    self.balance = balance
  }
}

/// Moves money between two accounts, locking the source, then the destination.
///
/// Two transfers in opposite directions each take their own source first: each then waits
/// for the lock the other holds.
enum SourceFirstTransfer {
  static func move(_ amount: Int, from source: LedgerAccount, to destination: LedgerAccount) {
    source.lock.lock()
    destination.lock.lock()
    source.balance -= amount
    destination.balance += amount
    destination.lock.unlock()
    source.lock.unlock()
  }
}

/// ``SourceFirstTransfer`` fixed: both transfers lock the two accounts in one order, by identity.
enum OrderedTransfer {
  static func move(_ amount: Int, from source: LedgerAccount, to destination: LedgerAccount) {
    let (first, second) =
      ObjectIdentifier(source) < ObjectIdentifier(destination)
      ? (source, destination) : (destination, source)
    first.lock.lock()
    second.lock.lock()
    source.balance -= amount
    destination.balance += amount
    second.lock.unlock()
    first.lock.unlock()
  }
}
