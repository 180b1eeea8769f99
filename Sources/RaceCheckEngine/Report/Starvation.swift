/// An isolated child that made no progress while the machine kept it from a CPU: it proves neither a hang nor a pass.
///
/// The hang timeout counts only the time the child's threads were not waiting for a CPU
/// (``StallClock``), so a correct child on a busy machine is not called hung; one that the
/// machine starves for much longer than the timeout is stopped, and the check says so.
package struct Starvation: Sendable, Codable, Hashable, CustomStringConvertible {
  /// The wall time the child went without progress.
  package var wall: Duration
  /// The part of it that counted towards a hang: the time it was not kept from a CPU.
  package var stalled: Duration
  /// The CPU time the child's threads used in that time.
  package var cpu: Duration
  /// The machine's load average over the last minute when the child was stopped, where known.
  package var loadAverage: Double?

  /// The wall time without progress after which a child that never stalled for its hang timeout is stopped as starved.
  ///
  /// Six times the hang timeout: a child that is given less than a sixth of the time it
  /// waits tells nothing in a reasonable time.
  package static func wallLimit(hangTimeout: Duration) -> Duration {
    hangTimeout * 6
  }

  package var description: String {
    let load = loadAverage.map { ", at a load average of \(PlainNumber.text($0))" } ?? ""
    return
      "the machine was too busy: the isolated child made no progress for "
      + "\(PlainNumber.text(wall)) but was kept from a CPU for all but "
      + "\(PlainNumber.text(stalled)) of it (it used \(PlainNumber.text(cpu)) of CPU time\(load)), "
      + "which proves no hang: run it again on a quieter machine, or raise the hang timeout"
  }

  private enum CodingKeys: String, CodingKey {
    case wall, stalled, cpu, loadAverage
  }

  package init(wall: Duration, stalled: Duration, cpu: Duration, loadAverage: Double?) {
    self.wall = wall
    self.stalled = stalled
    self.cpu = cpu
    self.loadAverage = loadAverage
  }

  package init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    wall = .seconds(try container.decode(Double.self, forKey: .wall))
    stalled = .seconds(try container.decode(Double.self, forKey: .stalled))
    cpu = .seconds(try container.decode(Double.self, forKey: .cpu))
    loadAverage = try container.decodeIfPresent(Double.self, forKey: .loadAverage)
  }

  package func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(wall.seconds, forKey: .wall)
    try container.encode(stalled.seconds, forKey: .stalled)
    try container.encode(cpu.seconds, forKey: .cpu)
    try container.encodeIfPresent(loadAverage, forKey: .loadAverage)
  }
}
