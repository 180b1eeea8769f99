/// Whose code a stack frame runs: the user's, or one of the layers a report folds away.
///
/// A crash report is read for the user's frames; the runtime, libdispatch, Foundation,
/// the C library and racecheck's own driver are context. Classification goes by the
/// symbol's Swift module first and the image second, because a statically linked or
/// inlined frame lives in the user's image while being the standard library's code.
package enum FrameKind: String, Hashable, Sendable, CaseIterable {
  /// Code under test, its tests, and anything not recognized as one of the layers below.
  case user
  /// The Swift runtime and standard library, including compiler-generated thunks.
  case runtime
  /// libdispatch and its Swift overlay.
  case dispatch
  /// Foundation, its Swift pieces and CoreFoundation.
  case foundation
  /// racecheck's own machinery: the runner, worker and checker that call the code under test.
  case raceCheck
  /// The C library, the dynamic loader and the unwinder.
  case system

  /// The name a folded line uses for frames of this kind (`… 5 libdispatch frames`).
  package var displayName: String {
    switch self {
    case .user: "user"
    case .runtime: "runtime"
    case .dispatch: "libdispatch"
    case .foundation: "Foundation"
    case .raceCheck: "racecheck"
    case .system: "system"
    }
  }

  /// Classifies a frame from its symbol (mangled or C) and the basename of its image.
  package static func classify(symbol: String?, module: String?) -> FrameKind {
    if let symbol, let kind = kind(ofSymbol: symbol) { return kind }
    if let module, let kind = kind(ofImage: module) { return kind }
    return .user
  }

  /// The kind a symbol name alone decides, or nil when only the image can tell.
  static func kind(ofSymbol symbol: String) -> FrameKind? {
    if SwiftSymbolName.isMangled(symbol) {
      // A Swift symbol whose first context is not a module is glue over function
      // types (reabstraction thunks and the like), which the compiler emits.
      guard let module = SwiftSymbolName.module(ofMangled: symbol) else { return .runtime }
      return kind(ofSwiftModule: module)
    }
    if symbol.hasPrefix("_dispatch") || symbol.hasPrefix("__DISPATCH")
      || symbol.hasPrefix("dispatch_")
    {
      return .dispatch
    }
    if symbol.hasPrefix("swift_") || symbol.hasPrefix("_swift_") || symbol.hasPrefix("swift::") {
      return .runtime
    }
    if systemEntryPoints.contains(symbol) { return .system }
    // Thread Sanitizer's runtime and interceptors, in a --sanitize=thread build.
    if symbol.hasPrefix("_ZN6__tsan") || symbol.hasPrefix("__tsan_")
      || symbol.hasPrefix("__interceptor_") || symbol.hasPrefix("___interceptor_")
    {
      return .system
    }
    if symbol.hasPrefix("rc_") || interposerFunctions.contains(symbol) { return .raceCheck }
    return nil
  }

  /// The interposer's functions that run the code under test's blocks, which a sanitized stack shows.
  private static let interposerFunctions: Set<String> = [
    "invoke_block", "sync_marked", "async_marked", "run_marked_sync", "run_marked_async",
  ]

  /// The modules that were one `RaceCheck` module: their frames are racecheck's, never the code under test's.
  ///
  /// RaceCheckSync is not among them: its primitives run inside the code under test.
  static let raceCheckModules: Set<String> = [
    "RaceCheck", "RaceCheckHistory", "RaceCheckEngine", "RaceCheckCommandLine",
  ]

  /// The kind of code a Swift module holds, or nil for imported C declarations.
  static func kind(ofSwiftModule module: String) -> FrameKind? {
    if raceCheckModules.contains(module) { return .raceCheck }
    return switch module {
    case "Swift", "_Concurrency", "_StringProcessing", "Synchronization", "SwiftOnoneSupport",
      "_Volatile", "Observation", "Distributed", "RegexBuilder", "Runtime", "_Backtracing":
      .runtime
    case "Dispatch": .dispatch
    case "Foundation", "FoundationEssentials", "FoundationInternationalization",
      "FoundationNetworking", "FoundationXML", "CoreFoundation":
      .foundation
    case "Glibc", "SwiftGlibc", "Musl": .system
    // `__C` holds imported C and Objective-C declarations: the image knows better.
    case "__C", "__C_Synthesized": nil
    default: .user
    }
  }

  /// The kind of code an image holds, from its file name, or nil for a user's image.
  static func kind(ofImage basename: String) -> FrameKind? {
    /// Whether the image is one of `stems` (`libc` matches `libc.so.6` and `libc-2.36.so`).
    func named(_ stems: String...) -> Bool {
      stems.contains {
        basename == "\($0).so" || basename.hasPrefix("\($0).so.") || basename.hasPrefix("\($0)-")
      }
    }
    if named("libdispatch", "libswiftDispatch", "libBlocksRuntime") { return .dispatch }
    if basename.hasPrefix("libFoundation") || basename.hasPrefix("lib_Foundation") {
      return .foundation
    }
    if named("libRaceCheck") { return .raceCheck }
    if basename.hasPrefix("libswift") { return .runtime }
    if named("libc", "libm", "libdl", "libpthread", "librt", "libgcc_s", "libstdc++", "libunwind")
      || basename.hasPrefix("ld-linux") || basename.hasPrefix("linux-vdso")
    {
      return .system
    }
    return nil
  }

  /// C entry points that start every process or thread, wherever they were linked.
  private static let systemEntryPoints: Set<String> = [
    "_start", "__libc_start_main", "__libc_start_call_main", "start_thread", "clone", "clone3",
  ]
}
