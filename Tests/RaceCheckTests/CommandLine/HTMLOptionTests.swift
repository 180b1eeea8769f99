import Foundation
import RaceCheck
import Testing

// `--html FILE` on each command that takes it: the page is written beside the usual output,
// and a page that cannot be written says why and exits 73 without losing the rest. The
// commands run in this process over two of `CLI`'s counters, with small budgets.

extension RaceCheckTestSuite {
  @Suite struct HTMLOptionTests {
    /// Runs `arguments` over a counter that passes and one that stops at 2, which every check finds.
    private func invoke(_ arguments: [String]) -> CLI.Result {
      CLI.invoke(arguments, driver: CLI.driver(targets: [CLI.locked, CLI.stuck]))
    }

    @Test func runWritesThePageWithTheOperationThatCannotBePlaced() throws {
      let folder = try TemporaryDirectory()
      defer { folder.remove() }
      let result = invoke([
        "run", "StuckCounter", "--scenarios", "3", "--invocations", "20", "--repro-dir",
        folder.path, "--html", folder.path + "/run.html",
      ])
      #expect(result.status == 1)
      #expect(result.output.hasPrefix("racecheck: StuckCounter is not linearizable"))
      #expect(result.errors.contains("racecheck: HTML report written to \(folder.path)/run.html"))
      let page = try folder.read("run.html")
      #expect(page.contains("<h1>StuckCounter is not linearizable</h1>"))
      #expect(page.contains(#"<li class="unplaceable" data-operation=""#))
    }

    @Test func replayWritesThePageOfTheFailureItShowedAgain() throws {
      let folder = try TemporaryDirectory()
      defer { folder.remove() }
      let run = invoke([
        "run", "StuckCounter", "--scenarios", "3", "--invocations", "20", "--repro-dir",
        folder.path, "--json",
      ])
      let document = try #require(
        try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any])
      let repro = try #require(document["reproPath"] as? String)
      let result = invoke(["replay", repro, "--html", folder.path + "/replay.html"])
      #expect(result.status == 1)
      #expect(result.output.hasPrefix("Replayed \(repro): the failure showed again"))
      let page = try folder.read("replay.html")
      #expect(page.contains("<h1>Replay of StuckCounter: the failure showed again</h1>"))
      #expect(page.contains(#"<li class="unplaceable" data-operation=""#))
    }

    @Test func checkWritesThePageOfAHistoryFile() throws {
      let folder = try TemporaryDirectory()
      defer { folder.remove() }
      let history = folder.path + "/history.json"
      try Data(
        #"""
        {"racecheck": 1, "model": "register", "operations": [
          {"process": 0, "op": "write", "args": [1], "call": 0, "return": 10},
          {"process": 1, "op": "read", "args": [], "call": 20, "return": 30, "result": 2}]}
        """#.utf8
      ).write(to: URL(fileURLWithPath: history))
      let result = invoke(["check", history, "--json", "--html", folder.path + "/h.html"])
      #expect(result.status == 1)
      #expect(result.output.hasPrefix("{"), "the JSON document still prints")
      let page = try folder.read("h.html")
      #expect(
        page.contains(
          #"<li class="unplaceable" data-operation="1">operations[1] (line 3) read on process 1 "#
            + "returned 2; the model allows 1</li>"))
    }

    @Test func demoWritesOnePageLinkingEachFailingRowToItsFailure() throws {
      let folder = try TemporaryDirectory()
      defer { folder.remove() }
      let result = invoke([
        "demo", "--scenarios", "3", "--invocations", "20", "--repro-dir", folder.path,
        "--html", folder.path + "/demo.html",
      ])
      #expect(result.status == 0)
      // The table prints as it does without --html.
      #expect(result.outputLines.first?.hasPrefix("target ") == true)
      #expect(result.outputLines.last?.hasPrefix("2 of 2 targets agree with the catalogue") == true)
      let page = try folder.read("demo.html")
      #expect(page.contains(##"<td><a href="#row-2">StuckCounter</a></td>"##))
      #expect(page.contains(#"<section class="demo-failure" id="row-2">"#))
      #expect(page.contains("<code>racecheck run StuckCounter --seed 0x0000000000000001 "))
      #expect(page.contains(#"<td>LockedCounter</td>"#))
    }

    @Test func pageThatCannotBeWrittenAfterAPassExits73AndTheReportStillPrints() throws {
      let folder = try TemporaryDirectory()
      defer { folder.remove() }
      let page = folder.path + "/no-such-folder/run.html"
      let result = invoke([
        "run", "LockedCounter", "--threads", "1", "--scenarios", "2", "--invocations", "20",
        "--html", page,
      ])
      #expect(result.status == 73)
      #expect(result.output.hasPrefix("racecheck: LockedCounter passed"))
      #expect(
        result.errorLines == [
          "racecheck: \(page): cannot write the HTML report: no such file or directory"
        ])
    }

    @Test func pageThatCannotBeWrittenAfterAFailureKeepsTheFailuresStatus() throws {
      let folder = try TemporaryDirectory()
      defer { folder.remove() }
      let page = folder.path + "/no-such-folder/run.html"
      let result = invoke([
        "run", "StuckCounter", "--scenarios", "3", "--invocations", "20", "--repro-dir",
        folder.path, "--html", page,
      ])
      // The failure says more than the missing page, whose error is printed anyway.
      #expect(result.status == 1)
      #expect(result.output.hasPrefix("racecheck: StuckCounter is not linearizable"))
      #expect(result.errors.contains("racecheck: \(page): cannot write the HTML report: "))
    }

    @Test func passingRunWritesAPageThatSaysSo() throws {
      let folder = try TemporaryDirectory()
      defer { folder.remove() }
      let result = invoke([
        "run", "LockedCounter", "--threads", "1", "--scenarios", "2", "--invocations", "20",
        "--html", folder.path + "/pass.html",
      ])
      #expect(result.status == 0)
      let page = try folder.read("pass.html")
      #expect(
        page.contains(#"<header class="summary" data-verdict="pass"><h1>LockedCounter passed</h1>"#)
      )
    }
  }
}

extension TemporaryDirectory {
  /// The text of the file `name` in the folder.
  fileprivate func read(_ name: String) throws -> String {
    try String(contentsOfFile: path + "/" + name, encoding: .utf8)
  }
}
