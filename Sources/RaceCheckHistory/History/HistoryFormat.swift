import Foundation

/// The formats `racecheck check` reads: the history file, Jepsen's EDN histories and Jepsen's logs.
public enum HistoryFormat: String, Sendable, CaseIterable {
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

  /// Reads a history in this format; `model` overrides the file's own (and picks a Jepsen history's).
  public func read(_ bytes: [UInt8], model: String? = nil) throws(HistoryInputError)
    -> RecordedHistory
  {
    let names = BuiltInModels.names
    if let model, !names.contains(model) {
      throw .file(.unknownModel(model, known: names))
    }
    switch self {
    case .json:
      do {
        var history = try HistoryFile.read(bytes, models: names)
        if let model { history.model = model }
        return history
      } catch {
        throw .file(error)
      }
    case .jepsen:
      do {
        return try JepsenEDNReader.read(bytes, model: model ?? defaultModel!)
      } catch {
        throw .jepsen(error)
      }
    case .jepsenLog:
      do {
        return try JepsenLogReader.read(bytes, model: model ?? defaultModel!)
      } catch {
        throw .jepsen(error)
      }
    }
  }

  /// Reads the file at `path` in this format.
  public func read(contentsOf path: String, model: String? = nil) throws(HistoryInputError)
    -> RecordedHistory
  {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
      throw .missing(path)
    }
    guard !isDirectory.boolValue, let bytes = FileBytes.contents(atPath: path) else {
      throw .unreadable(path)
    }
    return try read(bytes, model: model)
  }
}

/// Why a history could not be read: the file is missing, or its contents are rejected.
public enum HistoryInputError: Error, Hashable, Sendable, CustomStringConvertible {
  /// There is no file at the path.
  case missing(String)
  /// The path cannot be read as a file.
  case unreadable(String)
  /// The history file is rejected.
  case file(HistoryFileError)
  /// The Jepsen history is rejected.
  case jepsen(JepsenImportError)
  /// The model rejects an operation or the initial state of a history that was read.
  case model(HistoryFileError)

  public var description: String {
    switch self {
    case .missing: return "no such file"
    case .unreadable: return "cannot be read"
    case .file(let error), .model(let error): return error.description
    case .jepsen(let error): return error.description
    }
  }
}
