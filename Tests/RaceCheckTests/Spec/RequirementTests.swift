import Fixtures
import Foundation
import RaceCheckTestSupport
import Testing

@testable import RaceCheckEngine

extension RaceCheckTestSuite {
  /// Operations that trap by contract: generators prefer valid calls, and a trap some order allows is excused.
  @Suite struct RequirementTests {
    typealias Call = Scenario.Call

    /// A spec of `TrappingSubscriptArray` whose `get` and `remove` require an index in range.
    static func spec(
      name: String = "RequirementTests", initial: [Int] = [], removesOnly: Bool = false
    ) -> Spec<TrappingSubscriptArray, ArrayModel> {
      let make: @Sendable () -> TrappingSubscriptArray = {
        let array = TrappingSubscriptArray()
        initial.forEach(array.append)
        return array
      }
      return Spec(name, make: make, model: ArrayModel(initial.map(Value.int))) {
        if !removesOnly {
          Operation("count") { (array: TrappingSubscriptArray) in array.count }
          Operation("get", .int(in: 0...3)) { (array: TrappingSubscriptArray, index: Int) in
            array[index]
          }
          .requires { (model: ArrayModel, index: Int) in index < model.count }
          Operation("append", .int(in: 0...3)) { (array: TrappingSubscriptArray, x: Int) in
            array.append(x)
          }
        }
        Operation("remove", .constant(0)) { (array: TrappingSubscriptArray, index: Int) in
          _ = array.remove(at: index)
        }
        .requires { (model: ArrayModel, index: Int) in index < model.count }
      }
    }

    @Test func aCallIsAcceptedOnlyWhereEveryOrderKeepsItsRequirement() {
      let spec = Self.spec()
      let empty = Scenario()
      #expect(!spec.accepts(Call("get", [0]), at: .initial(0), of: empty))
      #expect(spec.accepts(Call("append", [1]), at: .initial(0), of: empty))
      let one = Scenario(initial: [Call("append", [1])], parallel: [[Call("remove", [0])]])
      #expect(spec.accepts(Call("get", [0]), at: .initial(1), of: one))
      // Thread 0 may remove the only element first, in some order.
      #expect(!spec.accepts(Call("get", [0]), at: .parallel(thread: 1, 0), of: one))
      #expect(!spec.accepts(Call("remove", [0]), at: .parallel(thread: 1, 0), of: one))
      #expect(spec.accepts(Call("append", [2]), at: .parallel(thread: 1, 0), of: one))
      // After both threads, the array may be empty: a read in the post part is not valid.
      var both = one
      both.parallel.append([Call("count")])
      #expect(!spec.accepts(Call("get", [0]), at: .post(0), of: both))
      both.initial.append(Call("append", [2]))
      #expect(spec.accepts(Call("get", [0]), at: .post(0), of: both))
    }

    @Test func aTrapIsAllowedOnlyWhereSomeOrderBreaksTheRequirement() {
      let spec = Self.spec()
      let racingRemovals = Scenario(
        initial: [Call("append", [1])],
        parallel: [[Call("remove", [0])], [Call("remove", [0])]])
      #expect(spec.allowsTrap(at: .parallel(thread: 1, 0), of: racingRemovals, inFlight: [:]))
      var twoElements = racingRemovals
      twoElements.initial.append(Call("append", [2]))
      #expect(!spec.allowsTrap(at: .parallel(thread: 1, 0), of: twoElements, inFlight: [:]))
      // A call with no requirement is never excused.
      let appending = Scenario(initial: [Call("append", [1])])
      #expect(!spec.allowsTrap(at: .initial(0), of: appending, inFlight: [:]))
      // In the init part there is one order.
      #expect(
        spec.allowsTrap(at: .initial(0), of: Scenario(initial: [Call("get", [0])]), inFlight: [:]))
      let read = Scenario(initial: [Call("append", [1]), Call("get", [0])])
      #expect(!spec.allowsTrap(at: .initial(1), of: read, inFlight: [:]))
      // Thread 0's removal in flight may or may not have taken effect.
      let inFlight = Scenario(
        initial: [Call("append", [1])],
        parallel: [[Call("count"), Call("remove", [0])], [Call("get", [0])]])
      #expect(spec.allowsTrap(at: .parallel(thread: 1, 0), of: inFlight, inFlight: [0: 1]))
      #expect(!spec.allowsTrap(at: .parallel(thread: 1, 0), of: inFlight, inFlight: [0: 0]))
    }

    @Test func generatedCallsKeepTheirRequirementsInEveryOrder() {
      let spec = Self.spec()
      let generator = ScenarioGenerator(spec: spec, shape: Configuration.Shape())
      var calls = 0
      for index in 0..<20 {
        let scenario = generator.scenario(seed: 7, index: index)
        for path in scenario.callPaths {
          var drawnSoFar = scenario
          drawnSoFar.truncate(before: path)
          #expect(spec.accepts(scenario[path], at: path, of: drawnSoFar), "\(scenario)")
          calls += 1
        }
      }
      // Scenarios 4, 8, 12 and 16 start fresh, with no init part.
      #expect(calls == 16 * 20 + 4 * 15)
    }

    @Test func aSpecWithoutRequirementsDrawsAsBefore() {
      // The draws of a spec without requirements must not change: seeds in reports replay.
      let plain = GuardedInsertArray.spec
      let generator = ScenarioGenerator(spec: plain, shape: Configuration.Shape())
      #expect(generator.accepts == nil)
    }

    @Test func racingTrapsByContractAreExcusedAndTheCheckSaysItsBudgetWasNotReached() throws {
      // Two threads each remove the only element: whichever runs second traps, by contract.
      var configuration = Configuration(
        seed: 1,
        shape: Configuration.Shape(
          threads: 2, operationsPerThread: 1, initialOperations: 0, postOperations: 0),
        scenarios: 1, invocations: 200)
      configuration.reproDirectory = FileManagerTemporary.directory
      let report = check(
        Self.spec(name: "RacingRemovals", initial: [7], removesOnly: true),
        configuration: configuration)
      #expect(report.failure == nil, "\(report)")
      #expect(report.search.contractTraps == CheckSession<Int, Int>.contractTrapLimit, "\(report)")
      guard case .inconclusive(.contractTraps(scenarios: 1, _)) = report.outcome else {
        Issue.record("expected an inconclusive check stopped by traps: \(report)")
        return
      }
    }

    @Test func aCorrectlyLockedTrappingArrayPassesFromATest() throws {
      var configuration = Configuration.demo(seed: 3)
      configuration.reproDirectory = FileManagerTemporary.directory
      let passing = check(Self.spec(name: "TrappingArrayFromATest"), configuration: configuration)
      #expect(passing.verdict == .pass, "\(passing)")
    }

    @Test func shrinkingCandidatesKeepEveryRequirement() {
      let spec = RequirementTests.spec()
      typealias Call = Scenario.Call
      let valid = Scenario(
        initial: [Call("append", [1]), Call("append", [2])],
        parallel: [[Call("get", [0])], [Call("count")]])
      #expect(spec.acceptsEveryCall(of: valid))
      // Dropping the appends leaves the read past the end in every order.
      var dropped = valid
      dropped.initial.removeAll()
      #expect(!spec.acceptsEveryCall(of: dropped))
      // A spec without requirements accepts every scenario.
      #expect(OneLockCounter.spec.acceptsEveryCall(of: Scenario(post: [Call("get")])))
    }
  }
}

extension Scenario {
  /// This scenario with `path` and every call drawn after it removed, as the generator had it when it drew `path`.
  fileprivate mutating func truncate(before path: CallPath) {
    switch path {
    case .initial(let index):
      initial.removeSubrange(index...)
      parallel = []
      post = []
    case .parallel(let thread, let index):
      parallel[thread].removeSubrange(index...)
      parallel.removeSubrange((thread + 1)...)
      post = []
    case .post(let index):
      post.removeSubrange(index...)
    }
  }
}
