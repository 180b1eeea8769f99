/// One of `count` disjoint parts of a run, so that the machines of a CI matrix share it: part `index` of `count`, from 1.
///
/// A check's shard runs the scenarios whose index leaves `index - 1` when divided by
/// `count`; `racecheck demo` splits its rows (target × seed) the same way. The parts of one
/// run together cover it exactly once, and `racecheck merge` combines their `--json`
/// documents into its verdict.
///
/// ```swift
/// var configuration = Configuration(seed: 7)
/// configuration.shard = Shard(index: 2, count: 3)  // scenarios 1, 4, 7, …
/// ```
package struct Shard: Hashable, Sendable, Codable, CustomStringConvertible {
  /// Which part this is, from 1 to `count`.
  package let index: Int
  /// How many parts the run is split into.
  package let count: Int

  /// Part `index` of `count`, or nil unless 1 ≤ `index` ≤ `count`.
  package init?(index: Int, count: Int) {
    guard count >= 1, (1...count).contains(index) else { return nil }
    self.index = index
    self.count = count
  }

  /// The shard written `K/N`, as `--shard` takes it.
  package init?(_ text: String) {
    let parts = text.split(separator: "/", omittingEmptySubsequences: false)
    guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]) else { return nil }
    self.init(index: index, count: count)
  }

  /// Whether the item at `position` (a scenario's or a demo row's index, from 0) is this shard's.
  package func contains(_ position: Int) -> Bool {
    position % count == index - 1
  }

  /// The positions in `range` that are this shard's, in order, without listing the others.
  package func positions(in range: Range<Int>) -> StrideTo<Int> {
    let offset = ((index - 1 - range.lowerBound) % count + count) % count
    return stride(
      from: range.lowerBound + offset, to: max(range.upperBound, range.lowerBound + offset),
      by: count)
  }

  /// How many positions in `range` are this shard's.
  package func count(in range: Range<Int>) -> Int {
    let offset = ((index - 1 - range.lowerBound) % count + count) % count
    return max(0, (range.count - offset + count - 1) / count)
  }

  /// `K/N`.
  package var description: String { "\(index)/\(count)" }
}

extension Shard {
  /// Encodes the shard as `K/N`.
  package func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(description)
  }

  /// Decodes a shard written `K/N`, refusing a part outside 1…N.
  package init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    let text = try container.decode(String.self)
    guard let shard = Shard(text) else {
      throw DecodingError.dataCorruptedError(
        in: container, debugDescription: "'\(text)' is no shard: expected K/N with 1 ≤ K ≤ N")
    }
    self = shard
  }
}
