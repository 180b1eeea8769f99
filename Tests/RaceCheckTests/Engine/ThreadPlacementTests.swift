import Foundation
import Synchronization
import Testing

@testable import RaceCheckEngine

extension RaceCheckTestSuite {
  /// The stress runner's threads are pinned to distinct CPUs, and let go again.
  @Suite struct ThreadPlacementTests {
    @Test func pinnedThreadRunsOnItsOwnCPUAndIsReleasedToAllOfThem() throws {
      let placement = ThreadPlacement.current()
      try #require(placement.allowed.count > 1, "one CPU: nothing is pinned")
      let seen = Mutex<(pinned: [Int32], released: [Int32])>(([], []))
      let done = DispatchSemaphore(value: 0)
      // A thread of its own, so that the test's thread keeps every CPU.
      Thread {
        placement.pin(thread: 1)
        let pinned = ThreadPlacement.current().allowed
        placement.release()
        seen.withLock { $0 = (pinned, ThreadPlacement.current().allowed) }
        done.signal()
      }.start()
      done.wait()
      let (pinned, released) = seen.withLock { $0 }
      #expect(pinned == [placement.allowed[1]])
      #expect(released == placement.allowed)
    }
  }
}
