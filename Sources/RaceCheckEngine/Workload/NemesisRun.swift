import Synchronization

/// A nemesis at work during one workload run: injects its faults one at a time on a thread of its own and records each.
///
/// A fault is recorded when it begins and given its end when healed; a fault still on at
/// the stop is healed at once, so that every process is left running as it was found.
final class NemesisRun: Sendable {
  private let nemesis: Nemesis
  private let seed: UInt64
  private let started: MonotonicInstant
  private let stop: StopSignal
  private let recorded = Mutex<[RecordedHistory.Fault]>([])

  init(_ nemesis: Nemesis, seed: UInt64, started: MonotonicInstant, stop: StopSignal) {
    self.nemesis = nemesis
    self.seed = seed
    self.started = started
    self.stop = stop
  }

  /// The faults so far, with the clock's own times.
  var faults: [RecordedHistory.Fault] { recorded.withLock { $0 } }

  /// Injects faults until the stop, then heals the one that is on.
  func run() {
    switch nemesis.plan {
    case .fixed(let schedule):
      for planned in schedule {
        guard !stop.wait(until: started + planned.at),
          let target = nemesis.targets.first(where: { $0.name == planned.target })
        else { return }
        inject(planned.fault, into: target)
      }
    case .random(let faults, let quiet):
      var random = SplitMix64(seed: SplitMix64.derive(seed, 0x6E65_6D65))
      while !stop.wait(until: .now() + quiet) {
        let fault = faults[random.below(faults.count)]
        inject(fault, into: nemesis.targets[random.below(nemesis.targets.count)])
      }
    }
  }

  /// Injects `fault`, waits its length or the stop, and heals it.
  private func inject(_ fault: Nemesis.Fault, into target: Nemesis.Target) {
    do {
      switch fault {
      case .pause: try target.pause()
      case .kill: try target.kill?()
      }
    } catch {
      // A process that is not running (a kill its owner is still restarting) takes no fault.
      return
    }
    let index = recorded.withLock { faults in
      faults.append(
        RecordedHistory.Fault(
          kind: fault.kind, target: target.name, start: MonotonicInstant.now().nanoseconds,
          end: nil))
      return faults.count - 1
    }
    stop.wait(until: .now() + fault.length)
    do {
      switch fault {
      case .pause: try target.resume()
      case .kill: try target.restart?()
      }
      recorded.withLock { $0[index].end = MonotonicInstant.now().nanoseconds }
    } catch {
      // The fault stays on, recorded without an end: the report says it was never healed.
    }
  }
}
