/// Names the `data-race` family from a read that returned a value nobody wrote: a torn read.
///
/// A register can only ever hold its initial value or a value some write stored. A read
/// that returns anything else saw a write half done: the read and the write ran at the
/// same time on the same memory.
enum TornValue {
  /// The diagnosis, when some read of a register returned a value that is neither the initial one nor written.
  static func diagnose(_ history: History, initial: RegisterModel) -> Diagnosis? {
    let written = Set(
      history.operations.filter { $0.name == "write" }.compactMap(\.arguments.first)
    )
    .union([initial.value])
    guard
      let torn = history.operations.first(where: {
        $0.name == "read" && $0.status == .ok && !written.contains($0.result)
      })
    else { return nil }
    return Diagnosis(
      .dataRace,
      evidence:
        "\(torn.callText) on thread \(torn.process) returned \(torn.result), a value no write stored: it read the "
        + "value while another thread was writing it, with nothing ordering the two")
  }
}

extension Spec {
  /// Whether `history` holds a read of this spec's register that returned a value no write stored: proof of a race.
  func readsATornValue(in history: History) -> Bool {
    guard let initial = model as? RegisterModel else { return false }
    return TornValue.diagnose(history, initial: initial) != nil
  }
}
