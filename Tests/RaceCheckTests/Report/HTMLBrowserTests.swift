import Fixtures
import Foundation
import RaceCheckTestSupport
import Testing

@testable import RaceCheckCommandLine
@testable import RaceCheckEngine

// The HTML report in a real browser: headless Chromium loads the page of a failing LockArray
// run, and its DOM must show the operation that cannot be placed, both in the page's plain
// HTML and in what only the page's script makes; the page of a workload's history must draw
// its fault as a band beside the stale read. The pages and screenshots stay in
// .build/test-artifacts for a reader to look at.

extension RaceCheckTestSuite {
  @Suite struct HTMLBrowserTests {
    /// The folder the pages and screenshots are kept in: `.build/test-artifacts` of this package.
    static let artifacts = URL(fileURLWithPath: #filePath)
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent(".build/test-artifacts").path

    @Test(
      .enabled(
        if: HeadlessChromium.executable != nil || HeadlessChromium.isCI,
        "chromium is not installed (apt-get install -y chromium); with CI set, its absence fails"
      ))
    func failingLockArrayRunShowsItsUnplaceableOperationInTheBrowser() throws {
      _ = try #require(
        HeadlessChromium.executable,
        "chromium is missing; .ci/run installs it with apt-get install -y chromium")
      let target = try #require(Catalogue.targets.first { $0.name == "LockArray" })
      var configuration = Configuration.demo(seed: 1)
      // Shrunk to the end, so that the page shows the same small scenario however busy the cores.
      configuration.shrinkTimeLimit = nil
      configuration.reproDirectory = FileManagerTemporary.directory
      let report = target.checkable.check(configuration)
      let failure = try #require(report.failure, "LockArray passed with seed 1:\n\(report)")
      let explanation = try #require(failure.evidence.explanation, "\(report)")
      let unplaceable = explanation.candidates.filter { $0.returned != $0.expected }.map(
        \.operation)
      try #require(!unplaceable.isEmpty, "every next operation fits:\n\(report)")

      try FileManager.default.createDirectory(
        atPath: Self.artifacts, withIntermediateDirectories: true)
      let page = Self.artifacts + "/LockArray-seed-1.html"
      let html = HTMLReport.page(
        of: report, window: target.checkable.failingWindow(of: failure.history))
      try html.write(toFile: page, atomically: true, encoding: .utf8)
      #expect(!html.contains("<button"), "the page's own HTML has no buttons; its script adds them")

      let dom = try HeadlessChromium.dumpDOM(of: page)
      for entry in unplaceable {
        #expect(dom.contains(#"<li class="unplaceable" data-operation="\#(entry)">"#))
        let button = try Regex(
          #"<button class="marked-operation unplaceable"[^>]* data-operation="\#(entry)""#)
        #expect(dom.contains(button), "the script did not mark operations[\(entry)]")
      }
      #expect(dom.contains(#"data-drawn-operations="\#(failure.history.operations.count)""#))

      let screenshot = Self.artifacts + "/LockArray-seed-1.png"
      try HeadlessChromium.screenshot(of: page, to: screenshot, width: 1400, height: 900)
      let png = try Data(contentsOf: URL(fileURLWithPath: screenshot))
      #expect(png.prefix(8) == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
      print("HTML report of a failing LockArray run: \(page)")
      print("Its screenshot, operations \(unplaceable) marked: \(screenshot)")
    }

    @Test(
      .enabled(
        if: HeadlessChromium.executable != nil || HeadlessChromium.isCI,
        "chromium is not installed (apt-get install -y chromium); with CI set, its absence fails"
      ))
    func staleReadAfterAPauseIsDrawnBesideItsFaultBand() throws {
      _ = try #require(
        HeadlessChromium.executable,
        "chromium is missing; .ci/run installs it with apt-get install -y chromium")
      // A workload's history in small: member n2 is paused while p1 writes 2, and p2 then
      // reads the 1 that was replaced, as a paused etcd member serving serializable reads does.
      let history = RecordedHistory(
        model: "kv",
        operations: [
          .init(process: 0, name: "put", arguments: ["a", "1"], call: 0, return: 10),
          .init(process: 1, name: "put", arguments: ["a", "2"], call: 20, return: 30),
          .init(
            process: 2, name: "get", arguments: ["a"], call: 50, return: 60, result: "1"),
        ],
        faults: [.init(kind: .pause, target: "n2", start: 15, end: 40)])
      let verdict = try HistoryChecker().check(history)
      try #require(verdict.verdict == .notLinearizable, "\(verdict)")

      try FileManager.default.createDirectory(
        atPath: Self.artifacts, withIntermediateDirectories: true)
      let page = Self.artifacts + "/stale-read-after-pause.html"
      let html = HTMLReport.page(of: verdict, history: history, file: "workload etcd")
      try html.write(toFile: page, atomically: true, encoding: .utf8)
      #expect(html.contains("pause"), "the page's plain list names the fault")

      let dom = try HeadlessChromium.dumpDOM(of: page)
      #expect(dom.contains(#"data-drawn-faults="1""#), "the script drew no band for the pause")
      #expect(dom.contains(#"data-drawn-operations="3""#))
      let screenshot = Self.artifacts + "/stale-read-after-pause.png"
      try HeadlessChromium.screenshot(of: page, to: screenshot, width: 1400, height: 700)
      print("A stale read beside its fault band: \(page), \(screenshot)")
    }
  }
}
