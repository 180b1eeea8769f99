import RaceCheckEngine

/// Typed values of options, each checked for range with a message that says what would do.
extension ParsedArguments {
  /// The integer given for `name`, from `minimum` to `maximum`, or nil when the option was not given.
  func integer(_ name: String, atLeast minimum: Int, atMost maximum: Int = .max) throws(UsageError)
    -> Int?
  {
    guard let text = value(name) else { return nil }
    guard let number = Int(text), number >= minimum, number <= maximum else {
      let expected =
        switch (minimum, maximum) {
        case (0, .max): "a non-negative integer"
        case (1, .max): "a positive integer"
        case (_, .max): "an integer of at least \(minimum)"
        default: "an integer from \(minimum) to \(maximum)"
        }
      throw invalid(name, text, expected)
    }
    return number
  }

  /// A positive, finite number of seconds given for `name` (`30`, `1.5`, or with a unit: `500ms`, `30s`, `2m`), or nil when the option was not given.
  func seconds(_ name: String) throws(UsageError) -> Double? {
    guard let text = value(name) else { return nil }
    guard let seconds = Self.seconds(in: text), seconds.isFinite, seconds > 0 else {
      throw invalid(name, text, "a positive number of seconds, such as 30, 1.5, 500ms, 30s or 2m")
    }
    return seconds
  }

  /// The seconds `text` gives: a bare number of seconds, or a number followed by `ms`, `s` or `m`.
  static func seconds(in text: String) -> Double? {
    for (unit, scale) in [("ms", 0.001), ("s", 1.0), ("m", 60.0)] where text.hasSuffix(unit) {
      return Double(text.dropLast(unit.count)).map { $0 * scale }
    }
    return Double(text)
  }

  /// A positive, finite duration given in seconds for `name`, or nil when the option was not given.
  func duration(_ name: String) throws(UsageError) -> Duration? {
    try seconds(name).map { Duration(secondsRoundedUpToMilliseconds: $0) }
  }

  /// The seed given for `name`, in decimal or `0x…` hexadecimal, or nil when the option was not given.
  func seed(_ name: String) throws(UsageError) -> UInt64? {
    guard let text = value(name) else { return nil }
    guard let seed = Configuration.parseSeed(text) else {
      throw invalid(name, text, "a 64-bit seed in decimal or 0x… hexadecimal")
    }
    return seed
  }

  /// The comma-separated seeds given for `name`, or nil when the option was not given.
  func seeds(_ name: String) throws(UsageError) -> [UInt64]? {
    guard let text = value(name) else { return nil }
    let seeds = text.split(separator: ",", omittingEmptySubsequences: false).map {
      Configuration.parseSeed(String($0))
    }
    guard !seeds.isEmpty, !seeds.contains(nil) else {
      throw invalid(name, text, "64-bit seeds in decimal or 0x… hexadecimal, separated by commas")
    }
    return seeds.compactMap { $0 }
  }

  /// The shard given for `name` as `K/N`, or nil when the option was not given.
  func shard(_ name: String) throws(UsageError) -> Shard? {
    guard let text = value(name) else { return nil }
    guard let shard = Shard(text) else {
      throw invalid(name, text, "K/N, part K of N with 1 ≤ K ≤ N")
    }
    return shard
  }

  private func invalid(_ name: String, _ text: String, _ expected: String) -> UsageError {
    .invalidValue(option: name, value: text, expected: expected, command: command.name)
  }
}
