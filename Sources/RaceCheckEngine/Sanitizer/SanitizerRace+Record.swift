import CRaceCheckInterposer

extension SanitizerRace {
  /// A race as the log recorded it: the report for `scenario`, with the name its guards give it.
  struct Decoded {
    var race: SanitizerRace
    var diagnosis: Diagnosis
  }

  /// Decodes `record`: ties each access to `scenario`'s calls, symbolizes its stack through `stacks`, and names the race.
  ///
  /// `cell` names the state at the race's address, when the scheduler knows it.
  static func decoded(
    _ record: rc_race_record, scenario: Scenario, stacks: SanitizerStacks, cell: String? = nil
  ) -> Decoded {
    let calls = scenario.allCalls
    var race = dataRace(of: record)
    if let cell { race.cell = cell }
    let modules = Self.modules(of: record)
    func access(_ access: rc_race_access, _ named: DataRace.Access) -> Access {
      let call =
        access.call_index >= 0 && access.call_index < calls.count
        ? calls[Int(access.call_index)] : nil
      let stack = stacks.stack(of: access, modules: modules)
      return Access(
        isWrite: access.is_write != 0, size: Int(access.size),
        runnerThread: access.runner_thread >= 0 ? Int(access.runner_thread) : nil, call: call,
        onOtherThread: access.runner_thread < 0 || access.in_async_block != 0,
        guarding: named.context.description, stack: stack.text, functions: stack.functions)
    }
    return Decoded(
      race: SanitizerRace(
        address: UInt(record.accesses.0.address), later: access(record.accesses.0, race.second),
        earlier: access(record.accesses.1, race.first)),
      diagnosis: Diagnoser.diagnose(.race(race)))
  }

  /// Whether both of `record`'s accesses were made by racecheck's own code, symbolizing their stacks through `stacks`.
  ///
  /// Such a report is about racecheck's memory (such as its wait for a completion
  /// handler), never about the class under test: it is no evidence against it.
  static func isRaceChecksOwn(_ record: rc_race_record, stacks: SanitizerStacks) -> Bool {
    let modules = Self.modules(of: record)
    return isRaceChecksOwn(
      stacks.stack(of: record.accesses.0, modules: modules).kinds,
      stacks.stack(of: record.accesses.1, modules: modules).kinds)
  }

  /// Whether each stack, given innermost first as the kinds of its frames, made its access in racecheck's code.
  ///
  /// An access belongs to the innermost frame that is the user's or racecheck's: the runtime,
  /// libdispatch, Foundation and the C library run on behalf of whichever code called them.
  /// A stack with neither is not known to be racecheck's.
  static func isRaceChecksOwn(_ stacks: [FrameKind]...) -> Bool {
    stacks.allSatisfy { kinds in
      kinds.first { $0 == .user || $0 == .raceCheck } == .raceCheck
    }
  }

  /// Whether `record`'s race gets a name more specific than the `data-race` family.
  ///
  /// Every mode puts a race named only by family after a failure that may name more: the
  /// results of the same run, a crash, or the scheduler's own account.
  static func namesItsBug(_ record: rc_race_record) -> Bool {
    Diagnoser.diagnose(.race(dataRace(of: record))).pattern != .dataRace
  }

  /// The race `record` reports, with what guarded each access: the name comes from ``DataRace``, as in schedule mode.
  ///
  /// The guards are the queue blocks each stack's marks show and the locks the report says
  /// were held. For the access that found the race the interposer also knows whether its
  /// call had released a lock or left a queue before; of the earlier one's call it knows only
  /// whether it had done neither by the time of the report, which proves it had not before.
  static func dataRace(of record: rc_race_record) -> DataRace {
    let (laterRecord, earlierRecord) = record.accesses
    let laterLocks = Int(max(0, laterRecord.locks_held))
    // The report says which mutexes each access held. Where it could not be read for that, it
    // still counts those either held: the ones the later access's thread did not hold were
    // the earlier one's.
    let earlierLocks =
      record.mutexes_per_access != 0
      ? Int(max(0, earlierRecord.locks_held)) : max(0, Int(record.mutex_count) - laterLocks)
    func named(
      _ access: rc_race_access, role: Int, locks: Int, released: Bool?, queuesLeft: [UInt]?
    ) -> DataRace.Access {
      let context = AccessContext(
        thread: access.runner_thread >= 0 ? "thread \(access.runner_thread)" : "a dispatch worker",
        blocks: Self.blocks(of: access, role: role), locksHeld: locks,
        synchronizedEarlier: released, queuesLeft: queuesLeft)
      return DataRace.Access(kind: access.is_write != 0 ? .write : .read, context: context)
    }
    let left = withUnsafeBytes(of: laterRecord.queues_left) { raw in
      raw.bindMemory(to: UInt32.self).prefix(
        Int(min(max(0, laterRecord.queues_left_count), Int32(RC_RACE_BLOCKS)))
      ).map(UInt.init)
    }
    let quiet = earlierRecord.call_synchronized == 0
    return DataRace(
      cell: "the value at 0x\(String(UInt(laterRecord.address), radix: 16))",
      first: named(
        earlierRecord, role: 1, locks: earlierLocks, released: quiet ? false : nil,
        queuesLeft: quiet ? [] : nil),
      second: named(
        laterRecord, role: 0, locks: laterLocks, released: laterRecord.released_lock == 1,
        queuesLeft: left))
  }

  /// The queue blocks an access ran in, innermost last.
  private static func blocks(of access: rc_race_access, role: Int) -> [AccessContext.Block] {
    let count = min(Int(access.block_count), Int(RC_RACE_BLOCKS))
    return withUnsafeBytes(of: access.blocks) { raw in
      let blocks = raw.bindMemory(to: rc_race_block.self)
      return (0..<count).map { index in
        var block = blocks[index]
        let kind = rc_race_queue_kind(rawValue: UInt32(block.kind))
        let label = withUnsafeBytes(of: &block.label) { bytes in
          String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
        }
        let flagged = block.flagged_barrier != 0
        return AccessContext.Block(
          // A queue of unknown serial number is told apart from every other one.
          queue: block.queue_serial != 0
            ? UInt(block.queue_serial) : UInt.max - UInt(role * Int(RC_RACE_BLOCKS) + index),
          name: label, isConcurrent: kind != RC_RACE_QUEUE_SERIAL,
          isGlobal: kind == RC_RACE_QUEUE_GLOBAL, flaggedBarrier: flagged,
          isBarrier: flagged && kind != RC_RACE_QUEUE_GLOBAL)
      }
    }
  }

  /// The paths of the images the record's frames are in, by index.
  private static func modules(of record: rc_race_record) -> [String] {
    var record = record
    let count = min(Int(record.module_count), Int(RC_RACE_MODULES))
    return withUnsafeBytes(of: &record.modules) { raw in
      (0..<count).map { index in
        let path = raw[
          (index * Int(RC_RACE_MODULE_PATH))..<((index + 1) * Int(RC_RACE_MODULE_PATH))]
        return String(decoding: path.prefix { $0 != 0 }, as: UTF8.self)
      }
    }
  }
}

/// Symbolizes the stacks of race reports, each distinct stack once: shrinking sees the same race again and again.
final class SanitizerStacks {
  /// A stack as a report shows it.
  struct Rendered {
    var text: String
    var functions: [String]
    /// Whose code each frame is, innermost first.
    var kinds: [FrameKind]
  }

  private let symbolizer: Symbolizer
  private var rendered: [[RawFrame]: Rendered] = [:]

  /// Creates an empty set of stacks named by `symbolizer`, by default one llvm-symbolizer kept for them all.
  init(symbolizer: Symbolizer = Symbolizer(session: SymbolizerSession())) {
    self.symbolizer = symbolizer
  }

  /// The stack of `access`, whose frames name their images by index into `modules`.
  func stack(of access: rc_race_access, modules: [String]) -> Rendered {
    let count = min(Int(access.frame_count), Int(RC_RACE_FRAMES))
    let frames = withUnsafeBytes(of: access.pcs) { pcs in
      withUnsafeBytes(of: access.offsets) { offsets in
        withUnsafeBytes(of: access.modules) { images in
          (0..<count).map { index in
            let image = Int(images.bindMemory(to: Int8.self)[index])
            let known = image >= 0 && image < modules.count
            return RawFrame(
              pc: UInt(pcs.bindMemory(to: UInt64.self)[index]),
              module: known ? modules[image] : nil,
              offset: known ? UInt(offsets.bindMemory(to: UInt64.self)[index]) : nil)
          }
        }
      }
    }
    if let known = rendered[frames] { return known }
    let stack = symbolizer.symbolize(frames, firstFrameIsFault: false)
    let result = Rendered(
      text: stack.render(), functions: stack.frames.compactMap(\.function),
      kinds: stack.frames.map(\.kind))
    rendered[frames] = result
    return result
  }
}
