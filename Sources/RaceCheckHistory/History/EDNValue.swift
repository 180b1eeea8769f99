/// A value of EDN, the Clojure data notation Jepsen writes its histories in, and a reader for one.
///
/// Enough of EDN for Jepsen's op maps: maps, vectors, lists, sets, strings, numbers,
/// keywords, symbols, `nil`, booleans, characters, comments, `#_` discards and tagged
/// values (the tag is dropped). Nesting is bounded so that no input can overflow the stack.
enum EDNValue: Hashable, Sendable {
  case null
  case bool(Bool)
  case int(Int)
  case double(Double)
  case string(String)
  /// `:name`, without the colon.
  case keyword(String)
  case symbol(String)
  /// A vector, list or set.
  case list([EDNValue])
  case map([EDNValue: EDNValue])

  /// The value in the JSON shape of history files: keywords and symbols become strings, map keys their text.
  var value: Value {
    switch self {
    case .null: return .null
    case .bool(let value): return .bool(value)
    case .int(let value): return .int(value)
    case .double(let value): return .double(value)
    case .string(let value), .keyword(let value), .symbol(let value): return .string(value)
    case .list(let values): return .list(values.map(\.value))
    case .map(let members):
      var object: [String: Value] = [:]
      for (key, value) in members { object[key.text] = value.value }
      return .object(object)
    }
  }

  /// The value as EDN would print it, for messages: `:invoke`, `"x"`, `[1 2]`.
  var text: String {
    switch self {
    case .null: return "nil"
    case .bool(let value): return value ? "true" : "false"
    case .int(let value): return String(value)
    case .double(let value): return String(value)
    case .string(let value): return Value.quoted(value)
    case .keyword(let value): return ":" + value
    case .symbol(let value): return value
    case .list(let values): return "[" + values.map(\.text).joined(separator: " ") + "]"
    case .map(let members):
      return "{"
        + members.map { $0.key.text + " " + $0.value.text }.sorted().joined(separator: ", ")
        + "}"
    }
  }
}

/// Reads EDN values from a line of bytes.
struct EDNScanner {
  /// Why the bytes are not EDN, and where (a 0-based offset into the line).
  struct SyntaxError: Error, Hashable, Sendable {
    var offset: Int
    var problem: String
  }

  static let maximumDepth = 64

  let bytes: ArraySlice<UInt8>
  /// The cursor, an index into the bytes; a reader that looked ahead may set it back.
  var offset: Int

  init(_ bytes: ArraySlice<UInt8>) {
    self.bytes = bytes
    offset = bytes.startIndex
  }

  /// The 1-based column of the cursor.
  var column: Int { offset - bytes.startIndex + 1 }

  /// Whether only whitespace and comments are left.
  mutating func atEnd() -> Bool {
    skipWhitespace()
    return offset >= bytes.endIndex
  }

  mutating func readValue(depth: Int = 0) throws(SyntaxError) -> EDNValue {
    guard depth < Self.maximumDepth else {
      throw SyntaxError(offset: offset, problem: "nesting deeper than \(Self.maximumDepth) levels")
    }
    try skipIgnored(depth: depth)
    guard offset < bytes.endIndex else {
      throw error("expected a value, found the end of the line")
    }
    let byte = bytes[offset]
    switch byte {
    case UInt8(ascii: "{"):
      offset += 1
      let elements = try readSequence(until: UInt8(ascii: "}"), depth: depth)
      guard elements.count % 2 == 0 else { throw error("a map needs an even number of forms") }
      var members: [EDNValue: EDNValue] = [:]
      for pair in stride(from: 0, to: elements.count, by: 2) {
        members[elements[pair]] = elements[pair + 1]
      }
      return .map(members)
    case UInt8(ascii: "["):
      offset += 1
      return .list(try readSequence(until: UInt8(ascii: "]"), depth: depth))
    case UInt8(ascii: "("):
      offset += 1
      return .list(try readSequence(until: UInt8(ascii: ")"), depth: depth))
    case UInt8(ascii: "#"):
      offset += 1
      guard offset < bytes.endIndex else { throw error("expected a form after '#'") }
      if bytes[offset] == UInt8(ascii: "{") {
        offset += 1
        return .list(try readSequence(until: UInt8(ascii: "}"), depth: depth))
      }
      // A tagged value such as #inst "…": the tag is a symbol, the value follows.
      _ = try readToken()
      return try readValue(depth: depth + 1)
    case UInt8(ascii: "\""):
      return .string(try readString())
    case UInt8(ascii: "\\"):
      offset += 1
      return .string(try readToken())
    case UInt8(ascii: ":"):
      offset += 1
      let name = try readToken()
      guard !name.isEmpty else { throw error("expected a keyword's name after ':'") }
      return .keyword(name)
    case UInt8(ascii: "}"), UInt8(ascii: "]"), UInt8(ascii: ")"):
      throw error("unexpected '\(Character(Unicode.Scalar(byte)))'")
    default:
      let token = readTokenBytes()
      guard !token.isEmpty else { throw error("unexpected byte 0x\(String(byte, radix: 16))") }
      return atom(token)
    }
  }

  /// Whether the first form, past whitespace and comments, opens a vector or a list: Knossos's layouts of a whole history.
  mutating func startsWithSequence() -> Bool {
    skipWhitespace()
    return offset < bytes.endIndex
      && (bytes[offset] == UInt8(ascii: "[") || bytes[offset] == UInt8(ascii: "("))
  }

  /// Reads the vector or list at the cursor form by form, each with the offset where it starts, so that a caller can say where each one was.
  mutating func readSequenceElements() throws(SyntaxError) -> [(offset: Int, form: EDNForm)] {
    skipWhitespace()
    guard startsWithSequence() else { throw error("expected '[' or '('") }
    let close = bytes[offset] == UInt8(ascii: "[") ? UInt8(ascii: "]") : UInt8(ascii: ")")
    offset += 1
    var elements: [(offset: Int, form: EDNForm)] = []
    while true {
      try skipIgnored(depth: 1)
      guard offset < bytes.endIndex else {
        throw error("expected '\(Character(Unicode.Scalar(close)))', found the end of the file")
      }
      if bytes[offset] == close {
        offset += 1
        return elements
      }
      let start = offset
      elements.append((start, try readForm(depth: 1)))
    }
  }

  /// The atom the bytes of `token` spell, without making a string of the integers, `nil`, `true` and `false` most tokens of a history are.
  private func atom(_ token: Range<Int>) -> EDNValue {
    let count = token.count
    let first = bytes[token.lowerBound]
    if count == 3 && first == UInt8(ascii: "n") && bytes[token] == Self.nilBytes[...] {
      return .null
    }
    if count == 4 && first == UInt8(ascii: "t") && bytes[token] == Self.trueBytes[...] {
      return .bool(true)
    }
    if count == 5 && first == UInt8(ascii: "f") && bytes[token] == Self.falseBytes[...] {
      return .bool(false)
    }
    if let value = Self.plainInteger(bytes[token]) { return .int(value) }
    return Self.decimalOrSymbol(String(decoding: bytes[token], as: UTF8.self))
  }

  private static let nilBytes = Array("nil".utf8)
  private static let trueBytes = Array("true".utf8)
  private static let falseBytes = Array("false".utf8)

  /// The value of a token that is only a sign, decimal digits and an `N` or `M`, when it fits an `Int`; nil for any other token, which ``decimalOrSymbol(_:)`` reads.
  private static func plainInteger(_ token: ArraySlice<UInt8>) -> Int? {
    var digits = token
    if let last = digits.last, last == UInt8(ascii: "N") || last == UInt8(ascii: "M") {
      digits = digits.dropLast()
    }
    var negative = false
    if let sign = digits.first, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") {
      negative = sign == UInt8(ascii: "-")
      digits = digits.dropFirst()
    }
    guard !digits.isEmpty else { return nil }
    // Accumulated on the side of the sign, so that Int.min reads as Int(String) reads it.
    var value = 0
    for byte in digits {
      guard byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") else { return nil }
      let digit = Int(byte &- UInt8(ascii: "0"))
      let (shifted, overflowed) = value.multipliedReportingOverflow(by: 10)
      let (next, overflowedAgain) =
        negative
        ? shifted.subtractingReportingOverflow(digit) : shifted.addingReportingOverflow(digit)
      guard !overflowed && !overflowedAgain else { return nil }
      value = next
    }
    return value
  }

  /// A token that is not `nil`, a boolean or an integer that fits an `Int`: a finite decimal, or else a symbol.
  private static func decimalOrSymbol(_ token: String) -> EDNValue {
    var digits = Substring(token)
    if digits.hasSuffix("N") || digits.hasSuffix("M") { digits = digits.dropLast() }
    if let first = token.first, first.isNumber || first == "-" || first == "+",
      let value = Double(digits), value.isFinite
    {
      return .double(value)
    }
    return .symbol(token)
  }

  private mutating func readSequence(until close: UInt8, depth: Int) throws(SyntaxError)
    -> [EDNValue]
  {
    var elements: [EDNValue] = []
    while let element = try readMember(closing: close, depth: depth) {
      elements.append(element)
    }
    return elements
  }

  /// Reads the next member of a sequence nested at `depth`; nil, past it, at the `close` that ends the sequence.
  mutating func readMember(closing close: UInt8, depth: Int) throws(SyntaxError) -> EDNValue? {
    try skipIgnored(depth: depth + 1)
    guard offset < bytes.endIndex else {
      throw error("expected '\(Character(Unicode.Scalar(close)))', found the end of the line")
    }
    if bytes[offset] == close {
      offset += 1
      return nil
    }
    return try readValue(depth: depth + 1)
  }

  /// The byte at the cursor; nil at the end.
  var nextByte: UInt8? { offset < bytes.endIndex ? bytes[offset] : nil }

  /// Moves the cursor past the byte at it.
  mutating func skipByte() { offset += 1 }

  private mutating func readToken() throws(SyntaxError) -> String {
    String(decoding: bytes[readTokenBytes()], as: UTF8.self)
  }

  /// Moves the cursor past a token (up to whitespace, a delimiter or a comment) and returns where its bytes are.
  mutating func readTokenBytes() -> Range<Int> {
    let start = offset
    scan: while offset < bytes.endIndex {
      switch bytes[offset] {
      case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"),
        UInt8(ascii: ","), UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: "["),
        UInt8(ascii: "]"), UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "\""),
        UInt8(ascii: ";"):
        break scan
      default:
        offset += 1
      }
    }
    return start..<offset
  }

  private mutating func readString() throws(SyntaxError) -> String {
    offset += 1
    // Most strings have no escape: their bytes are the text, with no buffer to copy them through.
    var end = offset
    while end < bytes.endIndex && bytes[end] != UInt8(ascii: "\"")
      && bytes[end] != UInt8(ascii: "\\")
    {
      end += 1
    }
    if end < bytes.endIndex && bytes[end] == UInt8(ascii: "\"") {
      defer { offset = end + 1 }
      return String(decoding: bytes[offset..<end], as: UTF8.self)
    }
    var text: [UInt8] = []
    while offset < bytes.endIndex {
      let byte = bytes[offset]
      offset += 1
      if byte == UInt8(ascii: "\"") { return String(decoding: text, as: UTF8.self) }
      guard byte == UInt8(ascii: "\\") else {
        text.append(byte)
        continue
      }
      guard offset < bytes.endIndex else { break }
      let escape = bytes[offset]
      offset += 1
      switch escape {
      case UInt8(ascii: "n"): text.append(UInt8(ascii: "\n"))
      case UInt8(ascii: "t"): text.append(UInt8(ascii: "\t"))
      case UInt8(ascii: "r"): text.append(UInt8(ascii: "\r"))
      default: text.append(escape)
      }
    }
    throw error("a string is not closed before the end of the line")
  }

  /// Skips whitespace, comments and discarded forms (`#_ form`).
  ///
  /// Discards are skipped in a loop, not by recursion: a line of a million of them must
  /// not nest a million calls deep (it overflowed the stack; found by Scripts/fuzz-readers).
  mutating func skipIgnored(depth: Int) throws(SyntaxError) {
    while true {
      skipWhitespace()
      guard offset + 1 < bytes.endIndex, bytes[offset] == UInt8(ascii: "#"),
        bytes[offset + 1] == UInt8(ascii: "_")
      else { return }
      offset += 2
      _ = try readValue(depth: depth + 1)
    }
  }

  private mutating func skipWhitespace() {
    while offset < bytes.endIndex {
      switch bytes[offset] {
      case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"),
        UInt8(ascii: ","):
        offset += 1
      case UInt8(ascii: ";"):
        while offset < bytes.endIndex && bytes[offset] != UInt8(ascii: "\n") { offset += 1 }
      default:
        return
      }
    }
  }

  private func error(_ problem: String) -> SyntaxError {
    SyntaxError(offset: offset, problem: problem)
  }
}
