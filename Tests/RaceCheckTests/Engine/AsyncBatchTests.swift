import Dispatch
import Synchronization
import Testing

@testable import RaceCheckEngine

extension RaceCheckTestSuite {
  /// A part of an invocation whose calls are all `async` is made from one task, each call still timed and recorded on its own.
  @Suite struct AsyncBatchTests {
    /// A subject whose calls suspend once and note the order they ran in.
    final class Log: Sendable {
      let entries = Mutex<[Int]>([])

      func add(_ value: Int) async -> Int {
        await Task.yield()
        return entries.withLock {
          $0.append(value)
          return $0.count
        }
      }
    }

    struct Refused: Error {}

    static let add = AsyncCall<Log>("add", timeout: .seconds(10)) { (log: Log, value: Int) in
      .int(await log.add(value))
    }
    static let refuse = AsyncCall<Log>("refuse", timeout: .seconds(10)) { (_: Log) -> Value in
      throw Refused()
    }
    static let stall = AsyncCall<Log>("stall", timeout: .seconds(1)) { (_: Log) -> Value in
      try await Task.sleep(for: .seconds(30))
      return .null
    }
    static let briefAdd = AsyncCall<Log>("add", timeout: .seconds(1)) { (log: Log, value: Int) in
      .int(await log.add(value))
    }
    /// An add that suspends for 10 ms first, so that its task is certainly suspended when it is resumed.
    ///
    /// `Task.yield()` may not suspend at all: the job that resumes the task can run on another
    /// thread before the task has finished suspending, and the task then goes on where it is,
    /// with no job brought to any executor. A sleep resumes the task long after it suspended.
    static let sleepingAdd = AsyncCall<Log>("add", timeout: .seconds(10)) {
      (log: Log, value: Int) in
      try await Task.sleep(for: .milliseconds(10))
      return .int(await log.add(value))
    }

    @Test func theCallsRunInOrderEachWithItsOwnInterval() throws {
      let log = Log()
      let batch = try #require(
        AsyncBatch([Self.add, Self.add, Self.add], arguments: [[.int(7)], [.int(8)], [.int(9)]]))
      let started = Mutex<[Int]>([])
      let outcome = batch.run(
        on: log, waiting: CompletionWait(),
        before: { offset in started.withLock { $0.append(offset) } })
      #expect(outcome.thrown == nil)
      #expect(log.entries.withLock { $0 } == [7, 8, 9])
      #expect(outcome.results == [.int(1), .int(2), .int(3)])
      #expect(started.withLock { $0 } == [0, 1, 2])
      for offset in 0..<3 {
        #expect(outcome.callTimes[offset] > 0)
        #expect(outcome.callTimes[offset] <= outcome.returnTimes[offset])
        if offset > 0 { #expect(outcome.returnTimes[offset - 1] <= outcome.callTimes[offset]) }
      }
    }

    @Test func aCallThatThrowsEndsThePartAndIsNamedByItsOffset() throws {
      let log = Log()
      let batch = try #require(
        AsyncBatch([Self.add, Self.refuse, Self.add], arguments: [[.int(1)], [], [.int(2)]]))
      let outcome = batch.run(on: log, waiting: CompletionWait())
      #expect(outcome.thrown?.offset == 1)
      #expect(outcome.thrown?.error is Refused)
      #expect(outcome.results[0] == .int(1))
      #expect(log.entries.withLock { $0 } == [1])
    }

    /// The wait is the calls' timeouts together (2 s here), far more than the first call takes even on busy cores.
    @Test func aCallThatNeverReturnsTimesOutAndIsTheOneNamed() throws {
      let log = Log()
      let batch = try #require(
        AsyncBatch([Self.briefAdd, Self.stall], arguments: [[.int(1)], []]))
      let outcome = batch.run(on: log, waiting: CompletionWait())
      #expect(outcome.thrown?.offset == 1)
      let timeout = try #require(outcome.thrown?.error as? CompletionTimeout)
      #expect(timeout.call.operation == "stall")
      #expect(outcome.results[0] == .int(1))
    }

    /// Under a probe the part's task records its hops, each under the history index of the call it was making.
    @Test func underAProbeEachCallsHopsAreItsOwn() throws {
      let log = Log()
      let calls = AsyncCalls(AsyncProbe())
      let batch = try #require(
        AsyncBatch(
          [Self.sleepingAdd, Self.sleepingAdd, Self.sleepingAdd],
          arguments: [[.int(7)], [.int(8)], [.int(9)]], probe: calls))
      let outcome = batch.run(on: log, waiting: CompletionWait(), first: 4)
      #expect(outcome.thrown == nil)
      #expect(outcome.results == [.int(1), .int(2), .int(3)])
      // Each call suspends in its sleep, and its resumption brings the task to the probe's executor.
      #expect(Set(calls.hops().map(\.call)) == [4, 5, 6])
    }

    /// A subject that notes the most calls it ever had in flight at once.
    final class Overlaps: Sendable {
      private let counts = Mutex<(now: Int, most: Int)>((0, 0))

      var most: Int { counts.withLock { $0.most } }

      func touch() async {
        counts.withLock {
          $0.now += 1
          $0.most = max($0.most, $0.now)
        }
        for _ in 0..<20 { await Task.yield() }
        counts.withLock { $0.now -= 1 }
      }
    }

    static let touch = AsyncCall<Overlaps>("touch", timeout: .seconds(30)) {
      (subject: Overlaps) -> Value in
      await subject.touch()
      return .null
    }

    /// Under a probe that runs an operation alone, two parts made at once never have two of its calls in flight.
    @Test func underAProbeTheExclusiveOperationRunsAlone() throws {
      let subject = Overlaps()
      let calls = AsyncCalls(AsyncProbe(exclusiveOperation: "touch"))
      let batch = try #require(
        AsyncBatch([Self.touch, Self.touch, Self.touch], arguments: [[], [], []], probe: calls))
      let waits = [CompletionWait(), CompletionWait()]
      DispatchQueue.concurrentPerform(iterations: 2) { part in
        _ = batch.run(on: subject, waiting: waits[part], first: 3 * part)
      }
      #expect(subject.most == 1)
    }

    @Test func aPartWithASynchronousCallIsNotBatched() {
      #expect(AsyncBatch<Log>([Self.add, nil], arguments: [[.int(1)], []]) == nil)
    }
  }
}
