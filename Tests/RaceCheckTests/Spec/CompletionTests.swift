import Dispatch
import Testing

@testable import RaceCheckEngine

extension RaceCheckTestSuite {
  /// Operations that deliver their result to a completion handler wait for it and record what it delivers.
  @Suite struct CompletionTests {
    @Test func theValueTheHandlerDeliversIsTheResult() throws {
      let value = try CompletionWait().value(of: Scenario.Call("count"), timeout: .seconds(10)) {
        (done: @escaping @Sendable (Int) -> Void) in DispatchQueue.global().async { done(3) }
      }
      #expect(value == 3)
    }

    @Test func aHandlerCalledTwiceDeliversItsFirstValue() throws {
      let value = try CompletionWait().value(of: Scenario.Call("count"), timeout: .seconds(10)) {
        (done: @escaping @Sendable (Int) -> Void) in
        done(1)
        done(2)
      }
      #expect(value == 1)
    }

    @Test func aHandlerThatNeverComesEndsTheCallWithAnErrorThatNamesIt() {
      #expect {
        _ = try CompletionWait().value(
          of: Scenario.Call("append", [1]), timeout: .milliseconds(50)
        ) { (_: @escaping @Sendable (Int) -> Void) in }
      } throws: { error in
        (error as? CompletionTimeout)?.description
          == "the completion handler of append(1) was not called within 0.05 s"
      }
    }

    @Test func anOperationWithACompletionIsCheckedAgainstItsModel() {
      var configuration = Configuration.demo(seed: 2)
      configuration.reproDirectory = FileManagerTemporary.directory
      let spec = Spec("CompletingCounter", make: CompletingCounter.init, model: CounterModel()) {
        Operation("get") { (counter: CompletingCounter) in counter.value }
        Operation(
          "increment",
          completing: { (counter: CompletingCounter) in { done in counter.increment(done) } })
      }
      let report = check(spec, configuration: configuration)
      #expect(report.verdict == .pass, "\(report)")
    }
  }
}

/// A counter whose increment completes on its serial queue.
final class CompletingCounter: @unchecked Sendable {
  private let queue = DispatchQueue(label: "completing-counter")
  private var count = 0

  var value: Int { queue.sync { count } }

  func increment(_ completion: @escaping @Sendable () -> Void) {
    queue.async {
      self.count += 1
      completion()
    }
  }
}
