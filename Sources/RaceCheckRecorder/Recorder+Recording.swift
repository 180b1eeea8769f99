extension RecordedHistory.Recorder {
  /// Records operation `operation` with `arguments` around `body`, which makes the call, and returns what it returns.
  ///
  /// The result is recorded as the operation's; a throw is recorded as `info` (a
  /// ``RecordedHistory/DefiniteFailure`` as `fail`) and rethrown.
  ///
  /// ```swift
  /// let value = try recorder.record("get", "k") { try client.get("k") }
  /// ```
  @inlinable
  public func record<each Argument: ValueConvertible, Result: ValueConvertible, Failure: Error>(
    _ operation: String, _ arguments: repeat each Argument,
    body: () throws(Failure) -> Result
  ) throws(Failure) -> Result {
    try recordCall(operation, Self.values(repeat each arguments), body: body)
  }

  /// Records operation `operation` with `arguments` around `body`, which makes a call that returns nothing.
  ///
  /// ```swift
  /// try recorder.record("put", "k", "v") { try client.put("k", "v") }
  /// ```
  @inlinable
  public func record<each Argument: ValueConvertible, Failure: Error>(
    _ operation: String, _ arguments: repeat each Argument,
    body: () throws(Failure) -> Void
  ) throws(Failure) {
    try recordCall(operation, Self.values(repeat each arguments), body: body)
  }

  /// Records operation `operation` with `arguments` around the asynchronous `body`, and returns what it returns.
  ///
  /// A task cancelled while it waits throws, and the call is then recorded as `info`.
  ///
  /// ```swift
  /// let value = try await recorder.record("get", "k") { try await client.get("k") }
  /// ```
  @inlinable
  public func record<each Argument: ValueConvertible, Result: ValueConvertible, Failure: Error>(
    _ operation: String, _ arguments: repeat each Argument,
    isolation: isolated (any Actor)? = #isolation,
    body: () async throws(Failure) -> Result
  ) async throws(Failure) -> Result {
    let ticket = log.call(operation, Self.values(repeat each arguments))
    do {
      let result = try await body()
      log.end(ticket, status: .ok, result: result.historyValue)
      return result
    } catch {
      log.end(ticket, status: Self.status(of: error), result: .null)
      throw error
    }
  }

  /// Records operation `operation` with `arguments` around the asynchronous `body`, which returns nothing.
  ///
  /// ```swift
  /// try await recorder.record("put", "k", "v") { try await client.put("k", "v") }
  /// ```
  @inlinable
  public func record<each Argument: ValueConvertible, Failure: Error>(
    _ operation: String, _ arguments: repeat each Argument,
    isolation: isolated (any Actor)? = #isolation,
    body: () async throws(Failure) -> Void
  ) async throws(Failure) {
    let ticket = log.call(operation, Self.values(repeat each arguments))
    do {
      try await body()
      log.end(ticket, status: .ok, result: .null)
    } catch {
      log.end(ticket, status: Self.status(of: error), result: .null)
      throw error
    }
  }

  /// Records the call of `operation` with `arguments` around `body`: what every synchronous `record` does once its arguments are values.
  @inlinable
  func recordCall<Result: ValueConvertible, Failure: Error>(
    _ operation: String, _ arguments: RecordedArguments, body: () throws(Failure) -> Result
  ) throws(Failure) -> Result {
    let ticket = log.call(operation, arguments)
    do {
      let result = try body()
      log.end(ticket, status: .ok, result: result.historyValue)
      return result
    } catch {
      log.end(ticket, status: Self.status(of: error), result: .null)
      throw error
    }
  }

  /// Records the call of `operation` with `arguments` around `body`, which returns nothing.
  @inlinable
  func recordCall<Failure: Error>(
    _ operation: String, _ arguments: RecordedArguments, body: () throws(Failure) -> Void
  ) throws(Failure) {
    let ticket = log.call(operation, arguments)
    do {
      try body()
      log.end(ticket, status: .ok, result: .null)
    } catch {
      log.end(ticket, status: Self.status(of: error), result: .null)
      throw error
    }
  }

  /// The arguments as values: inline up to two, so that most calls allocate nothing.
  @inlinable
  static func values<each Argument: ValueConvertible>(_ arguments: repeat each Argument)
    -> RecordedArguments
  {
    var count = 0
    var first = Value.null
    var second = Value.null
    var more: [Value] = []
    for argument in repeat each arguments {
      switch count {
      case 0: first = argument.historyValue
      case 1: second = argument.historyValue
      case 2: more = [first, second, argument.historyValue]
      default: more.append(argument.historyValue)
      }
      count += 1
    }
    switch count {
    case 0: return .none
    case 1: return .one(first)
    case 2: return .two(first, second)
    default: return .many(more)
    }
  }

  /// What an error thrown by a recorded body says of the call: it had no effect (`fail`) or nobody knows (`info`).
  @usableFromInline
  static func status(of error: any Error) -> RecordedHistory.Operation.Status {
    error is any RecordedHistory.DefiniteFailure ? .fail : .info
  }
}
