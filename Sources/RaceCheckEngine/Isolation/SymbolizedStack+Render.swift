import Foundation

extension SymbolizedStack {
  /// The stack as terminal text: one line per frame, the layers around the user's code folded.
  ///
  /// Folding keeps every user frame and collapses each run of two or more runtime,
  /// libdispatch, Foundation, system or racecheck frames into one line naming a few of them;
  /// the first racecheck frame of a run stays, because it shows where racecheck called in.
  /// A stack with no user frame at all is never folded, lest nothing be left. Source paths
  /// under `directory` are shown relative to it.
  ///
  /// ```
  /// Fatal error: Index out of range
  ///   #0  NSSafeMutableArray.objectAtIndex(_:)  Fixtures/NSSafeMutableArray.swift:57
  ///       … 5 libdispatch frames (_dispatch_client_callout, _dispatch_lane_barrier_sync_invoke_and_complete, …)
  ///   #6  StressRunner.runColumn(_:)  Sources/RaceCheckEngine/Runner/StressRunner.swift:421
  /// ```
  package func render(
    fold: Bool = true, relativeTo directory: String? = FileManager.default.currentDirectoryPath
  ) -> String {
    var lines: [String] = []
    if let failureMessage { lines.append("Fatal error: \(failureMessage)") }
    let numberWidth = String(max(frames.count - 1, 0)).count
    let foldIndent = String(repeating: " ", count: 2 + 1 + numberWidth + 2)

    for part in parts(folding: fold && frames.contains { $0.kind == .user }) {
      switch part {
      case .frame(let index):
        let number = String(index).padding(toLength: numberWidth, withPad: " ", startingAt: 0)
        var line = "  #\(number)  \(name(of: frames[index]))"
        if let location = frames[index].location(relativeTo: directory) {
          line += "  \(location)"
        }
        lines.append(line)
      case .folded(let range):
        lines.append(foldIndent + foldedLine(frames[range]))
      }
    }
    if let problem { lines.append("  (frames not symbolized: \(problem.message))") }
    return lines.joined(separator: "\n")
  }

  /// A piece of rendered output: one frame, or a run of frames shown as one line.
  private enum Part {
    /// The frame at this index, on a line of its own.
    case frame(Int)
    /// The frames at these indices, as one line.
    case folded(Range<Int>)
  }

  /// The frames cut into shown frames and folded runs.
  private func parts(folding: Bool) -> [Part] {
    guard folding else { return frames.indices.map(Part.frame) }
    var parts: [Part] = []
    // Folds `range` if folding saves a line, else shows its frames one by one.
    func add(_ range: Range<Int>) {
      if range.count >= 2 {
        parts.append(.folded(range))
      } else {
        parts.append(contentsOf: range.map(Part.frame))
      }
    }
    var index = 0
    while index < frames.count {
      guard frames[index].kind != .user else {
        parts.append(.frame(index))
        index += 1
        continue
      }
      let end = frames[index...].firstIndex { $0.kind == .user } ?? frames.count
      if let raceCheck = frames[index..<end].firstIndex(where: { $0.kind == .raceCheck }) {
        add(index..<raceCheck)
        parts.append(.frame(raceCheck))
        add(raceCheck + 1..<end)
      } else {
        add(index..<end)
      }
      index = end
    }
    return parts
  }

  /// `… 5 libdispatch frames (first, second, …)` for a run of frames.
  ///
  /// The names listed skip compiler glue (thunks, partial applications) when the run has
  /// other names: `_dispatch_lane_barrier_sync_invoke_and_complete` says more than a thunk's type.
  private func foldedLine(_ run: ArraySlice<SymbolizedFrame>) -> String {
    var kinds: [String] = []
    var names: [String] = []
    for frame in run {
      if !kinds.contains(frame.kind.displayName) { kinds.append(frame.kind.displayName) }
      let name = Self.shortened(frame.function ?? frame.rawDescription, to: 60)
      if !names.contains(name) { names.append(name) }
    }
    let telling = names.filter { name in
      !SymbolizedFrame.gluePrefixes.contains { name.hasPrefix($0) }
    }
    if !telling.isEmpty { names = telling }
    let kindList =
      kinds.count == 1 ? kinds[0] : kinds.dropLast().joined(separator: ", ") + " and " + kinds.last!
    let nameList = names.prefix(2).joined(separator: ", ") + (run.count > 2 ? ", …" : "")
    return "… \(run.count) \(kindList) frames (\(nameList))"
  }

  /// The frame's function, marked when inlined, or its address when it has no name.
  private func name(of frame: SymbolizedFrame) -> String {
    guard let function = frame.function else { return frame.rawDescription }
    return Self.shortened(function, to: 120) + (frame.isInlined ? " [inlined]" : "")
  }

  /// `text` cut to `limit` characters with an ellipsis; Swift's closure and generic names can run long.
  private static func shortened(_ text: String, to limit: Int) -> String {
    text.count <= limit ? text : text.prefix(limit - 1) + "…"
  }
}
