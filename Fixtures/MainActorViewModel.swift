// Written for racecheck, not ported from the posts: row 32.
// Bug: `refresh()` reads the items, awaits the fetch of the next one, and writes the items
// it read plus the new one. The main actor runs other jobs during the fetch: a second
// refresh reads the same items, and whichever writes last drops the other's item.

/// A view model isolated to the main actor whose refresh awaits a fetch between reading and writing its items.
///
/// ```swift
/// let model = MainActorViewModel()
/// await model.refresh()
/// let shown = await model.items.count  // 1
/// ```
@MainActor public final class MainActorViewModel {
  /// The items the view shows.
  public private(set) var items: [Int] = []

  /// Creates a view model with no items; it may be made off the main actor.
  public nonisolated init() {}

  /// Fetches the next item and shows it after the others.
  public func refresh() async {
    let shown = items
    let next = await FeedService.fetchItem(after: shown.count)
    items = shown + [next]
  }
}

/// The feed a view model fetches from: a call that suspends, as a request does.
enum FeedService {
  static func fetchItem(after count: Int) async -> Int {
    // A few suspensions, as a request makes between sending and receiving.
    for _ in 0..<3 { await Task.yield() }
    return count
  }
}
