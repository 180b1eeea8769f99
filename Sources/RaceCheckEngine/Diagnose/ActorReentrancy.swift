/// Names `actor-reentrancy`: a call ran on an actor while another call's method was suspended at an `await`, and the failure goes away when that method's calls run alone.
///
/// The hops of a failing invocation (``ExecutorHop``) show the interleaving: a call
/// that leaves an actor for code of no actor, with the rest of an actor method as its
/// continuation, is suspended at that `await`; another call that leaves the same actor
/// before the first one leaves it again was running on the actor, which runs one job at
/// a time, while the first was suspended. That alone does not make the failure: the
/// diagnosis also needs the same scenario to pass when the suspended call's operation
/// runs alone, with no other call in flight during it.
enum ActorReentrancy {
  /// A suspension of one call inside which another call ran on the same actor.
  struct Reentry: Equatable {
    /// The suspended call, by its index in the history.
    var suspended: Int
    /// The code after the `await` the operation's method was suspended at.
    var suspensionPoint: SymbolizedFrame
    /// The code after the innermost `await`, when the method awaits through a function of its own.
    var innermostAwait: SymbolizedFrame?
    /// The call that ran on the actor meanwhile, by its index in the history.
    var entered: Int
  }

  /// The first suspension of `hops` inside which another call left the same actor.
  ///
  /// `continuation` symbolizes a continuation. A hop's chain of continuations runs from
  /// where the task goes on to the operation's closure (the outermost of the user's frames
  /// that is no compiler glue) and racecheck's code around it. A hop whose task goes on in
  /// the closure itself is the method's return to it; one whose task goes on deeper, in a
  /// function the method awaits, is a suspension inside the method. The suspension point is
  /// the outermost frame inside the closure that is no closure itself: the method, unless
  /// the optimizer inlined it into the closure, which is then the frame that holds the
  /// `await`.
  static func reentry(
    in hops: [ExecutorHop], continuation: (CodeAddress) -> SymbolizedFrame?
  ) -> Reentry? {
    for (position, hop) in hops.enumerated() {
      guard let actor = hop.leftExecutor else { continue }
      // Compiler glue around the closure (a partial application) is no frame of its own.
      let chain = hop.continuations.map(continuation).filter { $0?.isGlue != true }
      let operation = chain.prefix { $0?.kind != .raceCheck }
      guard let closure = operation.lastIndex(where: { $0?.kind == .user }),
        closure > operation.startIndex, let closureFrame = operation[closure]
      else { continue }
      let inside = operation[..<closure].compactMap { $0 }.filter {
        $0.kind == .user && $0.isSymbolized
      }
      // Until the call leaves the actor again, it was off the actor or back on it; another
      // call that leaves the actor meanwhile was on it at a time the call was not.
      let resumed =
        hops[(position + 1)...].firstIndex { $0.call == hop.call && $0.leftExecutor == actor }
        ?? hops.endIndex
      if let entered = hops[(position + 1)..<resumed].first(where: {
        $0.call != hop.call && $0.leftExecutor == actor
      }) {
        // A spec may reach the method through closures of its own: the method is the
        // outermost frame inside them that is not a closure.
        let methods = inside.filter { $0.function?.hasPrefix("closure #") != true }
        let point = methods.last ?? inside.last ?? closureFrame
        let innermost = methods.first ?? inside.first
        return Reentry(
          suspended: hop.call, suspensionPoint: point,
          innermostAwait: innermost == point ? nil : innermost, entered: entered.call)
      }
    }
    return nil
  }

  /// The diagnosis, once `alone` invocations with the suspended call's operation run alone all passed.
  static func diagnosis(_ reentry: Reentry, history: History, passingAlone alone: Int)
    -> Diagnosis
  {
    let suspended = history.operations[reentry.suspended]
    let entered = history.operations[reentry.entered]
    func place(_ frame: SymbolizedFrame) -> String {
      [frame.function, frame.location()].compactMap { $0 }.joined(separator: " at ")
    }
    let inner = reentry.innermostAwait.map { " (inside \(place($0)))" } ?? ""
    return Diagnosis(
      .actorReentrancy,
      evidence:
        "\(suspended.callText) on thread \(suspended.process) was suspended at the await in "
        + "\(place(reentry.suspensionPoint))\(inner), "
        + "and \(entered.callText) on thread \(entered.process) ran on the actor before it resumed; "
        + "with the calls of \(suspended.name) run alone, all \(alone) invocations pass: "
        + "the method reads the actor's state, awaits, and goes on from what it read, while "
        + "another call changed it at the await")
  }
}
