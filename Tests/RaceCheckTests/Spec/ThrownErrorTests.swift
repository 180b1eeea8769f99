import Foundation
import RaceCheck
import RaceCheckTestSupport
import Testing

extension RaceCheckTestSuite {
  /// An operation that records thrown errors as results checks a method that throws by contract against a model that returns a `Result`.
  @Suite struct ThrownErrorTests {
    @Test func aCorrectThrowingActorPasses() {
      let report = ThrowingAccount.spec(recordingThrownErrors: true).check(Self.configuration)
      #expect(report.verdict == .pass, "\(report)")
    }

    @Test func withoutItAThrownErrorIsABrokenSpec() {
      let report = ThrowingAccount.spec(recordingThrownErrors: false).check(Self.configuration)
      #expect(report.specError?.message.contains("insufficientFunds") == true, "\(report)")
    }

    /// With thrown errors as results the check goes on to the bug: a withdrawal that checks the balance before an `await` and takes the amount after it.
    @Test func aBugBehindAThrowingMethodIsFound() throws {
      var configuration = Self.configuration
      configuration.mode = .schedule(strategy: .random, schedules: 100)
      let report = ThrowingAccount.spec(recordingThrownErrors: true, checksBeforeTheAwait: true)
        .check(
          configuration)
      let failure = try #require(report.failure, "\(report)")
      #expect(failure.kind == .nonLinearizable, "\(report)")
    }

    @Test func aResultIsItsValueOrTheErrorsTypeAndCase() {
      let success: Result<Int, ThrowingAccountError> = .success(3)
      let failure: Result<Int, ThrowingAccountError> = .failure(.insufficientFunds)
      #expect(success.historyValue == .int(3))
      #expect(
        failure.historyValue
          == .object(["error": .string("ThrowingAccountError.insufficientFunds")]))
      #expect(failure.historyValue == .thrownError(ThrowingAccountError.insufficientFunds))
    }

    private static var configuration: Configuration {
      var configuration = smallConfiguration()
      configuration.isolated = false
      configuration.minimizes = false
      return configuration
    }
  }
}

private enum ThrowingAccountError: Error {
  case insufficientFunds
}

/// An account whose withdrawal throws when the balance is short; the broken one checks the balance, awaits an audit, then takes the amount from what it checked.
private actor ThrowingAccount {
  private var balance = 0
  private let checksBeforeTheAwait: Bool

  init(checksBeforeTheAwait: Bool) {
    self.checksBeforeTheAwait = checksBeforeTheAwait
  }

  func deposit(_ amount: Int) -> Int {
    balance += amount
    return balance
  }

  func withdraw(_ amount: Int) async throws -> Int {
    if checksBeforeTheAwait {
      let checked = balance
      guard checked >= amount else { throw ThrowingAccountError.insufficientFunds }
      await Task.yield()
      balance = checked - amount
      return balance
    }
    guard balance >= amount else { throw ThrowingAccountError.insufficientFunds }
    balance -= amount
    return balance
  }

  static func spec(recordingThrownErrors: Bool, checksBeforeTheAwait: Bool = false) -> Spec<
    ThrowingAccount, Int
  > {
    let make = { @Sendable in ThrowingAccount(checksBeforeTheAwait: checksBeforeTheAwait) }
    return Spec("ThrowingAccount", make: make, model: 0) {
      Operation("deposit", .int(in: 1...2)) { (account: ThrowingAccount, amount: Int) in
        await account.deposit(amount)
      } model: { (balance: inout Int, amount: Int) in
        balance += amount
        return balance
      }
      let withdraw = Operation("withdraw", .int(in: 1...2)) {
        (account: ThrowingAccount, amount: Int) in
        try await account.withdraw(amount)
      } model: { (balance: inout Int, amount: Int) -> Result<Int, ThrowingAccountError> in
        guard balance >= amount else { return .failure(.insufficientFunds) }
        balance -= amount
        return .success(balance)
      }
      recordingThrownErrors ? withdraw.recordingThrownErrors() : withdraw
    }
  }
}
