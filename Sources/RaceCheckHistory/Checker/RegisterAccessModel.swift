/// A model of one register, whose histories ``ImpossibleRead`` can prove illegal without search.
protocol RegisterAccessModel: HistoryModel {
  /// What `step` does to the register, having returned `result` (nil: unknown outcome).
  ///
  /// The model's `state` is the register's value.
  static func access(_ step: Step, result: Value?) -> ImpossibleRead.Access
}

extension RegisterModel: RegisterAccessModel {
  static func access(_ step: Step, result: Value?) -> ImpossibleRead.Access {
    switch step {
    case .read: return result.map { .observes($0, thenStores: nil) } ?? .none
    case .write(let value): return .stores(value)
    }
  }
}

extension CASRegisterModel: RegisterAccessModel {
  static func access(_ step: Step, result: Value?) -> ImpossibleRead.Access {
    switch step {
    case .read: return result.map { .observes($0, thenStores: nil) } ?? .none
    case .write(let value): return .stores(value)
    case .cas(let expected, let new):
      guard let result else { return .stores(new) }
      return result == true ? .observes(expected, thenStores: new) : .none
    }
  }
}

extension ImpossibleRead {
  /// The impossible observation among `members` of `history`; `isInfo[i]` when member `i`'s outcome is unknown (as of a cut).
  static func first<Register: RegisterAccessModel>(
    _: Register.Type, in history: TypedHistory<some HistoryModel>, members: [Int], isInfo: [Bool],
    initial: Value
  ) -> ImpossibleRead? {
    let accesses = zip(members, isInfo).map { index, info in
      // The caller found Model == Register at run time; the cast only names it. `Value`
      // takes a nil literal as `.null`, so an unknown outcome is spelled `Value?.none`.
      Register.access(
        history.steps[index] as! Register.Step,
        result: info ? Value?.none : .some(history.results[index]))
    }
    return first(
      accesses: accesses, callTimes: members.map { history.callTimes[$0] },
      returnTimes: zip(members, isInfo).map { $1 ? .max : history.returnTimes[$0] },
      initial: initial)
  }
}
