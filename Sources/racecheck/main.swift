import Foundation
import RaceCheck

final class BadArray: @unchecked Sendable {
  private var items: [Int] = []
  private let queue = DispatchQueue(label: "bad")
  var count: Int { queue.sync { items.count } }
  func get(_ i: Int) -> Int? { queue.sync { i < items.count ? items[i] : nil } }
  func append(_ x: Int) { queue.sync { items.append(x) } }
  func insert(_ x: Int, _ i: Int) { queue.sync { if i < items.count { items.insert(x, at: i) } } }
}
final class RacyCounter: @unchecked Sendable {
  private let lock = NSLock()
  private var _count = 0
  var count: Int {
    get { lock.lock(); defer { lock.unlock() }; return _count }
    set { lock.lock(); _count = newValue; lock.unlock() }
  }
  func increment() { count = count + 1 }
}
let arraySpec = Spec("BadArray", make: { BadArray() }, model: ArrayModel()) {
  Operation("count") { (a: BadArray) in a.count }
  Operation("get", .int(in: 0...4)) { (a: BadArray, i: Int) in a.get(i) }
  Operation("append", .int(in: 0...3)) { (a: BadArray, x: Int) in a.append(x) }
  Operation("insert", .int(in: 0...3), .int(in: 0...4)) { (a: BadArray, x: Int, i: Int) in a.insert(x, i) }
}
let counterSpec = Spec("RacyCounter", make: { RacyCounter() }, model: CounterModel()) {
  Operation("get") { (c: RacyCounter) in c.count }
  Operation("increment") { (c: RacyCounter) in c.increment() }
}
for spec in [arraySpec as any Checkable, counterSpec] {
  let report = spec.check(Configuration(seed: 1))
  print(report)
  print("---")
}
