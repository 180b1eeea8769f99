#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A growable byte buffer that compact JSON is written into piece by piece: what a recorder's writer encodes its event lines with.
///
/// Appending to a `[UInt8]` byte by byte checks uniqueness and capacity at every byte,
/// which was most of a recorder's cost per call; this buffer checks its room once per piece
/// and copies whole strings at once. It is a class so that the bytes are freed once, in
/// `deinit`, and it is used by one thread at a time.
///
/// ```swift
/// let writer = JSONLineWriter()
/// writer.append("{\"id\":")
/// writer.appendInteger(7)
/// writer.withBytes { write(descriptor, $0.baseAddress, $0.count) }
/// ```
package final class JSONLineWriter {
  // One thread writes at a time, as the type's contract says: the runtime's exclusivity
  // checks of a class's stored properties were a fifth of the time spent encoding.
  @exclusivity(unchecked) private var base: UnsafeMutablePointer<UInt8>
  @exclusivity(unchecked) private var capacity: Int
  /// The bytes written since the last ``removeAll()``.
  @exclusivity(unchecked) package private(set) var count = 0

  /// Creates an empty buffer with room for `capacity` bytes.
  package init(capacity: Int = 1 << 16) {
    self.capacity = max(capacity, 64)
    base = .allocate(capacity: self.capacity)
  }

  deinit {
    base.deallocate()
  }

  /// Calls `body` with the bytes written so far.
  package func withBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows
    -> Result
  {
    try body(UnsafeRawBufferPointer(start: base, count: count))
  }

  /// The bytes written so far, copied.
  package var bytes: [UInt8] {
    withBytes { Array($0) }
  }

  /// Forgets the bytes, keeping the room.
  package func removeAll() {
    count = 0
  }

  /// Makes room for `more` bytes after the ones written.
  @inline(__always)
  private func reserve(_ more: Int) {
    if count + more > capacity { grow(to: count + more) }
  }

  private func grow(to needed: Int) {
    var newCapacity = capacity * 2
    while newCapacity < needed { newCapacity *= 2 }
    let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
    newBase.update(from: base, count: count)
    base.deallocate()
    base = newBase
    capacity = newCapacity
  }

  /// Appends `text`'s bytes as they are: a piece of the line's syntax, such as `,"call":`.
  @inline(__always)
  package func append(_ text: StaticString) {
    let length = text.utf8CodeUnitCount
    reserve(length)
    (base + count).update(from: text.utf8Start, count: length)
    count += length
  }

  /// Appends one byte.
  @inline(__always)
  package func append(_ byte: UInt8) {
    reserve(1)
    base[count] = byte
    count += 1
  }

  /// Appends `value` in decimal.
  ///
  /// A time in nanoseconds has 13 digits or more: the number is cut into parts of eight
  /// digits, whose pairs of digits come from a table, so that the divisions do not wait on
  /// one another from the first digit to the last.
  package func appendInteger(_ value: Int64) {
    reserve(20)
    var cursor = base + count
    if value < 0 {
      cursor.pointee = UInt8(ascii: "-")
      cursor += 1
    }
    var magnitude = value.magnitude
    if magnitude < 100_000_000 {
      cursor += Self.writeShort(UInt32(magnitude), at: cursor)
    } else {
      let low = UInt32(magnitude % 100_000_000)
      magnitude /= 100_000_000
      if magnitude < 100_000_000 {
        cursor += Self.writeShort(UInt32(magnitude), at: cursor)
      } else {
        cursor += Self.writeShort(UInt32(magnitude / 100_000_000), at: cursor)
        Self.writeEight(UInt32(magnitude % 100_000_000), at: cursor)
        cursor += 8
      }
      Self.writeEight(low, at: cursor)
      cursor += 8
    }
    count = cursor - base
  }

  /// The digits of 00 to 99, two by two.
  private static let digitPairs: StaticString = """
    00010203040506070809101112131415161718192021222324252627282930313233343536373839\
    40414243444546474849505152535455565758596061626364656667686970717273747576777879\
    8081828384858687888990919293949596979899
    """

  /// Writes `value`, below 100, as two digits.
  @inline(__always)
  private static func writePair(_ value: UInt32, at cursor: UnsafeMutablePointer<UInt8>) {
    let digits = digitPairs.utf8Start + Int(value &* 2)
    cursor[0] = digits[0]
    cursor[1] = digits[1]
  }

  /// Writes `value`, below 10⁸, as exactly eight digits.
  @inline(__always)
  private static func writeEight(_ value: UInt32, at cursor: UnsafeMutablePointer<UInt8>) {
    let (high, low) = (value / 10_000, value % 10_000)
    writePair(high / 100, at: cursor)
    writePair(high % 100, at: cursor + 2)
    writePair(low / 100, at: cursor + 4)
    writePair(low % 100, at: cursor + 6)
  }

  /// Writes `value`, below 10⁸, without leading zeros, and returns how many digits it has.
  @inline(__always)
  private static func writeShort(_ value: UInt32, at cursor: UnsafeMutablePointer<UInt8>) -> Int {
    var digits = 1
    var bound: UInt32 = 10
    while digits < 8 && value >= bound {
      digits += 1
      bound &*= 10
    }
    var rest = value
    var index = digits
    while rest >= 100 {
      index -= 2
      writePair(rest % 100, at: cursor + index)
      rest /= 100
    }
    if rest >= 10 {
      writePair(rest, at: cursor + index - 2)
    } else {
      cursor[index - 1] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest)
    }
    return digits
  }

  /// Appends `string` as a JSON string literal, with JSON's escapes.
  package func appendString(_ string: String) {
    var string = string
    string.withUTF8 { utf8 in
      // A string without a byte to escape, as most are, is copied whole.
      var plain = true
      for byte in utf8 where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
      {
        plain = false
        break
      }
      reserve(utf8.count + 2)
      base[count] = UInt8(ascii: "\"")
      count += 1
      if plain {
        if let start = utf8.baseAddress { (base + count).update(from: start, count: utf8.count) }
        count += utf8.count
      } else {
        for byte in utf8 { appendEscaped(byte) }
      }
      append(UInt8(ascii: "\""))
    }
  }

  /// Appends one byte of a string, escaped as JSON asks.
  private func appendEscaped(_ byte: UInt8) {
    switch byte {
    case UInt8(ascii: "\""): append(#"\""#)
    case UInt8(ascii: "\\"): append(#"\\"#)
    case UInt8(ascii: "\n"): append(#"\n"#)
    case UInt8(ascii: "\r"): append(#"\r"#)
    case UInt8(ascii: "\t"): append(#"\t"#)
    case 0..<0x20:
      let hex: StaticString = "0123456789abcdef"
      append(#"\u00"#)
      append(hex.utf8Start[Int(byte >> 4)])
      append(hex.utf8Start[Int(byte & 0xF)])
    default: append(byte)
    }
  }

  /// Appends `value` as compact JSON; a double that is not finite, which JSON cannot hold, as `null`.
  package func appendValue(_ value: Value) {
    switch value {
    case .null: append("null")
    case .bool(let flag): flag ? append("true") : append("false")
    case .int(let number): appendInteger(Int64(number))
    case .double(let number):
      if number.isFinite {
        for byte in String(number).utf8 { append(byte) }
      } else {
        append("null")
      }
    case .string(let text): appendString(text)
    case .list(let values):
      append(UInt8(ascii: "["))
      for (index, element) in values.enumerated() {
        if index > 0 { append(UInt8(ascii: ",")) }
        appendValue(element)
      }
      append(UInt8(ascii: "]"))
    case .object(let members):
      append(UInt8(ascii: "{"))
      // Sorted, so that the same object is always the same bytes.
      for (index, member) in members.sorted(by: { $0.key < $1.key }).enumerated() {
        if index > 0 { append(UInt8(ascii: ",")) }
        appendString(member.key)
        append(UInt8(ascii: ":"))
        appendValue(member.value)
      }
      append(UInt8(ascii: "}"))
    }
  }
}
