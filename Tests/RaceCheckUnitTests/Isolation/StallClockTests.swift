import Foundation
import Testing

@testable import RaceCheckEngine
@testable import RaceCheckHistory

extension UnitTestSuite {
  /// The hang clock counts the time a child was not kept from a CPU, so a starved child is not called hung.
  @Suite struct StallClockTests {
    /// A clock for no process, fed counts by hand from instant zero.
    private func clock() -> StallClock {
      StallClock(process: -1, at: MonotonicInstant(nanoseconds: 0))
    }

    private func at(milliseconds: Int64) -> MonotonicInstant {
      MonotonicInstant(nanoseconds: milliseconds * 1_000_000)
    }

    /// Each thread's milliseconds run and counted as waiting; a thread is asleep now unless `ready` names it.
    private func counts(
      _ threads: [Int32: (running: Int64, waiting: Int64)], ready: Set<Int32> = []
    ) -> [Int32: StallClock.ThreadCounts] {
      Dictionary(
        uniqueKeysWithValues: threads.map { thread, counts in
          (
            thread,
            StallClock.ThreadCounts(
              running: .milliseconds(counts.running), waiting: .milliseconds(counts.waiting),
              isReady: ready.contains(thread))
          )
        })
    }

    @Test func aChildWhoseThreadsAllSleepCountsTheWholeInterval() {
      var clock = clock()
      let reading = clock.advance(
        to: counts([1: (0, 0), 2: (0, 0)]), at: at(milliseconds: 50))
      #expect(reading.wall == .milliseconds(50))
      #expect(reading.stalled == .milliseconds(50))
      #expect(reading.cpu == .zero)
    }

    @Test func aThreadKeptFromACPUCountsOnlyTheTimeItWasNot() {
      var clock = clock()
      // Thread 1 was ready for 45 of the 50 ms and ran 5; thread 2 slept, waiting for it.
      let reading = clock.advance(
        to: counts([1: (5, 45), 2: (0, 0)]), at: at(milliseconds: 50))
      #expect(reading.wall == .milliseconds(50))
      #expect(reading.stalled == .milliseconds(5))
      #expect(reading.cpu == .milliseconds(5))
    }

    @Test func aThreadReadyAllAlongThatNeverRanWaitedThoughTheKernelHasNotCountedItYet() {
      var clock = clock()
      // The kernel adds a thread's wait when it next runs: until then a ready thread that did
      // not run waited for all of the interval.
      let reading = clock.advance(
        to: counts([1: (0, 0), 2: (0, 0)], ready: [1]), at: at(milliseconds: 50))
      #expect(reading.stalled == .zero)
    }

    @Test func aThreadThatRanAllAlongCountsTheWholeInterval() {
      var clock = clock()
      let reading = clock.advance(to: counts([1: (50, 0)], ready: [1]), at: at(milliseconds: 50))
      #expect(reading.stalled == .milliseconds(50))
      #expect(reading.cpu == .milliseconds(50))
    }

    @Test func countsAreDifferencesFromTheLastSampleAndNewThreadsStartAtZero() {
      var clock = clock()
      clock.advance(to: counts([1: (10, 40)]), at: at(milliseconds: 50))
      let reading = clock.advance(
        to: counts([1: (60, 40), 2: (0, 20)]), at: at(milliseconds: 100))
      #expect(reading.wall == .milliseconds(100))
      // 10 of the first interval, then 30 of the second (thread 2 waited 20 of it).
      #expect(reading.stalled == .milliseconds(40))
      #expect(reading.cpu == .milliseconds(60))
    }

    @Test func withoutTheKernelsCountsTheClockCountsWallTime() {
      var clock = clock()
      let reading = clock.advance(to: nil, at: at(milliseconds: 70))
      #expect(reading.stalled == .milliseconds(70))
      #expect(reading.wall == .milliseconds(70))
    }

    @Test func progressStartsTheClockAgain() {
      var clock = clock()
      clock.advance(to: counts([1: (0, 0)]), at: at(milliseconds: 50))
      clock.restart()
      #expect(clock.reading == StallClock.Reading())
    }

    @Test func theThreadThatReadsTheCountsIsReadyWhileItRuns() throws {
      let counts = try #require(StallClock.counts(of: getpid()))
      #expect(counts.values.contains { $0.isReady })
    }
  }
}
