import CRaceCheckInterposer

/// Reading records back from the text a child wrote, however much of it arrived.
///
/// The format is documented in `CRaceCheckSupport.h`: a `racecheck-crash v1` header line,
/// `pc` lines, `module` lines, `end`. A child can die in the middle of a write, so the parser
/// never fails: a record without `end` (or with fewer `pc` lines than its header announced) is
/// returned with ``CrashRecord/isTruncated`` set, a partial last line is dropped, and lines it
/// does not understand are skipped.
extension CrashRecord {
  /// Parses every record in `text`, in order; never fails, whatever the input.
  package static func parse(_ text: String) -> [CrashRecord] {
    var parser = Parser()
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    // The text after the last newline is a line the child did not finish writing.
    let endsCleanly = text.isEmpty || text.hasSuffix("\n")
    lines.removeLast()
    if !endsCleanly { parser.sawPartialLine = true }
    for line in lines { parser.consume(line) }
    return parser.finish()
  }

  /// Parses records from raw bytes, replacing invalid UTF-8; see ``parse(_:)``.
  package static func parse(bytes: some Collection<UInt8>) -> [CrashRecord] {
    parse(String(decoding: bytes, as: UTF8.self))
  }

  /// The line-by-line state machine behind ``parse(_:)``.
  private struct Parser {
    var records: [CrashRecord] = []
    var current: CrashRecord?
    var announcedFrames = 0
    /// Index of the first frame a `module` line may still describe: they come in frame order.
    var nextModuleFrame = 0
    var sawPartialLine = false

    mutating func consume(_ line: Substring) {
      let fields = line.split(separator: " ", omittingEmptySubsequences: true)
      guard let first = fields.first else { return }
      switch first {
      case "racecheck-crash":
        closeCurrent(complete: false)
        current = header(fields)
        nextModuleFrame = 0
      case "pc" where fields.count == 2:
        guard current != nil, let pc = Self.hex(fields[1]) else { return }
        current!.frames.append(RawFrame(pc: pc))
      case "module" where fields.count == 4:
        guard current != nil, let pc = Self.hex(fields[1]), let offset = Self.hex(fields[2]),
          let frame = current!.frames[nextModuleFrame...].firstIndex(where: { $0.pc == pc })
        else { return }
        current!.frames[frame].module = Self.percentDecoded(fields[3])
        current!.frames[frame].offset = offset
        nextModuleFrame = frame + 1
      case "end" where fields.count == 1:
        closeCurrent(complete: true)
      default:
        return
      }
    }

    mutating func finish() -> [CrashRecord] {
      closeCurrent(complete: false)
      return records
    }

    /// Ends the current record, truncated unless it reached `end` with every announced frame.
    private mutating func closeCurrent(complete: Bool) {
      guard var record = current else { return }
      record.isTruncated = !complete || record.frames.count < announcedFrames
      records.append(record)
      current = nil
    }

    /// Reads a header's fields; nil for another version, kind, or a header missing `kind` or `tid`.
    private mutating func header(_ fields: [Substring]) -> CrashRecord? {
      guard fields.count >= 2, fields[1] == "v1" else { return nil }
      var values: [Substring: Substring] = [:]
      for field in fields.dropFirst(2) {
        guard let equals = field.firstIndex(of: "=") else { continue }
        values[field[..<equals]] = field[field.index(after: equals)...]
      }
      guard let kind = values["kind"].flatMap({ Kind(rawValue: String($0)) }),
        let threadID = values["tid"].flatMap({ Int32($0) })
      else { return nil }
      announcedFrames = values["frames"].flatMap { Int($0) } ?? 0
      func index(_ key: Substring) -> Int? {
        values[key].flatMap { Int($0) }.flatMap { $0 >= 0 ? $0 : nil }
      }
      return CrashRecord(
        kind: kind, signal: values["signal"].flatMap { Int32($0) } ?? 0,
        code: values["code"].flatMap { Int32($0) } ?? 0,
        address: values["addr"].flatMap { Self.hex($0) } ?? 0,
        processID: values["pid"].flatMap { Int32($0) } ?? 0, threadID: threadID,
        threadName: values["thread"].map { Self.percentDecoded($0) } ?? "",
        scenario: index("scenario"), invocation: index("invocation"), slot: index("slot"),
        operation: index("operation"),
        ranScheduler: values["mode"].flatMap { UInt32($0) } == RC_MODE_SCHEDULER.rawValue)
    }

    /// Parses `0x`-prefixed hexadecimal.
    private static func hex(_ text: Substring) -> UInt? {
      guard text.hasPrefix("0x") else { return nil }
      return UInt(text.dropFirst(2), radix: 16)
    }

    /// Undoes the format's percent-encoding (`%20` → space); malformed escapes stay as they are.
    private static func percentDecoded(_ text: Substring) -> String {
      guard text.contains("%") else { return String(text) }
      var bytes: [UInt8] = []
      var utf8 = text.utf8[...]
      while let byte = utf8.popFirst() {
        if byte == UInt8(ascii: "%"), utf8.count >= 2,
          let value = UInt8(String(decoding: utf8.prefix(2), as: UTF8.self), radix: 16)
        {
          bytes.append(value)
          utf8 = utf8.dropFirst(2)
        } else {
          bytes.append(byte)
        }
      }
      return String(decoding: bytes, as: UTF8.self)
    }
  }
}
