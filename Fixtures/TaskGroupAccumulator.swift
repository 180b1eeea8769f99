// Written for racecheck, not ported from the posts: row 33.
// No bug: `collect` fans out child tasks in a task group, each appending its result to the
// batch's own actor, and hands the whole batch to the accumulator's actor in one call,
// which does not suspend: a batch's elements arrive together, whatever the children's order.

/// Work fanned out to child tasks that append their results to an actor, then kept batch by batch.
///
/// ```swift
/// let results = TaskGroupAccumulator()
/// let sum = await results.collect(3)  // 0 + 1 + 4, from three child tasks
/// let count = await results.count     // 3
/// ```
public final class TaskGroupAccumulator: Sendable {
  private let store = Elements()

  /// Creates an empty accumulator.
  public init() {}

  /// Runs `tasks` child tasks, child `i` computing `i * i`, keeps their results, and returns their sum.
  public func collect(_ tasks: Int) async -> Int {
    let batch = Elements()
    await withTaskGroup(of: Void.self) { group in
      for task in 0..<tasks {
        group.addTask { await batch.append([task * task]) }
      }
    }
    let results = await batch.elements
    await store.append(results)
    return results.reduce(0, +)
  }

  /// The number of results kept.
  public var count: Int {
    get async { await store.elements.count }
  }

  /// Elements appended from any task, one call at a time.
  private actor Elements {
    private(set) var elements: [Int] = []

    func append(_ more: [Int]) { elements += more }
  }
}
