import Dispatch
import RaceCheckSync

/// One barrier dictionary written twice, on Dispatch and on RaceCheckSync, to compare what schedule mode costs on each.
///
/// Both have `NSSafeMutableDictionary`'s shape: `sync` reads and barrier `async` writes on a
/// concurrent queue. The plain one is scheduled through the interposer, the other through
/// the primitives it calls; the spec and the scenarios are the same.
enum BarrierDictionaries {
  /// The plain one, as app code is written.
  final class Interposed: @unchecked Sendable {
    private var storage: [String: Int] = [:]
    private let queue = DispatchQueue(label: "bench.dictionary", attributes: .concurrent)

    func value(for key: String) -> Int? { queue.sync { storage[key] } }
    func set(_ value: Int, for key: String) {
      queue.async(flags: .barrier) { self.storage[key] = value }
    }
    func remove(_ key: String) { queue.async(flags: .barrier) { self.storage[key] = nil } }
  }

  /// The same on `SyncQueue` and `SyncCell`.
  final class Primitives: @unchecked Sendable {
    private let storage = SyncCell<[String: Int]>([:], name: "storage")
    private let queue = SyncQueue(label: "bench.dictionary", attributes: .concurrent)

    func value(for key: String) -> Int? { queue.sync { storage.value[key] } }
    func set(_ value: Int, for key: String) {
      queue.async(flags: .barrier) { self.storage.value[key] = value }
    }
    func remove(_ key: String) { queue.async(flags: .barrier) { self.storage.value[key] = nil } }
  }

  private static let keys = Generator<String>.element(of: ["a", "b"])

  static let interposed = Spec("BarrierDictionary", make: Interposed.init, model: [String: Int]()) {
    Operation(
      "get", keys, perform: { (dictionary: Interposed, key: String) in dictionary.value(for: key) }
    ) {
      (state: inout [String: Int], key: String) in state[key]
    }
    Operation(
      "set", keys, .int(in: 0...2),
      perform: { (dictionary: Interposed, key: String, value: Int) in
        dictionary.set(value, for: key)
      }
    ) { (state: inout [String: Int], key: String, value: Int) in state[key] = value }
    Operation(
      "remove", keys, perform: { (dictionary: Interposed, key: String) in dictionary.remove(key) }
    ) {
      (state: inout [String: Int], key: String) in state[key] = nil
    }
  }

  static let primitives = Spec("BarrierDictionary", make: Primitives.init, model: [String: Int]()) {
    Operation(
      "get", keys, perform: { (dictionary: Primitives, key: String) in dictionary.value(for: key) }
    ) {
      (state: inout [String: Int], key: String) in state[key]
    }
    Operation(
      "set", keys, .int(in: 0...2),
      perform: { (dictionary: Primitives, key: String, value: Int) in
        dictionary.set(value, for: key)
      }
    ) { (state: inout [String: Int], key: String, value: Int) in state[key] = value }
    Operation(
      "remove", keys, perform: { (dictionary: Primitives, key: String) in dictionary.remove(key) }
    ) {
      (state: inout [String: Int], key: String) in state[key] = nil
    }
  }
}
