import RaceCheckEngine

extension ReproError {
  /// The same error naming `path`: `Checkable.replay` throws errors with an empty path, since it never sees the file.
  func naming(_ path: String) -> ReproError {
    switch self {
    case .wrongTarget("", let recorded, let expected):
      return .wrongTarget(path: path, recorded: recorded, expected: expected)
    case .unknownTarget("", let recorded): return .unknownTarget(path: path, recorded: recorded)
    case .recordedByTest("", let recorded, let test, let replay):
      return .recordedByTest(path: path, recorded: recorded, test: test, replay: replay)
    case .recordedByProgram("", let recorded, let program):
      return .recordedByProgram(path: path, recorded: recorded, program: program)
    case .scenarioMismatch("", let problem): return .scenarioMismatch(path: path, problem)
    case .missing(""): return .missing(path)
    case .unreadable(""): return .unreadable(path)
    case .malformed("", let reason): return .malformed(path, reason)
    case .unsupportedVersion("", let version): return .unsupportedVersion(path, version)
    default: return self
    }
  }
}
