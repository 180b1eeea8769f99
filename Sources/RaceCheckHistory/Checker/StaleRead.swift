/// A proof without search that a history has no linearization: an operation saw a value that had certainly been overwritten before it was called.
///
/// In any linearization, an operation O that saw an object hold v (a read or `get` that
/// returned v, a compare-and-set that succeeded expecting v) sees the state left by the
/// last operation before it that stored into the object (a write or `put`, a successful
/// compare-and-set, an append of a non-empty string), or the initial state when there is
/// none. Call that operation S. S left v, so S is a *producer* of v: an operation that may
/// have stored v — a write or `put` of v, a compare-and-set storing v, an append of a
/// suffix of v — that took effect or may have (a completed one, or one of unknown
/// outcome), other than O, called before O returned.
///
/// An *overwriter* W is a completed operation that certainly stored into the object: a
/// completed write or `put`, a compare-and-set that returned true, a completed append of a
/// non-empty string. Operations of unknown outcome may never have happened, so they are
/// never overwriters (their return time is `.max`, so no time test below can hold).
///
/// O is *stale* when some overwriter W returned before O was called and, for every
/// producer P, P returned before W was called. Then P < W < O in real time, hence in every
/// linearization, and W, a store, comes between P and O: P is not the last store before O.
/// When O saw the initial value, the initial state is a producer too, and any W already
/// follows it. So no operation can be S, and no order exists.
///
/// W's value does not matter. Taking W as the overwriter that was called last among those
/// that returned before O was called is no loss: if any overwriter follows every producer,
/// that one does. It cannot store v itself, since it would then be a producer returning
/// after its own call. A producer that returned after O was called can never be followed
/// by such a W, and one that overlaps W may be linearized after it: both keep O from
/// being stale, as they must.
///
/// At equal times a call counts as before a return, as in the search's event order: "P
/// returned before W was called" is `P.return < W.call`, and P "was called before O
/// returned" is `P.call <= O.return`.
///
/// For a key-value store, strings compare byte for byte, as the search compares them
/// (``KeyValueStateSpace``); an append of s may have produced v exactly when v's bytes end
/// with s's.
struct StaleRead: Sendable, Hashable {
  /// What one operation does to one object, as far as the proof is concerned.
  ///
  /// Values are numbered so that equal numbers mean the same value of the same object.
  struct Effect: Sendable, Hashable {
    /// The object it acts on, numbered from 0: the register, or a key of a key-value store.
    var object: Int32 = 0
    /// The value it saw the object hold, or -1: a completed read, a successful compare-and-set's expected value.
    var observed: Int32 = -1
    /// The value it may have stored, or -1: a write, `put` or compare-and-set that took effect or may have.
    var stored: Int32 = -1
    /// The non-empty string it may have appended, numbered apart from the values, or -1.
    var appended: Int32 = -1

    /// Whether it stores into its object if it takes effect.
    var stores: Bool { stored >= 0 || appended >= 0 }
  }

  /// The stale observation, as an index into the operations given.
  var operation: Int
  /// The value it saw.
  var value: Value
  /// Every operation that may have stored the value and was called before the observation returned, in call order.
  var producers: [Int]
  /// Whether the object held the value initially: the initial state is a producer too.
  var initialHeld: Bool
  /// The completed store called last among those that returned before the observation was called; every producer returned before it was called.
  var overwriter: Int

  /// Appends looked at, per operation, before the proof gives up on appends; see ``first(effects:callTimes:returnTimes:initial:endsWith:)``.
  static var appendLooksPerOperation: Int { 16 }

  /// The stale observation that returned first, with its producers and overwriter but no value; nil when none is.
  ///
  /// `returnTimes[i]` is `.max` for an operation of unknown outcome. `initial[object]` is
  /// the number of the object's initial value. `endsWith(value, suffix)` says whether the
  /// value numbered `value` ends with the appended string numbered `suffix`.
  ///
  /// O(n log n): stores sorted by return and observations by call give each observation
  /// its overwriter; producers sorted by call and observations by return give each the
  /// latest-returning producer of its value, kept per value as the two latest (the one
  /// that is not the observation itself counts). Appends are producers of every value
  /// that ends with them, so they are looked at one by one, walking back from the last
  /// one called in time and stopping where none earlier can have returned after the
  /// overwriter was called; in all at most ``appendLooksPerOperation`` looks per operation,
  /// after which an observation still undecided counts as not stale — the proof may miss
  /// one, never claim a wrong one.
  static func first(
    effects: [Effect], callTimes: [Int64], returnTimes: [Int64], initial: [Int32],
    endsWith: (_ value: Int32, _ suffix: Int32) -> Bool
  ) -> (operation: Int, producers: [Int], initialHeld: Bool, overwriter: Int)? {
    let count = effects.count
    let observations = (0..<count).filter { effects[$0].observed >= 0 }
    guard !observations.isEmpty else { return nil }
    let overwriters = overwriters(
      of: observations, effects: effects, callTimes: callTimes, returnTimes: returnTimes)
    var candidates = observations.filter { overwriters[$0] >= 0 }
    guard !candidates.isEmpty else { return nil }

    // Exact producers: the latest return of each value's producers called by each
    // observation's return, the two latest so that the observation itself can be skipped.
    var values = 0
    for effect in effects { values = max(values, Int(effect.observed) + 1, Int(effect.stored) + 1) }
    var latest = [(operation: Int, time: Int64)](repeating: (-1, .min), count: values)
    var secondTime = [Int64](repeating: .min, count: values)
    let producers = (0..<count).filter { effects[$0].stored >= 0 }
      .sorted { callTimes[$0] < callTimes[$1] }
    candidates.sort { returnTimes[$0] < returnTimes[$1] }
    var next = 0
    var stale: [Int] = []
    for observation in candidates {
      while next < producers.count && callTimes[producers[next]] <= returnTimes[observation] {
        let producer = producers[next]
        let value = Int(effects[producer].stored)
        let time = returnTimes[producer]
        if time > latest[value].time {
          secondTime[value] = latest[value].time
          latest[value] = (producer, time)
        } else if time > secondTime[value] {
          secondTime[value] = time
        }
        next += 1
      }
      let value = Int(effects[observation].observed)
      let known = latest[value]
      let latestOther = known.operation == observation ? secondTime[value] : known.time
      if latestOther < callTimes[overwriters[observation]] { stale.append(observation) }
    }

    // Appends, one object at a time, in call order with the latest return so far.
    let appends = (0..<count).filter { effects[$0].appended >= 0 }
    var budget = appendLooksPerOperation * count
    if !appends.isEmpty {
      var byObject: [Int32: [Int]] = [:]
      for append in appends { byObject[effects[append].object, default: []].append(append) }
      for key in byObject.keys { byObject[key]!.sort { callTimes[$0] < callTimes[$1] } }
      let latestReturnSoFar = byObject.mapValues { own in
        var latest = Int64.min
        return own.map { append in
          latest = max(latest, returnTimes[append])
          return latest
        }
      }
      stale = stale.filter { observation in
        guard let own = byObject[effects[observation].object] else { return true }
        let sinceReturned = latestReturnSoFar[effects[observation].object]!
        let overwritten = callTimes[overwriters[observation]]
        // The appends called by the observation's return are own[..<end].
        var low = 0
        var high = own.count
        while low < high {
          let middle = (low + high) / 2
          if callTimes[own[middle]] <= returnTimes[observation] {
            low = middle + 1
          } else {
            high = middle
          }
        }
        var position = low - 1
        while position >= 0 && sinceReturned[position] >= overwritten {
          guard budget > 0 else { return false }
          budget -= 1
          let append = own[position]
          if returnTimes[append] >= overwritten
            && endsWith(effects[observation].observed, effects[append].appended)
          {
            return false
          }
          position -= 1
        }
        return true
      }
    }

    guard
      let found = stale.min(by: { (returnTimes[$0], $0) < (returnTimes[$1], $1) })
    else { return nil }
    let effect = effects[found]
    let cited = (0..<count).filter { producer in
      producer != found && callTimes[producer] <= returnTimes[found]
        && (effects[producer].stored == effect.observed
          || (effects[producer].appended >= 0 && effects[producer].object == effect.object
            && endsWith(effect.observed, effects[producer].appended)))
    }.sorted { (callTimes[$0], $0) < (callTimes[$1], $1) }
    return (
      found, cited, initial[Int(effect.object)] == effect.observed, overwriters[found]
    )
  }

  /// Per operation, for an observation, the completed store of its object called last among those that returned before it was called, or -1.
  private static func overwriters(
    of observations: [Int], effects: [Effect], callTimes: [Int64], returnTimes: [Int64]
  ) -> [Int] {
    let stores = effects.indices.filter { effects[$0].stores && returnTimes[$0] != .max }
      .sorted { returnTimes[$0] < returnTimes[$1] }
    let objects = Int(effects.lazy.map(\.object).max() ?? 0) + 1
    var latest = [Int](repeating: -1, count: objects)
    var overwriters = [Int](repeating: -1, count: effects.count)
    var next = 0
    for observation in observations.sorted(by: { callTimes[$0] < callTimes[$1] }) {
      while next < stores.count && returnTimes[stores[next]] < callTimes[observation] {
        let store = stores[next]
        let object = Int(effects[store].object)
        if latest[object] < 0 || callTimes[store] > callTimes[latest[object]] {
          latest[object] = store
        }
        next += 1
      }
      overwriters[observation] = latest[Int(effects[observation].object)]
    }
    return overwriters
  }
}

extension StaleRead {
  /// The stale observation among `members` of a register's `history`; `isInfo[i]` when member `i`'s outcome is unknown (as of a cut).
  ///
  /// `operation`, `producers` and `overwriter` are positions in `members`.
  static func first<Register: RegisterAccessModel>(
    _: Register.Type, in history: TypedHistory<some HistoryModel>, members: [Int], isInfo: [Bool],
    initial: Value
  ) -> StaleRead? {
    var numbers: [Value: Int32] = [:]
    var values: [Value] = []
    func number(_ value: Value) -> Int32 {
      if let known = numbers[value] { return known }
      numbers[value] = Int32(values.count)
      values.append(value)
      return Int32(values.count - 1)
    }
    let effects = zip(members, isInfo).map { index, info in
      // The caller found Model == Register at run time; the cast only names it. `Value`
      // takes a nil literal as `.null`, so an unknown outcome is spelled `Value?.none`.
      let access = Register.access(
        history.steps[index] as! Register.Step,
        result: info ? Value?.none : .some(history.results[index]))
      switch access {
      case .observes(let value, let then):
        return Effect(observed: number(value), stored: then.map(number) ?? -1)
      case .stores(let value): return Effect(stored: number(value))
      case .none: return Effect()
      }
    }
    let initialNumber = number(initial)
    guard
      let found = first(
        effects: effects, callTimes: members.map { history.callTimes[$0] },
        returnTimes: zip(members, isInfo).map { $1 ? .max : history.returnTimes[$0] },
        initial: [initialNumber], endsWith: { _, _ in false })
    else { return nil }
    return StaleRead(
      operation: found.operation, value: values[Int(effects[found.operation].observed)],
      producers: found.producers, initialHeld: found.initialHeld, overwriter: found.overwriter)
  }

  /// The stale `get` among `members` of a key-value store's `history`, one key or several; `isInfo[i]` when member `i`'s outcome is unknown.
  ///
  /// `operation`, `producers` and `overwriter` are positions in `members`.
  static func first(
    in history: TypedHistory<KeyValueModel>, members: [Int], isInfo: [Bool],
    initial: KeyValueModel
  ) -> StaleRead? {
    // Strings as the search compares them, byte for byte: `String`'s own equality would
    // take canonically equivalent strings of different bytes for one value.
    struct Held: Hashable {
      var key: Int32
      var text: String

      static func == (left: Held, right: Held) -> Bool {
        left.key == right.key && left.text.utf8.elementsEqual(right.text.utf8)
      }

      func hash(into hasher: inout Hasher) {
        hasher.combine(key)
        var text = text
        text.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
      }
    }
    var keys: [String: Int32] = [:]
    var keyNames: [String] = []
    var numbers: [Held: Int32] = [:]
    var values: [String] = []
    var suffixes: [String] = []
    func key(_ name: String) -> Int32 {
      if let known = keys[name] { return known }
      keys[name] = Int32(keyNames.count)
      keyNames.append(name)
      return Int32(keyNames.count - 1)
    }
    func number(_ text: String, of key: Int32) -> Int32 {
      let held = Held(key: key, text: text)
      if let known = numbers[held] { return known }
      numbers[held] = Int32(values.count)
      values.append(text)
      return Int32(values.count - 1)
    }
    let effects = zip(members, isInfo).map { index, info in
      switch history.steps[index] {
      case .get(let name):
        let object = key(name)
        // A get of unknown outcome saw nothing known; one that returned no string fits no
        // state, and the search says so.
        guard !info, let text = history.results[index].stringValue else {
          return Effect(object: object)
        }
        return Effect(object: object, observed: number(text, of: object))
      case .put(let name, let text):
        let object = key(name)
        return Effect(object: object, stored: number(text, of: object))
      case .append(let name, let text):
        // Appending nothing changes nothing: neither a producer nor an overwriter.
        guard !text.isEmpty else { return Effect(object: key(name)) }
        suffixes.append(text)
        return Effect(object: key(name), appended: Int32(suffixes.count - 1))
      }
    }
    let initialNumbers = keyNames.indices.map {
      number(initial.values[keyNames[$0]] ?? "", of: Int32($0))
    }
    guard
      let found = first(
        effects: effects, callTimes: members.map { history.callTimes[$0] },
        returnTimes: zip(members, isInfo).map { $1 ? .max : history.returnTimes[$0] },
        initial: initialNumbers,
        endsWith: { value, suffix in
          // Byte for byte, as the search compares strings.
          let whole = values[Int(value)].utf8
          let end = suffixes[Int(suffix)].utf8
          return whole.count >= end.count && whole.suffix(end.count).elementsEqual(end)
        })
    else { return nil }
    return StaleRead(
      operation: found.operation, value: .string(values[Int(effects[found.operation].observed)]),
      producers: found.producers, initialHeld: found.initialHeld, overwriter: found.overwriter)
  }
}
