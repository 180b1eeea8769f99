/// A search-as-you-type model: each query cancels the search before it and starts its own.
///
/// The search checks for cancellation before it fetches and not after: a search cancelled
/// while its fetch was in flight still shows its stale results, over the newer ones if it
/// finishes last.
@MainActor final class SearchModel {
  private(set) var results: [String] = []
  private var current: Task<Void, Never>?

  nonisolated init() {}

  /// Cancels the search in flight and starts one for `query`.
  func search(_ query: String) -> Task<Void, Never> {
    current?.cancel()
    let task = Task {
      guard !Task.isCancelled else { return }
      let found = await SearchService.find(query)
      results = found
    }
    current = task
    return task
  }
}

/// ``SearchModel`` fixed: the search checks for cancellation again after its fetch, on the main actor, right before it shows the results.
@MainActor final class CancellationCheckingSearchModel {
  private(set) var results: [String] = []
  private var current: Task<Void, Never>?

  nonisolated init() {}

  /// Cancels the search in flight and starts one for `query`.
  func search(_ query: String) -> Task<Void, Never> {
    current?.cancel()
    let task = Task {
      guard !Task.isCancelled else { return }
      let found = await SearchService.find(query)
      guard !Task.isCancelled else { return }
      results = found
    }
    current = task
    return task
  }
}

/// The search backend: a call that suspends off the main actor, as a request does.
enum SearchService {
  static func find(_ query: String) async -> [String] {
    await Task.yield()
    return ["\(query) result"]
  }
}
