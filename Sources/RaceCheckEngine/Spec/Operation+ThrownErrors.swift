extension Operation {
  /// Records an error the subject's call throws as the call's result, `{"error": "Type.case"}`, rather than ending the check as a broken spec: for a method that throws by contract.
  ///
  /// The model says which calls throw by returning a `Result`, whose error compares equal
  /// to a thrown one of the same type and description:
  ///
  /// ```swift
  /// Operation("spend", .int(in: 1...3)) { (purse: Purse, amount: Int) in
  ///   try await purse.spend(amount)
  /// } model: { (coins: inout Int, amount: Int) -> Result<Int, PurseError> in
  ///   guard coins >= amount else { return .failure(.tooFewCoins) }
  ///   coins -= amount
  ///   return .success(coins)
  /// }
  /// .recordingThrownErrors()
  /// ```
  ///
  /// A call that does not return within its timeout is still a hang, and arguments that do
  /// not fit the closure are still a broken spec.
  public func recordingThrownErrors() -> Operation {
    var operation = self
    let perform = self.perform
    operation.perform = { subject, values in
      do {
        return try perform(subject, values)
      } catch let error where Self.isTheCodesOwn(error) {
        return .thrownError(error)
      }
    }
    if let call = asyncCall {
      operation.asyncCall = AsyncCall(name: call.name, timeout: call.timeout) { subject, values in
        do {
          return try await call.run(subject, values)
        } catch let error where Self.isTheCodesOwn(error) {
          return .thrownError(error)
        }
      }
    }
    return operation
  }

  /// Whether `error` is one the subject's call threw, not racecheck's: a call that never returned, or arguments that do not fit.
  private static func isTheCodesOwn(_ error: any Error) -> Bool {
    !(error is CompletionTimeout) && !(error is ArgumentMismatch)
  }
}
