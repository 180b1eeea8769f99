/// Checks a spec, or a ``Checkable`` of your own, from a test: a failure fails the calling test at this line with the full report.
///
/// Works from a Swift Testing `@Test` and from an XCTest method. A pass prints one line
/// to standard output saying what it explored and how settled it was. Set
/// `RACECHECK_SEED` to replay a run; the report prints the exact command.
///
/// The check runs in a child process (see ``Configuration/isolated``): the test binary,
/// started again to run only the calling test up to this call. A crash or a hang in the
/// code under test then fails this test with a symbolized report, and the run goes on.
///
/// ```swift
/// @Test func lockArrayIsLinearizable() {
///   check(Spec("LockArray", make: LockArray.init, model: ArrayModel()) {
///     Operation("append", .int(in: 0...3)) { (array: LockArray, x: Int) in array.addObject(x) }
///     Operation("count") { (array: LockArray) in array.count }
///   })
/// }
/// ```
///
/// - Returns: The report, for tests that want to look at it.
@discardableResult
public func check(
  _ checkable: some Checkable,
  configuration: Configuration = Configuration(),
  function: String = #function,
  fileID: String = #fileID,
  filePath: StaticString = #filePath,
  line: UInt = #line,
  column: UInt = #column
) -> CheckReport {
  let test = TestCheck(
    function: function, fileID: fileID, filePath: filePath, line: line, column: column)
  switch test.prepare(checkable, configuration) {
  case .finished(let report): return report
  case .ready(let run): return test.finish(run.perform(checkable), of: run)
  }
}

/// Checks a spec, or a ``Checkable`` of your own, from an `async` test: a failure fails the calling test at this line with the full report.
///
/// The check runs on a thread of its own while the test awaits it, so that no thread of
/// Swift's cooperative pool waits for it: the `async` operations it checks run their
/// tasks on that pool.
///
/// ```swift
/// @Test func counterActorIsLinearizable() async {
///   await check(Spec("Counter", make: Counter.init, model: CounterModel()) {
///     Operation("get") { (counter: Counter) in await counter.value }
///     Operation("increment") { (counter: Counter) in await counter.increment() }
///   })
/// }
/// ```
///
/// - Returns: The report, for tests that want to look at it.
@discardableResult
public func check(
  _ checkable: some Checkable,
  configuration: Configuration = Configuration(),
  function: String = #function,
  fileID: String = #fileID,
  filePath: StaticString = #filePath,
  line: UInt = #line,
  column: UInt = #column
) async -> CheckReport {
  let test = TestCheck(
    function: function, fileID: fileID, filePath: filePath, line: line, column: column)
  switch test.prepare(checkable, configuration) {
  case .finished(let report): return report
  case .ready(let run):
    let report = await TestCheck.onThreadOfItsOwn { run.perform(checkable) }
    return test.finish(report, of: run)
  }
}
