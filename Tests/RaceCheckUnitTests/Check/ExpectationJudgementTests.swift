import Testing

@testable import RaceCheckEngine

/// The catalogue's expectation, not Swift Testing's.
private typealias Expectation = RaceCheckEngine.Expectation

extension UnitTestSuite {
  /// The catalogue's contract: a run is never wrong, a bug is found and named on some seed, and a run that claims nothing is counted apart.
  @Suite struct ExpectationJudgementTests {
    fileprivate static func judge(
      _ expectation: Expectation, _ verdict: Verdict, _ pattern: BugPattern? = nil,
      specError: String? = nil
    ) -> Expectation.SeedJudgement {
      expectation.judge(
        verdict: verdict, pattern: pattern,
        inconclusiveReason: verdict == .inconclusive ? "the time limit" : nil,
        specError: specError)
    }

    @Test func aCorrectTargetThatFailsIsWrongAndOneCutShortIsUnsettled() {
      #expect(Self.judge(.pass, .pass) == .agrees)
      #expect(Self.judge(.pass, .fail, .dataRace) == .wrong(reason: "found fail: data-race"))
      #expect(
        Self.judge(.pass, .inconclusive) == .unsettled(reason: "inconclusive: the time limit"))
    }

    @Test func aBuggyTargetThatPassesIsASilentMiss() {
      #expect(Self.judge(.fail(.dataRace), .pass) == .wrong(reason: "found pass: a silent miss"))
      #expect(Self.judge(.fail(.dataRace), .inconclusive).name == "unsettled")
    }

    @Test func aFailureIsNamedByTheTargetsBugsOrHonestlyNotAtAll() {
      let expectation = Expectation.fail(.insertAtCountRejected, or: [.escapedLiveStorage])
      #expect(Self.judge(expectation, .fail, .insertAtCountRejected) == .agrees)
      #expect(Self.judge(expectation, .fail, .escapedLiveStorage) == .agrees)
      #expect(Self.judge(expectation, .fail, .unclassified).name == "unsettled")
      // Escaped live storage is a race on memory: its family name is true, if less specific.
      #expect(Self.judge(expectation, .fail, .dataRace).name == "unsettled")
      #expect(
        Self.judge(expectation, .fail, .actorReentrancy)
          == .wrong(reason: "found fail: actor-reentrancy, which is none of the target's bugs"))
      // A bug that is no race on memory has no family a results-only check may name instead.
      #expect(Self.judge(.fail(.insertAtCountRejected), .fail, .dataRace).name == "wrong")
    }

    @Test func anExpectationThatNamesNoBugIsMetByAnyFailure() {
      #expect(Self.judge(.fail, .fail, .dataRace) == .agrees)
      #expect(Self.judge(.fail, .fail, .unclassified) == .agrees)
      #expect(Self.judge(.fail, .pass).name == "wrong")
    }

    @Test func aBrokenSpecIsWrongWhateverTheVerdict() {
      for verdict in [Verdict.pass, .fail, .inconclusive] {
        #expect(Self.judge(.pass, verdict, specError: "get threw").name == "wrong")
      }
    }

    @Test func aTargetExpectedInconclusiveMustClaimNothing() {
      #expect(Self.judge(.inconclusive, .inconclusive) == .agrees)
      #expect(Self.judge(.inconclusive, .pass).name == "wrong")
      #expect(Self.judge(.inconclusive, .fail, .dataRace).name == "wrong")
    }

    @Test func aTargetAgreesWhenOneSeedSettlesItAndNoneIsWrong() {
      let unsettled = Expectation.SeedJudgement.unsettled(reason: "inconclusive")
      let wrong = Expectation.SeedJudgement.wrong(reason: "found pass: a silent miss")
      typealias Target = Expectation.TargetJudgement
      #expect(Target(seeds: [unsettled, .agrees, unsettled], expected: .fail) == .agrees)
      #expect(Target(seeds: [unsettled, unsettled], expected: .fail) == .notFound)
      #expect(Target(seeds: [unsettled, unsettled], expected: .pass) == .unsettled)
      #expect(Target(seeds: [.agrees, wrong, .agrees], expected: .fail) == .wrong)
      #expect(Target(seeds: [.agrees], expected: .pass) == .agrees)
      #expect(Target.notFound.isFailure && Target.wrong.isFailure)
      #expect(!Target.unsettled.isFailure && !Target.agrees.isFailure)
    }

    @Test func aJudgementReadBackFromJSONIsTheSame() {
      let judgements: [Expectation.SeedJudgement] = [
        .agrees, .unsettled(reason: "inconclusive: x"), .wrong(reason: "found pass"),
      ]
      for judgement in judgements {
        #expect(
          Expectation.SeedJudgement(name: judgement.name, reason: judgement.reason) == judgement)
      }
      #expect(Expectation.SeedJudgement(name: "maybe", reason: nil) == nil)
    }
  }
}
