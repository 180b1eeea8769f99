import Foundation
import Testing

@testable import RaceCheckEngine

extension RaceCheckTestSuite {
  /// `Operation.iteration()` checks a `Sequence` subject's elements against the model's list.
  @Suite struct IterationTests {
    @Test func aSequenceThatIteratesACopyTakenUnderItsLockPasses() {
      var configuration = Configuration.demo(seed: 1)
      configuration.reproDirectory = FileManagerTemporary.directory
      let report = check(
        LockedList.spec(name: "LockedList", copiesUnderLock: true), configuration: configuration)
      #expect(report.verdict == .pass, "\(report)")
    }

    @Test func aSequenceThatReadsElementByElementFailsTheIteration() throws {
      // The window between two element reads is short, and stress mode may miss a write in
      // it on any seed; the scheduler explores it on every run.
      var configuration = Configuration.demo(seed: 1)
      configuration.scheduleSettings = ScheduleSettings(schedules: 200)
      configuration.reproDirectory = FileManagerTemporary.directory
      var report: CheckReport?
      withKnownIssue {
        report = check(
          LockedList.spec(name: "IndexedList", copiesUnderLock: false), configuration: configuration
        )
      }
      let failure = try #require(report?.failure, "\(String(describing: report))")
      #expect(failure.scenario.allCalls.contains { $0.operation == "snapshot" }, "\(failure)")
      // Every element read holds the lock: the iteration is not atomic, nothing is unsynchronized.
      #expect(failure.diagnosis.pattern != .dataRace, "\(failure.diagnosis.evidence)")
    }

    @Test func aSetIsComparedWhateverOrderItIteratesIn() throws {
      let iteration = Operation<Set<Int>, SetModel>.iteration()
      #expect(iteration.name == "snapshot")
      var model = SetModel()
      _ = model.apply(try SetModel.step("insert", [3]))
      _ = model.apply(try SetModel.step("insert", [1]))
      #expect(model.apply(try SetModel.step("snapshot", [])) == [1, 3])
      #expect(try iteration.perform([3, 1], []) == [1, 3])
    }
  }
}

/// A list behind a lock that is a `Sequence`: iterated from a copy taken under the lock, or element by element.
final class LockedList: Sequence, @unchecked Sendable {
  private var storage: [Int] = []
  private let lock = NSLock()
  private let copiesUnderLock: Bool

  init(copiesUnderLock: Bool) {
    self.copiesUnderLock = copiesUnderLock
  }

  func append(_ element: Int) { lock.withLock { storage.append(element) } }
  func removeLast() { lock.withLock { _ = storage.popLast() } }
  var count: Int { lock.withLock { storage.count } }
  func element(at index: Int) -> Int? {
    lock.withLock { storage.indices.contains(index) ? storage[index] : nil }
  }

  func makeIterator() -> AnyIterator<Int> {
    if copiesUnderLock { return AnyIterator(lock.withLock { storage }.makeIterator()) }
    // Each element is read under the lock, the iteration as a whole is not.
    var index = 0
    return AnyIterator {
      defer { index += 1 }
      return index < self.count ? self.element(at: index) : nil
    }
  }

  static func spec(name: String, copiesUnderLock: Bool) -> Spec<LockedList, ArrayModel> {
    let make: @Sendable () -> LockedList = { LockedList(copiesUnderLock: copiesUnderLock) }
    return Spec(name, make: make, model: ArrayModel()) {
      Operation("append", .int(in: 0...3)) { (list: LockedList, x: Int) in list.append(x) }
      Operation("removeLast") { (list: LockedList) in list.removeLast() }
      Operation.iteration()
    }
  }
}
