extension RecordedHistory.Operation: CustomStringConvertible {
  /// The operation as reports show it: `process 3: get("k") → "x"`, with its status when not `ok`.
  public var description: String {
    let call = Scenario.Call(name, arguments).description
    let process = self.process.stringValue.map(Value.quoted) ?? self.process.description
    switch status {
    case .ok: return "process \(process): \(call)" + (result.isNull ? "" : " → \(result)")
    case .fail: return "process \(process): \(call) (failed)"
    case .info: return "process \(process): \(call) → ? (unknown outcome)"
    }
  }
}
