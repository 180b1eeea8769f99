import CRaceCheckInterposer

extension SanitizerRace {
  /// A race as the log recorded it: the report for `scenario`, with the name its guards give it.
  struct Decoded {
    var race: SanitizerRace
    var diagnosis: Diagnosis
  }

  /// Decodes `record`: ties each access to `scenario`'s calls, symbolizes its stack through `stacks`, and names the race.
  ///
  /// The name comes from ``DataRace``, as in schedule mode, from what guarded each access:
  /// the queue blocks its stack's marks show, the locks the report says were held, and for
  /// the access that found the race whether its call had released a lock before.
  static func decoded(_ record: rc_race_record, scenario: Scenario, stacks: SanitizerStacks)
    -> Decoded
  {
    let calls = scenario.allCalls
    let (laterRecord, earlierRecord) = record.accesses
    let laterLocks = Int(max(0, laterRecord.locks_held))
    // The report counts the mutexes either access held; those the later one did not hold were the earlier one's.
    let earlierLocks = max(0, Int(record.mutex_count) - laterLocks)
    func access(_ access: rc_race_access, role: Int, locks: Int, released: Bool) -> (
      Access, DataRace.Access
    ) {
      let runnerThread = access.runner_thread >= 0 ? Int(access.runner_thread) : nil
      let call =
        access.call_index >= 0 && access.call_index < calls.count
        ? calls[Int(access.call_index)] : nil
      let blocks = Self.blocks(of: access, role: role)
      let onOtherThread = access.runner_thread < 0 || access.in_async_block != 0
      let context = AccessContext(
        thread: runnerThread.map { "thread \($0)" } ?? "a dispatch worker", blocks: blocks,
        locksHeld: locks, synchronizedEarlier: released)
      let stack = stacks.stack(of: access, modules: Self.modules(of: record))
      return (
        Access(
          isWrite: access.is_write != 0, size: Int(access.size), runnerThread: runnerThread,
          call: call, onOtherThread: onOtherThread, guarding: context.description,
          stack: stack.text, functions: stack.functions),
        DataRace.Access(kind: access.is_write != 0 ? .write : .read, context: context)
      )
    }
    let later = access(
      laterRecord, role: 0, locks: laterLocks, released: laterRecord.released_lock == 1)
    let earlier = access(earlierRecord, role: 1, locks: earlierLocks, released: false)
    let address = UInt(laterRecord.address)
    let race = DataRace(
      cell: "the value at 0x\(String(address, radix: 16))",
      first: earlier.1, second: later.1)
    return Decoded(
      race: SanitizerRace(address: address, later: later.0, earlier: earlier.0),
      diagnosis: race.diagnosis)
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
  }

  private let symbolizer = Symbolizer()
  private var rendered: [[RawFrame]: Rendered] = [:]

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
    let result = Rendered(text: stack.render(), functions: stack.frames.compactMap(\.function))
    rendered[frames] = result
    return result
  }
}
