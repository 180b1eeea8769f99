import Foundation
import RaceCheck
import Testing

// The status line as a terminal shows it: the tests give standard error a status sink, as
// `CommandOutput.standardError` has one on a terminal, and record every update.

extension RaceCheckTestSuite {
  @Suite struct StatusLineTests {
    /// Every status update a command made, nil for each clearing, and its exit status.
    private func statuses(_ arguments: [String]) -> (status: Int32, updates: [String?]) {
      let updates = CLI.Lines()
      let cleared = "<cleared>"
      let errors = CommandOutput({ _ in }, showStatus: { updates.append($0 ?? cleared) })
      let status = CLI.driver().run(arguments, output: CommandOutput { _ in }, errors: errors)
      return (status, updates.all.map { $0 == cleared ? nil : $0 })
    }

    @Test func aRunOnATerminalShowsItsSearchAndClearsTheLineBeforeTheReport() {
      let (status, updates) = statuses([
        "run", "LockedCounter", "--mode", "schedule", "--scenarios", "3", "--no-isolation",
      ])
      #expect(status == 0)
      #expect(
        updates.first
          == "LockedCounter: scenario 1 of 3, 0 invocations (0 overlapping), no failure yet")
      #expect(updates.last == .some(nil))
    }

    @Test func aFailureFoundSaysSoWhileItIsExplained() {
      let (status, updates) = statuses([
        "run", "RacyCounter", "--mode", "schedule", "--seed", "5", "--no-isolation",
        "--time", "60",
      ])
      #expect(status == 1)
      let explaining = updates.compactMap { $0 }.filter { $0.contains("shrinking and naming it") }
      #expect(explaining.count == 1)
      #expect(explaining.first?.hasSuffix(" s left") == true)
      #expect(updates.last == .some(nil))
    }

    @Test(arguments: [["--json"], ["--quiet"]])
    func jsonAndQuietShowNoStatusLine(flag: [String]) {
      let (status, updates) = statuses(
        ["run", "LockedCounter", "--mode", "schedule", "--scenarios", "2", "--no-isolation"] + flag)
      #expect(status == 0)
      #expect(updates.isEmpty)
    }

    @Test func demoRowsCountUpInTheLine() {
      let (_, updates) = statuses([
        "demo", "--scenarios", "2", "--invocations", "5", "--seeds", "1",
      ])
      let rows = Set(updates.compactMap { $0?.components(separatedBy: ":").first })
      #expect(rows == ["row 1 of 3", "row 2 of 3", "row 3 of 3"])
    }
  }
}
