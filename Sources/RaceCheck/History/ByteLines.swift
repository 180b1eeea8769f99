/// The lines of a byte buffer, numbered from 1, each as the range of its bytes without the newline.
///
/// ```swift
/// for (number, line) in ByteLines(bytes) { parse(bytes[line], at: number) }
/// ```
struct ByteLines: Sequence, IteratorProtocol {
  private let bytes: [UInt8]
  private var start = 0
  private var number = 0

  init(_ bytes: [UInt8]) {
    self.bytes = bytes
  }

  mutating func next() -> (number: Int, range: Range<Int>)? {
    guard start < bytes.count else { return nil }
    var end = start
    while end < bytes.count && bytes[end] != UInt8(ascii: "\n") { end += 1 }
    defer { start = end + 1 }
    number += 1
    return (number, start..<end)
  }
}
