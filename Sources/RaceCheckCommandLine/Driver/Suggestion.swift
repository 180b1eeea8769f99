import RaceCheckEngine

/// Finds the known name closest to a mistyped one, for "did you mean" hints.
enum Suggestion {
  /// The candidate nearest to `typed`, or nil when none is close enough to be a likely typo.
  ///
  /// Case is ignored, so `lockarray` suggests `LockArray`; a candidate is close when at most a
  /// third of the typed characters (and at least one) must change.
  static func closest(to typed: String, among candidates: [String]) -> String? {
    let typedLowercased = Array(typed.lowercased())
    let allowed = max(1, typedLowercased.count / 3)
    var best: (name: String, distance: Int)?
    for candidate in candidates {
      let distance = editDistance(typedLowercased, Array(candidate.lowercased()))
      if distance <= allowed, distance < (best?.distance ?? .max) {
        best = (candidate, distance)
      }
    }
    return best?.name
  }

  /// The Levenshtein distance: insertions, deletions and substitutions, one row at a time.
  static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
    guard !a.isEmpty else { return b.count }
    guard !b.isEmpty else { return a.count }
    var previous = Array(0...b.count)
    var current = previous
    for i in 1...a.count {
      current[0] = i
      for j in 1...b.count {
        let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
        current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
      }
      swap(&previous, &current)
    }
    return previous[b.count]
  }
}
