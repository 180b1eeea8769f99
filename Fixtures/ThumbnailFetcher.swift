import Dispatch
import Foundation

/// Fetches thumbnails in parallel and keeps them as they arrive, as a gallery screen does.
///
/// Each fetch appends from its own global-queue block: the appends race on the array.
final class ThumbnailFetcher: @unchecked Sendable {
  private(set) var thumbnails: [Int] = []

  /// Fetches every id, one block each, and returns when all have arrived.
  func fetchAll(_ ids: [Int]) {
    let group = DispatchGroup()
    for id in ids {
      DispatchQueue.global().async(group: group) {
        self.thumbnails.append(id * 10)
      }
    }
    group.wait()
  }
}

/// ``ThumbnailFetcher`` fixed: the blocks append on a serial queue of the fetcher's own.
final class SerialThumbnailFetcher: @unchecked Sendable {
  private let queue = DispatchQueue(label: "thumbnails")
  private var stored: [Int] = []

  /// The thumbnails fetched so far.
  var thumbnails: [Int] { queue.sync { stored } }

  /// Fetches every id, one block each, and returns when all have arrived.
  func fetchAll(_ ids: [Int]) {
    let group = DispatchGroup()
    for id in ids {
      DispatchQueue.global().async(group: group) {
        self.queue.sync { self.stored.append(id * 10) }
      }
    }
    group.wait()
  }
}
