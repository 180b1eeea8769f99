/// Names `identity-instead-of-equality`: a lookup misses an equal element because it compares references.
enum IdentityInsteadOfEquality {
  static let lookups: Set<String> = ["indexOf", "contains"]

  /// The diagnosis, when lookups of fresh references always missing explains the history.
  ///
  /// - Parameters:
  ///   - history: The failing history.
  ///   - initial: The model's initial state.
  ///   - freshReferences: The lookups whose argument reaches the subject as a new object on each call.
  /// - Returns: The diagnosis, or nil when the hypothesis does not explain the history.
  static func diagnose(_ history: History, initial: ArrayModel, freshReferences: Set<String>)
    -> Diagnosis?
  {
    let identityLookups = lookups.intersection(freshReferences)
    guard history.operations.contains(where: { identityLookups.contains($0.name) }) else {
      return nil
    }
    // A new object is identical to nothing stored, so an identity lookup never finds it.
    let buggy = Hypothesis<ArrayModel> { state, entry in
      switch entry.name {
      case "indexOf" where identityLookups.contains("indexOf"): return .null
      case "contains" where identityLookups.contains("contains"): return .bool(false)
      default: return ArrayModel.correctStep(&state, entry)
      }
    }
    guard let order = buggy.witness(for: history, from: initial) else { return nil }
    return buggy.replay(order, of: history, from: initial) { entry, state in
      guard identityLookups.contains(entry.name),
        let argument = entry.arguments.first,
        let position = state.elements.firstIndex(of: argument)
      else { return nil }
      return Diagnosis(
        .identityInsteadOfEquality,
        evidence:
          "\(entry.callText) returned \(entry.result) while the array held an equal element at index \(position): "
          + "the argument is a new object equal to the stored one, and the lookup compares identity (===), not equality"
      )
    }
  }
}
