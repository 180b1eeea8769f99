/// Draws an operation's argument from a seeded random source, and proposes smaller ones.
///
/// Generators start narrow and widen: a scenario's *breadth* (1 for the first
/// scenarios, growing as the run goes on) bounds how far a generator strays from
/// its simplest value, so that early scenarios collide on the same index or key.
///
/// ```swift
/// let index = Generator.int(in: 0...7)      // early scenarios draw 0...1
/// let key = Generator.element(of: ["a", "b", "c"])
/// ```
public struct Generator<Output: ValueConvertible>: Sendable {
  /// Draws from the scenario's random source, a SplitMix64 seeded from the run's seed, which
  /// users see only as a `RandomNumberGenerator`: its type is racecheck's, not theirs to name.
  let draw: @Sendable (_ random: inout any RandomNumberGenerator, _ breadth: Int) -> Output
  let shrink: @Sendable (Output) -> [Output]

  /// Creates a generator from a drawing function and a function that lists simpler values.
  ///
  /// `random` is the scenario's own generator, seeded from the run's seed: draw only from it
  /// (`random.next()`, `Int.random(in:using:)`), so that the seed rebuilds the same scenarios.
  ///
  /// ```swift
  /// let even = Generator<Int>(
  ///   draw: { random, breadth in 2 * Int.random(in: 0...breadth, using: &random) },
  ///   shrink: { $0 > 0 ? [0] : [] })
  /// ```
  ///
  /// - Parameters:
  ///   - draw: Returns a value drawn from `random`; `breadth` (1 or more) says how varied values may be.
  ///   - shrink: Returns candidates simpler than the value, simplest first.
  public init(
    draw: @escaping @Sendable (_ random: inout any RandomNumberGenerator, _ breadth: Int) -> Output,
    shrink: @escaping @Sendable (Output) -> [Output] = { _ in [] }
  ) {
    self.draw = draw
    self.shrink = shrink
  }
}

extension Generator where Output == Int {
  /// Integers in `range`, starting near its lower bound and widening with the scenario's breadth.
  public static func int(in range: ClosedRange<Int>) -> Generator<Int> {
    Generator(
      draw: { random, breadth in
        let upper = range.lowerBound + min(breadth, range.upperBound - range.lowerBound)
        return range.lowerBound + random.below(upper - range.lowerBound + 1)
      },
      shrink: { value in
        guard value > range.lowerBound else { return [] }
        let half = range.lowerBound + (value - range.lowerBound) / 2
        return half == value - 1
          ? [range.lowerBound, value - 1].uniqued() : [range.lowerBound, half, value - 1].uniqued()
      })
  }
}

extension Generator {
  /// One of `values`, starting with the first ones and widening with the scenario's breadth.
  public static func element(of values: [Output]) -> Generator<Output> {
    precondition(!values.isEmpty, "Generator.element(of:) needs at least one value")
    // Stored as recorded values, so that the generator is Sendable whatever `Output` is.
    let recorded = values.map(\.historyValue)
    let index = Generator<Int>.int(in: 0...(values.count - 1))
    return Generator(
      draw: { random, breadth in Output(historyValue: recorded[index.draw(&random, breadth)])! },
      shrink: { value in
        guard let position = recorded.firstIndex(of: value.historyValue) else { return [] }
        return index.shrink(position).map { Output(historyValue: recorded[$0])! }
      })
  }

  /// Always `value`.
  public static func constant(_ value: Output) -> Generator<Output> {
    let recorded = value.historyValue
    return Generator(draw: { _, _ in Output(historyValue: recorded)! })
  }

  /// A generator whose values are this one's, transformed; it keeps this one's shrinking.
  public func map<NewOutput: ValueConvertible>(
    _ transform: @escaping @Sendable (Output) -> NewOutput,
    inverse: @escaping @Sendable (NewOutput) -> Output?
  ) -> Generator<NewOutput> {
    let base = self
    return Generator<NewOutput>(
      draw: { random, breadth in transform(base.draw(&random, breadth)) },
      shrink: { value in inverse(value).map { base.shrink($0).map(transform) } ?? [] })
  }
}

extension Generator where Output == Bool {
  /// `false` or `true`.
  public static var bool: Generator<Bool> {
    Generator(draw: { random, _ in random.next() & 1 == 1 }, shrink: { $0 ? [false] : [] })
  }
}

/// A generator with its output type erased to ``Value``, as scenarios store arguments.
struct AnyGenerator: Sendable {
  let draw: @Sendable (inout any RandomNumberGenerator, Int) -> Value
  let shrink: @Sendable (Value) -> [Value]

  init<Output>(_ generator: Generator<Output>) {
    draw = { random, breadth in generator.draw(&random, breadth).historyValue }
    shrink = { value in
      guard let typed = Output(historyValue: value) else { return [] }
      return generator.shrink(typed).map(\.historyValue)
    }
  }
}

extension Array where Element: Hashable {
  func uniqued() -> [Element] {
    var seen = Set<Element>()
    return filter { seen.insert($0).inserted }
  }
}
