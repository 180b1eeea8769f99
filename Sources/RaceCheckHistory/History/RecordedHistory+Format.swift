import Foundation

extension RecordedHistory {
  /// The formats a history is read from: the racecheck history file, Jepsen's EDN histories and Jepsen's logs.
  ///
  /// ```swift
  /// let history = try RecordedHistory(contentsOf: "history.edn", format: .jepsen)
  /// ```
  public enum Format: String, Sendable, CaseIterable {
    /// The racecheck history file (`history-format.md`).
    case json
    /// A Jepsen or Knossos EDN history, one op map per line.
    case jepsen
    /// Jepsen's `INFO jepsen.util - <process> <type> <f> <value>` log lines.
    case jepsenLog = "jepsen-log"

    /// The model a history in this format is read with when none is named: the file's own, or Jepsen's usual one.
    public var defaultModel: String? {
      switch self {
      case .json: return nil
      case .jepsen: return KeyValueModel.name
      case .jepsenLog: return CASRegisterModel.name
      }
    }
  }

  /// Reads a history from the bytes of a file in `format`; `model` overrides the file's own (and picks a Jepsen history's).
  public init(bytes: [UInt8], format: Format = .json, model: String? = nil)
    throws(HistoryInputError)
  {
    let names = BuiltInModels.names
    if let model, !names.contains(model) {
      throw .file(.unknownModel(model, known: names))
    }
    switch format {
    case .json:
      do {
        self = try HistoryFile.read(bytes, models: names)
        if let model { self.model = model }
      } catch {
        throw .file(error)
      }
    case .jepsen:
      do {
        self = try JepsenEDNReader.read(bytes, model: model ?? format.defaultModel!)
      } catch {
        throw .jepsen(error)
      }
    case .jepsenLog:
      do {
        self = try JepsenLogReader.read(bytes, model: model ?? format.defaultModel!)
      } catch {
        throw .jepsen(error)
      }
    }
  }

  /// Reads the history file at `path` in `format`; `model` overrides the file's own (and picks a Jepsen history's).
  public init(contentsOf path: String, format: Format = .json, model: String? = nil)
    throws(HistoryInputError)
  {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
      throw .missing(path)
    }
    guard !isDirectory.boolValue, let bytes = FileBytes.contents(atPath: path) else {
      throw .unreadable(path)
    }
    try self.init(bytes: bytes, format: format, model: model)
  }
}
