import Fixtures
import Foundation
import RaceCheck

/// An array whose insert guard is `index < count`: inserting at `count` is dropped (a sequential bug).
package final class GuardedInsertArray: @unchecked Sendable {
  package init() {}
  private let lock = NSLock()
  private var items: [Int] = []

  package var count: Int { lock.withLock { items.count } }
  package func get(_ index: Int) -> Int? {
    lock.withLock { items.indices.contains(index) ? items[index] : nil }
  }
  package func append(_ value: Int) { lock.withLock { items.append(value) } }
  package func insert(_ value: Int, at index: Int) {
    lock.withLock { if index >= 0 && index < items.count { items.insert(value, at: index) } }
  }

  package static let spec = Spec(
    "GuardedInsertArray", make: GuardedInsertArray.init, model: ArrayModel()
  ) {
    Operation("count") { (array: GuardedInsertArray) in array.count }
    Operation("get", .int(in: 0...3)) { (array: GuardedInsertArray, index: Int) in array.get(index)
    }
    Operation("append", .int(in: 0...3)) { (array: GuardedInsertArray, value: Int) in
      array.append(value)
    }
    Operation("insert", .int(in: 0...3), .int(in: 0...3)) {
      (array: GuardedInsertArray, value: Int, index: Int) in
      array.insert(value, at: index)
    }
  }
}

/// A counter whose get and set are each locked, so `increment` loses updates under contention.
package final class SplitLockCounter: @unchecked Sendable {
  package init() {}
  private let lock = NSLock()
  private var stored = 0

  package var value: Int {
    get { lock.withLock { stored } }
    set { lock.withLock { stored = newValue } }
  }
  package func increment() { value = value + 1 }

  package static let spec = Spec(
    "SplitLockCounter", make: SplitLockCounter.init, model: CounterModel()
  ) {
    Operation("get") { (counter: SplitLockCounter) in counter.value }
    Operation("increment") { (counter: SplitLockCounter) in counter.increment() }
  }
}

/// A counter that increments inside one critical section: linearizable.
package final class OneLockCounter: @unchecked Sendable {
  package init() {}
  private let lock = NSLock()
  private var stored = 0

  package var value: Int { lock.withLock { stored } }
  package func increment() { lock.withLock { stored += 1 } }

  package static let spec = Spec("OneLockCounter", make: OneLockCounter.init, model: CounterModel())
  {
    Operation("get") { (counter: OneLockCounter) in counter.value }
    Operation("increment") { (counter: OneLockCounter) in counter.increment() }
  }

  /// The same counter checked against a custom model: a plain `Int`.
  package static let customModelSpec = Spec(
    "OneLockCounterCustomModel", make: OneLockCounter.init, model: 0
  ) {
    Operation(
      "get", perform: { (counter: OneLockCounter) in counter.value },
      model: { (count: inout Int) in count })
    Operation(
      "increment", perform: { (counter: OneLockCounter) in counter.increment() },
      model: { (count: inout Int) in count += 1 })
  }
}

/// An error the throwing spec's operation throws.
package struct SampleError: Error, CustomStringConvertible {
  package var description: String { "the sample operation always throws" }
}

/// A spec whose `explode` operation throws: the spec is broken, not the subject.
package enum ThrowingSpec {
  package static let spec = Spec("Throwing", make: OneLockCounter.init, model: CounterModel()) {
    Operation("get") { (counter: OneLockCounter) in counter.value }
    Operation("increment") { (counter: OneLockCounter) throws in
      counter.increment()
      throw SampleError()
    }
  }
}

/// A small configuration for tests: a handful of scenarios, each run a few hundred times.
package func smallConfiguration(seed: UInt64 = 1, threads: Int = 2) -> Configuration {
  Configuration(
    seed: seed, shape: Configuration.Shape(threads: threads), scenarios: 10, invocations: 300,
    reproDirectory: FileManager.default.temporaryDirectory.appendingPathComponent("racecheck-tests")
      .path)
}

/// Row 7's `NSSafeMutableArray` as a user would describe it in a test: its `get` traps on an empty array.
package enum CrashingArraySpec {
  package static let spec = Spec(
    "NSSafeMutableArray", make: NSSafeMutableArray.init, model: ArrayModel()
  ) {
    Operation("get", .int(in: 0...2)) { (array: NSSafeMutableArray, index: Int) in
      (array.objectAtIndex(index) as? Token)?.value
    }
    Operation("append", .int(in: 0...3)) { (array: NSSafeMutableArray, x: Int) in
      array.addObject(Token.interned(x))
    }
    Operation("removeLast") { (array: NSSafeMutableArray) in array.removeLastObject() }
  }

  /// Whether `text` is the symbolized crash report the catalogue asks for row 7.
  package static func isSymbolizedReport(_ text: String) -> Bool {
    text.contains("crashed") && text.contains("Index out of range")
      && text.contains("NSSafeMutableArray.objectAtIndex")
      && text.contains("NSSafeMutableArray.swift:")
  }
}

/// A gate whose `pass` waits for a signal that never comes: every check of it hangs at the first call.
package final class NeverOpenedGate: Sendable {
  package init() {}
  private let opened = DispatchSemaphore(value: 0)

  package func pass() { opened.wait() }

  package static let spec = Spec("NeverOpenedGate", make: NeverOpenedGate.init, model: 0) {
    Operation("pass") { (gate: NeverOpenedGate) in
      gate.pass()
    } model: { (_: inout Int) in
    }
  }
}

/// An array whose read checks no index at all: `storage[index]` behind a lock traps past the end of any array.
///
/// Row 7's guard fails on an empty array only; this read fails on every out-of-range
/// index, so its trap on an empty array is no sign of unsigned arithmetic.
package final class UncheckedReadArray: @unchecked Sendable {
  package init() {}
  private let lock = NSLock()
  private var storage: [Int] = []

  package func get(_ index: Int) -> Int { lock.withLock { storage[index] } }
  package func append(_ value: Int) { lock.withLock { storage.append(value) } }

  package static let spec = Spec(
    "UncheckedReadArray", make: UncheckedReadArray.init, model: ArrayModel()
  ) {
    Operation("get", .int(in: 0...2)) { (array: UncheckedReadArray, index: Int) in
      array.get(index)
    }
    Operation("append", .int(in: 0...3)) { (array: UncheckedReadArray, value: Int) in
      array.append(value)
    }
  }
}

/// A dictionary whose every method is one `sync` on a serial queue: each call is atomic.
package final class SerialDictionary: @unchecked Sendable {
  package init() {}
  private let queue = DispatchQueue(label: "serial-dictionary")
  private var storage: [String: Int] = [:]

  package func get(_ key: String) -> Int? { queue.sync { storage[key] } }
  package func set(_ value: Int, _ key: String) { queue.sync { storage[key] = value } }

  /// A client's increment made of two of the dictionary's calls: each is atomic, the pair is not.
  package static let spec = Spec(
    "SerialDictionary", make: SerialDictionary.init, model: DictionaryModel()
  ) {
    Operation("get", .element(of: ["a", "b"])) { (dictionary: SerialDictionary, key: String) in
      dictionary.get(key)
    }
    Operation(
      "increment", .element(of: ["a", "b"]),
      perform: { (dictionary: SerialDictionary, key: String) in
        dictionary.set((dictionary.get(key) ?? 0) + 1, key)
      },
      model: { (state: inout DictionaryModel, key: String) in
        state[key] = .int((state[key]?.intValue ?? 0) + 1)
      })
  }
}

/// A locked array whose subscript setter inserts instead of replacing: wrong on one thread, every time.
package final class InsertingSetterArray: @unchecked Sendable {
  package init() {}
  private let lock = NSLock()
  private var items: [Int] = []

  package var count: Int { lock.withLock { items.count } }
  package func append(_ value: Int) { lock.withLock { items.append(value) } }
  package subscript(index: Int) -> Int {
    get { lock.withLock { items[index] } }
    set { lock.withLock { items.insert(newValue, at: index) } }
  }

  package static let spec = Spec(
    "InsertingSetterArray", make: InsertingSetterArray.init, model: ArrayModel()
  ) {
    Operation("count") { (array: InsertingSetterArray) in array.count }
    Operation("append", .int(in: 0...3)) { (array: InsertingSetterArray, value: Int) in
      array.append(value)
    }
    Operation("replace", .int(in: 0...0), .int(in: 0...3)) {
      (array: InsertingSetterArray, index: Int, value: Int) in
      array[index] = value
    }
  }
}

/// A locked array whose every operation is one critical section: right in every order.
package final class LockedArray: @unchecked Sendable {
  package init() {}
  private let lock = NSLock()
  private var items: [Int] = []

  package var count: Int { lock.withLock { items.count } }
  package func append(_ value: Int) { lock.withLock { items.append(value) } }

  package static let spec = Spec("LockedArray", make: LockedArray.init, model: ArrayModel()) {
    Operation("count") { (array: LockedArray) in array.count }
    Operation("append", .int(in: 0...3)) { (array: LockedArray, value: Int) in
      array.append(value)
    }
  }
}

/// A locked array whose read checks no index, with `append` and `appendContentsOf` given their own model closures.
package final class OwnModelAppendArray: @unchecked Sendable {
  package init() {}
  private let lock = NSLock()
  private var items: [Int] = []

  package func get(_ index: Int) -> Int { lock.withLock { items[index] } }
  package func append(_ value: Int) { lock.withLock { items.append(value) } }
  package func append(contentsOf values: [Int]) {
    lock.withLock { items.append(contentsOf: values) }
  }

  /// The spec; `withAppend: false` leaves out `append`, so that only `appendContentsOf` fills the array.
  package static func spec(withAppend: Bool = true) -> Spec<OwnModelAppendArray, ArrayModel> {
    var spec = Spec("OwnModelAppendArray", make: OwnModelAppendArray.init, model: ArrayModel()) {
      Operation("get", .int(in: 0...1)) { (array: OwnModelAppendArray, index: Int) in
        array.get(index)
      }
      Operation("append", .int(in: 0...3)) { (array: OwnModelAppendArray, value: Int) in
        array.append(value)
      } model: { (model: inout ArrayModel, value: Int) in
        model.elements.append(.int(value))
      }
      Operation("appendContentsOf", .element(of: [[1, 2], [3]])) {
        (array: OwnModelAppendArray, values: [Int]) in
        array.append(contentsOf: values)
      } model: { (model: inout ArrayModel, values: [Int]) in
        model.elements += values.map { .int($0) }
      }
    }
    if !withAppend { spec.operations.removeAll { $0.name == "append" } }
    return spec
  }
}

/// An array on a concurrent queue whose `removeAll` barrier block asks `isEmpty`, a `sync` onto the queue it runs on.
///
/// The trap happens on a dispatch worker, in the block `removeAll` submitted, after
/// `removeAll` returned: the calls in flight then are other calls.
package final class BarrierReentrantArray: @unchecked Sendable {
  package init() {}
  private let queue = DispatchQueue(label: "barrier-reentrant", attributes: .concurrent)
  private var items: [Int] = []

  package var isEmpty: Bool { queue.sync { items.isEmpty } }
  package func append(_ value: Int) { queue.sync(flags: .barrier) { items.append(value) } }
  package func removeAll() {
    queue.async(flags: .barrier) {
      if !self.isEmpty { self.items.removeAll() }
    }
  }

  package static let spec = Spec(
    "BarrierReentrantArray", make: BarrierReentrantArray.init, model: [Int]()
  ) {
    Operation("isEmpty") { (array: BarrierReentrantArray) in
      array.isEmpty
    } model: {
      (elements: inout [Int]) in
      elements.isEmpty
    }
    Operation("append", .int(in: 0...3)) { (array: BarrierReentrantArray, value: Int) in
      array.append(value)
    } model: { (elements: inout [Int], value: Int) in
      elements.append(value)
    }
    Operation("removeAll") { (array: BarrierReentrantArray) in
      array.removeAll()
    } model: {
      (elements: inout [Int]) in
      elements.removeAll()
    }
  }
}
