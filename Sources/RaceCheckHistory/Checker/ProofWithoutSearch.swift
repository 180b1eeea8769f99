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

  /// The proof for `members` of a part of `history` starting from `initial`, if the model has one and it finds one; `isInfo[i]` when member `i`'s outcome is unknown (as of a cut).
  ///
  /// Registers are tested for an impossible read, then a stale one; key-value stores for a
  /// stale `get`, or one that saw what nothing stored (a key-value store's impossible read,
  /// found on the way). Other models have none.
  static func first<Model: HistoryModel>(
    in history: TypedHistory<Model>, members: [Int], isInfo: [Bool], initial: Model
  ) -> ProofWithoutSearch? {
    if let keyValue = history as? TypedHistory<KeyValueModel> {
      guard
        let stale = StaleRead.first(
          in: keyValue, members: members, isInfo: isInfo, initial: initial as! KeyValueModel)
      else { return nil }
      // Nothing that may store the value was called in time and it was not the initial one.
      if stale.producers.isEmpty && !stale.initialHeld {
        return .impossibleRead(ImpossibleRead(operation: stale.operation, value: stale.value))
      }
      return .staleRead(stale)
    }
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
}
