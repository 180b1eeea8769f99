import Foundation
import RaceCheck

/// One class of the source posts, registered with the verdict racecheck must reach.
public struct Fixture: Sendable {
  /// The class's row in the catalogue of docs/catalogue.md.
  public let row: Int
  /// The post the class comes from, as the number of its seed file, such as `"000"`; nil for a class written for racecheck.
  public let post: String?
  /// The class's spec, with a summary and the expected verdict.
  public let target: Target
}

/// The ported classes of the source posts, each with the verdict racecheck must reach.
///
/// ```swift
/// for fixture in Catalogue.fixtures {
///   print(fixture.row, fixture.target.name, fixture.target.summary)
/// }
/// ```
public enum Catalogue {
  /// The fixtures, in catalogue order.
  public static let fixtures: [Fixture] = [
    Fixture(row: 1, post: "000", target: lockArray),
    Fixture(row: 3, post: "000", target: lockArrayReferences),
    Fixture(row: 4, post: "000", target: hLockArray),
    Fixture(row: 6, post: "001", target: synchronizedArray),
    Fixture(row: 9, post: "001", target: nsSafeMutableDictionary),
    Fixture(row: 10, post: "002", target: someStringSynchronized),
    Fixture(row: 11, post: "002", target: someStringLocked),
    Fixture(row: 12, post: "002", target: someStringSerialSync),
    Fixture(row: 13, post: "002", target: someStringSerialAsyncSet),
    Fixture(row: 15, post: "002", target: someStringConcurrentBarrier),
    Fixture(row: 16, post: "003", target: atomicCounter),
    Fixture(row: 17, post: "003", target: lockedCounter),
    Fixture(row: 20, post: "004", target: photoManager),
    Fixture(row: 25, post: nil, target: compoundClientUpdate),
    Fixture(row: 27, post: nil, target: asyncWriteArray),
    Fixture(row: 28, post: nil, target: asyncWriteArrayEarlyCompletion),
    Fixture(row: 29, post: nil, target: bankAccountActor),
    Fixture(row: 30, post: nil, target: imageCacheActor),
    Fixture(row: 31, post: nil, target: counterActor),
    Fixture(row: 32, post: nil, target: mainActorViewModel),
    Fixture(row: 33, post: nil, target: taskGroupAccumulator),
    Fixture(row: 34, post: nil, target: mutexCountStore),
    Fixture(row: 35, post: nil, target: mutexCountStoreFixed),
    Fixture(row: 37, post: nil, target: mutexStore),
    Fixture(row: 38, post: nil, target: serialQueueCompletionArray),
    Fixture(row: 39, post: nil, target: serialQueueCopyDictionary),
    Fixture(row: 40, post: nil, target: lockedWriteUnlockedRead),
  ]

  /// The fixtures' targets, in catalogue order, for the command line.
  public static var targets: [Target] { fixtures.map(\.target) }

  /// The targets of ``isolatedFixtures``, for the command line, which checks them in an isolated child.
  public static var isolatedTargets: [Target] { isolatedFixtures.map(\.target) }

  /// The fixtures whose code crashes or hangs the process that checks it; they run only in an isolated child.
  public static let isolatedFixtures: [Fixture] = [
    Fixture(row: 2, post: "000", target: lockArrayEnumerator),
    Fixture(row: 5, post: "001", target: unsafeArray),
    Fixture(row: 7, post: "001", target: nsSafeMutableArray),
    Fixture(row: 8, post: "001", target: nsSafeMutableArrayWrites),
    Fixture(row: 14, post: "002", target: someStringConcurrentNoBarrier),
    Fixture(row: 18, post: "003", target: zhMutableArray),
    Fixture(row: 19, post: "003", target: atomicPropertyArray),
    Fixture(row: 21, post: "004", target: globalQueueBarrierArray),
    Fixture(row: 22, post: "004", target: reentrantSyncArray),
    Fixture(row: 23, post: nil, target: trappingSubscriptArray),
    Fixture(row: 24, post: nil, target: trappingSubscriptArrayUnsharedLock),
    Fixture(row: 26, post: nil, target: mainThreadSkipsLock),
    Fixture(row: 36, post: nil, target: globalMutexAccount),
  ]
}

// MARK: - Generators

extension Catalogue {
  /// Indices: narrow, so that early scenarios touch the same slots and the one past the end.
  private static let index = Generator<Int>.int(in: 0...4)

  /// Element values, passed as interned tokens where the class is checked with shared objects.
  private static let element = Generator<Int>.int(in: 0...3)

  /// Elements as new token instances on every call: equal to stored ones, never identical.
  private static let freshToken = Generator<Int>.int(in: 0...3)
    .map({ Token(value: $0) }, inverse: { $0.value })

  /// Dictionary keys.
  private static let key = Generator.element(of: ["a", "b", "c"])

  /// Strings longer than 15 UTF-8 bytes, so that none fits in a String's inline storage.
  ///
  /// Operations store ``onTheHeap(_:)`` copies: a literal is immortal, and racing
  /// writes that release the same old literal twice would do no harm.
  private static let heapString = Generator.element(of: [
    "first value stored on the heap",
    "second value stored on the heap",
    "third value stored on the heap",
  ])

  /// A fresh, reference-counted heap copy of `string`, as a string built at run time would be.
  static func onTheHeap(_ string: String) -> String {
    String(decoding: Array(string.utf8), as: UTF8.self)
  }
}

// MARK: - Post 000

extension Catalogue {
  private static var lockArray: Target {
    let spec = Spec("LockArray", make: LockArray.init, model: ArrayModel()) {
      Operation("count") { (array: LockArray) in array.count }
      Operation("get", index) { (array: LockArray, index: Int) in
        (array.objectAtIndex(index) as? Token)?.value
      }
      Operation("append", element) { (array: LockArray, x: Int) in
        array.addObject(Token.interned(x))
      }
      Operation("insert", element, index) { (array: LockArray, x: Int, index: Int) in
        array.insertObject(Token.interned(x), atIndex: index)
      }
      Operation("remove", index) { (array: LockArray, index: Int) in
        array.removeObjectAtIndex(index)
      }
      Operation("removeLast") { (array: LockArray) in array.removeLastObject() }
      Operation("replace", index, element) { (array: LockArray, index: Int, x: Int) in
        array.replaceObjectAtIndex(index, withObject: Token.interned(x))
      }
      Operation("indexOf", element) { (array: LockArray, x: Int) in
        indexOrNil(array.indexOfObject(Token.interned(x)))
      }
    }
    return Target(
      spec,
      summary:
        "post 000's serial-queue array; its insert guard index < count drops an insert at count",
      expectation: .fail(.insertAtCountRejected))
  }

  // No `insert`: its guard is row 1's bug, which "LockArray" covers; this row is about identity.
  private static var lockArrayReferences: Target {
    let spec = Spec("LockArrayReferences", make: LockArray.init, model: ArrayModel()) {
      Operation("count") { (array: LockArray) in array.count }
      Operation("get", index) { (array: LockArray, index: Int) in
        (array.objectAtIndex(index) as? Token)?.value
      }
      Operation("append", freshToken) { (array: LockArray, x: Token) in array.addObject(x) }
      Operation("remove", index) { (array: LockArray, index: Int) in
        array.removeObjectAtIndex(index)
      }
      Operation("removeLast") { (array: LockArray) in array.removeLastObject() }
      Operation("replace", index, freshToken) { (array: LockArray, index: Int, x: Token) in
        array.replaceObjectAtIndex(index, withObject: x)
      }
      Operation("indexOf", freshToken) { (array: LockArray, x: Token) in
        indexOrNil(array.indexOfObject(x))
      }
    }
    return Target(
      spec,
      summary:
        "LockArray given equal but distinct objects; indexOfObject compares identity, not equality",
      expectation: .fail(.identityInsteadOfEquality))
  }

  // No `insert` (row 1) and no `indexOf` (row 3): the writes here are the ones that move or
  // replace what an enumerator made before them reads.
  private static var lockArrayEnumerator: Target {
    let spec = Spec("LockArrayEnumerator", make: LockArray.init, model: ArrayModel()) {
      Operation("append", element) { (array: LockArray, x: Int) in
        array.addObject(Token.interned(x))
      }
      Operation("remove", index) { (array: LockArray, index: Int) in
        array.removeObjectAtIndex(index)
      }
      Operation("removeLast") { (array: LockArray) in array.removeLastObject() }
      Operation("replace", index, element) { (array: LockArray, index: Int, x: Int) in
        array.replaceObjectAtIndex(index, withObject: Token.interned(x))
      }
      Operation("snapshot") { (array: LockArray) in
        // The enumerator is made on the queue and read here, after the call has left it.
        let enumerator = array.objectEnumerator()
        var values: [Int?] = []
        while let object = enumerator.nextObject() {
          values.append((object as? Token)?.value)
        }
        return values
      }
    }
    return Target(
      spec,
      summary:
        "LockArray read through objectEnumerator, which enumerates the live storage off the queue",
      expectation: .fail(.escapedLiveStorage))
  }

  private static var hLockArray: Target {
    let spec = Spec("HLockArray", make: HLockArray.init, model: ArrayModel()) {
      Operation("count") { (array: HLockArray) in array.count }
      Operation("get", index) { (array: HLockArray, index: Int) in
        (array.objectAtIndex(index) as? Token)?.value
      }
      Operation("append", element) { (array: HLockArray, x: Int) in
        array.addObject(Token.interned(x))
      }
      Operation("insert", element, index) { (array: HLockArray, x: Int, index: Int) in
        array.insertObject(Token.interned(x), atIndex: index)
      }
      Operation("remove", index) { (array: HLockArray, index: Int) in
        array.removeObjectAtIndex(index)
      }
      Operation("removeLast") { (array: HLockArray) in array.removeLastObject() }
      Operation("replace", index, element) { (array: HLockArray, index: Int, x: Int) in
        array.replaceObjectAtIndex(index, withObject: Token.interned(x))
      }
      Operation("indexOf", element) { (array: HLockArray, x: Int) in
        indexOrNil(array.indexOfObject(Token.interned(x)))
      }
    }
    return Target(
      spec,
      summary:
        "post 000's barrier array on a serial queue; the same index < count insert guard",
      expectation: .fail(.insertAtCountRejected))
  }
}

// MARK: - Post 001

extension Catalogue {
  // Schedule mode must name this `unsynchronized-access`; a stress run sees only results and
  // crashes, so a family name is what it can reach: `lost-update` when the minimized failure
  // only lost an append, which a read-modify-write of locked parts would lose as well.
  private static var unsafeArray: Target {
    let spec = Spec("UnsafeArray", make: UnsafeArray.init, model: ArrayModel()) {
      Operation("append", element) { (array: UnsafeArray, x: Int) in
        array.addObject(Token.interned(x))
      }
      Operation("count") { (array: UnsafeArray) in array.count }
      Operation("snapshot") { (array: UnsafeArray) in tokenValues(array.objects) }
    }
    return Target(
      spec,
      summary: "post 001's opening example: concurrent appends to an array with no synchronization",
      expectation: .fail(.dataRace, or: [.lostUpdate]))
  }

  private static var synchronizedArray: Target {
    let spec = Spec("SynchronizedArray", make: SynchronizedArray.init, model: ArrayModel()) {
      Operation("count") { (array: SynchronizedArray) in array.count }
      Operation("get", index) { (array: SynchronizedArray, index: Int) in
        (array.objectAtIndex(index) as? Token)?.value
      }
      Operation("first") { (array: SynchronizedArray) in (array.firstObject as? Token)?.value }
      Operation("last") { (array: SynchronizedArray) in (array.lastObject as? Token)?.value }
      Operation("append", freshToken) { (array: SynchronizedArray, x: Token) in array.addObject(x) }
      Operation("insert", freshToken, index) { (array: SynchronizedArray, x: Token, index: Int) in
        array.insertObject(x, atIndex: index)
      }
      Operation("remove", index) { (array: SynchronizedArray, index: Int) in
        array.removeObjectAtIndex(index)
      }
      Operation("removeLast") { (array: SynchronizedArray) in array.removeLastObject() }
      Operation("replace", index, freshToken) {
        (array: SynchronizedArray, index: Int, x: Token) in
        array.replaceObjectAtIndex(index, withObject: x)
      }
      Operation("indexOf", freshToken) { (array: SynchronizedArray, x: Token) in
        indexOrNil(array.indexOfObject(x))
      }
      Operation("contains", freshToken) { (array: SynchronizedArray, x: Token) in
        array.containsObject(x)
      }
    }
    return Target(
      spec,
      summary:
        "post 001's @synchronized fix over the array contract, every operation under one lock",
      expectation: .pass)
  }

  // No unchecked writes (row 8, "NSSafeMutableArrayWrites"): only `append` and `removeLast`,
  // which cannot trap, so that the first crash is the read of an empty array.
  private static var nsSafeMutableArray: Target {
    let spec = Spec("NSSafeMutableArray", make: NSSafeMutableArray.init, model: ArrayModel()) {
      Operation("get", index) { (array: NSSafeMutableArray, index: Int) in
        (array.objectAtIndex(index) as? Token)?.value
      }
      Operation("first") { (array: NSSafeMutableArray) in
        (array.getFirstObject() as? Token)?.value
      }
      Operation("last") { (array: NSSafeMutableArray) in (array.getLastObject() as? Token)?.value }
      Operation("append", element) { (array: NSSafeMutableArray, x: Int) in
        array.addObject(Token.interned(x))
      }
      Operation("removeLast") { (array: NSSafeMutableArray) in array.removeLastObject() }
    }
    return Target(
      spec,
      summary:
        "post 001's barrier array; its unsigned guard index <= count - 1 lets a read of [] trap",
      expectation: .fail(.unsignedUnderflowBoundsCheck))
  }

  // No `get`: its guard is row 7's bug, which "NSSafeMutableArray" covers; reads go through
  // `first` and `last`, which check the count, so the first crash is an unchecked write.
  private static var nsSafeMutableArrayWrites: Target {
    let spec = Spec(
      "NSSafeMutableArrayWrites", make: NSSafeMutableArray.init, model: ArrayModel()
    ) {
      Operation("first") { (array: NSSafeMutableArray) in
        (array.getFirstObject() as? Token)?.value
      }
      Operation("last") { (array: NSSafeMutableArray) in (array.getLastObject() as? Token)?.value }
      Operation("append", element) { (array: NSSafeMutableArray, x: Int) in
        array.addObject(Token.interned(x))
      }
      Operation("insert", element, index) { (array: NSSafeMutableArray, x: Int, index: Int) in
        array.insertObject(Token.interned(x), atIndex: index)
      }
      Operation("remove", index) { (array: NSSafeMutableArray, index: Int) in
        array.removeObjectAtIndex(index)
      }
      Operation("removeLast") { (array: NSSafeMutableArray) in array.removeLastObject() }
      Operation("replace", index, element) { (array: NSSafeMutableArray, index: Int, x: Int) in
        array.replaceObjectAtIndex(index, withObject: Token.interned(x))
      }
    }
    return Target(
      spec,
      summary:
        "post 001's barrier array; its writes check no index and trap on a dispatch worker",
      expectation: .fail(.uncheckedIndexInAsyncWrite))
  }

  private static var nsSafeMutableDictionary: Target {
    let spec = Spec(
      "NSSafeMutableDictionary", make: NSSafeMutableDictionary.init, model: DictionaryModel()
    ) {
      Operation("get", key) { (dictionary: NSSafeMutableDictionary, key: String) in
        (dictionary.objectForKey(key) as? KeyedValue)?.value
      }
      Operation("set", key, element) {
        (dictionary: NSSafeMutableDictionary, key: String, value: Int) in
        dictionary.setObject(KeyedValue(key: key, value: value), forKey: key)
      }
      Operation("remove", key) { (dictionary: NSSafeMutableDictionary, key: String) in
        dictionary.removeObjectForKey(key)
      }
      Operation("keys") { (dictionary: NSSafeMutableDictionary) in dictionary.allKeys.sorted() }
      Operation("values") { (dictionary: NSSafeMutableDictionary) in
        // `allValues` has no order; each value knows its key, so it can be put in key order.
        let values = dictionary.allValues.compactMap { $0 as? KeyedValue }
        return values.sorted { $0.key < $1.key }.map(\.value)
      }
    }
    return Target(
      spec,
      summary: "post 001's dictionary: sync reads and barrier writes on a concurrent queue",
      expectation: .pass)
  }
}

// MARK: - Post 002

extension Catalogue {
  private static var someStringSynchronized: Target {
    let spec = Spec(
      "SomeStringSynchronized", make: SomeStringSynchronized.init, model: RegisterModel()
    ) {
      Operation("read") { (box: SomeStringSynchronized) in box.someString }
      Operation("write", heapString) { (box: SomeStringSynchronized, string: String) in
        box.someString = onTheHeap(string)
      }
    }
    return Target(
      spec,
      summary: "post 002's string property with @synchronized(self) getter and setter",
      expectation: .pass)
  }

  private static var someStringLocked: Target {
    let spec = Spec("SomeStringLocked", make: SomeStringLocked.init, model: RegisterModel()) {
      Operation("read") { (box: SomeStringLocked) in box.someString }
      Operation("write", heapString) { (box: SomeStringLocked, string: String) in
        box.someString = onTheHeap(string)
      }
    }
    return Target(
      spec,
      summary: "post 002's string property with an NSLock around getter and setter",
      expectation: .pass)
  }

  private static var someStringSerialSync: Target {
    let spec = Spec(
      "SomeStringSerialSync", make: SomeStringSerialSync.init, model: RegisterModel()
    ) {
      Operation("read") { (box: SomeStringSerialSync) in box.someString }
      Operation("write", heapString) { (box: SomeStringSerialSync, string: String) in
        box.someString = onTheHeap(string)
      }
    }
    return Target(
      spec,
      summary: "post 002's string property on a serial queue, sync get and sync set",
      expectation: .pass)
  }

  private static var someStringSerialAsyncSet: Target {
    let spec = Spec(
      "SomeStringSerialAsyncSet", make: SomeStringSerialAsyncSet.init, model: RegisterModel()
    ) {
      Operation("read") { (box: SomeStringSerialAsyncSet) in box.someString }
      Operation("write", heapString) { (box: SomeStringSerialAsyncSet, string: String) in
        box.someString = onTheHeap(string)
      }
    }
    return Target(
      spec,
      summary:
        "post 002's string property on a serial queue, sync get and async set (FIFO order)",
      expectation: .pass)
  }

  // Schedule mode must name this `concurrent-queue-without-barrier`; a stress run sees only
  // results and crashes, so the family name is what it can reach.
  private static var someStringConcurrentNoBarrier: Target {
    let spec = Spec(
      "SomeStringConcurrentNoBarrier", make: SomeStringConcurrentNoBarrier.init,
      model: RegisterModel()
    ) {
      Operation("read") { (box: SomeStringConcurrentNoBarrier) in box.someString }
      Operation("write", heapString) { (box: SomeStringConcurrentNoBarrier, string: String) in
        box.someString = onTheHeap(string)
      }
    }
    return Target(
      spec,
      summary:
        "post 002's string property on a concurrent queue, sync get and sync set, no barrier",
      expectation: .fail(.dataRace))
  }

  private static var someStringConcurrentBarrier: Target {
    let spec = Spec(
      "SomeStringConcurrentBarrier", make: SomeStringConcurrentBarrier.init,
      model: RegisterModel()
    ) {
      Operation("read") { (box: SomeStringConcurrentBarrier) in box.someString }
      Operation("write", heapString) { (box: SomeStringConcurrentBarrier, string: String) in
        box.someString = onTheHeap(string)
      }
    }
    return Target(
      spec,
      summary: "post 002's string property on a concurrent queue, sync get and barrier async set",
      expectation: .pass)
  }
}

// MARK: - Post 003

extension Catalogue {
  private static var atomicCounter: Target {
    let spec = Spec("AtomicCounter", make: AtomicCounter.init, model: CounterModel()) {
      Operation("get") { (counter: AtomicCounter) in counter.count }
      Operation("increment") { (counter: AtomicCounter) in counter.increment() }
    }
    return Target(
      spec,
      summary:
        "post 003's atomic count property; count = count + 1 is two atomic steps and loses updates",
      expectation: .fail(.nonAtomicCompoundUpdate))
  }

  private static var lockedCounter: Target {
    let spec = Spec("LockedCounter", make: LockedCounter.init, model: CounterModel()) {
      Operation("get") { (counter: LockedCounter) in counter.count }
      Operation("increment") { (counter: LockedCounter) in counter.increment() }
    }
    return Target(
      spec,
      summary: "AtomicCounter fixed: the increment reads and writes under one lock",
      expectation: .pass)
  }

  // Three bugs: the insert guard fails from one thread, so a minimized failure most likely
  // shows it; the escaped storage (`snapshot`) needs a concurrent writer. Elements are interned,
  // so that the identity comparison of `indexOfObject` cannot show.
  private static var zhMutableArray: Target {
    let spec = Spec("ZHMutableArray", make: ZHMutableArray.init, model: ArrayModel()) {
      Operation("count") { (array: ZHMutableArray) in array.count }
      Operation("get", index) { (array: ZHMutableArray, index: Int) in
        (array.objectAtIndex(index) as? Token)?.value
      }
      Operation("append", element) { (array: ZHMutableArray, x: Int) in
        array.addObject(Token.interned(x))
      }
      Operation("insert", element, index) { (array: ZHMutableArray, x: Int, index: Int) in
        array.insertObject(Token.interned(x), atIndex: index)
      }
      Operation("remove", index) { (array: ZHMutableArray, index: Int) in
        array.removeObjectAtIndex(index)
      }
      Operation("removeLast") { (array: ZHMutableArray) in array.removeLastObject() }
      Operation("replace", index, element) { (array: ZHMutableArray, index: Int, x: Int) in
        array.replaceObjectAtIndex(index, withObject: Token.interned(x))
      }
      Operation("contains", element) { (array: ZHMutableArray, x: Int) in
        array.containsObject(Token.interned(x))
      }
      Operation("snapshot") { (array: ZHMutableArray) in
        // `array` is the live storage; it is read here, after the call has left the queue.
        tokenValues(array.array)
      }
    }
    return Target(
      spec,
      summary:
        "post 003's barrier array: the index < count insert guard, and `array` escapes its storage",
      expectation: .fail(.insertAtCountRejected, or: [.escapedLiveStorage]))
  }

  // Schedule mode must name this `atomic-reference-non-atomic-contents`; a stress run sees only
  // results and crashes, so a family name is what it can reach (`lost-update`, as row 5).
  private static var atomicPropertyArray: Target {
    let spec = Spec("AtomicPropertyArray", make: AtomicPropertyArray.init, model: ArrayModel()) {
      Operation("append", element) { (holder: AtomicPropertyArray, x: Int) in
        holder.tempAarray.add(Token.interned(x))
      }
      Operation("count") { (holder: AtomicPropertyArray) in holder.tempAarray.count }
      Operation("snapshot") { (holder: AtomicPropertyArray) in tokenValues(holder.tempAarray) }
    }
    return Target(
      spec,
      summary:
        "post 003's atomic NSMutableArray property: the reference is locked, the appends are not",
      expectation: .fail(.dataRace, or: [.lostUpdate]))
  }
}

// MARK: - Post 004

extension Catalogue {
  private static var photoManager: Target {
    let spec = Spec("PhotoManager", make: PhotoManager.init, model: ArrayModel()) {
      Operation("append", element) { (manager: PhotoManager, photo: Int) in
        manager.addPhoto(photo)
      }
      Operation("snapshot") { (manager: PhotoManager) in manager.photos }
    }
    return Target(
      spec,
      summary:
        "post 004's PhotoManager: barrier appends and sync copies on a custom concurrent queue",
      expectation: .pass)
  }

  // Schedule mode must name this `barrier-on-global-queue`; a stress run sees only results and
  // crashes, so the family name is what it can reach.
  private static var globalQueueBarrierArray: Target {
    let spec = Spec(
      "GlobalQueueBarrierArray", make: GlobalQueueBarrierArray.init, model: ArrayModel()
    ) {
      Operation("append", element) { (manager: GlobalQueueBarrierArray, photo: Int) in
        manager.addPhoto(photo)
      }
      Operation("snapshot") { (manager: GlobalQueueBarrierArray) in manager.photos }
    }
    return Target(
      spec,
      summary: "PhotoManager on the global queue, which ignores barriers: appends race",
      expectation: .fail(.dataRace))
  }

  // The array model has no `addIfAbsent`, so this spec brings its own model: the elements.
  private static var reentrantSyncArray: Target {
    let spec = Spec("ReentrantSyncArray", make: ReentrantSyncArray.init, model: [Int]()) {
      Operation("append", element) { (array: ReentrantSyncArray, x: Int) in
        array.append(x)
      } model: { (elements: inout [Int], x: Int) in
        elements.append(x)
      }
      Operation("contains", element) { (array: ReentrantSyncArray, x: Int) in
        array.contains(x)
      } model: { (elements: inout [Int], x: Int) in
        elements.contains(x)
      }
      Operation("addIfAbsent", element) { (array: ReentrantSyncArray, x: Int) in
        array.addIfAbsent(x)
      } model: { (elements: inout [Int], x: Int) in
        if !elements.contains(x) { elements.append(x) }
      }
    }
    return Target(
      spec,
      summary: "a serial-queue array whose addIfAbsent calls sync on the queue it runs on",
      expectation: .fail(.syncOnCurrentQueue))
  }
}

// MARK: - Adapters

extension Catalogue {
  /// The array model's `indexOf` result: the index, or nil for `NSNotFound`.
  private static func indexOrNil(_ index: Int) -> Int? {
    index == NSNotFound ? nil : index
  }

  /// The values of the tokens `objects` holds, first to last; nil for an object that is not one.
  private static func tokenValues(_ objects: some Sequence) -> [Int?] {
    objects.map { ($0 as? Token)?.value }
  }
}

/// A dictionary value that remembers its key, so that `allValues` can be put in key order.
private final class KeyedValue: Sendable {
  let key: String
  let value: Int

  init(key: String, value: Int) {
    self.key = key
    self.value = value
  }
}
