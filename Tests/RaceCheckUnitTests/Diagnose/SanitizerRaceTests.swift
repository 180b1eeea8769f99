import CRaceCheckInterposer
import Dispatch
import Testing

@testable import RaceCheckEngine

extension UnitTestSuite {
  /// A Thread Sanitizer report, as the interposer logs it, is tied to the scenario's calls and named by what guarded each access.
  @Suite struct SanitizerRaceTests {
    /// One queue block of a logged access.
    struct Block {
      var kind: rc_race_queue_kind
      var barrier = false
      var serial: UInt32
      var label = "q"
    }

    /// One logged access.
    struct Side {
      var write = true
      var thread: Int32 = 0
      var call: Int64 = -1
      var asyncBlock = false
      var blocks: [Block] = []
      var locksHeld: Int32 = 0
      var releasedLock = false
      var queuesLeft: [UInt32] = []
      /// For the earlier access: whether its call had synchronized by the report (-1 unknown).
      var callSynchronized: Int32 = 0
    }

    static let scenario = Scenario(
      initial: [.init("write", ["a"])], parallel: [[.init("write", ["b"])], [.init("read")]])

    /// A record as the report hook writes it: `later` found the race, `earlier` conflicts with it.
    ///
    /// With `perAccess` each side's `locksHeld` is the report's own count for it; without, the
    /// later side's is the interposer's count of its thread's locks and `mutexes` the report's total.
    static func record(
      later: Side, earlier: Side, mutexes: Int32 = 0, perAccess: Bool = false
    ) -> rc_race_record {
      var record = rc_race_record()
      record.mutex_count = mutexes
      record.mutexes_per_access = perAccess ? 1 : 0
      func fill(_ access: inout rc_race_access, _ side: Side) {
        access.address = 0x7200_0000_1000
        access.size = 8
        access.is_write = side.write ? 1 : 0
        access.runner_thread = side.thread
        access.call_index = side.call
        access.in_async_block = side.asyncBlock ? 1 : 0
        access.locks_held = side.locksHeld
        access.released_lock = side.releasedLock ? 1 : 0
        access.block_count = Int32(side.blocks.count)
        access.call_synchronized = side.callSynchronized
        access.queues_left_count = Int32(side.queuesLeft.count)
        withUnsafeMutableBytes(of: &access.queues_left) { raw in
          for (index, serial) in side.queuesLeft.enumerated() {
            raw.storeBytes(of: serial, toByteOffset: index * 4, as: UInt32.self)
          }
        }
        withUnsafeMutableBytes(of: &access.blocks) { raw in
          let blocks = raw.bindMemory(to: rc_race_block.self)
          for (index, block) in side.blocks.enumerated() {
            blocks[index].kind = Int32(block.kind.rawValue)
            blocks[index].flagged_barrier = block.barrier ? 1 : 0
            blocks[index].queue_serial = block.serial
            withUnsafeMutableBytes(of: &blocks[index].label) { label in
              for (offset, byte) in block.label.utf8.enumerated() { label[offset] = byte }
            }
          }
        }
      }
      fill(&record.accesses.0, later)
      fill(&record.accesses.1, earlier)
      return record
    }

    static func decoded(
      later: Side, earlier: Side, mutexes: Int32 = 0, perAccess: Bool = false
    ) -> SanitizerRace.Decoded {
      SanitizerRace.decoded(
        record(later: later, earlier: earlier, mutexes: mutexes, perAccess: perAccess),
        scenario: scenario, stacks: SanitizerStacks())
    }

    @Test func blocksOfOneConcurrentQueueAreAQueueWithoutBarrier() {
      let queue = Block(kind: RC_RACE_QUEUE_CONCURRENT, serial: 7, label: "www.nnn.com")
      let found = Self.decoded(
        later: Side(thread: 0, call: 1, blocks: [queue]),
        earlier: Side(write: false, thread: 1, call: 2, blocks: [queue]))
      #expect(found.diagnosis.pattern == .concurrentQueueWithoutBarrier)
      #expect(found.diagnosis.evidence.contains("'www.nnn.com'"))
      #expect(found.race.later.call == Scenario.Call("write", ["b"]))
      #expect(found.race.earlier.call == Scenario.Call("read"))
      #expect(found.race.later.guarding == "in a block on the concurrent queue 'www.nnn.com'")
    }

    @Test func blocksOfTwoConcurrentQueuesAreOnlyADataRace() {
      let found = Self.decoded(
        later: Side(blocks: [Block(kind: RC_RACE_QUEUE_CONCURRENT, serial: 7)]),
        earlier: Side(thread: 1, blocks: [Block(kind: RC_RACE_QUEUE_CONCURRENT, serial: 8)]))
      #expect(found.diagnosis.pattern == .dataRace)
    }

    @Test func queuesOfUnknownSerialAreNeverTakenForOne() {
      let unknown = Block(kind: RC_RACE_QUEUE_CONCURRENT, serial: 0)
      let found = Self.decoded(
        later: Side(blocks: [unknown]), earlier: Side(thread: 1, blocks: [unknown]))
      #expect(found.diagnosis.pattern == .dataRace)
    }

    @Test func aBarrierOnAGlobalQueueIsNamedWhicheverAccessRanInIt() {
      let global = Block(kind: RC_RACE_QUEUE_GLOBAL, serial: 3)
      var barrier = global
      barrier.barrier = true
      for (later, earlier) in [([barrier], [global]), ([global], [barrier])] {
        let found = Self.decoded(
          later: Side(call: 1, asyncBlock: true, blocks: later),
          earlier: Side(write: false, thread: 1, blocks: earlier))
        #expect(found.diagnosis.pattern == .barrierOnGlobalQueue)
      }
    }

    // A user's download queue appended on the global queue from two blocks: the two blocks
    // were once "guarded by different primitives", though a global queue excludes nothing.
    @Test func blocksOfTheGlobalQueueGuardNothing() {
      let global = Block(kind: RC_RACE_QUEUE_GLOBAL, serial: 3, label: "com.apple.root.default-qos")
      let found = Self.decoded(
        later: Side(call: 1, asyncBlock: true, blocks: [global]),
        earlier: Side(thread: 1, call: 2, asyncBlock: true, blocks: [global]))
      #expect(found.diagnosis.pattern == .unsynchronizedAccess)
      #expect(!found.diagnosis.evidence.contains("different primitives"))
      #expect(
        found.race.later.guarding
          == "in a block on the global queue 'com.apple.root.default-qos', which excludes nothing")
      // A lock held inside the block guards the access, whatever queue runs it.
      let locked = Self.decoded(
        later: Side(call: 1, asyncBlock: true, blocks: [global], locksHeld: 1),
        earlier: Side(thread: 1, call: 2, asyncBlock: true, blocks: [global], locksHeld: 1),
        mutexes: 2, perAccess: true)
      #expect(locked.diagnosis.pattern == .dataRace)
      #expect(locked.race.later.guarding.hasSuffix("'com.apple.root.default-qos'"))
    }

    @Test func noGuardAtAllIsAnUnsynchronizedAccess() {
      let found = Self.decoded(later: Side(call: 1), earlier: Side(thread: 1, call: 2))
      #expect(found.diagnosis.pattern == .unsynchronizedAccess)
      #expect(found.race.later.guarding == "with no synchronization at all")
    }

    @Test func anUnguardedEarlierAccessWhoseCallSynchronizedIsOnlyADataRace() {
      // Its call released a lock or left a queue by the report, perhaps before the access,
      // perhaps after: neither "no synchronization at all" nor a more specific name is proven.
      for known in [Int32(1), -1] {
        let found = Self.decoded(
          later: Side(call: 1), earlier: Side(thread: 1, call: 2, callSynchronized: known))
        #expect(found.diagnosis.pattern == .dataRace)
      }
    }

    @Test func aReadAfterLeavingTheQueueWhileABlockOnItWritesIsEscapedStorage() {
      let queue = Block(kind: RC_RACE_QUEUE_CONCURRENT, barrier: true, serial: 9, label: "array")
      let found = Self.decoded(
        later: Side(write: false, call: 1, queuesLeft: [9]),
        earlier: Side(thread: 1, call: 2, asyncBlock: true, blocks: [queue]))
      #expect(found.diagnosis.pattern == .escapedLiveStorage)
      #expect(found.race.later.guarding == "outside the queue its call had used")
    }

    @Test func anAccessAfterItsCallReleasedALockIsAnAtomicReference() {
      let found = Self.decoded(
        later: Side(call: 1, releasedLock: true), earlier: Side(thread: 1, call: 2))
      #expect(found.diagnosis.pattern == .atomicReferenceNonAtomicContents)
    }

    @Test func aLockHeldByTheEarlierAccessIsCountedFromTheReport() {
      // The report counts one mutex and the later access held none: the earlier one held it.
      let found = Self.decoded(
        later: Side(call: 1, releasedLock: true), earlier: Side(thread: 1, call: 2), mutexes: 1)
      #expect(found.race.earlier.guarding == "holding 1 lock")
      #expect(
        found.race.later.guarding == "with no lock held, after its operation had released one")
    }

    // The report of row 40 that swapped its guards: the unlocked read on the main thread found
    // the race, whose thread the interposer counted one lock for (one racecheck's code held),
    // and the write under the lock came first. The report's own mutexes of each access decide.
    @Test func eachAccessKeepsTheMutexesTheReportSaysItHeld() {
      let found = Self.decoded(
        later: Side(write: false, call: 1, locksHeld: 0),
        earlier: Side(thread: 1, call: 2, locksHeld: 1), mutexes: 1, perAccess: true)
      #expect(found.race.later.guarding == "with no synchronization at all")
      #expect(found.race.earlier.guarding == "holding 1 lock")
      #expect(found.diagnosis.pattern == .unsynchronizedAccess)
      // The other way round: the locked write found the race.
      let reversed = Self.decoded(
        later: Side(call: 2, locksHeld: 1),
        earlier: Side(write: false, thread: 1, call: 1, locksHeld: 0), mutexes: 1,
        perAccess: true)
      #expect(reversed.race.later.guarding == "holding 1 lock")
      #expect(reversed.race.earlier.guarding == "with no synchronization at all")
    }

    @Test func twoAccessesUnderDifferentMutexesAreOnlyADataRace() {
      let found = Self.decoded(
        later: Side(call: 1, locksHeld: 1), earlier: Side(thread: 1, call: 2, locksHeld: 1),
        mutexes: 2, perAccess: true)
      #expect(found.race.later.guarding == "holding 1 lock")
      #expect(found.race.earlier.guarding == "holding 1 lock")
      #expect(found.diagnosis.pattern == .dataRace)
    }

    // The frames of the report a `completing:` spec gave: both accesses in racecheck's wait.
    static let completionWait = FrameKind.classify(
      symbol:
        "$s9RaceCheck14CompletionWaitC5value2of7timeout2on7runningAA5ValueOAA8ScenarioV4CallV_s8DurationVAA0L8ExecutorCSgAJyYaYbKctKF",
      module: "racecheck")
    static let mutexStoreSet = FrameKind.classify(
      symbol: "$s8Fixtures10MutexStoreC3setyySS_SitFySDySSSiGzYuYTXEfU_", module: "racecheck")
    static let withLock = FrameKind.classify(
      symbol:
        "$s15Synchronization5MutexVAARi_zrlE8withLockyqd__qd__xzYuqd_0_YKYTXEqd_0_YKs5ErrorRd_0_Ri_d__r0_lF",
      module: "racecheck")
    static let runColumn = FrameKind.classify(
      symbol: "$s9RaceCheck12StressRunnerC9runColumn33_F27911BC6B1B6696D4CD3CFCBADA47ABLLyySiF",
      module: "racecheck")

    @Test func recordedFramesAreClassifiedAsTheReportsWere() {
      #expect(Self.completionWait == .raceCheck)
      #expect(Self.mutexStoreSet == .user)
      #expect(Self.withLock == .runtime)
      #expect(Self.runColumn == .raceCheck)
    }

    @Test func aRaceBothOfWhoseAccessesAreInRaceChecksCodeIsRaceChecksOwn() {
      let wait = [Self.withLock, Self.completionWait, Self.runColumn]
      #expect(SanitizerRace.isRaceChecksOwn(wait, [.system, .runtime] + wait))
    }

    @Test func aRaceWithAnAccessInTheUsersCodeIsTheSubjects() {
      let store = [Self.withLock, Self.mutexStoreSet, Self.runColumn]
      let wait = [Self.completionWait, Self.runColumn]
      // The user's frame is innermost on one side: racecheck's frames below it only called it.
      #expect(!SanitizerRace.isRaceChecksOwn(store, wait))
      #expect(!SanitizerRace.isRaceChecksOwn(wait, store))
      #expect(!SanitizerRace.isRaceChecksOwn(store, store))
      // A stack of the runtime's frames alone is not known to be racecheck's.
      #expect(!SanitizerRace.isRaceChecksOwn([.runtime, .foundation], wait))
    }

    @Test func anAccessOutsideEveryCallHasNoCall() {
      let found = Self.decoded(
        later: Side(thread: -1, call: -1), earlier: Side(thread: 1, call: 99))
      #expect(found.race.later.runnerThread == nil)
      #expect(found.race.later.call == nil)
      #expect(found.race.later.onOtherThread)
      // Index 99 is past the scenario's calls: no call is made up for it.
      #expect(found.race.earlier.call == nil)
    }

    @Test func aQueueThatOrdersItsAccessesGivesNoReport() {
      // Under Thread Sanitizer the interposer marks the blocks and takes reports; without it, nothing does.
      let log = SanitizerRaceLog()
      log.invocationStarts()
      let queue = DispatchQueue(label: "ordered")
      let box = Counter()
      DispatchQueue.concurrentPerform(iterations: 4) { _ in queue.sync { box.value += 1 } }
      log.waitForPendingBlocks()
      #expect(box.value == 4)
      #expect(log.takeReport() == nil)
    }
  }
}

/// A counter only a serial queue touches.
private final class Counter: @unchecked Sendable {
  var value = 0
}
