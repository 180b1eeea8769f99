/// A body of concurrent code to run under the controlled scheduler, once per schedule, until one schedule fails.
///
/// Any code, not only a type with a spec: a test body that starts tasks, queue blocks,
/// threads and timers and checks what they did. Each schedule runs the body from the
/// start, on a controlled thread, and everything it starts through a primitive the
/// scheduler controls runs on controlled threads too, so the scheduler decides every
/// interleaving, and the same seed gives the same ones. A schedule fails on an expectation
/// that fails in the body or in anything it started (`#expect`, `#require`, `XCTAssert…`),
/// on an error the body throws, on a crash or a trap (in an isolated child), a deadlock, a
/// data race the scheduler's vector clocks show, or a schedule that never ends.
///
/// From a test, call `explore { … }`; for the command line, `Target(exploring:)` makes one
/// a target (`racecheck explore NAME`), with repro files and `racecheck replay`:
///
/// ```swift
/// let target = Target(exploring: "fan-out") {
///   let results = UnsafeResults()
///   let group = DispatchGroup()
///   for index in 0..<2 {
///     DispatchQueue.global().async(group: group) { results.append(index) }
///   }
///   group.wait()
///   precondition(results.count == 2)
/// }
/// ```
///
/// The body makes its own state each time: state kept from one schedule to the next would
/// make the schedules depend on each other, and a replay could not run one alone.
package struct Exploration: Checkable {
  /// The exploration's name, which reports, repro files and the command line use.
  package let name: String
  private let body: Body

  /// The code an exploration runs.
  private enum Body: Sendable {
    case synchronous(@Sendable () throws -> Void)
    case asynchronous(@Sendable () async throws -> Void)
  }

  /// Creates an exploration of a synchronous body.
  package init(_ name: String, _ body: @escaping @Sendable () throws -> Void) {
    self.name = name
    self.body = .synchronous(body)
  }

  /// Creates an exploration of an `async` body, which runs in a task whose jobs the scheduler runs.
  package init(_ name: String, _ body: @escaping @Sendable () async throws -> Void) {
    self.name = name
    self.body = .asynchronous(body)
  }

  /// A spec of one operation, the body, which schedule mode runs on thread 0 of a one-call scenario.
  package var spec: Spec<ExploredRun, ExploredRun.Model> {
    let operation: Operation<ExploredRun, ExploredRun.Model>
    switch body {
    case .synchronous(let body):
      operation = Operation(Self.operationName) { (_: ExploredRun) in
        try body()
      } model: {
        (_: inout ExploredRun.Model) in
      }
    case .asynchronous(let body):
      operation = Operation(Self.operationName) { (_: ExploredRun) in
        try await body()
      } model: {
        (_: inout ExploredRun.Model) in
      }
    }
    var spec = Spec(name, make: ExploredRun.init, model: ExploredRun.Model()) { operation }
    spec.isExploration = true
    return spec
  }

  /// The name of the body's operation in histories and traces.
  static let operationName = "body"
}

/// The subject of an ``Exploration``'s spec: nothing, as the body makes its own state.
package final class ExploredRun: Sendable {
  /// The model of an exploration: the body has no result to check, only expectations.
  package struct Model: Hashable, Sendable {}

  init() {}
}

extension Configuration {
  /// This configuration as an exploration runs it: in schedule mode, one scenario of one call, the body.
  ///
  /// The settings of schedule mode stay the caller's (a random walk of 1,000 schedules when
  /// none were given); the scenario's shape, the number of scenarios and the stress budget
  /// do not apply to a body. A shard keeps its part: the first shard runs the body, and
  /// `merge` counts the others' empty parts.
  package var exploringABody: Configuration {
    var configuration = self
    configuration.exploresABody = true
    configuration.scheduleSettings = scheduleSettings ?? .exploration
    configuration.shape = Shape(
      threads: 1, operationsPerThread: 1, initialOperations: 0, postOperations: 0)
    configuration.scenarios = 1
    configuration.firstScenario = 0
    return configuration
  }
}

extension Target {
  /// Creates a target that explores a synchronous body under the controlled scheduler (`racecheck explore NAME`), with the summary and expectation `list` and `demo` show.
  ///
  /// ```swift
  /// let fanOut = Target(exploring: "FanOut", expectation: .fail(.unsynchronizedAccess)) {
  ///   let fetcher = ThumbnailFetcher()
  ///   fetcher.fetchAll([1, 2])
  ///   #expect(fetcher.thumbnails.sorted() == [10, 20])
  /// }
  /// ```
  public init(
    exploring name: String, summary: String = "", expectation: Expectation? = nil,
    _ body: @escaping @Sendable () throws -> Void
  ) {
    self.init(Exploration(name, body), summary: summary, expectation: expectation)
  }

  /// Creates a target that explores an `async` body under the controlled scheduler (`racecheck explore NAME`), with the summary and expectation `list` and `demo` show.
  public init(
    exploring name: String, summary: String = "", expectation: Expectation? = nil,
    _ body: @escaping @Sendable () async throws -> Void
  ) {
    self.init(Exploration(name, body), summary: summary, expectation: expectation)
  }
}
