/// A JSON reader over bytes that can hand out one value at a time, so a huge array need not be held as a tree.
///
/// Foundation's decoders either build the whole document or say little about where it
/// is wrong; this one reports the line and column, keeps integers apart from
/// fractions (`1` is ``Value/int(_:)``, `1.0` a double), and refuses nesting deeper
/// than ``maximumDepth`` instead of overflowing the stack.
struct JSONScanner {
  /// Why the bytes are not JSON, and where.
  struct SyntaxError: Error, Hashable, Sendable {
    /// The byte offset of the problem.
    var offset: Int
    /// What was expected or found there.
    var problem: String
  }

  /// Nesting deeper than this is refused: no history needs it, and recursion must stay bounded.
  static let maximumDepth = 256

  private let bytes: [UInt8]
  private(set) var offset = 0
  /// The offset up to which ``lineOfNextValue()`` has counted newlines, and the line there.
  private var counted = (offset: 0, line: 1)

  init(_ bytes: [UInt8]) {
    self.bytes = bytes
  }

  /// The 1-based line and column of a byte offset.
  func position(of offset: Int) -> (line: Int, column: Int) {
    var line = 1
    var lineStart = 0
    for index in 0..<min(offset, bytes.count) where bytes[index] == UInt8(ascii: "\n") {
      line += 1
      lineStart = index + 1
    }
    return (line, offset - lineStart + 1)
  }

  /// The 1-based line where the next value starts.
  ///
  /// Counts only the newlines since the last call, so asking for every element of a huge
  /// array stays linear in the file's size.
  mutating func lineOfNextValue() -> Int {
    skipWhitespace()
    var line = counted.line
    for index in counted.offset..<min(offset, bytes.count) where bytes[index] == UInt8(ascii: "\n")
    {
      line += 1
    }
    counted = (offset, line)
    return line
  }

  /// Whether only whitespace is left.
  mutating func atEnd() -> Bool {
    skipWhitespace()
    return offset >= bytes.count
  }

  /// The next byte after whitespace, without consuming it; nil at the end.
  mutating func peek() -> UInt8? {
    skipWhitespace()
    return offset < bytes.count ? bytes[offset] : nil
  }

  /// Consumes `byte` after whitespace or throws saying what was expected.
  mutating func expect(_ byte: UInt8, _ description: String) throws(SyntaxError) {
    skipWhitespace()
    guard offset < bytes.count, bytes[offset] == byte else { throw unexpected(description) }
    offset += 1
  }

  /// Consumes `byte` after whitespace if it is next.
  mutating func consume(_ byte: UInt8) -> Bool {
    skipWhitespace()
    guard offset < bytes.count, bytes[offset] == byte else { return false }
    offset += 1
    return true
  }

  /// Reads an object's members one by one: `member` is called with each key and must read the value.
  mutating func readObject(_ member: (inout JSONScanner, String) throws -> Void) throws {
    try expect(UInt8(ascii: "{"), "'{'")
    if consume(UInt8(ascii: "}")) { return }
    repeat {
      skipWhitespace()
      guard offset < bytes.count, bytes[offset] == UInt8(ascii: "\"") else {
        throw unexpected("a string key")
      }
      let key = try readString()
      try expect(UInt8(ascii: ":"), "':' after the key")
      try member(&self, key)
    } while try commaOr(UInt8(ascii: "}"), "',' or '}'")
  }

  /// Reads an array's elements one by one: `element` is called with each index and must read the element.
  mutating func readArray(_ element: (inout JSONScanner, Int) throws -> Void) throws {
    try expect(UInt8(ascii: "["), "'['")
    if consume(UInt8(ascii: "]")) { return }
    var index = 0
    repeat {
      try element(&self, index)
      index += 1
    } while try commaOr(UInt8(ascii: "]"), "',' or ']'")
  }

  /// Reads one whole value.
  mutating func readValue(depth: Int = 0) throws(SyntaxError) -> Value {
    guard depth < Self.maximumDepth else {
      throw SyntaxError(offset: offset, problem: "nesting deeper than \(Self.maximumDepth) levels")
    }
    skipWhitespace()
    guard offset < bytes.count else { throw unexpected("a value") }
    switch bytes[offset] {
    case UInt8(ascii: "{"):
      var members: [String: Value] = [:]
      try rethrowingSyntax { scanner in
        try scanner.readObject { scanner, key in
          members[key] = try scanner.readValue(depth: depth + 1)
        }
      }
      return .object(members)
    case UInt8(ascii: "["):
      var elements: [Value] = []
      try rethrowingSyntax { scanner in
        try scanner.readArray { scanner, _ in
          elements.append(try scanner.readValue(depth: depth + 1))
        }
      }
      return .list(elements)
    case UInt8(ascii: "\""):
      return .string(try readString())
    case UInt8(ascii: "t"):
      try literal("true")
      return .bool(true)
    case UInt8(ascii: "f"):
      try literal("false")
      return .bool(false)
    case UInt8(ascii: "n"):
      try literal("null")
      return .null
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
      return try readNumber()
    default:
      throw unexpected("a value")
    }
  }

  /// Runs `body`, whose only errors are syntax errors, keeping the error's type.
  private mutating func rethrowingSyntax(_ body: (inout JSONScanner) throws -> Void)
    throws(SyntaxError)
  {
    do {
      try body(&self)
    } catch let error as SyntaxError {
      throw error
    } catch {
      preconditionFailure("only syntax errors are thrown here: \(error)")
    }
  }

  /// Skips one value without building it.
  mutating func skipValue() throws(SyntaxError) {
    _ = try readValue()
  }

  // MARK: Pieces

  private mutating func commaOr(_ close: UInt8, _ description: String) throws(SyntaxError) -> Bool {
    skipWhitespace()
    guard offset < bytes.count else { throw unexpected(description) }
    if bytes[offset] == UInt8(ascii: ",") {
      offset += 1
      return true
    }
    if bytes[offset] == close {
      offset += 1
      return false
    }
    throw unexpected(description)
  }

  private mutating func skipWhitespace() {
    while offset < bytes.count {
      switch bytes[offset] {
      case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\t"), UInt8(ascii: "\r"):
        offset += 1
      default:
        return
      }
    }
  }

  private func unexpected(_ expected: String) -> SyntaxError {
    guard offset < bytes.count else {
      return SyntaxError(offset: offset, problem: "expected \(expected), found the end of the file")
    }
    let byte = bytes[offset]
    let found =
      (0x21...0x7E).contains(byte)
      ? "'\(Character(Unicode.Scalar(byte)))'"
      : "byte 0x\(String(byte, radix: 16, uppercase: true))"
    return SyntaxError(offset: offset, problem: "expected \(expected), found \(found)")
  }

  private mutating func literal(_ word: String) throws(SyntaxError) {
    let start = offset
    let text = Array(word.utf8)
    let matches =
      start + text.count <= bytes.count
      && text.indices.allSatisfy { bytes[start + $0] == text[$0] }
    guard matches else { throw unexpected("a value") }
    offset += text.count
  }

  private mutating func readNumber() throws(SyntaxError) -> Value {
    let start = offset
    var isInteger = true
    if bytes[offset] == UInt8(ascii: "-") { offset += 1 }
    func digits() -> Int {
      let first = offset
      while offset < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[offset]) {
        offset += 1
      }
      return offset - first
    }
    let integerDigits = digits()
    guard integerDigits > 0 else { throw unexpected("a digit") }
    if integerDigits > 1 && bytes[offset - integerDigits] == UInt8(ascii: "0") {
      throw SyntaxError(offset: start, problem: "a number cannot start with 0")
    }
    if offset < bytes.count, bytes[offset] == UInt8(ascii: ".") {
      isInteger = false
      offset += 1
      guard digits() > 0 else { throw unexpected("a digit after '.'") }
    }
    if offset < bytes.count,
      bytes[offset] == UInt8(ascii: "e") || bytes[offset] == UInt8(ascii: "E")
    {
      isInteger = false
      offset += 1
      if offset < bytes.count,
        bytes[offset] == UInt8(ascii: "+") || bytes[offset] == UInt8(ascii: "-")
      {
        offset += 1
      }
      guard digits() > 0 else { throw unexpected("a digit in the exponent") }
    }
    let text = String(decoding: bytes[start..<offset], as: UTF8.self)
    if isInteger, let value = Int(text) { return .int(value) }
    guard let value = Double(text), value.isFinite else {
      throw SyntaxError(offset: start, problem: "the number \(text) is out of range")
    }
    return .double(value)
  }

  /// Reads a string at the cursor, which is on its opening quote.
  mutating func readString() throws(SyntaxError) -> String {
    offset += 1
    let start = offset
    // The common case, no escapes: one scan, one copy.
    while offset < bytes.count {
      let byte = bytes[offset]
      if byte == UInt8(ascii: "\"") {
        let text = String(decoding: bytes[start..<offset], as: UTF8.self)
        offset += 1
        return text
      }
      if byte == UInt8(ascii: "\\") { break }
      if byte < 0x20 {
        throw SyntaxError(offset: offset, problem: "a control character in a string")
      }
      offset += 1
    }
    var scalars = String.UnicodeScalarView()
    scalars.append(
      contentsOf: String(decoding: bytes[start..<offset], as: UTF8.self).unicodeScalars)
    var pending: [UInt8] = []
    func flush() {
      scalars.append(contentsOf: String(decoding: pending, as: UTF8.self).unicodeScalars)
      pending.removeAll(keepingCapacity: true)
    }
    while offset < bytes.count {
      let byte = bytes[offset]
      if byte == UInt8(ascii: "\"") {
        flush()
        offset += 1
        return String(scalars)
      }
      if byte < 0x20 {
        throw SyntaxError(offset: offset, problem: "a control character in a string")
      }
      guard byte == UInt8(ascii: "\\") else {
        pending.append(byte)
        offset += 1
        continue
      }
      flush()
      offset += 1
      guard offset < bytes.count else { break }
      let escape = bytes[offset]
      offset += 1
      switch escape {
      case UInt8(ascii: "\""): scalars.append("\"")
      case UInt8(ascii: "\\"): scalars.append("\\")
      case UInt8(ascii: "/"): scalars.append("/")
      case UInt8(ascii: "b"): scalars.append("\u{08}")
      case UInt8(ascii: "f"): scalars.append("\u{0C}")
      case UInt8(ascii: "n"): scalars.append("\n")
      case UInt8(ascii: "r"): scalars.append("\r")
      case UInt8(ascii: "t"): scalars.append("\t")
      case UInt8(ascii: "u"):
        var code = try hexQuad()
        if (0xD800..<0xDC00).contains(code), offset + 1 < bytes.count,
          bytes[offset] == UInt8(ascii: "\\"), bytes[offset + 1] == UInt8(ascii: "u")
        {
          offset += 2
          let low = try hexQuad()
          guard (0xDC00..<0xE000).contains(low) else {
            throw SyntaxError(offset: offset - 6, problem: "an unpaired surrogate in a \\u escape")
          }
          code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
        }
        guard let scalar = Unicode.Scalar(code) else {
          throw SyntaxError(offset: offset - 6, problem: "an unpaired surrogate in a \\u escape")
        }
        scalars.append(scalar)
      default:
        throw SyntaxError(offset: offset - 1, problem: "an unknown escape in a string")
      }
    }
    throw SyntaxError(
      offset: bytes.count, problem: "a string is not closed before the end of the file")
  }

  private mutating func hexQuad() throws(SyntaxError) -> UInt32 {
    guard offset + 4 <= bytes.count else { throw unexpected("four hex digits after \\u") }
    var code: UInt32 = 0
    for _ in 0..<4 {
      let byte = bytes[offset]
      let digit: UInt32
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
      default: throw unexpected("four hex digits after \\u")
      }
      code = code << 4 | digit
      offset += 1
    }
    return code
  }
}
