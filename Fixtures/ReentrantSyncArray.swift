// Port of `ReentrantSyncArray` from post 004 (shared/seeds/004_c6f3edd906e65d27.txt).
// Original: the warning of lines 44-45, that `dispatch_sync` onto the serial queue one is
// running on deadlocks; the post shows no code for it.
// Bug (row 22): `addIfAbsent(_:)` runs `sync` on the serial queue and, inside it, calls the
// public `contains(_:)`, which runs `sync` on the same queue again. The inner block waits for
// the outer one to finish, which waits for the inner one. Linux's libdispatch detects it and
// traps ("dispatch_sync called on queue already owned by current thread"); elsewhere it hangs.
// The first `addIfAbsent` fails, even from one thread.
//
// Port notes: the class is the port's, written in `PhotoManager`'s style (the post's code is
// Swift), with an element reduced to an `Int`. `append(_:)` and `contains(_:)` are correct
// on their own; only their composition in `addIfAbsent(_:)` re-enters the queue.

import Foundation

/// An array on a serial queue whose `addIfAbsent(_:)` calls `sync` from inside its own `sync`.
///
/// ```swift
/// let array = ReentrantSyncArray()
/// array.append(1)       // fine
/// array.addIfAbsent(2)  // traps on Linux, deadlocks elsewhere
/// ```
public final class ReentrantSyncArray: @unchecked Sendable {
  private var elements: [Int] = []
  private let serialQueue = DispatchQueue(label: "com.raywenderlich.GooglyPuff.serialQueue")

  /// Creates an empty array with its own serial queue.
  public init() {}

  /// Appends `element`.
  public func append(_ element: Int) {
    serialQueue.sync { elements.append(element) }
  }

  /// Whether the array holds `element`.
  public func contains(_ element: Int) -> Bool {
    serialQueue.sync { elements.contains(element) }
  }

  /// Appends `element` unless the array holds it; re-enters the queue it runs on (row 22's bug).
  public func addIfAbsent(_ element: Int) {
    serialQueue.sync {
      // `contains(_:)` runs `sync` on `serialQueue`, which this block already occupies.
      if !contains(element) {
        elements.append(element)
      }
    }
  }
}
