import Foundation
import RaceCheck
import Testing

#if canImport(Glibc)
  import Glibc
#endif

extension RaceCheckTestSuite {
  @Suite struct SymbolizerTests {
    // MARK: Real frames of this process

    @Test func returnAddressIsNamedWithItsFunctionFileAndCallLine() throws {
      let (addresses, line) = Self.captureStack()
      let stack = Symbolizer().symbolize(addresses.map(Self.rawFrame), firstFrameIsFault: false)

      let frame = try #require(stack.frames.first { $0.function?.contains("captureStack") == true })
      #expect(frame.file?.hasSuffix("Isolation/SymbolizerTests.swift") == true)
      #expect(frame.line == line)
      #expect(frame.kind == .user)
      #expect(stack.firstUserFrame == frame, "Foundation's frame above it is not the user's")
      #expect(stack.problem == nil)
    }

    @Test func faultingAddressIsNotMovedBackToAPreviousInstruction() throws {
      // A C function pointer to a Swift function is the entry of its `@objc` thunk, which the
      // compiler places right after the function's body: one byte back is another function.
      let function: @convention(c) () -> Int32 = returnsFortyTwo
      let frame = Self.rawFrame(unsafeBitCast(function, to: UInt.self))
      let stack = Symbolizer().symbolize([frame], firstFrameIsFault: true)

      #expect(stack.frames.map(\.function) == ["@objc returnsFortyTwo()"])
      #expect(stack.frames.first?.kind == .user)
    }

    @Test func thirtyFrameBatchIsSymbolizedInOneRunWellWithinItsTimeout() throws {
      let (addresses, _) = Self.captureStack()
      var frames = addresses.map(Self.rawFrame)
      while frames.count < 30 { frames += frames }
      frames = Array(frames.prefix(30))

      // No problem means no timeout: the symbolizer's own deadline is the bound, not a wall
      // clock read by the test, which a busy machine would turn into a flaky assertion.
      let stack = Symbolizer().symbolize(frames, firstFrameIsFault: false)
      #expect(stack.problem == nil)
      #expect(stack.frames.count >= 30)
    }

    // MARK: Demangling and classification

    @Test func swiftNamesAreDemangledToTheSimplifiedForm() {
      #expect(SwiftSymbolName.demangle("$sSayxSicigSi_Tg5") == "specialized Array.subscript.getter")
      #expect(SwiftSymbolName.demangle("$s3rel4pickySiSaySiG_SitF") == "pick(_:_:)")
      #expect(SwiftSymbolName.demangle("_dispatch_client_callout") == nil)
    }

    @Test func mangledNameBelongsToItsModuleOrToTheModuleOfItsExtension() {
      #expect(
        SwiftSymbolName.module(ofMangled: "$s8Fixtures10HLockArrayC13indexOfObjectySiyXlF")
          == "Fixtures")
      #expect(
        SwiftSymbolName.module(ofMangled: "$s9RaceCheck06StressB0V11explanationyyF") == "RaceCheck")
      #expect(SwiftSymbolName.module(ofMangled: "$sSayxSicigSi_Tg5") == "Swift")
      #expect(
        SwiftSymbolName.module(ofMangled: "$sSJ9RaceCheckE13isPlainLetterSbvg") == "RaceCheck")
      #expect(SwiftSymbolName.module(ofMangled: "$sytIegr_ytIegd_TR") == nil)
    }

    @Test func framesAreClassifiedBySymbolFirstAndImageSecond() {
      let cases: [(symbol: String?, module: String?, kind: FrameKind)] = [
        ("$s8Fixtures10HLockArrayC13indexOfObjectySiyXlF", "racecheck", .user),
        ("$sSayxSicigSi_Tg5", "racecheck", .runtime),
        ("$s9RaceCheck06StressB0V11explanationyyF", "racecheck", .raceCheck),
        ("$sytIegr_ytIegd_TR", "racecheck", .runtime),
        ("_dispatch_client_callout", "libdispatch.so", .dispatch),
        ("__DISPATCH_WAIT_FOR_QUEUE__", "racecheck", .dispatch),
        ("$s8Dispatch0A5QueueC4syncyxxyKXEKlF", "libswiftDispatch.so", .dispatch),
        ("$s10Foundation6ThreadC4mainyyF", "libFoundation.so", .foundation),
        ("swift_retain", "libswiftCore.so", .runtime),
        ("start_thread", "libc.so.6", .system),
        (nil, "ld-linux-x86-64.so.2", .system),
        (nil, "libunwind.so.8", .system),
        ("main", "racecheck", .user),
      ]
      for (symbol, module, kind) in cases {
        #expect(
          FrameKind.classify(symbol: symbol, module: module) == kind,
          "\(symbol ?? "nil") in \(module ?? "nil")")
      }
    }

    // MARK: Release builds' runtime failure message

    @Test func parserReadsInliningChainsErrorsAndSkipsGarbage() throws {
      let answers = LLVMSymbolizerOutput.parse(
        Self.releaseTrapAnswer(module: "/tmp/rel") + "\nnot json {\n"
          + #"{"Address":"0x1234","Error":{"Message":"No such file or directory"},"ModuleName":"/gone.so"}"#
      )

      try #require(answers.count == 3)
      let chain = try #require(answers[0]).frames
      #expect(
        chain.map(\.function) == [
          "Swift runtime failure: Index out of range",
          "$sSa15_checkSubscript_20wasNativeTypeCheckeds16_DependenceTokenVSi_SbtFSi_Tg5",
          "$sSayxSicigSi_Tg5", "$s3rel4pickySiSaySiG_SitF",
        ])
      #expect(chain.last?.file == "/tmp/symx/rel.swift")
      #expect(chain.last?.line == 1)
      #expect(chain.first?.file == nil, "<compiler-generated> is no file")
      #expect(answers[1] == nil)
      #expect(answers[2]?.error == "No such file or directory")
    }

    @Test func releaseTrapGivesTheFailureMessageAndNoFrameForIt() throws {
      let tool = try FakeTool(printing: Self.releaseTrapAnswer(module: "/bin/sh"))
      let frame = RawFrame(pc: 0x5555_5555_4d71, module: "/bin/sh", offset: 0xd71)
      let stack = Symbolizer(llvmSymbolizer: tool.path).symbolize([frame], firstFrameIsFault: true)

      #expect(stack.failureMessage == "Index out of range")
      #expect(
        stack.frames.map(\.function) == [
          "specialized Array._checkSubscript(_:wasNativeTypeChecked:)",
          "specialized Array.subscript.getter", "pick(_:_:)",
        ])
      #expect(stack.frames.map(\.isInlined) == [true, true, false])
      #expect(stack.frames.map(\.kind) == [.runtime, .runtime, .user])
      #expect(stack.firstUserFrame?.function == "pick(_:_:)")
    }

    // MARK: Folding

    @Test func foldedStackShowsTheUsersFramesAndOneLinePerRunOfLayers() {
      let text = Self.dispatchCrash.render(fold: true, relativeTo: "/work/project")
      #expect(
        text == """
          Fatal error: Index out of range
            #0   NSSafeMutableArray.objectAtIndex(_:)  Fixtures/NSSafeMutableArray.swift:57
            #1   closure #1 in Catalogue.nsSafeMutableArray()  Fixtures/Catalogue.swift:120
                 … 5 libdispatch frames (_dispatch_client_callout, _dispatch_lane_barrier_sync_invoke_and_complete, …)
            #7   StressRunner.runColumn(_:)  (racecheck)
                 … 4 racecheck, Foundation and system frames (closure #1 in StressRunner.start(), Thread.main(), …)
          """)
    }

    @Test func unfoldedStackShowsEveryFrame() {
      let text = Self.dispatchCrash.render(fold: false, relativeTo: "/work/project")
      #expect(text.split(separator: "\n").count == 1 + Self.dispatchCrash.frames.count)
      #expect(text.contains("#11  clone3  (libc.so.6)"))
    }

    @Test func stackWithoutUserFramesIsNotFolded() {
      var stack = Self.dispatchCrash
      stack.frames.removeFirst(2)
      #expect(!stack.render(fold: true).contains("…"))
    }

    // MARK: Degrading to raw frames

    @Test func moduleThatNoLongerExistsLeavesItsFrameRaw() throws {
      let gone = RawFrame(pc: 0x7f00_0000_1234, module: "/nonexistent/libgone.so", offset: 0x1234)
      let stack = Symbolizer().symbolize([gone], firstFrameIsFault: true)
      #expect(stack.frames.count == 1)
      #expect(stack.frames[0].function == nil)
      #expect(stack.render().contains("libgone.so+0x1234"))
    }

    @Test func missingSymbolizerLeavesEveryFrameRawAndSaysWhy() {
      let frames = Self.captureStack().addresses.map(Self.rawFrame)
      let missing = Symbolizer(llvmSymbolizer: "/nonexistent/llvm-symbolizer")
        .symbolize(frames, firstFrameIsFault: false)
      let absent = Symbolizer(llvmSymbolizer: nil).symbolize(frames, firstFrameIsFault: false)

      #expect(
        missing.problem
          == .launchFailed(.launchFailed(path: "/nonexistent/llvm-symbolizer", errno: ENOENT)))
      #expect(absent.problem == .toolNotFound)
      #expect(
        missing.frames.allSatisfy { !$0.isSymbolized } && missing.frames.count == frames.count)
      #expect(absent.render().contains("frames not symbolized: llvm-symbolizer was not found"))
    }

    @Test func hangingSymbolizerIsKilledAtTheTimeout() throws {
      let tool = try FakeTool(script: "exec sleep 30")
      let frames = Self.captureStack().addresses.map(Self.rawFrame)
      let clock = ContinuousClock()
      let start = clock.now
      let stack = Symbolizer(llvmSymbolizer: tool.path, timeout: .milliseconds(300))
        .symbolize(frames, firstFrameIsFault: false)

      #expect(clock.now - start < .seconds(3))
      #expect(stack.problem == .timedOut(.milliseconds(300)))
      #expect(stack.frames.allSatisfy { !$0.isSymbolized })
    }

    @Test func garbageOutputLeavesFramesRaw() throws {
      let tool = try FakeTool(script: "cat > /dev/null; echo '{\"Address\": [garbage'")
      let frames = Self.captureStack().addresses.map(Self.rawFrame)
      let stack = Symbolizer(llvmSymbolizer: tool.path).symbolize(frames, firstFrameIsFault: false)
      #expect(stack.problem == .unreadableOutput)
      #expect(stack.frames.allSatisfy { !$0.isSymbolized })
    }

    @Test func toolThatStopsReadingDoesNotHurtTheCaller() throws {
      // It exits without reading half a megabyte of input: writing on fails with EPIPE, not SIGPIPE.
      let tool = try FakeTool(script: "exit 3")
      let stack = Symbolizer(llvmSymbolizer: tool.path)
        .symbolize(try Self.distinctFrames(5_000), firstFrameIsFault: false)
      #expect(stack.problem == .toolFailed(.exited(3)))
      #expect(stack.frames.count == 5_000)
    }

    // MARK: One llvm-symbolizer kept for a check

    @Test func keptSymbolizerAnswersLaterBatchesWithoutStartingAgain() throws {
      // A script that becomes the real tool: once it runs, removing the script changes nothing
      // for the running process, but any fresh launch fails.
      let real = try #require(Symbolizer.defaultLLVMSymbolizer)
      let tool = try FakeTool(script: "exec '\(real)' \"$@\"")
      let session = SymbolizerSession()
      let kept = Symbolizer(llvmSymbolizer: tool.path, session: session)
      let first = kept.symbolize(
        Self.captureStack().addresses.map(Self.rawFrame), firstFrameIsFault: false)
      try FileManager.default.removeItem(atPath: tool.path)

      let later = kept.symbolize(try Self.distinctFrames(50), firstFrameIsFault: false)
      let fresh = Symbolizer(llvmSymbolizer: tool.path)
        .symbolize(try Self.distinctFrames(50), firstFrameIsFault: false)

      #expect(first.problem == nil)
      #expect(later.problem == nil, "new addresses were answered by the kept tool")
      #expect(later.frames.contains { $0.isSymbolized })
      #expect(fresh.problem != nil, "a fresh launch of the removed tool fails")
    }

    @Test func keptSymbolizerThatHangsIsGivenUpForFreshOnes() throws {
      let tool = try FakeTool(script: "exec sleep 30")
      let symbolizer = Symbolizer(
        llvmSymbolizer: tool.path, timeout: .milliseconds(200), session: SymbolizerSession())
      let frames = Self.captureStack().addresses.map(Self.rawFrame)
      let clock = ContinuousClock()
      let start = clock.now
      let first = symbolizer.symbolize(frames, firstFrameIsFault: false)
      let second = symbolizer.symbolize(frames, firstFrameIsFault: false)

      // The kept tool's timeout, then a fresh tool's; the second batch asks only a fresh one.
      #expect(clock.now - start < .seconds(3))
      #expect(first.problem == .timedOut(.milliseconds(200)))
      #expect(second.problem == .timedOut(.milliseconds(200)))
    }

    @Test func conversationGetsOneLineForEachQuestionUntilTheToolEnds() throws {
      let echo = try ToolProcess.Conversation("/bin/cat")
      #expect(echo.ask(["a", "b"], timeout: .seconds(5)) == ["a", "b"])
      #expect(echo.ask(["c"], timeout: .seconds(5)) == ["c"])

      let ended = try ToolProcess.Conversation("/bin/sh", arguments: ["-c", "exit 0"])
      #expect(ended.ask(["x"], timeout: .seconds(5)) == nil)
      #expect(ended.ask(["y"], timeout: .seconds(5)) == nil, "a conversation that ended stays over")
    }

    @Test func batchLargerThanThePipeBuffersIsExchangedWithoutDeadlock() throws {
      // About 200 KB in and a megabyte out: writing it all before reading would stall both sides.
      let stack = Symbolizer().symbolize(try Self.distinctFrames(3_000), firstFrameIsFault: false)
      #expect(stack.problem == nil, "every address was answered")
      #expect(stack.frames.count >= 3_000)
    }
  }
}

// MARK: - Helpers

extension RaceCheckTestSuite.SymbolizerTests {
  /// This function's caller's return addresses, and the line of the call that took them.
  @inline(never)
  static func captureStack() -> (addresses: [UInt], line: Int) {
    (Thread.callStackReturnAddresses.map(\.uintValue), #line)
  }

  /// `count` return addresses at different offsets in this test binary's code, ending at a known function.
  static func distinctFrames(_ count: Int) throws -> [RawFrame] {
    let function: @convention(c) () -> Int32 = returnsFortyTwo
    let known = rawFrame(unsafeBitCast(function, to: UInt.self))
    let end = try #require(known.offset)
    return (0..<UInt(count)).map { step in
      RawFrame(pc: known.pc - step, module: known.module, offset: end - step)
    }
  }

  /// The frame the crash capture would send for `pc`: `dladdr`'s module and `pc - dli_fbase`.
  static func rawFrame(_ pc: UInt) -> RawFrame {
    // dladdr needs _GNU_SOURCE, which Swift's Glibc module lacks; look it up instead.
    typealias DLAddr = @convention(c) (UnsafeRawPointer?, UnsafeMutableRawPointer?) -> Int32
    let dladdr = unsafeBitCast(dlsym(dlopen(nil, RTLD_NOW), "dladdr"), to: DLAddr.self)
    // Dl_info: dli_fname, dli_fbase, dli_sname, dli_saddr, all pointer-sized.
    var info: (UnsafePointer<CChar>?, UInt, UnsafePointer<CChar>?, UInt) = (nil, 0, nil, 0)
    let found = withUnsafeMutableBytes(of: &info) {
      dladdr(UnsafeRawPointer(bitPattern: pc), $0.baseAddress)
    }
    guard found != 0, let name = info.0 else { return RawFrame(pc: pc, module: nil, offset: nil) }
    return RawFrame(pc: pc, module: String(cString: name), offset: pc - info.1)
  }

  /// llvm-symbolizer's answer for a trap in a release build's `pick(_:_:)`, as `swiftc -O -g` produced it.
  static func releaseTrapAnswer(module: String) -> String {
    #"{"Address":"0xd71","ModuleName":"\#(module)","Symbol":["#
      + #"{"Column":0,"Discriminator":0,"FileName":"/<compiler-generated>","FunctionName":"Swift runtime failure: Index out of range","Line":0,"StartAddress":"","StartFileName":"","StartLine":0},"#
      + #"{"Column":0,"Discriminator":0,"FileName":"/<compiler-generated>","FunctionName":"$sSa15_checkSubscript_20wasNativeTypeCheckeds16_DependenceTokenVSi_SbtFSi_Tg5","Line":0,"StartAddress":"","StartFileName":"","StartLine":0},"#
      + #"{"Column":0,"Discriminator":0,"FileName":"/<compiler-generated>","FunctionName":"$sSayxSicigSi_Tg5","Line":0,"StartAddress":"","StartFileName":"","StartLine":0},"#
      + #"{"Column":65,"Discriminator":0,"FileName":"/tmp/symx/rel.swift","FunctionName":"$s3rel4pickySiSaySiG_SitF","Line":1,"StartAddress":"0xd60","StartFileName":"/tmp/symx/rel.swift","StartLine":1}]}"#
  }

  /// A crash inside a fixture called through `DispatchQueue.sync` from racecheck's runner.
  static let dispatchCrash: SymbolizedStack = {
    func frame(
      _ function: String, _ kind: FrameKind, module: String = "racecheck", file: String? = nil,
      line: Int? = nil
    ) -> SymbolizedFrame {
      SymbolizedFrame(
        pc: 0x1000, module: module, function: function, file: file, line: line, kind: kind)
    }
    return SymbolizedStack(
      frames: [
        frame(
          "NSSafeMutableArray.objectAtIndex(_:)", .user,
          file: "/work/project/Fixtures/NSSafeMutableArray.swift", line: 57),
        frame(
          "closure #1 in Catalogue.nsSafeMutableArray()", .user,
          file: "/work/project/Fixtures/Catalogue.swift", line: 120),
        frame("_dispatch_client_callout", .dispatch, module: "libdispatch.so"),
        frame(
          "_dispatch_lane_barrier_sync_invoke_and_complete", .dispatch, module: "libdispatch.so"),
        frame("_dispatch_sync_f_slow", .dispatch, module: "libdispatch.so"),
        frame("dispatch_sync", .dispatch, module: "libdispatch.so"),
        frame("DispatchQueue.sync<A>(execute:)", .dispatch, module: "libswiftDispatch.so"),
        frame("StressRunner.runColumn(_:)", .raceCheck),
        frame("closure #1 in StressRunner.start()", .raceCheck),
        frame("Thread.main()", .foundation, module: "libFoundation.so"),
        frame("start_thread", .system, module: "libc.so.6"),
        frame("clone3", .system, module: "libc.so.6"),
      ],
      failureMessage: "Index out of range")
  }()
}

/// A function whose entry address a test symbolizes; C-convertible because it is global.
@inline(never) private func returnsFortyTwo() -> Int32 { 42 }

/// A stand-in llvm-symbolizer: a shell script in a temporary folder, removed when the value goes.
private final class FakeTool {
  let path: String

  init(script: String) throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "racecheck-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    path = folder.appendingPathComponent("llvm-symbolizer").path
    try "#!/bin/sh\n\(script)\n".write(toFile: path, atomically: true, encoding: .utf8)
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
  }

  /// A tool that reads its input and answers with `output`, whatever it was asked.
  convenience init(printing output: String) throws {
    let quoted = output.replacingOccurrences(of: "'", with: "'\\''")
    try self.init(script: "cat > /dev/null; printf '%s\\n' '\(quoted)'")
  }

  deinit {
    try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent)
  }
}
