import Dispatch

/// A dispatch queue whose blocks a checker can schedule: `DispatchQueue`'s shape, serial or concurrent.
///
/// Change the type name and the code under test becomes checkable; with no
/// scheduler installed every call forwards to the `DispatchQueue` inside.
///
/// ```swift
/// let queue = SyncQueue(label: "com.example.cache", attributes: .concurrent)
/// queue.async(flags: .barrier) { storage.value["k"] = 1 }
/// let value = queue.sync { storage.value["k"] }
/// ```
public final class SyncQueue: Sendable {
  /// The queue's kind, as `DispatchQueue.Attributes` gives it.
  public struct Attributes: OptionSet, Sendable {
    /// The attributes as bits.
    public let rawValue: Int
    /// Creates attributes from their raw value.
    public init(rawValue: Int) { self.rawValue = rawValue }
    /// Blocks may run in parallel, except barriers.
    public static let concurrent = Attributes(rawValue: 1)
  }

  /// How a block is submitted, as `DispatchWorkItemFlags` gives it.
  public struct Flags: OptionSet, Sendable {
    /// The flags as bits.
    public let rawValue: Int
    /// Creates flags from their raw value.
    public init(rawValue: Int) { self.rawValue = rawValue }
    /// The block waits for every earlier block and holds back every later one (custom concurrent queues only).
    public static let barrier = Flags(rawValue: 1)
  }

  /// The label the queue was created with.
  public let label: String
  /// Whether non-barrier blocks may run in parallel.
  public let isConcurrent: Bool
  /// Whether this is one of the global queues, which ignore barriers.
  public let isGlobal: Bool
  /// The real queue every call forwards to when no scheduler controls the calling thread.
  public let dispatchQueue: DispatchQueue

  /// Creates a queue, serial unless `attributes` contains `.concurrent`.
  public init(label: String, attributes: Attributes = []) {
    self.label = label
    isConcurrent = attributes.contains(.concurrent)
    isGlobal = false
    dispatchQueue = DispatchQueue(
      label: label, attributes: isConcurrent ? [.concurrent] : [])
  }

  private init(global qos: DispatchQoS.QoSClass) {
    label = "global(\(qos))"
    isConcurrent = true
    isGlobal = true
    dispatchQueue = DispatchQueue.global(qos: qos)
  }

  private static let globalDefault = SyncQueue(global: .default)
  private static let globalUserInitiated = SyncQueue(global: .userInitiated)
  private static let globalUtility = SyncQueue(global: .utility)
  private static let globalBackground = SyncQueue(global: .background)
  private static let globalUserInteractive = SyncQueue(global: .userInteractive)

  /// The global concurrent queue of `qos`, the same object on every call; it ignores barriers, as GCD's do.
  public static func global(qos: DispatchQoS.QoSClass = .default) -> SyncQueue {
    switch qos {
    case .userInteractive: return globalUserInteractive
    case .userInitiated: return globalUserInitiated
    case .utility: return globalUtility
    case .background: return globalBackground
    default: return globalDefault
    }
  }

  /// Runs `work` on the queue and waits for it, as `DispatchQueue.sync` does.
  ///
  /// The non-throwing form most code calls: with no scheduler active it is
  /// `DispatchQueue.sync` itself, with no result box, so that it costs what the raw call does.
  @inlinable
  @inline(__always)
  public func sync<T>(execute work: () -> T) -> T {
    if let scheduler = SchedulerHook.active {
      return scheduledSync(scheduler, flags: [], work)
    }
    return dispatchQueue.sync(execute: work)
  }

  /// Runs `work` on the queue with `flags` and waits for it, as `DispatchQueue.sync(flags:execute:)` does.
  @inlinable
  @inline(__always)
  public func sync<T>(flags: Flags, execute work: () -> T) -> T {
    if let scheduler = SchedulerHook.active {
      return scheduledSync(scheduler, flags: flags, work)
    }
    if flags.contains(.barrier) {
      return dispatchQueue.sync(flags: .barrier, execute: work)
    }
    return dispatchQueue.sync(execute: work)
  }

  /// Runs a throwing `work` on the queue and waits for it, rethrowing its error.
  @inlinable
  public func sync<T, E: Error>(flags: Flags = [], execute work: () throws(E) -> T) throws(E) -> T {
    if let scheduler = SchedulerHook.active {
      return try scheduledSync(scheduler, flags: flags, work)
    }
    // `DispatchQueue.sync` rethrows untyped errors; a result box keeps `E`.
    var result: Result<T, E>?
    if flags.contains(.barrier) {
      dispatchQueue.sync(flags: .barrier) { result = Result(catching: work) }
    } else {
      dispatchQueue.sync { result = Result(catching: work) }
    }
    return try result!.get()
  }

  /// Submits `work` to run later on the queue, as `DispatchQueue.async` does.
  @inline(__always)
  public func async(flags: Flags = [], execute work: @escaping @Sendable () -> Void) {
    if let scheduler = SchedulerHook.active {
      scheduler.async(on: self, barrier: flags.contains(.barrier), work)
      return
    }
    if flags.contains(.barrier) {
      dispatchQueue.async(flags: .barrier, execute: work)
    } else {
      dispatchQueue.async(execute: work)
    }
  }

  @usableFromInline
  func scheduledSync<T, E: Error>(
    _ scheduler: any SyncScheduler, flags: Flags, _ work: () throws(E) -> T
  ) throws(E) -> T {
    var result: Result<T, E>?
    scheduler.sync(on: self, barrier: flags.contains(.barrier)) {
      result = Result(catching: work)
    }
    return try result!.get()
  }
}
