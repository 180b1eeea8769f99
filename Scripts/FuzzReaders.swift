// The libFuzzer entry point of Scripts/fuzz-readers: one input, one history reader.
//
// Compiled with the reader sources only (not a package target), so `swift build` and
// `swift test` never see it. The reader is picked by the FUZZ_FORMAT environment variable
// (json, jepsen or jepsen-log). Rejecting an input is the expected outcome; a crash, a
// hang or a slow input is the bug: libFuzzer reports it and saves the input.

import Foundation

/// The reader under test, read once.
private let format: RecordedHistory.Format = {
  let name = getenv("FUZZ_FORMAT").map { String(cString: $0) } ?? "json"
  guard let format = RecordedHistory.Format(rawValue: name) else {
    fatalError("FUZZ_FORMAT must be json, jepsen or jepsen-log, got \(name)")
  }
  return format
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzReader(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  do {
    let history = try RecordedHistory(bytes: bytes, format: format)
    // What the reader accepted must also write and describe without trapping.
    _ = HistoryFile.encode(history)
  } catch {
    // The message racecheck prints must be built without trapping too.
    _ = error.description
  }
  return 0
}
