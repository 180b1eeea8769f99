// Written for racecheck, not ported from the posts: row 29.
// Bug: `withdraw` checks the balance, awaits an audit, and then subtracts. The actor runs
// one job at a time, but the `await` ends the job: another withdrawal runs on the actor
// during the audit, passes the same check, and the two overdraw the account.

/// A bank account as an actor whose withdrawal awaits an audit between checking and subtracting.
///
/// ```swift
/// let account = BankAccountActor(openingBalance: 3)
/// let done = await account.withdraw(2)  // true, unless another withdrawal got in at the audit
/// ```
public actor BankAccountActor {
  /// The money in the account.
  public private(set) var balance: Int

  /// Opens an account holding `openingBalance`.
  public init(openingBalance: Int = 0) {
    balance = openingBalance
  }

  /// Adds `amount` to the balance.
  public func deposit(_ amount: Int) {
    balance += amount
  }

  /// Takes `amount` out when the balance covers it; says whether it did.
  public func withdraw(_ amount: Int) async -> Bool {
    guard balance >= amount else { return false }
    await Audit.record(withdrawal: amount)
    balance -= amount
    return true
  }
}

/// The audit trail a withdrawal reports to: a call that suspends, as a network or database call does.
enum Audit {
  static func record(withdrawal amount: Int) async {
    // A few suspensions, as a request makes between sending and receiving.
    for _ in 0..<3 { await Task.yield() }
  }
}
