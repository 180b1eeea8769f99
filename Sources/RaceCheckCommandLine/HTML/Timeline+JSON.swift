import RaceCheckEngine

extension Timeline {
  /// The timeline as the page's script reads it: one JSON object of parallel arrays, safe inside `<script>`.
  ///
  /// Arrays of numbers and short strings, one element per operation, keep a history of
  /// 100,000 operations to a few megabytes that `JSON.parse` reads in tens of milliseconds.
  /// Times count from the first call. Each operation also gets a row within its lane, so
  /// that operations of one lane that overlap (the tasks of `async` calls) do not hide
  /// each other.
  var json: String {
    var json = ""
    json.reserveCapacity(operations.count * 64 + 256)
    let origin = operations.map(\.recorded.call).min() ?? 0
    let (rows, rowsPerLane) = rowAssignment()
    var names: [String] = []
    var nameIndex: [String: Int] = [:]
    for operation in operations where nameIndex[operation.recorded.name] == nil {
      nameIndex[operation.recorded.name] = names.count
      names.append(operation.recorded.name)
    }

    json += "{\"lanes\":"
    Self.appendArray(lanes, to: &json) { HTMLText.appendJSONString($0, to: &$1) }
    json += ",\"rowsPerLane\":"
    Self.appendArray(rowsPerLane, to: &json) { $1 += String($0) }
    json += ",\"names\":"
    Self.appendArray(names, to: &json) { HTMLText.appendJSONString($0, to: &$1) }
    json += ",\"lane\":"
    Self.appendArray(operations, to: &json) { $1 += String($0.lane) }
    json += ",\"row\":"
    Self.appendArray(rows, to: &json) { $1 += String($0) }
    json += ",\"call\":"
    Self.appendArray(operations, to: &json) { $1 += String($0.recorded.call &- origin) }
    json += ",\"ret\":"
    Self.appendArray(operations, to: &json) { operation, json in
      json += operation.returnTime.map { String($0 &- origin) } ?? "null"
    }
    json += ",\"name\":"
    Self.appendArray(operations, to: &json) { $1 += String(nameIndex[$0.recorded.name] ?? 0) }
    json += ",\"args\":"
    Self.appendArray(operations, to: &json) { operation, json in
      Self.appendArray(operation.recorded.arguments, to: &json) {
        HTMLText.appendJSONString($0.description, to: &$1)
      }
    }
    json += ",\"result\":"
    Self.appendArray(operations, to: &json) { operation, json in
      if let result = operation.result {
        HTMLText.appendJSONString(result, to: &json)
      } else {
        json += "null"
      }
    }
    // One letter per operation: o(k), f(ail) or i(nfo).
    json += ",\"status\":\""
    for operation in operations {
      json +=
        operation.recorded.status == .ok ? "o" : operation.recorded.status == .fail ? "f" : "i"
    }
    json += "\""
    // How the page names each operation, only when the history was read from a file with lines.
    if operations.contains(where: { $0.recorded.source != .unknown }) {
      json += ",\"cite\":"
      Self.appendArray(Array(operations.indices), to: &json) { index, json in
        HTMLText.appendJSONString(citation(index), to: &json)
      }
    }
    // Each fault as {"kind", "target", "start", "end" (null: never healed)}, on the operations' clock.
    json += ",\"faults\":"
    Self.appendArray(faults, to: &json) { fault, json in
      json += "{\"kind\":"
      HTMLText.appendJSONString(fault.kind.rawValue, to: &json)
      json += ",\"target\":"
      HTMLText.appendJSONString(fault.target, to: &json)
      json += ",\"start\":\(fault.start &- origin),\"end\":"
      json += fault.end.map { String($0 &- origin) } ?? "null"
      json += "}"
    }
    json += ",\"marks\":"
    if let marks {
      Self.append(marks, to: &json)
    } else {
      json += "null"
    }
    json += "}"
    return json
  }

  /// Each operation's row within its lane, and the number of rows of each lane.
  ///
  /// Operations take the first row free at their call, in order of call: a row is free
  /// once its last operation returned strictly before (equal times overlap).
  func rowAssignment() -> (rows: [Int], rowsPerLane: [Int]) {
    var rows = Array(repeating: 0, count: operations.count)
    var rowEnds = Array(repeating: [Int64](), count: lanes.count)
    let byCall = operations.indices.sorted {
      (operations[$0].recorded.call, $0) < (operations[$1].recorded.call, $1)
    }
    for index in byCall {
      let operation = operations[index]
      let end = operation.returnTime ?? .max
      if let row = rowEnds[operation.lane].firstIndex(where: { $0 < operation.recorded.call }) {
        rows[index] = row
        rowEnds[operation.lane][row] = end
      } else {
        rows[index] = rowEnds[operation.lane].count
        rowEnds[operation.lane].append(end)
      }
    }
    return (rows, rowEnds.map { max(1, $0.count) })
  }

  private static func append(_ marks: Marks, to json: inout String) {
    json += "{\"window\":"
    if let window = marks.window {
      appendArray(window, to: &json) { $1 += String($0) }
    } else {
      json += "null"
    }
    json += ",\"order\":"
    appendArray(marks.order, to: &json) { $1 += String($0) }
    json += ",\"state\":"
    HTMLText.appendJSONString(marks.state, to: &json)
    json += ",\"candidates\":"
    // Each as {"operation", "returned" (null: outcome unknown), "allowed" (null for a dead end), "fits"}.
    appendArray(marks.candidates, to: &json) { candidate, json in
      json += "{\"operation\":\(candidate.operation),\"returned\":"
      switch candidate.failure {
      case .unplaceable(let returned, let allowed):
        HTMLText.appendJSONString(returned, to: &json)
        json += ",\"allowed\":"
        HTMLText.appendJSONString(allowed, to: &json)
      case .deadEnd(let returned):
        if let returned {
          HTMLText.appendJSONString(returned, to: &json)
        } else {
          json += "null"
        }
        json += ",\"allowed\":null"
      }
      json += ",\"fits\":\(candidate.fits)}"
    }
    json += "}"
  }

  private static func appendArray<Element>(
    _ elements: [Element], to json: inout String, _ appendElement: (Element, inout String) -> Void
  ) {
    json += "["
    for (position, element) in elements.enumerated() {
      if position > 0 { json += "," }
      appendElement(element, &json)
    }
    json += "]"
  }
}
