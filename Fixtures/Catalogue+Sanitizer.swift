import RaceCheck

// MARK: - Rows for Thread Sanitizer's evidence

// Correct classes whose synchronization a sanitized check once took for races (a
// `Synchronization.Mutex`, racecheck's own waits for completion handlers, a serial queue's
// async writes and the copies `queue.sync` returns), and a race whose report once swapped its
// guards. docs/catalogue.md gives each row's reason.
extension Catalogue {
  /// Keys of the new rows' dictionaries: few, so that calls meet on the same entry.
  private static let entryKey = Generator.element(of: ["a", "b"])

  static var mutexStore: Target {
    let spec = Spec("MutexStore", make: MutexStore.init, model: DictionaryModel()) {
      Operation("get", entryKey) { (store: MutexStore, key: String) in store[key] }
      Operation("set", entryKey, .int(in: 0...3)) { (store: MutexStore, key: String, value: Int) in
        store.set(key, value)
      }
      Operation("remove", entryKey) { (store: MutexStore, key: String) in store.remove(key) }
      Operation("count") { (store: MutexStore) in store.count }
    }
    return Target(
      spec,
      summary: "a dictionary in a Synchronization.Mutex, read and written inside withLock",
      expectation: .pass)
  }

  static var serialQueueCompletionArray: Target {
    typealias Array = SerialQueueCompletionArray
    let spec = Spec("SerialQueueCompletionArray", make: Array.init, model: ArrayModel()) {
      Operation("count") { (array: Array) in array.count }
      Operation("get", .int(in: 0...3)) { (array: Array, index: Int) in array.element(at: index) }
      // The count the completion delivers is the array's after this append.
      Operation(
        "append", .int(in: 0...3),
        completing: { (array: Array, x: Int) in { done in array.append(x, completion: done) } },
        model: { (model: inout ArrayModel, x: Int) in
          model.elements.append(.int(x))
          return model.count
        })
      Operation(
        "removeLast",
        completing: { (array: Array) in { done in array.removeLast(completion: done) } })
    }
    return Target(
      spec,
      summary: "a serial-queue array whose async writes call their completion handler in the block",
      expectation: .pass)
  }

  static var serialQueueCopyDictionary: Target {
    typealias Dictionary = SerialQueueCopyDictionary
    let spec = Spec("SerialQueueCopyDictionary", make: Dictionary.init, model: DictionaryModel()) {
      Operation("get", entryKey) { (dictionary: Dictionary, key: String) in dictionary[key] }
      Operation("set", entryKey, .int(in: 0...3)) {
        (dictionary: Dictionary, key: String, value: Int) in dictionary.set(key, value)
      }
      Operation("remove", entryKey) { (dictionary: Dictionary, key: String) in
        dictionary.remove(key)
      }
      // Copies taken with queue.sync, listed in key order as the model lists them.
      Operation("keys") { (dictionary: Dictionary) in dictionary.shallowCopy().keys.sorted() }
      Operation("values") { (dictionary: Dictionary) in
        dictionary.shallowCopy().sorted { $0.key < $1.key }.map(\.value)
      }
    }
    return Target(
      spec,
      summary:
        "a serial-queue dictionary written async whose shallowCopy returns queue.sync { dict }",
      expectation: .pass)
  }

  /// Sizes whose width and height are equal: a size read with two different ones was never stored.
  private static let squareSize = Generator.element(of: [[1, 1], [2, 2], [3, 3]])

  static var lockedWriteUnlockedRead: Target {
    typealias Size = LockedWriteUnlockedRead
    let spec = Spec(
      "LockedWriteUnlockedRead", make: Size.init, model: RegisterModel(state: [0, 0])
    ) {
      Operation("read") { (size: Size) in size.dimensions }.onMainThread()
      Operation("write", squareSize) { (size: Size, dimensions: [Int]) in size.update(dimensions) }
    }
    return Target(
      spec,
      summary: "a width and height written under a lock and read without it on the main thread",
      expectation: .fail(.dataRace, or: [.unclassified]))
  }
}
