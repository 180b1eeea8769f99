extension InterleavingTrace {
  /// One change to a trace as it is recorded, so that a child can stream it before it crashes.
  package enum Event: Codable, Sendable {
    /// A controlled thread was made, with this name; threads are numbered in the order they are made.
    case thread(String)
    /// A step was recorded.
    case step(Step)
    /// The text of step `index` changed (an operation's result was added).
    case amend(index: Int, text: String)
  }

  /// The trace `events` describe: what a child streamed up to the moment it crashed.
  init(events: [Event]) {
    self.init(threadNames: [], steps: [], schedule: [])
    for event in events {
      switch event {
      case .thread(let name): threadNames.append(name)
      case .step(let step): steps.append(step)
      case .amend(let index, let text) where steps.indices.contains(index):
        steps[index].text = text
      case .amend: break
      }
    }
  }
}
