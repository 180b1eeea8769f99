/// Names the `data-race` family from a read that returned a value nobody wrote: a torn read.
///
/// A register can only ever hold its initial value or a value some write stored. A read
/// that returns anything else saw a write half done: the read and the write ran at the
/// same time on the same memory.
enum TornValue {
  /// The diagnosis, when some read of a register returned a value that is neither the initial one nor written.
  ///
  /// Reads and writes are the register model's `read` and `write(v)` steps, whatever the spec
  /// calls them. An operation with its own model closure may store anything, so a history
  /// with one tells nothing here.
  static func diagnose<Subject>(_ history: History, spec: Spec<Subject, RegisterModel>)
    -> Diagnosis?
  {
    let steps = spec.steps(of: history)
    guard !steps.contains(where: { $0 == nil }) else { return nil }
    var written: Set<Value> = [spec.model.value]
    for case .write(let value)? in steps { written.insert(value) }
    guard
      let torn = history.operations.indices.first(where: {
        steps[$0] == .read && history.operations[$0].status == .ok
          && !written.contains(history.operations[$0].result)
      })
    else { return nil }
    let read = history.operations[torn]
    return Diagnosis(
      .dataRace,
      evidence:
        "\(read.callText) on thread \(read.process) returned \(read.result), a value no write stored: it read the "
        + "value while another thread was writing it, with nothing ordering the two")
  }
}

extension Spec {
  /// Whether `history` holds a read of this spec's register that returned a value no write stored: proof of a race.
  func readsATornValue(in history: History) -> Bool {
    guard let spec = self as? Spec<Subject, RegisterModel> else { return false }
    return TornValue.diagnose(history, spec: spec) != nil
  }
}
