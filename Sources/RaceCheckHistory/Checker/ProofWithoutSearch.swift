/// A proof that a part of a history has no linearization, found without searching; operations are positions in the part's operations.
enum ProofWithoutSearch: Sendable, Hashable {
  /// An observation of a value nothing could have stored by then.
  case impossibleRead(ImpossibleRead)
  /// An observation of a value every possible store of which had been overwritten before it was called.
  case staleRead(StaleRead)

  /// The observation the proof rests on: the window of the violation ends at its return.
  var operation: Int {
    switch self {
    case .impossibleRead(let read): read.operation
    case .staleRead(let read): read.operation
    }
  }

  /// The impossible read, or else the stale read, among `members` of a register's part starting from `initial`; nil for other models.
  ///
  /// `isInfo[i]` when member `i`'s outcome is unknown (as of a cut). Each costs a few
  /// passes over the operations, which are in call order already, with a dictionary of
  /// the few values a register holds: a few percent of a search that never backtracks,
  /// so the checker asks them before searching.
  static func inRegister<Model: HistoryModel>(
    _ history: TypedHistory<Model>, members: [Int], isInfo: [Bool], initial: Model
  ) -> ProofWithoutSearch? {
    guard let register = Model.self as? any RegisterAccessModel.Type else { return nil }
    if let impossible = ImpossibleRead.first(
      register, in: history, members: members, isInfo: isInfo, initial: initial.state)
    {
      return .impossibleRead(impossible)
    }
    return StaleRead.first(
      register, in: history, members: members, isInfo: isInfo, initial: initial.state
    ).map(ProofWithoutSearch.staleRead)
  }

  /// The stale `get` among `members` of a key-value store's part, one key or several, starting from `initial`.
  ///
  /// A `get` that saw what nothing stored, found on the way, is an impossible read. The
  /// proof hashes every string, which costs about as much as a search that never
  /// backtracks, the common case of a key's part: the checker asks it only of a part that
  /// such a search did not decide.
  static func inKeyValueStore(
    _ history: TypedHistory<KeyValueModel>, members: [Int], isInfo: [Bool],
    initial: KeyValueModel
  ) -> ProofWithoutSearch? {
    guard
      let stale = StaleRead.first(
        in: history, members: members, isInfo: isInfo, initial: initial)
    else { return nil }
    // Nothing that may store the value was called in time and it was not the initial one.
    if stale.producers.isEmpty && !stale.initialHeld {
      return .impossibleRead(ImpossibleRead(operation: stale.operation, value: stale.value))
    }
    return .staleRead(stale)
  }
}
