extension RunRequest: Codable {
  private enum CodingKeys: String, CodingKey {
    case scenario, seed, invocations, untilFirstFailure, deadline, replaying, tracedSchedule,
      freshProcess, hangTimeout, asyncProbe, fewerPreemptions
  }

  /// Encodes the request as the parent sends it to an isolated child.
  ///
  /// The wire keeps integers and seconds: `deadline` is the monotonic clock's nanoseconds it
  /// passes at, absent for none, and `hangTimeout` is seconds.
  package func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(scenario, forKey: .scenario)
    try container.encode(seed, forKey: .seed)
    try container.encode(invocations, forKey: .invocations)
    try container.encode(untilFirstFailure, forKey: .untilFirstFailure)
    try container.encodeIfPresent(deadline.instant?.nanoseconds, forKey: .deadline)
    try container.encodeIfPresent(replaying, forKey: .replaying)
    try container.encodeIfPresent(tracedSchedule, forKey: .tracedSchedule)
    try container.encode(freshProcess, forKey: .freshProcess)
    try container.encodeIfPresent(hangTimeout?.seconds, forKey: .hangTimeout)
    try container.encodeIfPresent(asyncProbe, forKey: .asyncProbe)
    if fewerPreemptions { try container.encode(fewerPreemptions, forKey: .fewerPreemptions) }
  }

  /// Decodes a request as an isolated child reads it.
  package init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    scenario = try container.decode(Scenario.self, forKey: .scenario)
    seed = try container.decode(UInt64.self, forKey: .seed)
    invocations = try container.decode(Int.self, forKey: .invocations)
    untilFirstFailure = try container.decode(Bool.self, forKey: .untilFirstFailure)
    deadline =
      try container.decodeIfPresent(Int64.self, forKey: .deadline)
      .map { Deadline(MonotonicInstant(nanoseconds: $0)) } ?? .distantFuture
    replaying = try container.decodeIfPresent([Int].self, forKey: .replaying)
    tracedSchedule = try container.decodeIfPresent(Int.self, forKey: .tracedSchedule)
    freshProcess = try container.decode(Bool.self, forKey: .freshProcess)
    hangTimeout = try container.decodeIfPresent(Double.self, forKey: .hangTimeout)
      .map(Duration.init(secondsOrZero:))
    asyncProbe = try container.decodeIfPresent(AsyncProbe.self, forKey: .asyncProbe)
    fewerPreemptions =
      try container.decodeIfPresent(Bool.self, forKey: .fewerPreemptions) ?? false
  }
}
