import Fixtures
import Foundation
import Testing

@testable import RaceCheckEngine

extension RaceCheckTestSuite {
  /// Operations on the main thread: thread 0 runs there, from a test as from an executable, in both modes.
  @Suite struct MainThreadTests {
    /// `MainThreadSkipsLock`'s spec as a user writes it, its read on the main thread or not.
    static func spec(readsOnMainThread: Bool) -> Spec<MainThreadSkipsLock, RegisterModel> {
      let accounts = Generator.element(of: [
        ["first account holder's name", "first.account@example.com"],
        ["second account holder's name", "second.account@example.com"],
      ])
      let read = Operation<MainThreadSkipsLock, RegisterModel>("read") { register in
        register.account
      }
      return Spec(
        "MainThreadSkipsLockFromATest", make: MainThreadSkipsLock.init,
        model: RegisterModel(state: ["", ""])
      ) {
        readsOnMainThread ? read.onMainThread() : read
        Operation("write", accounts) { (register: MainThreadSkipsLock, account: [String]) in
          // Fresh heap copies, as strings built at run time are.
          register.update(account.map { String(decoding: Array($0.utf8), as: UTF8.self) })
        }
      }
    }

    @Test func theMainQueueRunsOnTheMainThreadInATestProcess() {
      let ran = DispatchSemaphore(value: 0)
      let onMainThread = UncheckedBox(NSLock())
      nonisolated(unsafe) var wasMain = false
      DispatchQueue.main.async {
        onMainThread.value.withLock { wasMain = Thread.isMainThread }
        ran.signal()
      }
      #expect(ran.wait(timeout: .now() + 10) == .success)
      #expect(onMainThread.value.withLock { wasMain })
    }

    @Test func aReadThatSkipsItsLockOnTheMainThreadIsFoundFromATest() throws {
      var configuration = Configuration.demo(seed: 1)
      configuration.reproDirectory = FileManagerTemporary.directory
      var report: CheckReport?
      withKnownIssue {
        report = check(Self.spec(readsOnMainThread: true), configuration: configuration)
      }
      let failure = try #require(report?.failure, "\(String(describing: report))")
      #expect(
        [.dataRace, .unclassified].contains(failure.diagnosis.pattern), "\(failure.diagnosis)")
    }

    @Test func theSameReadOffTheMainThreadHoldsTheLockAndPasses() {
      var configuration = Configuration.demo(seed: 1)
      configuration.reproDirectory = FileManagerTemporary.directory
      let report = check(Self.spec(readsOnMainThread: false), configuration: configuration)
      #expect(report.verdict == .pass, "\(report)")
    }

    @Test func scheduleModeRunsThreadZeroOnTheMainThreadAndNamesTheRace() throws {
      var configuration = Configuration(seed: 1, scenarios: 10)
      configuration.scheduleSettings = ScheduleSettings()
      configuration.reproDirectory = FileManagerTemporary.directory
      var report: CheckReport?
      withKnownIssue {
        report = check(Self.spec(readsOnMainThread: true), configuration: configuration)
      }
      let failure = try #require(report?.failure, "\(String(describing: report))")
      #expect(failure.diagnosis.pattern == .unsynchronizedAccess, "\(failure.diagnosis)")
    }

    @Test func mainThreadOperationsAreDrawnOnlyForThreadZero() {
      let generator = ScenarioGenerator(
        spec: Self.spec(readsOnMainThread: true),
        shape: Configuration.Shape(threads: 3, operationsPerThread: 5))
      for index in 0..<20 {
        let scenario = generator.scenario(seed: 3, index: index)
        for column in scenario.parallel.dropFirst() {
          #expect(!column.contains { $0.operation == "read" }, "\(scenario)")
        }
      }
    }
  }
}
