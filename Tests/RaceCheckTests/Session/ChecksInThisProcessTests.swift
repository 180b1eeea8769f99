import Foundation
import Testing

@testable import RaceCheckEngine

extension RaceCheckTestSuite {
  /// Checks started together in one process run one after the other.
  @Suite struct ChecksInThisProcessTests {
    @Test func twoChecksStartedTogetherRunOneAfterTheOther() async {
      let log = UncheckedBox(LockedLog())
      func spec(_ name: String) -> Spec<CompletingCounter, CounterModel> {
        let make: @Sendable () -> CompletingCounter = {
          log.value.append(name)
          return CompletingCounter()
        }
        return Spec(name, make: make, model: CounterModel()) {
          Operation("get") { (counter: CompletingCounter) in counter.value }
        }
      }
      let configuration = Configuration(seed: 1, scenarios: 5, invocations: 50, isolated: false)
      await withTaskGroup(of: Void.self) { group in
        for name in ["first", "second"] {
          group.addTask { _ = spec(name).check(configuration) }
        }
      }
      let names = log.value.names
      let switches = zip(names, names.dropFirst()).filter { $0 != $1 }.count
      #expect(Set(names) == ["first", "second"])
      #expect(
        switches == 1, "the checks interleaved: \(names.count) subjects, \(switches) switches")
    }
  }
}

/// The names appended to it, in order, from any thread.
final class LockedLog: @unchecked Sendable {
  private let lock = NSLock()
  private var entries: [String] = []

  func append(_ name: String) { lock.withLock { entries.append(name) } }
  var names: [String] { lock.withLock { entries } }
}
