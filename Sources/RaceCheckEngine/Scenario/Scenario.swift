/// The operations one check runs: an init part, a parallel part of one column per thread, and a post part.
///
/// The init part runs on one thread before the threads start, the post part on
/// one thread after they all finish.
package struct Scenario: Hashable, Sendable, Codable {
  /// One call of an operation with its arguments.
  package struct Call: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The operation's name.
    package var operation: String
    /// The arguments, as recorded.
    package var arguments: [Value]

    /// Creates a call of `operation` with `arguments`.
    package init(_ operation: String, _ arguments: [Value] = []) {
      self.operation = operation
      self.arguments = arguments
    }

    /// The call as reports show it: `insert(3, 0)`, or `count` when it takes no arguments.
    package var description: String {
      RecordedHistory.Operation.callText(operation, arguments)
    }
  }

  /// The calls made before the threads start.
  package var initial: [Call]
  /// The calls each thread makes, one array per thread.
  package var parallel: [[Call]]
  /// The calls made after every thread has finished.
  package var post: [Call]

  /// Creates a scenario from its three parts.
  package init(initial: [Call] = [], parallel: [[Call]] = [], post: [Call] = []) {
    self.initial = initial
    self.parallel = parallel
    self.post = post
  }

  /// The number of calls in all three parts.
  package var size: Int {
    initial.count + parallel.reduce(0) { $0 + $1.count } + post.count
  }

  /// Every call in the order histories number them: init, then each thread, then post.
  package var allCalls: [Call] {
    initial + parallel.flatMap { $0 } + post
  }

  /// The number of threads that have at least one call.
  var activeThreads: Int {
    parallel.filter { !$0.isEmpty }.count
  }
}
