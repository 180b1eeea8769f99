// Port of `PhotoManager` from post 004 (shared/seeds/004_c6f3edd906e65d27.txt).
// Original: the queue of lines 10-12, `addPhoto` of lines 27-37, `photos` of lines 55-66.
// No bug (row 20): `addPhoto` appends in a `dispatch_barrier_async` block (line 28) on a custom
// concurrent queue, and `photos` returns a copy made in a `dispatch_sync` block (line 59).
//
// Port notes: a photo is an `Int`. The notification `addPhoto` posts on the main queue
// (lines 32-35) is dropped: there is no main run loop here, and it touches no state.
// The post's class is a singleton; the port has a public initializer, so that every check
// starts from an empty manager.

import Foundation

/// The photo store of post 004: appends are barriers on a concurrent queue, reads copy `sync`.
///
/// ```swift
/// let manager = PhotoManager()
/// manager.addPhoto(7)  // returns before the append runs
/// manager.photos       // [7]: the read waits for the barrier
/// ```
public final class PhotoManager: @unchecked Sendable {
  /// A photo, reduced to a number.
  public typealias Photo = Int

  private var _photos: [Photo] = []
  private let concurrentPhotoQueue = DispatchQueue(
    label: "com.raywenderlich.GooglyPuff.photoQueue", attributes: .concurrent)

  /// Creates a manager with no photos and its own concurrent queue.
  public init() {}

  /// Appends `photo` later, on the queue.
  public func addPhoto(_ photo: Photo) {
    concurrentPhotoQueue.async(flags: .barrier) {
      self._photos.append(photo)
    }
  }

  /// A copy of the photos, oldest first.
  public var photos: [Photo] {
    concurrentPhotoQueue.sync { _photos }
  }
}
