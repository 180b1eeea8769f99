extension HTTPServer {
  /// The threads the server started and has not joined: its accepting thread and one per connection not yet joined.
  ///
  /// A test reads it after ``stop()`` to see that no thread is left serving requests.
  package var unjoinedThreadCount: Int {
    core.state.withLock { state in
      let acceptor = if case .running = state.phase { 1 } else { 0 }
      return acceptor + state.connections.count + state.ended.count
    }
  }

  /// The connections open now.
  package var openConnectionCount: Int {
    core.state.withLock { $0.connections.count }
  }
}
