// Port of `NSSafeMutableDictionary` from post 001 (shared/seeds/001_8d5ada8a42e4f8e6.txt).
// Original: lines 167-240.
// No bug (row 9): reads run `dispatch_sync` and writes `dispatch_barrier_async` (lines 205 and
// 211) on a concurrent queue. Its queue label, "com.liwb.quene", is the array's too (line 199):
// harmless, since a label only names a queue.
//
// Port notes: keys are `String`s. Values are objects, `Sendable` because Swift 6 requires it of
// what crosses to a dispatch worker.

import Foundation

/// The dictionary wrapper of post 001: reads run `sync`, writes are barriers on a concurrent queue.
///
/// ```swift
/// let dictionary = NSSafeMutableDictionary()
/// dictionary.setObject(Token(value: 1), forKey: "a")
/// dictionary.objectForKey("a")  // Token(1)
/// ```
public final class NSSafeMutableDictionary: @unchecked Sendable {
  private var dictionary: [String: AnyObject] = [:]
  private let readWriteQuene = DispatchQueue(label: "com.liwb.quene", attributes: .concurrent)

  /// Creates an empty dictionary with its own concurrent queue.
  public init() {}

  /// Removes the value for `aKey` later, on the queue.
  public func removeObjectForKey(_ aKey: String) {
    readWriteQuene.async(flags: .barrier) {
      self.dictionary[aKey] = nil
    }
  }

  /// Sets the value for `aKey` to `anObject` later, on the queue.
  public func setObject(_ anObject: any AnyObject & Sendable, forKey aKey: String) {
    readWriteQuene.async(flags: .barrier) {
      self.dictionary[aKey] = anObject
    }
  }

  /// The value for `aKey`, or nil when there is none.
  public func objectForKey(_ aKey: String) -> AnyObject? {
    readWriteQuene.sync { dictionary[aKey] }
  }

  /// The keys, in no particular order.
  public var allKeys: [String] {
    readWriteQuene.sync { Array(dictionary.keys) }
  }

  /// The values, in no particular order.
  public var allValues: [AnyObject] {
    readWriteQuene.sync { Array(dictionary.values) }
  }
}
