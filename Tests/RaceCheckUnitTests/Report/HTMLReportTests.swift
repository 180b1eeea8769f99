import Foundation
import RaceCheckTestSupport
import Testing

@testable import RaceCheckCommandLine
@testable import RaceCheckEngine

// The HTML report as a reader meets it without its script: each test renders a page from a
// small hand-made report and checks the plain HTML and the JSON the script reads.

extension UnitTestSuite {
  @Suite struct HTMLReportTests {
    @Test func operationThatCannotBePlacedIsMarkedWithWhatTheModelAllows() {
      let html = HTMLReport.page(of: Pages.failedCheck(), window: [0, 1, 2])
      #expect(
        html.contains(
          #"<li class="unplaceable" data-operation="2">operations[2] count on Thread 0 "#
            + "returned 1; the model allows 2</li>"))
    }

    @Test func longestLinearizationIsListedInItsOrderWithTheModelsState() {
      let html = HTMLReport.page(of: Pages.failedCheck(), window: nil)
      #expect(
        html.contains(
          #"<ol class="longest-linearization"><li data-operation="0">operations[0] append(0) "#
            + #"on Thread 0</li><li data-operation="1">"#))
      #expect(html.contains(#"<p class="model-state">The model's state then: <code>[0, 0]</code>"#))
    }

    @Test func smallestFailingWindowIsListedWhenItWasWorkedOut() {
      let marked = HTMLReport.page(of: Pages.failedCheck(), window: [0, 1, 2])
      #expect(marked.contains(#"<ul class="failing-window"><li data-operation="0">"#))
      #expect(
        marked.contains("Smallest failing window: the 3 operations called from operations[0]"))
      let unmarked = HTMLReport.page(of: Pages.failedCheck(), window: nil)
      #expect(!unmarked.contains(#"class="failing-window""#))
      #expect(unmarked.contains("is not worked out for a spec's own model"))
    }

    @Test func summaryNamesTargetVerdictDiagnosisSeedAndReplayCommand() {
      let html = HTMLReport.page(of: Pages.failedCheck(), window: nil)
      #expect(html.contains(#"<header class="summary" data-verdict="fail">"#))
      #expect(html.contains("<h1>LockArray is not linearizable</h1>"))
      #expect(
        html.contains(
          #"data-fact="diagnosis"><dt>Diagnosis</dt><dd><code>insert-at-count-rejected"#))
      #expect(html.contains("<code>0x0000000000000001</code>"))
      #expect(html.contains("<code>racecheck run LockArray --seed 0x0000000000000001</code>"))
    }

    @Test func hostileStringsCannotEndTheScriptOrTheMarkup() throws {
      let hostile = #"</script><script>alert("x")</script><!--<b>&'"#
      let html = HTMLReport.page(of: Pages.failedCheck(argument: .string(hostile)), window: nil)
      // Only the page's own two script elements end: the data and the code.
      #expect(html.components(separatedBy: "</script").count - 1 == 2)
      #expect(!html.contains("<!--"))
      #expect(!html.contains("<b>&"))
      // The argument as reports show it: a JSON string, then escaped for HTML.
      #expect(html.contains(#"insert(&quot;&lt;/script&gt;&lt;script&gt;alert(\&quot;x\&quot;)"#))
      let timelines = try #require(Pages.data(of: html)["timelines"] as? [[String: Any]])
      let arguments = try #require(timelines.first?["args"] as? [[String]])
      #expect(arguments[1].first == Value.string(hostile).description)
    }

    @Test func styleSheetAndScriptAreTheResourceFilesWhole() throws {
      let html = HTMLReport.page(of: Pages.failedCheck(), window: nil)
      let resources = DocumentationFiles.root.appendingPathComponent(
        "Sources/RaceCheckCommandLine/HTML/Resources")
      let style = try String(
        contentsOf: resources.appendingPathComponent("report.css"), encoding: .utf8)
      let script = try String(
        contentsOf: resources.appendingPathComponent("report.js"), encoding: .utf8)
      #expect(html.contains("<style>\n\(style)</style>\n</head>"))
      #expect(html.contains("<script>\n\(script)</script>\n</body>"))
      // The files are inlined unescaped, so the style sheet must not end its element early (the
      // script's end tags are counted with the hostile strings').
      #expect(html.components(separatedBy: "</style").count - 1 == 1)
    }

    @Test func pageLoadsNothingFromElsewhere() {
      let html = HTMLReport.page(of: Pages.failedCheck(), window: nil)
      #expect(html.contains("default-src 'none'"))
      #expect(!html.contains("http://") && !html.contains("https://"))
      #expect(!html.contains(" src="))
    }

    @Test func timelineDataHasAnEntryPerOperationAndARowPerOverlap() throws {
      let history = History(operations: [
        .made(0, "append", [1], 100, 200),
        .made(0, "count", [], 150, 250, result: 1),
        RecordedHistory.Operation(
          process: 1, name: "append", arguments: [2], call: 120, return: nil, status: .info),
      ])
      let timeline = Timeline(
        history: history, explanation: nil, window: nil, voidOperations: ["append"])
      let data = try #require(
        JSONSerialization.jsonObject(with: Data(timeline.json.utf8)) as? [String: Any])
      #expect(data["lanes"] as? [String] == ["Thread 0", "Thread 1"])
      #expect(data["lane"] as? [Int] == [0, 0, 1])
      // The two calls of thread 0 overlap (an async call's tasks), so they take two rows.
      #expect(data["row"] as? [Int] == [0, 1, 0])
      #expect(data["rowsPerLane"] as? [Int] == [2, 1])
      #expect(data["call"] as? [Int] == [0, 50, 20])
      #expect((data["ret"] as? [Any])?.count == 3)
      #expect((data["ret"] as? [Any])?.last is NSNull)
      #expect(data["status"] as? String == "ooi")
      #expect((data["result"] as? [Any])?[1] as? String == "1")
      #expect(data["marks"] is NSNull)
    }

    @Test func historyCheckPageMarksTheViolation() throws {
      let history = RecordedHistory(
        model: "register",
        operations: [
          .init(process: 0, name: "write", arguments: [1], call: 0, return: 10),
          .init(process: "n2", name: "read", arguments: [], call: 20, return: 30, result: 2),
        ])
      let verdict = try HistoryChecker().check(history)
      let html = HTMLReport.page(of: verdict, history: history, file: "h.json")
      #expect(html.contains(#"<header class="summary" data-verdict="fail">"#))
      #expect(
        html.contains(
          #"<li class="unplaceable" data-operation="1">operations[1] read on process &quot;n2&quot; "#
            + "returned 2; the model allows 1</li>"))
      let timelines = try #require(Pages.data(of: html)["timelines"] as? [[String: Any]])
      #expect(timelines.first?["lanes"] as? [String] == ["process 0", #"process "n2""#])
    }

    @Test func htmlPageCitesLinesAndNilResults() throws {
      let history = try RecordedHistory(
        bytes: Array(nilReadAfterWrite.utf8), format: .jepsen, model: "register")
      let verdict = try HistoryChecker().check(history)
      let html = HTMLReport.page(of: verdict, history: history, file: "h.edn")
      #expect(
        html.contains(
          #"<li class="unplaceable" data-operation="1">lines 4–5 read on process 1 "#
            + "returned nil; the model allows 1</li>"))
      #expect(html.contains(#"<li data-operation="0">lines 2–3 write(1) on process 0</li>"#))
      #expect(html.contains("called from lines 2–3 to lines 4–5"))
      let timelines = try #require(Pages.data(of: html)["timelines"] as? [[String: Any]])
      #expect(timelines.first?["cite"] as? [String] == ["lines 2–3", "lines 4–5"])
      #expect((timelines.first?["result"] as? [Any])?.last as? String == "nil")
    }

    @Test func witnessIsListedByLineWhenAsked() throws {
      let history = try RecordedHistory(
        bytes: Array(nilReadAfterWrite.utf8), format: .jepsen, model: "register")
      var checker = HistoryChecker()
      checker.nilReads = .unknown
      let verdict = try checker.check(history)
      let html = HTMLReport.page(of: verdict, history: history, file: "h.edn", showsWitness: true)
      #expect(
        html.contains(
          #"<ol class="witness"><li data-operation="0">lines 2–3 write(1) on process 0</li>"#
            + #"<li data-operation="1">lines 4–5 read → nil on process 1</li></ol>"#))
      let plain = HTMLReport.page(of: verdict, history: history, file: "h.edn")
      #expect(!plain.contains(#"class="witness""#))
    }

    @Test func interleavingIsATableWithAColumnPerThread() {
      let trace = InterleavingTrace(
        threadNames: ["Thread 0", "Thread 1"],
        steps: [
          .init(thread: 0, text: "increment", isOperation: true),
          .init(thread: 0, text: "lock acquire 'L'", isOperation: false),
          .init(thread: 1, text: "increment", isOperation: true),
        ],
        schedule: [0, 0, 1])
      let html = trace.html
      #expect(html.contains("<thead><tr><th>step</th><th>Thread 0</th><th>Thread 1</th></tr>"))
      #expect(
        html.contains(
          #"<tr class="step" data-thread="0"><td class="number">2</td><td>lock acquire &#39;L&#39;</td><td></td></tr>"#
        ))
      #expect(
        html.contains(
          #"<tr class="operation switch" data-thread="1"><td class="number">3</td><td></td><td>increment</td>"#
        ))
      #expect(html.contains("Schedule: <code>0*2,1</code>"))
    }

    @Test func crashShowsTheCallsInFlightAndTheSymbolizedStack() {
      let crash = CrashEvidence(
        kind: .crash, signal: "SIGILL", message: "Index out of range", runnerThread: 1,
        threadName: nil, invocation: 4,
        inFlight: [.init(thread: 1, call: Scenario.Call("get", [3]), index: 2)],
        stack: "#5  Array<Int>.subscript.getter  LockArray.swift:12", threadStacks: [],
        functions: [])
      let html = FailureHTML.crashHTML(crash, heading: "Crash")
      #expect(html.contains("It crashed (SIGILL: Index out of range)."))
      #expect(html.contains(#"<dd>get(3) on thread 1</dd>"#))
      #expect(
        html.contains(
          #"<pre class="stack">#5  Array&lt;Int&gt;.subscript.getter  LockArray.swift:12</pre>"#))
    }

    @Test func demoPageLinksEachFailingRowToItsFailure() {
      var passed = Pages.failedCheck()
      passed.target = "LockedCounter"
      passed.outcome = .passed
      let html = HTMLReport.page(
        ofDemo: [
          .init(target: "LockedCounter", expected: "pass", agrees: true, report: passed),
          .init(
            target: "LockArray", expected: "fail: insert-at-count-rejected", agrees: true,
            report: Pages.failedCheck(), window: [0, 1, 2]),
        ], elapsed: .seconds(3))
      #expect(html.contains("<h1>2 of 2 rows agree with the catalogue</h1>"))
      #expect(html.contains(#"<td>LockedCounter</td>"#))
      #expect(html.contains(##"<td><a href="#row-2">LockArray</a></td>"##))
      #expect(html.contains(#"<section class="demo-failure" id="row-2">"#))
      #expect(!html.contains(#"id="row-1""#))
      #expect(html.contains(#"<li class="unplaceable" data-operation="2">"#))
    }
  }
}

/// Hand-made reports for the pages under test.
private enum Pages {
  /// A failed LockArray check: `insert(x, 1)` on a one-element array was dropped, so `count` returned 1.
  static func failedCheck(argument: Value = 0) -> CheckReport {
    let history = History(operations: [
      .made(0, "append", [0], 0, 10),
      .made(0, "insert", [argument, 1], 20, 30),
      .made(0, "count", [], 40, 50, result: 1),
    ])
    let explanation = Explanation(
      longestPrefix: [0, 1], state: "[0, 0]",
      candidates: [.init(operation: 2, returned: 1, expected: 2)])
    let scenario = Scenario(
      initial: history.operations.map { Scenario.Call($0.name, $0.arguments) })
    let failure = FailureReport(
      evidence: .nonLinearizable(history, explanation),
      diagnosis: Diagnosis(.insertAtCountRejected, evidence: "insert(0, 1) had no effect"),
      timeToFind: .milliseconds(10), original: scenario, scenarioIndex: 0, scenario: scenario,
      shrinkSteps: 0, shrinkingCutShort: false, failedInvocations: 5, invocations: 5,
      repro: .notWritten("not asked for"))
    var report = CheckReport(
      target: "LockArray", seed: 1, configuration: Configuration(), outcome: .failed(failure))
    report.replayCommand = "racecheck run LockArray --seed 0x0000000000000001"
    report.voidOperations = ["append", "insert"]
    return report
  }

  /// The JSON the page's script reads, parsed.
  static func data(of html: String) -> [String: Any] {
    let start = #"<script type="application/json" id="racecheck-data">"#
    guard let open = html.range(of: start),
      let close = html.range(of: "</script>", range: open.upperBound..<html.endIndex)
    else { return [:] }
    let json = Data(html[open.upperBound..<close.lowerBound].utf8)
    return (try? JSONSerialization.jsonObject(with: json)) as? [String: Any] ?? [:]
  }
}
