import Testing

@testable import RaceCheckEngine

extension UnitTestSuite {
  /// The shrinker reaches a minimal failing scenario and does not pay twice for candidates that passed.
  @Suite struct ShrinkerTests {
    /// Twenty calls, of which a failure needs only `set(1)` on one thread and `get` on the other.
    static let scenario = Scenario(
      initial: (0..<5).map { Scenario.Call("noise", [.int($0)]) },
      parallel: [
        [.init("noise", [.int(10)]), .init("set", [.int(1)])]
          + (11..<14).map { Scenario.Call("noise", [.int($0)]) },
        (20..<23).map { Scenario.Call("noise", [.int($0)]) } + [
          .init("get"), .init("noise", [.int(23)]),
        ],
      ],
      post: (30..<35).map { Scenario.Call("noise", [.int($0)]) })

    /// Whether `scenario` still shows the failure: the set and the get on different threads.
    static func fails(_ scenario: Scenario) -> Bool {
      let setter = scenario.parallel.firstIndex { $0.contains(.init("set", [.int(1)])) }
      let getter = scenario.parallel.firstIndex { $0.contains(.init("get")) }
      guard let setter, let getter else { return false }
      return setter != getter
    }

    @Test func aFailureShrinksToTheCallsItNeeds() throws {
      var runs = 0
      let shrinker = Shrinker<Bool>(
        fails: { candidate in
          runs += 1
          return Self.fails(candidate) ? true : nil
        }, simplerArguments: { _ in [] })
      let shrunk = try shrinker.shrink(Self.scenario, failure: true)
      #expect(shrunk.scenario == Scenario(parallel: [[.init("set", [.int(1)])], [.init("get")]]))
      // Each step made the scenario smaller, and the halves took most calls in few steps.
      #expect(shrunk.steps < 20)
      // Two halves take most of the calls in a few steps.
      #expect(runs <= 30, "the shrinker ran \(runs) candidates")
    }

    /// Whether `scenario` keeps the calls 3, 10, 13, 21, 23 and 32 and two threads, wherever they are.
    static func keepsScatteredCalls(_ scenario: Scenario) -> Bool {
      let needed: Set<Value> = [.int(3), .int(10), .int(13), .int(21), .int(23), .int(32)]
      let present = Set(scenario.callPaths.compactMap { scenario[$0].arguments.first })
      return scenario.parallel.count == 2 && needed.isSubset(of: present)
    }

    @Test func callsTheFailureNeedsAreNotTriedAgainAfterEveryStep() throws {
      var runs = 0
      let shrinker = Shrinker<Bool>(
        fails: { candidate in
          runs += 1
          return Self.keepsScatteredCalls(candidate) ? true : nil
        }, simplerArguments: { _ in [] })
      let shrunk = try shrinker.shrink(Self.scenario, failure: true)
      #expect(shrunk.scenario.size == 6)
      #expect(Self.keepsScatteredCalls(shrunk.scenario))
      // Restarting from the first candidate after every step took 80 runs here; going on
      // from the candidate that failed takes 47.
      #expect(runs <= 50, "the shrinker ran \(runs) candidates")
    }

    @Test func aScenarioNothingSmallerFailsIsKept() throws {
      let minimal = Scenario(parallel: [[.init("set", [.int(1)])], [.init("get")]])
      let shrinker = Shrinker<Bool>(
        fails: { candidate in Self.fails(candidate) ? true : nil }, simplerArguments: { _ in [] })
      let shrunk = try shrinker.shrink(minimal, failure: true)
      #expect(shrunk.scenario == minimal)
      #expect(shrunk.steps == 0)
    }

    @Test func aTurnThatFoundNothingRunsAgainWhenAskedToTryHarder() throws {
      // A racy failure: in the first turns the two-call scenario shows it only by luck, so
      // every candidate passes once; a turn with a larger budget finds it.
      var turns = 1
      var shrinker = Shrinker<Bool>(
        fails: { candidate in
          Self.fails(candidate) && (candidate.size > 2 || turns >= 3) ? true : nil
        }, simplerArguments: { _ in [] })
      shrinker.triesHarder = {
        turns += 1
        return turns <= 3
      }
      let shrunk = try shrinker.shrink(Self.scenario, failure: true)
      #expect(shrunk.scenario == Scenario(parallel: [[.init("set", [.int(1)])], [.init("get")]]))
      // Without another turn, shrinking stops at the first scenario whose candidates all passed.
      let once = Shrinker<Bool>(
        fails: { candidate in Self.fails(candidate) && candidate.size > 2 ? true : nil },
        simplerArguments: { _ in [] })
      #expect(try once.shrink(Self.scenario, failure: true).scenario.size == 3)
    }

    @Test func argumentsAreSimplifiedWhenTheFailureAllows() throws {
      let scenario = Scenario(parallel: [[.init("set", [.int(7)])], [.init("get")]])
      let shrinker = Shrinker<Bool>(
        fails: { candidate in
          candidate.parallel.count == 2 && candidate.parallel.allSatisfy { !$0.isEmpty }
            ? true : nil
        },
        simplerArguments: { call in
          guard case .int(let value)? = call.arguments.first, value > 0 else { return [] }
          return [[.int(0)]]
        })
      let shrunk = try shrinker.shrink(scenario, failure: true)
      #expect(shrunk.scenario.parallel[0] == [.init("set", [.int(0)])])
    }
  }
}
