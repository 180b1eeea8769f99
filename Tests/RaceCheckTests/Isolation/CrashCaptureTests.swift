import CRaceCheckSupport
import RaceCheck
import Testing

#if canImport(Glibc)
  import Glibc
#endif

extension RaceCheckTestSuite {
  /// The child's crash handler, the parent's stack request and the record parser, end to end.
  ///
  /// Each test spawns `racecheck-probe` (built next to the test bundle), which installs crash
  /// capture, marks scenario 3, invocation 17 and operation 2 on slot 0, then crashes or hangs.
  @Suite struct CrashCaptureTests {
    @Test func indexOutOfRangeDiesOfSIGILLWithItsStackAndFlightRecord() throws {
      let run = try ProbeRun(.indexOutOfRange)
      #expect(run.termination == .signaled(SIGILL))
      let crash = try run.onlyCrash()
      #expect(crash.signalName == "SIGILL")
      #expect(!crash.isTruncated)
      #expect(crash.frames.allSatisfy { $0.pc != 0 })
      // A debug build traps in the standard library's _assertionFailure; release traps inline.
      let top = try #require(crash.frames.first?.module)
      #expect(top.hasSuffix("/libswiftCore.so") || top.hasSuffix("/racecheck-probe"))
      #expect(crash.frames.prefix(6).contains { $0.module?.hasSuffix("/racecheck-probe") == true })
      #expect(crash.threadID == run.child.id)
      #expect(crash.scenario == 3 && crash.invocation == 17)
      #expect(crash.slot == 0 && crash.operation == 2)
      #expect(
        run.snapshot
          == FlightRecorder.Snapshot(
            scenario: 3, invocation: 17,
            threads: [.init(slot: 0, threadID: run.child.id, operation: 2)]))
    }

    @Test func forceUnwrapOfNilDiesOfSIGILLWithItsStack() throws {
      let run = try ProbeRun(.forceUnwrapNil)
      #expect(run.termination == .signaled(SIGILL))
      let crash = try run.onlyCrash()
      #expect(!crash.isTruncated)
      #expect(crash.frames.prefix(6).contains { $0.module?.hasSuffix("/racecheck-probe") == true })
    }

    @Test func trapOnADispatchWorkerIsReportedFromThatWorker() throws {
      let run = try ProbeRun(.dispatchWorkerTrap)
      #expect(run.termination == .signaled(SIGILL))
      let crash = try run.onlyCrash()
      #expect(!crash.isTruncated)
      #expect(crash.threadID != run.child.id)
      #expect(crash.slot == 1 && crash.operation == 4)
      #expect(run.snapshot.thread(inSlot: 1)?.threadID == crash.threadID)
      #expect(crash.frames.contains { $0.module?.hasSuffix("/libdispatch.so") == true })
    }

    @Test func abortDiesOfSIGABRTWithLibcOnTop() throws {
      let run = try ProbeRun(.abort)
      #expect(run.termination == .signaled(SIGABRT))
      let crash = try run.onlyCrash()
      #expect(crash.signalName == "SIGABRT")
      #expect(crash.frames.first?.module?.contains("/libc.so") == true)
      #expect(crash.frames.contains { $0.module?.hasSuffix("/racecheck-probe") == true })
    }

    @Test func nullDereferenceDiesOfSIGSEGVAtTheFaultingAddress() throws {
      let run = try ProbeRun(.nullDeref)
      #expect(run.termination == .signaled(SIGSEGV))
      let crash = try run.onlyCrash()
      #expect(crash.address == 0x10)
      #expect(crash.frames.first?.module?.hasSuffix("/racecheck-probe") == true)
      #expect(crash.frames.first?.offset != nil)
    }

    @Test func syncOntoTheCurrentQueueTrapsInLibdispatch() throws {
      let run = try ProbeRun(.syncOnCurrentQueue)
      #expect(run.termination == .signaled(SIGILL))
      let crash = try run.onlyCrash()
      #expect(crash.frames.first?.module?.hasSuffix("/libdispatch.so") == true)
    }

    @Test func stackOverflowOnAPreparedThreadIsReported() throws {
      let run = try ProbeRun(.stackOverflow)
      #expect(run.termination == .signaled(SIGSEGV))
      let crash = try run.onlyCrash()
      #expect(crash.threadName == "racecheck-1")
      #expect(crash.slot == 1 && crash.operation == 3)
      #expect(crash.frames.count == 128)  // the innermost frames; the rest are cut
      #expect(!crash.isTruncated)
    }

    @Test func aHungChildReportsEveryThreadsStack() throws {
      let run = try ProbeRun(.hang, waitForExit: false)
      // The shared flight recorder says when both runner threads have started; /proc, the workers.
      let started = ContinuousClock.now
      while run.recorder.snapshot().threads.count < 3 || run.threadCount() < 5 {
        try #require(
          ContinuousClock.now - started < .seconds(10), "the probe's threads never started")
        usleep(1_000)
      }
      let threads = try CrashCapture.requestStacks(fromProcess: run.child.id)
      let (bytes, _) = try run.pipe.read(timeout: .seconds(5)) { bytes in
        CrashRecord.parse(bytes: bytes).filter { !$0.isTruncated }.count >= threads
      }
      try run.child.kill(SIGKILL)
      #expect(try run.child.wait() == .signaled(SIGKILL))

      let records = CrashRecord.parse(bytes: bytes)
      #expect(threads >= 5)  // main, two runner threads, two blocked dispatch workers
      #expect(records.count == threads)
      #expect(records.allSatisfy { $0.kind == .stack && $0.signalName == "SIGPROF" })
      #expect(records.allSatisfy { !$0.isTruncated && !$0.frames.isEmpty })
      #expect(Set(records.map(\.threadID)).count == threads)
      let blocked = records.filter { $0.slot == 1 || $0.slot == 2 }
      #expect(Set(blocked.map(\.threadName)) == ["racecheck-1", "racecheck-2"])
      #expect(Set(blocked.compactMap(\.operation)) == [5, 6])
      #expect(blocked.allSatisfy { $0.scenario == 3 && $0.invocation == 17 })
      #expect(records.first { $0.threadID == run.child.id }?.slot == 0)
    }

    @Test func flightRecorderMarksAreSeenThroughASecondMapping() throws {
      let recorder = try FlightRecorder()
      let mapped = try FlightRecorder(mappingFileDescriptor: recorder.fileDescriptor)
      mapped.beginInvocation(scenario: 9, invocation: 4)
      mapped.registerThread(3)
      mapped.beginOperation(thread: 3, index: 11)
      mapped.beginOperation(thread: 5, index: 1)
      mapped.endOperation(thread: 5)
      #expect(
        recorder.snapshot()
          == FlightRecorder.Snapshot(
            scenario: 9, invocation: 4,
            threads: [.init(slot: 3, threadID: rc_gettid(), operation: 11)]))
      mapped.beginInvocation(scenario: 9, invocation: 5)
      #expect(recorder.snapshot().thread(inSlot: 3)?.operation == nil)
    }
  }
}

extension RaceCheckTestSuite.CrashCaptureTests {
  /// The record parser on input a dying child can leave: cut short, or mixed with noise.
  @Suite struct Parsing {
    static let complete = """
      racecheck-crash v1 kind=crash signal=11 code=1 addr=0x10 pid=42 tid=43 thread=my%20worker \
      scenario=3 invocation=17 slot=1 operation=4 mode=1 frames=2
      pc 0x55d4c3a1b2c4
      pc 0x7f0000001234
      module 0x55d4c3a1b2c4 0x1b2c4 /path/with%20space/racecheck
      end

      """

    @Test func aCompleteRecordParsesEveryField() throws {
      let record = try #require(CrashRecord.parse(Self.complete).first)
      #expect(
        record
          == CrashRecord(
            kind: .crash, signal: 11, code: 1, address: 0x10, processID: 42, threadID: 43,
            threadName: "my worker", scenario: 3, invocation: 17, slot: 1, operation: 4,
            ranScheduler: true,
            frames: [
              RawFrame(pc: 0x55d4_c3a1_b2c4, module: "/path/with space/racecheck", offset: 0x1b2c4),
              RawFrame(pc: 0x7f00_0000_1234),
            ]))
      #expect(record.signalName == "SIGSEGV")
    }

    @Test func onlyTheSchedulersModeMarksTheSchedulersOwnCode() throws {
      for (mode, ranScheduler) in [("0", false), ("2", false), ("1", true)] {
        let text = Self.complete.replacing("mode=1", with: "mode=\(mode)")
        #expect(CrashRecord.parse(text).first?.ranScheduler == ranScheduler)
      }
      // A record from a child that does not write the mode is not racecheck's.
      let older = Self.complete.replacing(" mode=1", with: "")
      #expect(CrashRecord.parse(older).first?.ranScheduler == false)
    }

    @Test func aRecordCutMidLineIsTruncatedAndKeepsWholeLines() throws {
      let secondFrame = try #require(Self.complete.firstRange(of: "pc 0x7f"))
      let cut = String(Self.complete[..<secondFrame.upperBound])  // stops inside the second pc line
      let record = try #require(CrashRecord.parse(cut).first)
      #expect(record.isTruncated)
      #expect(record.frames.map(\.pc) == [0x55d4_c3a1_b2c4])
    }

    @Test func recordsWithoutEndOrWithMissingFramesAreTruncated() {
      let withoutEnd = Self.complete.replacing("end\n", with: "")
      #expect(CrashRecord.parse(withoutEnd).map(\.isTruncated) == [true])
      let missingFrame = Self.complete.replacing("pc 0x7f0000001234\n", with: "")
      #expect(CrashRecord.parse(missingFrame).map(\.isTruncated) == [true])
      // A second header before `end` closes the first record as truncated.
      let twice = withoutEnd + Self.complete
      #expect(CrashRecord.parse(twice).map(\.isTruncated) == [true, false])
    }

    @Test func garbageIsSkippedAroundAndInsideRecords() {
      let noisy =
        "Fatal error: Index out of range\n\u{0}\u{FF}binary\npc 0x1\n"
        + Self.complete.replacing("pc 0x7f", with: "pc nonsense\npc 0x7f")
        + "racecheck-crash v2 kind=crash tid=1\npc 0x5\nend\nmodule 0x1 0x1 /x\n"
      let records = CrashRecord.parse(noisy)
      #expect(records.count == 1)
      #expect(records.first?.frames.count == 2)
      #expect(records.first?.isTruncated == false)
    }

    @Test func everyPrefixOfTwoRecordsParsesWithoutCrashing() {
      let text = Self.complete + Self.complete.replacing("kind=crash", with: "kind=stack")
      var bytes = Array(text.utf8)
      for length in 0...bytes.count {
        let records = CrashRecord.parse(bytes: bytes[..<length])
        #expect(records.count <= 2)
        if length < bytes.count { #expect(records.count < 2 || records[1].isTruncated) }
      }
      // Invalid UTF-8 and empty input are not errors either.
      bytes.insert(0xFF, at: 5)
      _ = CrashRecord.parse(bytes: bytes)
      #expect(CrashRecord.parse("").isEmpty)
    }
  }
}

/// One run of `racecheck-probe`: the child, its report pipe, its flight recorder.
private struct ProbeRun {
  let child: ChildProcess
  let pipe: ReportPipe
  let recorder: FlightRecorder
  /// How the child ended; nil when the run was started without waiting.
  var termination: ChildProcess.Termination?
  /// Everything the child wrote to its report pipe before it died.
  var records: [CrashRecord] = []

  /// The flight recorder's contents now (after death, what was in flight).
  var snapshot: FlightRecorder.Snapshot { recorder.snapshot() }

  /// Spawns the probe with `kind` and, unless `waitForExit` is false, reads its report until it dies.
  init(_ kind: ProbeKind, waitForExit: Bool = true) throws {
    pipe = try ReportPipe()
    recorder = try FlightRecorder()
    let devNull = open("/dev/null", O_WRONLY | O_CLOEXEC)
    defer { close(devNull) }
    child = try ChildProcess.spawn(
      executable: try Self.probePath(), arguments: [kind.rawValue],
      environment: ["RACECHECK_REPORT_FD": "3", "RACECHECK_FLIGHT_RECORDER_FD": "4"],
      fileDescriptors: [2: devNull, 3: pipe.writeEnd, 4: recorder.fileDescriptor])
    pipe.closeWriteEnd()
    guard waitForExit else { return }
    let (bytes, reachedEnd) = try pipe.read(timeout: .seconds(20))
    if !reachedEnd { try? child.kill(SIGKILL) }
    termination = try child.wait()
    records = CrashRecord.parse(bytes: bytes)
  }

  /// How many threads the child has now, from `/proc/<pid>/task`.
  func threadCount() -> Int {
    guard let directory = opendir("/proc/\(child.id)/task") else { return 0 }
    defer { closedir(directory) }
    var count = 0
    while let entry = readdir(directory) {
      if entry.pointee.d_name.0 != UInt8(ascii: ".") { count += 1 }
    }
    return count
  }

  /// The one crash record the run must have produced.
  func onlyCrash() throws -> CrashRecord {
    try #require(records.count == 1, "expected one record, got \(records)")
    let record = records[0]
    try #require(record.kind == .crash)
    return record
  }

  /// `racecheck-probe` in the build products folder, where the test bundle itself runs from.
  static func probePath() throws -> String {
    try BuildProducts.path(of: "racecheck-probe")
  }
}

/// The probe's kinds, as its command line names them.
private enum ProbeKind: String {
  case indexOutOfRange = "index-out-of-range"
  case forceUnwrapNil = "force-unwrap-nil"
  case dispatchWorkerTrap = "dispatch-worker-trap"
  case abort = "abort"
  case nullDeref = "null-deref"
  case syncOnCurrentQueue = "sync-on-current-queue"
  case stackOverflow = "stack-overflow"
  case hang = "hang"
}
