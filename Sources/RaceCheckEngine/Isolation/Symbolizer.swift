#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Turns the raw frames a crashed child sends into named, located and classified frames.
///
/// One llvm-symbolizer process answers a whole batch (every frame of every stack given),
/// because its launch and its reading of debug information cost far more than a lookup.
/// It runs as `llvm-symbolizer --inlines --output-style=JSON`: `--inlines` gives the chain
/// of inlined functions at each address, which is where a release build keeps the
/// `Swift runtime failure: …` message; file paths stay absolute (no `--relativenames`) so
/// that the report can make them relative to the current directory. Swift names are
/// demangled in-process (see ``SwiftSymbolName``). Anything that goes wrong leaves frames
/// raw and names the problem; nothing here throws, crashes or waits past the timeout.
///
/// ```swift
/// let stack = Symbolizer().symbolize(record.frames, firstFrameIsFault: true)
/// print(stack.render())
/// ```
package struct Symbolizer: Sendable {
  /// The llvm-symbolizer executable to run; nil leaves every frame raw.
  package var llvmSymbolizer: String?
  /// How long one batch may take before llvm-symbolizer is killed and the frames left raw.
  package var timeout: Duration
  /// The kept llvm-symbolizer that answers batch after batch, or nil to run a fresh one for each.
  package var session: SymbolizerSession?

  /// The arguments llvm-symbolizer runs with; frames arrive on stdin as `"<module>" 0x<address>` lines.
  package static let arguments = ["--inlines", "--output-style=JSON"]

  /// The environment variables llvm-symbolizer must not see: with `DEBUGINFOD_URLS` set it would fetch debug information over the network.
  static let hiddenEnvironment: Set<String> = ["DEBUGINFOD_URLS"]

  /// Creates a symbolizer that runs `llvmSymbolizer` (by default the toolchain's) for at most `timeout` a batch, kept running in `session` when one is given.
  package init(
    llvmSymbolizer: String? = Symbolizer.defaultLLVMSymbolizer, timeout: Duration = .seconds(10),
    session: SymbolizerSession? = nil
  ) {
    self.llvmSymbolizer = llvmSymbolizer
    self.timeout = timeout
    self.session = session
  }

  /// The llvm-symbolizer this process finds on its `PATH`, looked up once.
  package static let defaultLLVMSymbolizer: String? = locateLLVMSymbolizer(
    searchPath: getenv("PATH").map { String(cString: $0) } ?? "")

  /// The toolchain's llvm-symbolizer (beside `swift`, symlinks followed), else the first on `searchPath`.
  ///
  /// The toolchain's copy comes first because it understands the DWARF its own compiler
  /// wrote; a system llvm-symbolizer (Debian's is LLVM 14) is the fallback.
  package static func locateLLVMSymbolizer(searchPath: String) -> String? {
    let directories = searchPath.split(separator: ":").map(String.init)
    for directory in directories {
      guard let swift = realpath("\(directory)/swift", nil) else { continue }
      defer { free(swift) }
      let toolchainBin = String(cString: swift).split(separator: "/").dropLast().joined(
        separator: "/")
      let candidate = "/\(toolchainBin)/llvm-symbolizer"
      if access(candidate, X_OK) == 0 { return candidate }
    }
    return directories.map { "\($0)/llvm-symbolizer" }.first { access($0, X_OK) == 0 }
  }

  /// Symbolizes one captured stack; `firstFrameIsFault` says frame 0 is the faulting instruction, not a return address.
  package func symbolize(_ frames: [RawFrame], firstFrameIsFault: Bool) -> SymbolizedStack {
    symbolize([frames], firstFrameIsFault: firstFrameIsFault)[0]
  }

  /// Symbolizes several stacks (every thread of a hung child, say) with one llvm-symbolizer run.
  package func symbolize(_ stacks: [[RawFrame]], firstFrameIsFault: Bool) -> [SymbolizedStack] {
    var resolver = SymbolizerQuery.Resolver()
    let queries = stacks.map { frames in
      frames.indices.map { index in
        resolver.query(for: frames[index], isReturnAddress: index > 0 || !firstFrameIsFault)
      }
    }
    // Threads of one process share their outer frames; ask about each address once.
    var distinct: [SymbolizerQuery] = []
    var position: [SymbolizerQuery: Int] = [:]
    for case let query? in queries.joined() where position[query] == nil {
      position[query] = distinct.count
      distinct.append(query)
    }
    let (answers, problem) = answer(distinct)

    var names = DemangledNames()
    return zip(stacks, queries).map { frames, queries in
      var stack = SymbolizedStack(frames: [], failureMessage: nil, problem: problem)
      for (raw, query) in zip(frames, queries) {
        let answer = query.flatMap { position[$0] }.flatMap { answers[$0] }
        stack.append(raw, answer: answer, names: &names)
      }
      return stack
    }
  }

  /// Runs llvm-symbolizer over `queries`: an answer for each (nil where it gave none), and what went wrong.
  private func answer(_ queries: [SymbolizerQuery]) -> (
    [LLVMSymbolizerOutput.Answer?], SymbolizationProblem?
  ) {
    let none = [LLVMSymbolizerOutput.Answer?](repeating: nil, count: queries.count)
    guard !queries.isEmpty else { return ([], nil) }
    guard let llvmSymbolizer else { return (none, .toolNotFound) }
    if let answers = session?.answers(to: queries, llvmSymbolizer: llvmSymbolizer, timeout: timeout)
    {
      return (answers, answers.contains(nil) ? .unreadableOutput : nil)
    }
    let result: ToolProcess.Result
    do {
      result = try ToolProcess.run(
        llvmSymbolizer, arguments: Self.arguments,
        input: Array(queries.map(\.inputLine).joined().utf8),
        timeout: timeout, removing: Self.hiddenEnvironment)
    } catch {
      return (none, .launchFailed(error))
    }

    let parsed = LLVMSymbolizerOutput.parse(String(decoding: result.output, as: UTF8.self))
    // Answers come back in input order; one whose address is not the question's is not trusted.
    let answers = queries.indices.map { index in
      parsed.indices.contains(index) && parsed[index]?.address == queries[index].address
        ? parsed[index] : nil
    }
    let answered = answers.count { $0 != nil }
    if case .timedOut = result.termination { return (answers, .timedOut(timeout)) }
    if answered == queries.count { return (answers, nil) }
    // A tool that exits cleanly answers every line, even if only with an error: what is missing was not JSON.
    if case .exited(0) = result.termination { return (answers, .unreadableOutput) }
    return (answers, .toolFailed(result.termination))
  }
}

/// Demangled names already computed in a batch; threads share most of theirs.
private struct DemangledNames {
  private var names: [String: String] = [:]

  /// The simplified readable form of `symbol`, or `symbol` itself when it is not mangled.
  mutating func readable(_ symbol: String) -> String {
    if let name = names[symbol] { return name }
    let name = SwiftSymbolName.demangle(symbol) ?? symbol
    names[symbol] = name
    return name
  }
}

extension SymbolizedStack {
  /// Adds the frames for one captured frame: its inlining chain if it was answered, else the raw frame.
  fileprivate mutating func append(
    _ raw: RawFrame, answer: LLVMSymbolizerOutput.Answer?, names: inout DemangledNames
  ) {
    let module = raw.module.map { String($0.split(separator: "/").last ?? Substring($0)) }
    let chain = answer?.error == nil ? answer?.frames ?? [] : []
    var added = 0
    for (index, location) in chain.enumerated() {
      guard let symbol = location.function else { continue }
      if symbol.hasPrefix(LLVMSymbolizerOutput.runtimeFailurePrefix) {
        // The artificial frame the compiler wraps around a trap: its name is the message.
        if failureMessage == nil {
          failureMessage = String(symbol.dropFirst(LLVMSymbolizerOutput.runtimeFailurePrefix.count))
        }
        continue
      }
      frames.append(
        SymbolizedFrame(
          pc: raw.pc, module: module, offset: raw.offset, function: names.readable(symbol),
          symbol: symbol, file: location.file, line: location.line, column: location.column,
          isInlined: index < chain.count - 1,
          kind: FrameKind.classify(symbol: symbol, module: module)))
      added += 1
    }
    if added == 0 {
      frames.append(
        SymbolizedFrame(
          pc: raw.pc, module: module, offset: raw.offset, function: nil,
          kind: FrameKind.classify(symbol: nil, module: module)))
    }
  }
}
