import Dispatch
import Foundation
import Synchronization
import Testing

@testable import RaceCheckEngine

extension UnitTestSuite {
  /// The pool runs each life on a parked thread when one is there, a fresh one otherwise, and ends its threads when let go.
  @Suite struct ControlledThreadPoolTests {
    /// The thread each of `count` lives run on, one life after another.
    private func threadsOfLives(_ count: Int, on pool: ControlledThreadPool) -> [UInt] {
      var ids: [UInt] = []
      for _ in 0..<count {
        let ran = DispatchSemaphore(value: 0)
        let id = Mutex<UInt>(0)
        pool.run {
          id.withLock { $0 = UInt(pthread_self()) }
          ran.signal()
        }
        ran.wait()
        ids.append(id.withLock { $0 })
        // The life has ended when it signalled; its thread parks just after.
        waitUntilParked(pool, count: 1)
      }
      return ids
    }

    private func waitUntilParked(_ pool: ControlledThreadPool, count: Int) {
      // Bounded: the thread parks right after its life; a pool that never parks fails below.
      for _ in 0..<10_000 where pool.parkedCount < count { usleep(100) }
    }

    @Test func aLifeAfterAnotherRunsOnTheThreadTheFirstParked() {
      let pool = ControlledThreadPool(reusesThreads: true)
      let ids = threadsOfLives(3, on: pool)
      #expect(Set(ids).count == 1)
      #expect(pool.parkedCount == 1)
    }

    @Test func withoutReuseEveryLifeGetsAThreadThatEndsWithIt() {
      let pool = ControlledThreadPool(reusesThreads: false)
      for _ in 0..<3 {
        let ended = DispatchSemaphore(value: 0)
        pool.run { ThreadEndSignal.install(ended) }
        #expect(ended.wait(timeout: .now() + 10) == .success)
      }
      #expect(pool.parkedCount == 0)
    }

    @Test func livesThatOverlapGetThreadsOfTheirOwn() {
      let pool = ControlledThreadPool(reusesThreads: true)
      let release = DispatchSemaphore(value: 0)
      let started = DispatchSemaphore(value: 0)
      let ids = Mutex<Set<UInt>>([])
      for _ in 0..<3 {
        pool.run {
          ids.withLock { _ = $0.insert(UInt(pthread_self())) }
          started.signal()
          release.wait()
        }
      }
      for _ in 0..<3 { started.wait() }
      #expect(ids.withLock { $0.count } == 3)
      for _ in 0..<3 { release.signal() }
      waitUntilParked(pool, count: 3)
      #expect(pool.parkedCount == 3)
    }

    @Test func aPoolLetGoEndsItsParkedThreads() {
      var pool: ControlledThreadPool? = ControlledThreadPool(reusesThreads: true)
      let ended = DispatchSemaphore(value: 0)
      let ran = DispatchSemaphore(value: 0)
      pool?.run {
        // Runs on the pool's thread: its end is seen through a thread-specific destructor.
        ThreadEndSignal.install(ended)
        ran.signal()
      }
      ran.wait()
      waitUntilParked(pool!, count: 1)
      pool = nil
      #expect(ended.wait(timeout: .now() + 10) == .success)
    }
  }
}

/// Signals a semaphore when the calling thread ends, through a pthread key's destructor.
private enum ThreadEndSignal {
  private static let key: pthread_key_t = {
    var key = pthread_key_t()
    pthread_key_create(&key) { value in
      guard let value else { return }
      Unmanaged<DispatchSemaphore>.fromOpaque(value).takeRetainedValue().signal()
    }
    return key
  }()

  static func install(_ semaphore: DispatchSemaphore) {
    pthread_setspecific(key, Unmanaged.passRetained(semaphore).toOpaque())
  }
}
