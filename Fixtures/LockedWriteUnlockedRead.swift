// Written for racecheck, not ported from the posts: row 40.
// Bug (row 40): a size whose width and height are written together under a lock, but whose
// read on the main thread skips the lock ("only the main thread reads it, and reads are
// safe"): row 26's shape on plain integers, so that no read can meet freed memory. A write
// between the read of the width and the read of the height gives the main thread a size that
// was never stored. Thread Sanitizer reports the locked write and the unlocked read, and the
// lock is the write's: the read has no synchronization at all.

import Foundation

/// A width and a height written together under a lock, read without it on the main thread.
///
/// ```swift
/// let size = LockedWriteUnlockedRead()
/// size.update([3, 3])   // under the lock
/// size.dimensions       // on the main thread: no lock
/// ```
public final class LockedWriteUnlockedRead: @unchecked Sendable {
  private var width = 0
  private var height = 0
  private let lock = NSLock()

  /// Creates a size of zero by zero.
  public init() {}

  /// Stores a width and a height together, under the lock.
  public func update(_ dimensions: [Int]) {
    lock.withLock {
      width = dimensions[0]
      height = dimensions[1]
    }
  }

  /// The width and the height; on the main thread read without the lock (row 40's bug).
  public var dimensions: [Int] {
    if Thread.isMainThread { return [width, height] }
    return lock.withLock { [width, height] }
  }
}
