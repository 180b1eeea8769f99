import CRaceCheckSupport

/// What a run records of its `async` calls and how it runs them, for the `actor-reentrancy` diagnosis.
///
/// Every `async` call runs in a task whose preferred executor is racecheck's
/// (``CallExecutor``), so each time the task leaves an actor for code of no actor (an
/// `await` of a nonisolated function, or the method's return) its job comes to
/// racecheck: a run with a probe records those hops, and can run one operation alone.
package struct AsyncProbe: Codable, Sendable, Hashable {
  /// The operation whose calls run alone: while one is in flight no other `async` call runs, so nothing can enter the actor at its `await`.
  var exclusiveOperation: String?
}

/// One time a call's task left the executor it was running on, as racecheck's executor saw it.
struct ExecutorHop: Codable, Sendable, Hashable {
  /// The call, by its index in the history.
  var call: Int
  /// The hop's place among every hop of the invocation.
  var sequence: Int
  /// The identity of the serial executor (the actor) the task left; nil when it ran on none.
  var leftExecutor: UInt?
  /// The continuations of the awaits the task was inside, innermost first: where it goes on, and where each caller does.
  var continuations: [CodeAddress]
}

/// A code address as an image and an offset, which the process that ran the code can hand to another to symbolize.
struct CodeAddress: Codable, Sendable, Hashable {
  /// The path of the image that holds the code.
  var module: String
  /// The address's offset from the image's load bias.
  var offset: UInt
}

extension CodeAddress {
  /// The code at `address` placed in the loaded image that holds it, or nil when no image does.
  init?(placing address: UInt) {
    var path = [CChar](repeating: 0, count: 4096)
    var offset: UInt = 0
    guard rc_code_image(address, &path, Int32(path.count), &offset) == 0 else { return nil }
    let bytes = path.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
    self.init(module: String(decoding: bytes, as: UTF8.self), offset: offset)
  }
}
