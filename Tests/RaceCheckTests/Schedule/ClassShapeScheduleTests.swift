import Foundation
import RaceCheck
import Testing

// The shapes of stored state that schedule mode meets in real code, each reached through
// `swift_beginAccess` and named through the class's reflection metadata: generic and nested
// generic classes, inherited properties, `Set` and `Dictionary` storage, NSObject subclasses,
// boxes of `var`s captured by escaping closures, closure contexts, indirect enum payloads and
// existential boxes. The heap objects that are not class instances (contexts, boxes) must
// never be read as classes: racecheck once crashed on an iterator's captured index.

/// A set behind a concurrent queue whose iterator copies the members in `sync` and walks the copy.
final class BarrierQueueSet: Sequence, @unchecked Sendable {
  private var members: Set<Int> = []
  private let queue = DispatchQueue(label: "barrier-set", attributes: .concurrent)

  func insert(_ member: Int) -> Bool {
    queue.sync(flags: .barrier) { members.insert(member).inserted }
  }

  func contains(_ member: Int) -> Bool { queue.sync { members.contains(member) } }

  func makeIterator() -> AnyIterator<Int> {
    let copy = queue.sync { Array(members) }
    var index = 0
    return AnyIterator {
      defer { index += 1 }
      return index < copy.count ? copy[index] : nil
    }
  }

  static let spec = Spec("BarrierQueueSet", make: BarrierQueueSet.init, model: SetModel()) {
    Operation("insert", .int(in: 0...2)) { (set: BarrierQueueSet, x: Int) in set.insert(x) }
    Operation("contains", .int(in: 0...2)) { (set: BarrierQueueSet, x: Int) in set.contains(x) }
    Operation.iteration()
  }
}

/// A set whose iterator reads one member at a time, each under the lock but the walk not.
final class ElementwiseIteratorSet: Sequence, @unchecked Sendable {
  private var members: [Int] = []
  private let lock = NSLock()

  func insert(_ member: Int) -> Bool {
    lock.withLock {
      guard !members.contains(member) else { return false }
      members.append(member)
      return true
    }
  }

  func remove(_ member: Int) -> Bool {
    lock.withLock {
      guard let index = members.firstIndex(of: member) else { return false }
      members.remove(at: index)
      return true
    }
  }

  func makeIterator() -> AnyIterator<Int> {
    var index = 0
    return AnyIterator { [self] in
      defer { index += 1 }
      return lock.withLock { index < members.count ? members[index] : nil }
    }
  }

  static let spec = Spec(
    "ElementwiseIteratorSet", make: ElementwiseIteratorSet.init, model: SetModel()
  ) {
    Operation("insert", .int(in: 0...2)) { (set: ElementwiseIteratorSet, x: Int) in set.insert(x) }
    Operation("remove", .int(in: 0...2)) { (set: ElementwiseIteratorSet, x: Int) in set.remove(x) }
    Operation.iteration()
  }
}

/// A generic dictionary store on a concurrent queue, its writes barriers or (the bug) not.
final class GenericQueueStore<Key: Hashable & Sendable, Stored: Sendable>: @unchecked Sendable {
  private var entries: [Key: Stored] = [:]
  private let queue = DispatchQueue(label: "generic-store", attributes: .concurrent)
  private let writesAreBarriers: Bool

  init(writesAreBarriers: Bool) {
    self.writesAreBarriers = writesAreBarriers
  }

  subscript(key: Key) -> Stored? {
    get { queue.sync { entries[key] } }
    set {
      queue.sync(flags: writesAreBarriers ? .barrier : []) { entries[key] = newValue }
    }
  }
}

extension GenericQueueStore where Key == String, Stored == Int {
  static func spec(writesAreBarriers: Bool) -> Spec<GenericQueueStore, DictionaryModel> {
    let make: @Sendable () -> GenericQueueStore = {
      GenericQueueStore(writesAreBarriers: writesAreBarriers)
    }
    let name = writesAreBarriers ? "GenericQueueStore" : "GenericQueueStoreNoBarrier"
    return Spec(name, make: make, model: DictionaryModel()) {
      Operation("get", .element(of: ["a", "b"])) { (store: GenericQueueStore, key: String) in
        store[key]
      }
      Operation("set", .element(of: ["a", "b"]), .int(in: 0...2)) {
        (store: GenericQueueStore, key: String, value: Int) in store[key] = value
      }
    }
  }
}

/// Nested generic classes: a registry of tags whose storage is an inner generic class.
enum Registry<Tag: Hashable & Sendable> {
  final class Tags<Count: BinaryInteger & Sendable>: @unchecked Sendable {
    private var counts: [Tag: Count] = [:]
    private let lock = NSLock()

    func bump(_ tag: Tag) {
      lock.withLock { counts[tag, default: 0] += 1 }
    }

    func count(_ tag: Tag) -> Count { lock.withLock { counts[tag] ?? 0 } }
  }
}

/// A base class with generic storage, whose subclass adds the locking: the property is inherited.
class ItemsBase<Item>: @unchecked Sendable {
  var items: [Item] = []
}

/// Appends under a lock to the storage it inherits.
final class LockedItems: ItemsBase<Int>, @unchecked Sendable {
  private let lock = NSLock()

  func append(_ item: Int) { lock.withLock { items.append(item) } }
  var count: Int { lock.withLock { items.count } }
}

/// An `NSObject` subclass, as Objective-C-era code writes its stores.
final class NamesObject: NSObject, @unchecked Sendable {
  private var names: [String] = []
  private let lock = NSRecursiveLock()

  func add(_ name: String) { lock.withLock { names.append(name) } }
  var count: Int { lock.withLock { names.count } }
}

/// A counter kept in a `var` captured by an escaping closure (a box), called under a lock.
final class ClosureCounter: @unchecked Sendable {
  private let lock = NSLock()
  private let next: () -> Int
  /// A closure stored in a property that reads another stored property of the instance.
  private lazy var peek: () -> Int = { [unowned self] in self.last }
  private var last = 0

  init() {
    var count = 0
    next = {
      count += 1
      return count
    }
  }

  func increment() {
    lock.withLock { last = next() }
  }

  var value: Int { lock.withLock { peek() } }
}

/// State held in an indirect enum (its payloads are boxes) and an existential (boxed when large).
final class ShapesHolder: @unchecked Sendable {
  indirect enum Chain {
    case end
    case link(Int, Chain)

    var length: Int {
      switch self {
      case .end: 0
      case .link(_, let rest): 1 + rest.length
      }
    }
  }

  private var chain = Chain.end
  private var summary: any Sendable = (0, 0, 0, 0)
  private let queue = DispatchQueue(label: "shapes")

  func push(_ value: Int) {
    queue.sync {
      chain = .link(value, chain)
      summary = (value, chain.length, value, value)
    }
  }

  var length: Int { queue.sync { chain.length } }
}

/// A small schedule-mode configuration: two threads of two calls, one call before and after.
private func shapeConfiguration(seed: UInt64, scenarios: Int = 8) -> Configuration {
  var configuration = Configuration(
    seed: seed,
    shape: .init(threads: 2, operationsPerThread: 2, initialOperations: 1, postOperations: 1),
    scenarios: scenarios, reproDirectory: FileManagerTemporary.directory)
  configuration.scheduleSettings = ScheduleSettings(schedules: 20)
  configuration.minimizes = false
  return configuration
}

/// The correct shapes, each a spec of a counter-like or collection-like type.
private let correctShapes: [any Checkable] = [
  BarrierQueueSet.spec,
  GenericQueueStore.spec(writesAreBarriers: true),
  Spec("NestedGenericTags", make: Registry<String>.Tags<Int>.init, model: 0) {
    Operation("bump", perform: { (tags: Registry<String>.Tags<Int>) in tags.bump("x") }) {
      (count: inout Int) in count += 1
    }
    Operation("count", perform: { (tags: Registry<String>.Tags<Int>) in tags.count("x") }) {
      (count: inout Int) in count
    }
  },
  Spec("LockedItems", make: LockedItems.init, model: ArrayModel()) {
    Operation("append", .int(in: 0...2)) { (items: LockedItems, x: Int) in items.append(x) }
    Operation("count") { (items: LockedItems) in items.count }
  },
  Spec("NamesObject", make: NamesObject.init, model: 0) {
    Operation("add", perform: { (names: NamesObject) in names.add("n") }) {
      (count: inout Int) in count += 1
    }
    Operation("count", perform: { (names: NamesObject) in names.count }) {
      (count: inout Int) in count
    }
  },
  Spec("ClosureCounter", make: ClosureCounter.init, model: 0) {
    Operation("increment", perform: { (counter: ClosureCounter) in counter.increment() }) {
      (count: inout Int) in count += 1
    }
    Operation("value", perform: { (counter: ClosureCounter) in counter.value }) {
      (count: inout Int) in count
    }
  },
  Spec("ShapesHolder", make: ShapesHolder.init, model: 0) {
    Operation(
      "push", .int(in: 0...2), perform: { (holder: ShapesHolder, x: Int) in holder.push(x) }
    ) {
      (count: inout Int, _: Int) in count += 1
    }
    Operation("length", perform: { (holder: ShapesHolder) in holder.length }) {
      (count: inout Int) in count
    }
  },
]

extension RaceCheckTestSuite {
  /// Schedule mode on the shapes of stored state real classes have: no crash of racecheck's own, and correct verdicts.
  @Suite struct ClassShapeScheduleTests {
    @Test(arguments: 1...3)
    func correctShapesPass(seed: UInt64) {
      for spec in correctShapes {
        let report = spec.check(shapeConfiguration(seed: seed))
        #expect(report.verdict == .pass, "\(report)")
      }
    }

    @Test func aRaceOnAGenericClassIsNamedWithItsProperty() throws {
      let report = GenericQueueStore.spec(writesAreBarriers: false).check(
        shapeConfiguration(seed: 1))
      let failure = try #require(report.failure, "\(report)")
      #expect(failure.diagnosis.pattern == .concurrentQueueWithoutBarrier, "\(report)")
      #expect(failure.diagnosis.evidence.contains(".entries"), "\(failure.diagnosis.evidence)")
    }

    @Test func anIteratorThatLocksEachElementAloneIsFound() {
      let report = ElementwiseIteratorSet.spec.check(shapeConfiguration(seed: 1, scenarios: 40))
      #expect(report.verdict == .fail, "\(report)")
    }
  }
}
