extension Configuration {
  /// Where a check was started: a test or a program's command line.
  ///
  /// A repro file records it, so that replaying the file can say how to run its check again
  /// and so that two origins never write the same file. `check(_:)` sets it to the calling
  /// test and ``CommandLineDriver`` to its program; a check started any other way has none.
  ///
  /// ```swift
  /// if case .test(let id, _) = try Repro.read(from: path).configuration.origin { print(id) }
  /// ```
  public enum Origin: Hashable, Sendable, Codable {
    /// A test, by its identifier, with the `swift test` command that runs it alone.
    ///
    /// The identifier is `Module.Suite/name()` for Swift Testing and `Module.Class/testName`
    /// for XCTest. The command is the test's replay command without the seed and scenario
    /// that a report or a repro file adds to it.
    case test(id: String, command: String)
    /// A command line of the program with this name, such as `racecheck`.
    case program(String)
  }
}

extension Configuration.Origin {
  private enum CodingKeys: String, CodingKey {
    case test, command, program
  }

  /// Encodes a test as `{"test": id, "command": …}` and a program as `{"program": name}`.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    switch self {
    case .test(let id, let command):
      try container.encode(id, forKey: .test)
      try container.encode(command, forKey: .command)
    case .program(let name):
      try container.encode(name, forKey: .program)
    }
  }

  /// Decodes either shape; an object that names neither a test nor a program is an error.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    if let id = try container.decodeIfPresent(String.self, forKey: .test) {
      self = .test(id: id, command: try container.decode(String.self, forKey: .command))
    } else if let name = try container.decodeIfPresent(String.self, forKey: .program) {
      self = .program(name)
    } else {
      throw DecodingError.dataCorrupted(
        DecodingError.Context(
          codingPath: container.codingPath,
          debugDescription: "an origin names a 'test' or a 'program'"))
    }
  }

  /// The hint a report gives after its repro file's path: the command that replays it, when one can.
  ///
  /// A program's `replay` runs the file; a test's repro is run again by the test, whose
  /// command the report's `Replay:` line already shows.
  func replayHint(forReproAt path: String) -> String? {
    switch self {
    case .program(let name): [name, "replay", path].map(ShellWord.quoted).joined(separator: " ")
    case .test: nil
    }
  }
}
