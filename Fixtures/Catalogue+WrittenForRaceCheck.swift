import RaceCheck

// MARK: - Rows written for racecheck

// Classes written the way app developers write them, for what the posts do not cover:
// operations that trap by contract, on the main thread, compound client updates and
// completion handlers. docs/catalogue.md gives each row's reason.
extension Catalogue {
  /// Indices for the trapping array: narrow, so that early scenarios hit the slots that exist.
  private static let slot = Generator<Int>.int(in: 0...3)

  /// Rows 23 and 24: one class whose lock is shared by every access, or made anew for each.
  ///
  /// A checkable of its own, as a user's family of checks would be (not a ``Spec``), so
  /// that the command line's isolated checks and `replay` run one through its `spec`.
  struct TrappingSubscriptArrayCheck: Checkable {
    /// Whether every access takes the array's one lock (row 23), or a lock made anew (row 24).
    var sharesItsLock: Bool

    var spec: Spec<TrappingSubscriptArray, ArrayModel> {
      let sharesItsLock = sharesItsLock
      let make: @Sendable () -> TrappingSubscriptArray = {
        TrappingSubscriptArray(sharesItsLock: sharesItsLock)
      }
      let name = sharesItsLock ? "TrappingSubscriptArray" : "TrappingSubscriptArrayUnsharedLock"
      return Spec(name, make: make, model: ArrayModel()) {
        Operation("count") { (array: TrappingSubscriptArray) in array.count }
        Operation("get", Catalogue.slot) { (array: TrappingSubscriptArray, index: Int) in
          array[index]
        }
        .requires { (model: ArrayModel, index: Int) in index < model.count }
        Operation("append", .int(in: 0...3)) { (array: TrappingSubscriptArray, x: Int) in
          array.append(x)
        }
        Operation("remove", Catalogue.slot) { (array: TrappingSubscriptArray, index: Int) in
          _ = array.remove(at: index)
        }
        .requires { (model: ArrayModel, index: Int) in index < model.count }
      }
    }
  }

  static var trappingSubscriptArray: Target {
    Target(
      TrappingSubscriptArrayCheck(sharesItsLock: true),
      summary: "a locked array whose subscript and remove(at:) trap out of range, as Array's do",
      expectation: .pass)
  }

  static var trappingSubscriptArrayUnsharedLock: Target {
    Target(
      TrappingSubscriptArrayCheck(sharesItsLock: false),
      summary:
        "TrappingSubscriptArray whose lock is made anew on every access, so nothing excludes",
      expectation: .fail(.dataRace, or: [.unclassified, .lostUpdate]))
  }

  static var compoundClientUpdate: Target {
    typealias Counts = SerialQueueDictionary<String, Int>
    let key = Generator.element(of: ["a", "b"])
    let spec = Spec("CompoundClientUpdate", make: Counts.init, model: DictionaryModel()) {
      Operation("get", key) { (counts: Counts, key: String) in counts[key] }
      Operation("set", key, .int(in: 0...3)) { (counts: Counts, key: String, value: Int) in
        counts[key] = value
      }
      // The client's update: two calls into the dictionary, each atomic, the pair not.
      Operation(
        "increment", key,
        perform: { (counts: Counts, key: String) in counts[key] = (counts[key] ?? 0) + 1 },
        model: { (model: inout DictionaryModel, key: String) in
          model[key] = .int((model[key]?.intValue ?? 0) + 1)
        })
    }
    return Target(
      spec,
      summary: "a serial-queue dictionary updated by its client as d[k] = (d[k] ?? 0) + 1",
      expectation: .fail(.nonAtomicCompoundUpdate))
  }

  /// Rows 34 and 35: one spec for both Mutex count stores, whose `increment` differs.
  private static func mutexCountStoreSpec<Store: MutexCounts>(
    _ name: String, make: @escaping @Sendable () -> Store
  ) -> Spec<Store, DictionaryModel> {
    let key = Generator.element(of: ["a", "b"])
    return Spec(name, make: make, model: DictionaryModel()) {
      Operation("get", key) { (store: Store, key: String) in store[key] }
      Operation("set", key, .int(in: 0...3)) { (store: Store, key: String, value: Int) in
        store[key] = value
      }
      Operation(
        "increment", key, perform: { (store: Store, key: String) in store.increment(key) },
        model: { (model: inout DictionaryModel, key: String) in
          model[key] = .int((model[key]?.intValue ?? 0) + 1)
        })
    }
  }

  static var mutexCountStore: Target {
    Target(
      mutexCountStoreSpec("MutexCountStore", make: MutexCountStore.init),
      summary: "a Mutex-guarded dictionary whose increment is a locked get, then a locked set",
      expectation: .fail(.nonAtomicCompoundUpdate))
  }

  static var mutexCountStoreFixed: Target {
    Target(
      mutexCountStoreSpec("MutexCountStoreFixed", make: MutexCountStoreFixed.init),
      summary: "MutexCountStore fixed: the increment reads and writes in one withLock",
      expectation: .pass)
  }

  static var globalMutexAccount: Target {
    let spec = Spec("GlobalMutexAccount", make: GlobalMutexAccount.init, model: 1) {
      Operation("withdraw", perform: { (account: GlobalMutexAccount) in account.withdraw() }) {
        (balance: inout Int) in
        guard balance >= 1 else { return false }
        balance -= 1
        return true
      }
      Operation("deposit", perform: { (account: GlobalMutexAccount) in account.deposit() }) {
        (balance: inout Int) in balance += 1
      }
      Operation("current", perform: { (account: GlobalMutexAccount) in account.current }) {
        (balance: inout Int) in balance
      }
    }
    return Target(
      spec,
      summary: "an account whose withdraw checks without, then takes under, a global Mutex",
      expectation: .fail(.dataRace))
  }

  /// Accounts as pairs of heap strings (longer than 15 bytes), so that each field is a reference.
  private static let account = Generator.element(of: [
    ["first account holder's name", "first.account@example.com"],
    ["second account holder's name", "second.account@example.com"],
    ["third account holder's name", "third.account@example.com"],
  ])

  static var mainThreadSkipsLock: Target {
    let empty = RegisterModel(state: ["", ""])
    let spec = Spec("MainThreadSkipsLock", make: MainThreadSkipsLock.init, model: empty) {
      Operation("read") { (register: MainThreadSkipsLock) in register.account }.onMainThread()
      Operation("write", account) { (register: MainThreadSkipsLock, account: [String]) in
        register.update(account.map(onTheHeap))
      }
    }
    return Target(
      spec,
      summary: "an account whose read skips its lock on the main thread, where only reads run",
      expectation: .fail(.dataRace, or: [.unclassified]))
  }

  private static func asyncWriteArraySpec(name: String, completesBeforeWriting: Bool) -> Spec<
    AsyncWriteArray, ArrayModel
  > {
    let make: @Sendable () -> AsyncWriteArray = {
      AsyncWriteArray(completesBeforeWriting: completesBeforeWriting)
    }
    return Spec(name, make: make, model: ArrayModel()) {
      Operation("count") { (array: AsyncWriteArray) in array.count }
      Operation("get", slot) { (array: AsyncWriteArray, index: Int) in array.element(at: index) }
      // The count the completion delivers is the array's after this append.
      Operation(
        "append", .int(in: 0...3),
        completing: { (array: AsyncWriteArray, x: Int) in
          { done in array.append(x, completion: done) }
        },
        model: { (model: inout ArrayModel, x: Int) in
          model.elements.append(.int(x))
          return model.count
        })
      Operation(
        "removeLast",
        completing: { (array: AsyncWriteArray) in { done in array.removeLast(completion: done) } })
    }
  }

  static var asyncWriteArray: Target {
    Target(
      asyncWriteArraySpec(name: "AsyncWriteArray", completesBeforeWriting: false),
      summary: "writes in barrier blocks that call their completion handler once they took effect",
      expectation: .pass)
  }

  static var asyncWriteArrayEarlyCompletion: Target {
    Target(
      asyncWriteArraySpec(name: "AsyncWriteArrayEarlyCompletion", completesBeforeWriting: true),
      summary: "AsyncWriteArray calling its completion handlers before it submits the write",
      expectation: .fail(.unclassified, or: [.dataRace]))
  }
}

/// The two Mutex count stores' shared shape, so that one spec checks both.
protocol MutexCounts: AnyObject, Sendable {
  subscript(key: String) -> Int? { get set }
  func increment(_ key: String)
}

extension MutexCountStore: MutexCounts {}
extension MutexCountStoreFixed: MutexCounts {}
