/// A profile screen's view model: appearing starts a task that loads the name.
///
/// A test that calls ``onAppear()`` and then yields once hopes the load is done by then;
/// the load awaits a fetch off the main actor, so whether it is depends on the schedule.
@MainActor final class ProfileViewModel {
  private(set) var name = "—"
  /// The load ``onAppear()`` started, which a test can await.
  private(set) var loading: Task<Void, Never>?

  nonisolated init() {}

  /// Starts loading the profile.
  func onAppear() {
    loading = Task { await load() }
  }

  private func load() async {
    name = await ProfileService.fetchName()
  }
}

/// The profile backend: a call that suspends off the main actor, as a request does.
enum ProfileService {
  static func fetchName() async -> String {
    await Task.yield()
    return "Ada"
  }
}
