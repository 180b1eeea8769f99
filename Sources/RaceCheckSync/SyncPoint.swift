/// A place where, under a checker, another thread may run: for code that reads shared memory outside the primitives.
///
/// The scheduler switches threads only at the primitives, so code that walks memory it
/// reached through them (an enumerator a queue handed out, say) runs in one piece under
/// it. A point inside such a loop lets other threads run between its steps, as they
/// may in production. With no scheduler it does nothing.
///
/// ```swift
/// let enumerator = array.objectEnumerator()
/// while let object = enumerator.nextObject() {
///   SyncPoint.yield("reading the enumerator")
///   values.append(object)
/// }
/// ```
public enum SyncPoint {
  /// Lets the scheduler run another thread here; `label` names the place in the trace.
  @inlinable
  @inline(__always)
  public static func yield(_ label: String) {
    SchedulerHook.active?.yield(label: label)
  }
}
