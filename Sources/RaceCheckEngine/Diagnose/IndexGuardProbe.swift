/// The experiment that tells an unsigned bounds check from no check at all: a read past the end of an array that is not empty.
///
/// A guard `index <= count - 1` in unsigned arithmetic wraps only at count 0; at any
/// other count it rejects an index out of range, so the read returns nil. A read that
/// checks no index traps past the end of any array, as on an empty one. The probe runs
/// on one thread, from a fresh subject: a call that fills the array (an append), then a
/// read at an index out of range for the array that call leaves.
struct IndexGuardProbe: CustomStringConvertible {
  /// How a run of the probe's scenario ended.
  enum Run {
    /// Every result was the model's, and nothing died.
    case passed
    /// It failed with this evidence.
    case failed(Evidence)
  }

  /// What the probe showed of the read's guard.
  enum Finding: Hashable, Sendable {
    /// The read past the end returned nil: a guard rejects an out-of-range index when the array is not empty.
    case guarded
    /// The read past the end trapped too: nothing checks the index.
    case unchecked
    /// The probe could not run, or failed some other way: it tells nothing.
    case inconclusive
  }

  /// The invocations a probe runs: its one thread does the same on every run, so a few show a trap.
  static let invocations = 5

  /// The call that makes the array non-empty.
  let filling: Scenario.Call
  /// The read past the end.
  let read: Scenario.Call
  /// The number of elements the model holds after the filling call.
  let elements: Int

  /// The probe for `trapping`, a read whose step is the array model's `get(index)`, or nil when `filling` does not leave the model's array non-empty.
  ///
  /// The probe reads with the same operation. It keeps the trapping index when it is out of
  /// range after the filling call too, so that only the array's count differs; otherwise it
  /// reads at `count`.
  init?(
    trapping: Scenario.Call, at index: Int, filling: Scenario.Call,
    arrayAfter: ([Scenario.Call]) -> [Value]?
  ) {
    guard let elements = arrayAfter([filling])?.count, elements > 0 else { return nil }
    self.filling = filling
    self.elements = elements
    // The vocabulary's `get` takes the index alone, and a spec's operation keeps its arguments.
    read = Scenario.Call(trapping.operation, [.int(index >= elements ? index : elements)])
  }

  /// A call of `spec` that its model says leaves the array non-empty from the initial state, with the arguments its generators draw first; nil when none does.
  ///
  /// What each operation does to the model decides, whether it is the vocabulary's or
  /// its own model closure's: an append with its own model, or an `appendContentsOf`,
  /// fills the array as well. A call whose step is the model's `append(v)`, whatever the
  /// spec calls it, is tried first, so that the probe reads as the user expects; the others
  /// follow in the spec's order.
  static func fillingCall<Subject, Model>(of spec: Spec<Subject, Model>) -> Scenario.Call? {
    guard spec.model is ArrayModel else { return nil }
    let calls = spec.operations.map { Scenario.Call($0.name, $0.firstArguments) }
    let isAppend = { (call: Scenario.Call) -> Bool in
      if case .append? = spec.arrayStep(of: call) { return true }
      return false
    }
    return (calls.filter(isAppend) + calls.filter { !isAppend($0) }).first {
      spec.arrayElements(after: [$0])?.isEmpty == false
    }
  }

  /// The probe as evidence says it: `get(1) after append(0), past the end of an array of 1 element`.
  var description: String {
    "\(read) after \(filling), past the end of an array of \(elements) element\(elements == 1 ? "" : "s")"
  }

  /// The scenario to run: the filling call, then the read, on one thread.
  var scenario: Scenario { Scenario(initial: [filling, read]) }

  /// What `run` shows of the guard; nil means the probe could not run.
  func finding(of run: Run?) -> Finding {
    switch run {
    case .passed:
      return .guarded
    case .failed(.death(let crash)):
      let trappedReading =
        crash.kind == .crash && crash.inFlight.contains { $0.call == read }
        && CrashDiagnoser.indexTraps.contains { crash.message?.contains($0) == true }
      return trappedReading ? .unchecked : .inconclusive
    case .failed, nil:
      return .inconclusive
    }
  }
}
