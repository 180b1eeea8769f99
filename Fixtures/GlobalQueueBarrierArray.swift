// Port of `GlobalQueueBarrierArray` from post 004 (shared/seeds/004_c6f3edd906e65d27.txt).
// Original: `PhotoManager`'s `addPhoto` (lines 27-37) and `photos` (lines 55-66) on the global
// concurrent queue that the warning of line 2 rules out.
// Bug (row 21): the barrier of `dispatch_barrier_async` (line 28) only works on a custom
// concurrent queue; on a global queue GCD runs the block as an ordinary one. Appends then run in
// parallel with each other and with `sync` reads: a data race that crashes or loses elements.
// And since `sync` on a global queue waits for nothing, a read can miss an append whose call has
// returned.
//
// Port notes: `PhotoManager`'s code with `concurrentPhotoQueue` replaced by
// `DispatchQueue.global()`; the post shows the class only with its custom queue. A photo is an
// `Int`, and the notification `addPhoto` posts on the main queue is dropped, as in `PhotoManager`.

import Foundation

/// `PhotoManager` with its barriers on the global queue, where they are not barriers.
///
/// ```swift
/// let manager = GlobalQueueBarrierArray()
/// manager.addPhoto(7)  // returns; the append runs later, alongside anything else
/// manager.photos       // [] or [7]: the read waits for nothing
/// ```
public final class GlobalQueueBarrierArray: @unchecked Sendable {
  /// A photo, reduced to a number.
  public typealias Photo = Int

  private var _photos: [Photo] = []
  // The queue the post warns against: GCD ignores barriers on global queues.
  private let globalQueue = DispatchQueue.global()

  /// Creates a manager with no photos, on the shared global queue.
  public init() {}

  /// Appends `photo` later, on the global queue, with a barrier that has no effect (row 21's bug).
  public func addPhoto(_ photo: Photo) {
    globalQueue.async(flags: .barrier) {
      self._photos.append(photo)
    }
  }

  /// A copy of the photos, oldest first, read while appends may be running.
  public var photos: [Photo] {
    globalQueue.sync { _photos }
  }
}
