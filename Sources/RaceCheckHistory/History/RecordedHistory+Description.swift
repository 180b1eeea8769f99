extension RecordedHistory.Operation: CustomStringConvertible {
  /// The operation as reports show it without its model: `process 3: get("k") → "x"`, a null result left out.
  ///
  /// Without the model a null result cannot be told from an operation that returns
  /// nothing; ``RecordedHistory/describe(_:)`` knows the model and shows `→ nil`.
  public var description: String {
    description(returnsNothing: result.isNull)
  }

  /// The operation as reports show it; `returnsNothing` leaves out a null result, else it shows as `→ nil`.
  func description(returnsNothing: Bool) -> String {
    let call = callText
    let process = self.process.stringValue.map(Value.quoted) ?? self.process.description
    switch status {
    case .ok:
      return "process \(process): \(call)" + (returnsNothing ? "" : " → \(result.resultText)")
    case .fail: return "process \(process): \(call) (failed)"
    case .info: return "process \(process): \(call) → ? (unknown outcome)"
    }
  }
}

extension RecordedHistory.Operation {
  /// The call as reports show it, without its process and result: `insert(3, 0)`, or `count` when it takes no arguments.
  package var callText: String { Self.callText(name, arguments) }

  /// A call as reports show it: `insert(3, 0)`, or `count` when it takes no arguments.
  package static func callText(_ name: String, _ arguments: [Value]) -> String {
    arguments.isEmpty
      ? name : name + "(" + arguments.map(\.description).joined(separator: ", ") + ")"
  }
}

extension RecordedHistory {
  /// Operation `index` as reports show it: `process 3: read → nil` when its model's `read` returned nil, `process 3: write(1)` for one that returns nothing.
  public func describe(_ index: Int) -> String {
    operations[index].description(returnsNothing: returnsNothing(index))
  }

  /// Whether operation `index` completed with a null result that means "returned nothing": its model's operation never returns a value.
  ///
  /// A `read` of a register, a `get` of an array or a `dequeue` return values, so their
  /// null is a nil the operation returned; a `write` returns nothing. Under a model
  /// racecheck does not know, a null result counts as nothing.
  func returnsNothing(_ index: Int) -> Bool {
    let operation = operations[index]
    guard operation.result.isNull else { return false }
    guard let model = BuiltInModels.model(named: model) else { return true }
    return model.resultKinds(of: operation.name) == .null
  }

  /// What operation `index` returned as reports show it (`nil` for a null result), or nil when it returns nothing or its outcome is not known.
  package func resultText(_ index: Int) -> String? {
    let operation = operations[index]
    guard operation.status == .ok, !returnsNothing(index) else { return nil }
    return operation.result.resultText
  }
}

extension Value {
  /// The value as a result in reports: `nil` for null, as Swift and Jepsen write it; any other value as JSON.
  package var resultText: String {
    isNull ? "nil" : description
  }
}
