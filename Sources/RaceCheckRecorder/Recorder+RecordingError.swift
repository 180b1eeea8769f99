extension RecordedHistory.Recorder {
  /// Why a recorder could not start, write its file or read its history back.
  ///
  /// A write that fails in the background is kept and thrown by ``finish()``: recording goes
  /// on without the file, so the calls being recorded never fail because of it.
  public enum RecordingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The model is not one `racecheck check` knows, so no file of it could be checked.
    case unknownModel(String, known: [String])
    /// The file could not be created or its header written.
    case cannotOpen(path: String, reason: String)
    /// Writing or syncing the file failed; what was written before stays.
    case writeFailed(path: String, reason: String)
    /// Another client of this recorder already has the name.
    case duplicateClient(String)
    /// The file written so far could not be read back as a history.
    case unreadable(HistoryInputError)

    /// The error as a message.
    public var description: String {
      switch self {
      case .unknownModel(let name, let known):
        return
          "unknown model \(Value.quoted(name)); the models are \(known.joined(separator: ", "))"
      case .cannotOpen(let path, let reason): return "\(path): cannot be created: \(reason)"
      case .writeFailed(let path, let reason): return "\(path): writing failed: \(reason)"
      case .duplicateClient(let name):
        return "a client named \(Value.quoted(name)) is already recording"
      case .unreadable(let error): return "the recorded history cannot be read: \(error)"
      }
    }
  }
}
