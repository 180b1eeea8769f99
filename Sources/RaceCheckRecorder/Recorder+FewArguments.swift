// `record` with no, one or two arguments, without a parameter pack: iterating one costs some
// 70 ns a call (the runtime builds the pack's metadata), a third of what recording costs the
// calling thread. The overloads are chosen over the pack's for these arities; they record
// exactly what it would.

extension RecordedHistory.Recorder {
  /// Records `operation` with no arguments around `body`, as `record(_:_:body:)` does.
  @inlinable
  public func record<Result: ValueConvertible, Failure: Error>(
    _ operation: String, body: () throws(Failure) -> Result
  ) throws(Failure) -> Result {
    try recordCall(operation, .none, body: body)
  }

  /// Records `operation` with no arguments around `body`, which returns nothing.
  @inlinable
  public func record<Failure: Error>(_ operation: String, body: () throws(Failure) -> Void)
    throws(Failure)
  {
    try recordCall(operation, .none, body: body)
  }

  /// Records `operation` with one argument around `body`, as `record(_:_:body:)` does.
  @inlinable
  public func record<Argument: ValueConvertible, Result: ValueConvertible, Failure: Error>(
    _ operation: String, _ argument: Argument, body: () throws(Failure) -> Result
  ) throws(Failure) -> Result {
    try recordCall(operation, .one(argument.historyValue), body: body)
  }

  /// Records `operation` with one argument around `body`, which returns nothing.
  @inlinable
  public func record<Argument: ValueConvertible, Failure: Error>(
    _ operation: String, _ argument: Argument, body: () throws(Failure) -> Void
  ) throws(Failure) {
    try recordCall(operation, .one(argument.historyValue), body: body)
  }

  /// Records `operation` with two arguments around `body`, as `record(_:_:body:)` does.
  @inlinable
  public func record<
    First: ValueConvertible, Second: ValueConvertible, Result: ValueConvertible, Failure: Error
  >(
    _ operation: String, _ first: First, _ second: Second, body: () throws(Failure) -> Result
  ) throws(Failure) -> Result {
    try recordCall(operation, .two(first.historyValue, second.historyValue), body: body)
  }

  /// Records `operation` with two arguments around `body`, which returns nothing.
  @inlinable
  public func record<First: ValueConvertible, Second: ValueConvertible, Failure: Error>(
    _ operation: String, _ first: First, _ second: Second, body: () throws(Failure) -> Void
  ) throws(Failure) {
    try recordCall(operation, .two(first.historyValue, second.historyValue), body: body)
  }
}
