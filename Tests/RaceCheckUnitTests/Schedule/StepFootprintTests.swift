import Testing

@testable import RaceCheckEngine

extension UnitTestSuite {
  /// What partial-order reduction counts as the concurrency runtime's state: which steps it orders, and which it tries in both orders.
  @Suite struct StepFootprintTests {
    /// A step that touched `touches` of the runtime's state, with no scheduling point of its own, beside a block's start.
    static func step(_ touches: StepFootprint.Touch...) -> StepFootprint {
      StepFootprint.admission(1, alone: false).ran(touching: touches)
    }

    static let actor: UInt = 0x1000
    static let otherActor: UInt = 0x2000

    @Test func tasksComingToOneActorRaceAndToTwoActorsCommute() {
      let first = Self.step(.runtime(.executor(Self.actor), writes: true))
      #expect(first.races(with: Self.step(.runtime(.executor(Self.actor), writes: true))))
      #expect(!first.conflicts(with: Self.step(.runtime(.executor(Self.otherActor), writes: true))))
    }

    @Test func turnsOfOneActorAreOrderedButNeverReversed() {
      let take = Self.step(.runtime(.actorTurn(Self.actor), writes: true))
      let giveUp = Self.step(.runtime(.actorTurn(Self.actor), writes: true))
      #expect(take.conflicts(with: giveUp))
      #expect(!take.races(with: giveUp))
      // Coming to an actor and another thread's turn of it commute: the order tasks came in decides.
      #expect(!take.conflicts(with: Self.step(.runtime(.executor(Self.actor), writes: true))))
    }

    @Test func aCancelRacesWithACheckAndTwoChecksCommute() {
      let check = Self.step(.runtime(.cancellation, writes: false))
      #expect(check.races(with: Self.step(.runtime(.cancellation, writes: true))))
      #expect(!check.conflicts(with: Self.step(.runtime(.cancellation, writes: false))))
    }

    @Test func aJobOfAnExecutorItCannotTellRacesWithEveryActor() {
      let job = Self.step(.anyExecutor)
      #expect(job.races(with: Self.step(.runtime(.executor(Self.actor), writes: true))))
      #expect(job.races(with: Self.step(.runtime(.actorTurn(Self.otherActor), writes: true))))
      #expect(!job.conflicts(with: Self.step(.runtime(.cancellation, writes: true))))
    }

    @Test func aStepThatNeverRanMayTouchAnyOfTheRuntimeState() {
      let waiting = StepFootprint.primitive(7).unran
      #expect(waiting.races(with: Self.step(.runtime(.group(Self.actor), writes: true))))
      #expect(!StepFootprint.primitive(7).conflicts(with: Self.step(.anyExecutor)))
    }

    @Test func whatASleepingStepTouchedHoldsInAnySchedule() {
      // Another schedule allocates the actor elsewhere: a sleeping step still wakes for it.
      let tried = Self.step(
        .runtime(.executor(Self.actor), writes: true), .runtime(.cancellation, writes: false))
      let asleep = StepFootprint.admission(1, alone: false).alsoTouching(
        tried.runtimeTouchesInAnySchedule)
      #expect(
        asleep.conflicts(with: Self.step(.runtime(.actorTurn(Self.otherActor), writes: true))))
      #expect(asleep.conflicts(with: Self.step(.runtime(.cancellation, writes: true))))
      #expect(!asleep.conflicts(with: Self.step(.runtime(.cancellation, writes: false))))
    }
  }
}
