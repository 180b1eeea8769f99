// Written for racecheck, not ported from the posts: row 30.
// Bug: on a miss, `image(for:)` awaits the load and only then stores the image. A second
// request for the same key runs on the actor during the first one's load, misses too and
// loads again: two loads of one key, and the later store overwrites the earlier image.

/// An image cache as an actor that loads a missing image, awaiting the load, and keeps it.
///
/// Each load makes a new image, numbered by the cache's load count, so that a duplicate
/// load shows in the results.
///
/// ```swift
/// let cache = ImageCacheActor()
/// let image = await cache.image(for: "avatar")  // loaded once, the same image afterwards
/// ```
public actor ImageCacheActor {
  private var images: [String: Int] = [:]

  /// How many images the cache has loaded.
  public private(set) var loads = 0

  /// Creates an empty cache.
  public init() {}

  /// The image for `key`, loaded on the first request.
  public func image(for key: String) async -> Int {
    if let cached = images[key] { return cached }
    loads += 1
    let image = await ImageLoader.load(key, number: loads)
    images[key] = image
    return image
  }

  /// Drops every cached image, as an app does on a memory warning.
  public func removeAll() {
    images.removeAll()
  }
}

/// Loads images: a call that suspends, as a download does.
enum ImageLoader {
  static func load(_ key: String, number: Int) async -> Int {
    // A few suspensions, as a request makes between sending and receiving.
    for _ in 0..<3 { await Task.yield() }
    return number
  }
}
