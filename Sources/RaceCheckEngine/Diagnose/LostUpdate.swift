/// Names the `lost-update` family from results: a write whose effect a concurrent write undid.
///
/// Two unsynchronized writes lose updates, and so does a wrapper whose every write is a
/// read-modify-write of the whole state made of two atomic parts (an `@Atomic` property's
/// locked get, then its locked set: `flags[key] = value`). Both histories are explained by
/// dropping a write that overlapped another write, and nothing in the results tells the two
/// apart, so this names the family, not a data race: schedule mode and Thread Sanitizer see
/// the accesses and name the race when there is one. It comes before ``UnorderedWrite``,
/// whose writes that take effect late also explain a write that took effect never.
enum LostUpdate {
  /// The diagnosis, when dropping one or two writes that each overlapped another write explains the history.
  static func diagnose<Subject, Model: HistoryModel>(
    _ history: History, spec: Spec<Subject, Model>
  ) -> Diagnosis? {
    guard UnorderedWrite.storesEachWrite(Model.self) else { return nil }
    let isWrite = UnorderedWrite.writes(spec.steps(of: history), of: Model.self)
    let racing = NonAtomicCompoundUpdate.racingUpdates(
      in: history, isCompound: { isWrite[$0] }, isUpdate: { isWrite[$0] })
    let correct = Hypothesis<Model>(modelSides: spec.modelSides(of: history))
    guard
      let (lost, _) = NonAtomicCompoundUpdate.lostUpdates(
        history, racing: racing, initial: spec.model, step: correct.step)
    else { return nil }
    let first = history.operations[lost[0]]
    let rival = history.operations[
      NonAtomicCompoundUpdate.rival(of: lost[0], in: history, isUpdate: { isWrite[$0] })]
    let effects = lost.count == 1 ? "its effect" : "the effects of \(lost.count) such writes"
    return Diagnosis(
      .lostUpdate,
      evidence:
        "\(first.callText) on thread \(first.process) overlapped \(rival.callText) on thread \(rival.process), "
        + "and the history is explained only if \(effects) never showed: the writes were not "
        + "synchronized with each other, or each is atomic but writes back a stale copy of the "
        + "state it read (a locked get, then a locked set); the results alone cannot tell which")
  }
}
