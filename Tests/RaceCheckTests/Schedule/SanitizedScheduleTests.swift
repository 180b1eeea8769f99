import Foundation
import Testing

@testable import RaceCheckEngine

/// A counter kept behind a pointer, which has no exclusivity check: the scheduler never sees its accesses.
final class PointerCounter: @unchecked Sendable {
  /// How the counter guards its storage.
  enum Guard: String, CaseIterable, Sendable {
    case none, lock, serialQueue
  }

  private let storage = UnsafeMutablePointer<Int>.allocate(capacity: 1)
  private let lock = NSLock()
  private let queue = DispatchQueue(label: "pointer-counter")
  private let guarding: Guard

  init(_ guarding: Guard) {
    self.guarding = guarding
    storage.initialize(to: 0)
  }

  deinit {
    storage.deallocate()
  }

  func increment() {
    switch guarding {
    case .none: storage.pointee += 1
    case .lock: lock.withLock { storage.pointee += 1 }
    case .serialQueue: queue.sync { storage.pointee += 1 }
    }
  }

  var value: Int {
    switch guarding {
    case .none: storage.pointee
    case .lock: lock.withLock { storage.pointee }
    case .serialQueue: queue.sync { storage.pointee }
    }
  }

  static func spec(_ guarding: Guard) -> Spec<PointerCounter, Int> {
    let make: @Sendable () -> PointerCounter = { PointerCounter(guarding) }
    return Spec("PointerCounter-\(guarding.rawValue)", make: make, model: 0) {
      Operation("increment", perform: { (counter: PointerCounter) in counter.increment() }) {
        (state: inout Int) in state += 1
      }
      Operation("value", perform: { (counter: PointerCounter) in counter.value }) {
        (state: inout Int) in state
      }
    }
  }
}

extension RaceCheckTestSuite {
  /// Under `--sanitize=thread`, schedule mode takes Thread Sanitizer's reports, and its own hand-offs order nothing the sanitizer sees.
  @Suite struct SanitizedScheduleTests {
    static func configuration() -> Configuration {
      var configuration = Configuration(
        seed: 5,
        shape: .init(threads: 2, operationsPerThread: 2, initialOperations: 1, postOperations: 1),
        scenarios: 10, reproDirectory: FileManagerTemporary.directory)
      configuration.scheduleSettings = ScheduleSettings(schedules: 20)
      configuration.minimizes = false
      return configuration
    }

    @Test func aRaceOnStateTheSchedulerCannotSeeIsTheSanitizers() {
      let report = PointerCounter.spec(.none).check(Self.configuration())
      if SanitizerRaceLog.isActive {
        // The scheduler's semaphores between the two increments order nothing for the sanitizer.
        #expect(report.failure?.evidence.sanitizerRace != nil, "\(report)")
        #expect(report.failure?.diagnosis.pattern == .unsynchronizedAccess, "\(report)")
      } else {
        // Without it there is no scheduling point inside `+= 1` and no access to see: no failure.
        #expect(report.verdict == .pass, "\(report)")
      }
    }

    @Test(arguments: [PointerCounter.Guard.lock, .serialQueue])
    func stateGuardedByAPrimitiveTheSchedulerModelsHasNoRace(guarding: PointerCounter.Guard) {
      // The lock is real; the queue is the scheduler's model alone, which tells the sanitizer its order.
      let report = PointerCounter.spec(guarding).check(Self.configuration())
      #expect(report.verdict == .pass, "\(report)")
    }
  }
}
