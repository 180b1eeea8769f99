/// Names `identity-instead-of-equality`: a lookup misses an equal element because it compares references.
enum IdentityInsteadOfEquality {
  /// The diagnosis, when lookups of fresh references always missing explains the history.
  ///
  /// A lookup is any operation whose step in the array model is `indexOf(v)` or
  /// `contains(v)`, whatever the spec calls it; only one whose argument reaches the subject as
  /// a new object on each call (``Operation/passesFreshReferences``) can miss this way.
  static func diagnose<Subject>(_ history: History, spec: Spec<Subject, ArrayModel>)
    -> Diagnosis?
  {
    let freshReferences = Set(spec.operations.filter(\.passesFreshReferences).map(\.name))
    let steps = spec.steps(of: history)
    // The value each identity lookup looks for, by index.
    let lookedUp = history.operations.indices.map { index -> Value? in
      guard freshReferences.contains(history.operations[index].name) else { return nil }
      switch steps[index] {
      case .indexOf(let value)?, .contains(let value)?: return value
      default: return nil
      }
    }
    guard lookedUp.contains(where: { $0 != nil }) else { return nil }
    let correct = Hypothesis<ArrayModel>(modelSides: spec.modelSides(of: history))
    // A new object is identical to nothing stored: the lookup answers as if no element equalled it.
    let buggy = Hypothesis<ArrayModel> { state, index in
      guard let value = lookedUp[index], let step = steps[index] else {
        return correct.step(&state, index)
      }
      var withoutIt = state
      withoutIt.elements.removeAll { $0 == value }
      return withoutIt.apply(step)
    }
    guard let order = buggy.witness(for: history, from: spec.model) else { return nil }
    return buggy.replay(order, from: spec.model) { index, state in
      guard let value = lookedUp[index], let position = state.elements.firstIndex(of: value) else {
        return nil
      }
      let lookup = history.operations[index]
      return Diagnosis(
        .identityInsteadOfEquality,
        evidence:
          "\(lookup.callText) returned \(lookup.result) while the array held an equal element at index \(position): "
          + "the argument is a new object equal to the stored one, and the lookup compares identity (===), not equality"
      )
    }
  }
}
