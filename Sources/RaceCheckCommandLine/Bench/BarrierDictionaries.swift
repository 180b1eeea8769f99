import Dispatch
import RaceCheckEngine
import RaceCheckSync

/// One barrier dictionary written twice, on Dispatch and on RaceCheckSync, to compare what schedule mode costs on each.
///
/// Both have `NSSafeMutableDictionary`'s shape: `sync` reads and barrier `async` writes on a
/// concurrent queue. The plain one is scheduled through the interposer, the other through
/// the primitives it calls; the spec and the scenarios are the same.
enum BarrierDictionaries {
  /// What both have: a keyed store with `sync` reads and barrier writes.
  protocol Dictionary: AnyObject, Sendable {
    init()
    func value(for key: String) -> Int?
    func set(_ value: Int, for key: String)
    func remove(_ key: String)
  }

  /// The plain one, as app code is written.
  final class Interposed: Dictionary, @unchecked Sendable {
    // @unchecked Sendable: `storage` is touched only in the queue's blocks (barriers for writes).
    private var storage: [String: Int] = [:]
    private let queue = DispatchQueue(label: "bench.dictionary", attributes: .concurrent)

    func value(for key: String) -> Int? { queue.sync { storage[key] } }
    func set(_ value: Int, for key: String) {
      queue.async(flags: .barrier) { self.storage[key] = value }
    }
    func remove(_ key: String) { queue.async(flags: .barrier) { self.storage[key] = nil } }
  }

  /// The same on `SyncQueue` and `SyncCell`.
  final class Primitives: Dictionary, Sendable {
    private let storage = SyncCell<[String: Int]>([:], name: "storage")
    private let queue = SyncQueue(label: "bench.dictionary", attributes: .concurrent)

    func value(for key: String) -> Int? { queue.sync { storage.value[key] } }
    func set(_ value: Int, for key: String) {
      queue.async(flags: .barrier) { self.storage.value[key] = value }
    }
    func remove(_ key: String) { queue.async(flags: .barrier) { self.storage.value[key] = nil } }
  }

  /// One spec for either: get, set and remove on two keys, against a dictionary.
  static func spec<Subject: Dictionary>(_: Subject.Type) -> Spec<Subject, [String: Int]> {
    let keys = Generator<String>.element(of: ["a", "b"])
    let make: @Sendable () -> Subject = { Subject() }
    return Spec("BarrierDictionary", make: make, model: [String: Int]()) {
      Operation(
        "get", keys, perform: { (subject: Subject, key: String) in subject.value(for: key) }
      ) {
        (state: inout [String: Int], key: String) in state[key]
      }
      Operation(
        "set", keys, .int(in: 0...2),
        perform: { (subject: Subject, key: String, value: Int) in subject.set(value, for: key) }
      ) { (state: inout [String: Int], key: String, value: Int) in state[key] = value }
      Operation("remove", keys, perform: { (subject: Subject, key: String) in subject.remove(key) })
      {
        (state: inout [String: Int], key: String) in state[key] = nil
      }
    }
  }
}
