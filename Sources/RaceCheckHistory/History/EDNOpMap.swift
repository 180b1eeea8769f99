#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The fields of a Jepsen op map the readers use, read straight from the EDN without building the map.
///
/// A history is millions of op maps of five fields each: hashing every key into a
/// dictionary of `EDNValue`s only to look five of them up took most of the time of
/// reading one. As in a map, a key given twice keeps its last value.
///
/// ```swift
/// var scanner = EDNScanner(bytes[...])
/// if case .opMap(let fields) = try scanner.readForm() { print(fields.process ?? .null) }
/// ```
struct EDNOpMap: Hashable, Sendable {
  /// A key of an op map the readers use.
  enum Field: CaseIterable {
    case process, type, function, key, value

    /// The keyword's name: `:process`, `:type`, `:f`, `:key`, `:value`.
    var name: StaticString {
      switch self {
      case .process: return "process"
      case .type: return "type"
      case .function: return "f"
      case .key: return "key"
      case .value: return "value"
      }
    }

    /// The field a key of the map names; nil for any other key.
    init?(_ key: EDNValue) {
      guard case .keyword(let name) = key,
        let field = Self.allCases.first(where: { $0.name.description == name })
      else { return nil }
      self = field
    }

    /// The field whose name is `bytes`, compared byte for byte.
    init?(bytes: ArraySlice<UInt8>) {
      // The names differ in length: one comparison settles it.
      let field: Self
      switch bytes.count {
      case 1: field = .function
      case 3: field = .key
      case 4: field = .type
      case 5: field = .value
      case 7: field = .process
      default: return nil
      }
      let name = field.name
      let equal = bytes.withUnsafeBufferPointer {
        memcmp($0.baseAddress!, name.utf8Start, $0.count)
      }
      guard equal == 0 else { return nil }
      self = field
    }
  }

  /// `:process`.
  var process: EDNValue?
  /// `:type`.
  var type: EDNValue?
  /// `:f`.
  var function: EDNValue?
  /// `:key`.
  var key: EDNValue?
  /// `:value`.
  var value: EDNValue?

  /// The value of `field`; nil when the map does not have it.
  subscript(field: Field) -> EDNValue? {
    get {
      switch field {
      case .process: return process
      case .type: return type
      case .function: return function
      case .key: return key
      case .value: return value
      }
    }
    set {
      switch field {
      case .process: process = newValue
      case .type: type = newValue
      case .function: function = newValue
      case .key: key = newValue
      case .value: value = newValue
      }
    }
  }
}

/// One top-level form of an EDN history: an op map's fields, or any other value (which is not an op).
enum EDNForm: Hashable, Sendable {
  /// A map, of which only the fields of an op were kept.
  case opMap(EDNOpMap)
  /// Anything but a map.
  case other(EDNValue)
}

extension EDNScanner {
  /// Reads the next form as ``readValue(depth:)`` would, keeping of a map only its op fields.
  ///
  /// The syntax accepted, the errors and their offsets are those of `readValue`: the map
  /// is read member by member to its closing brace before an odd count is reported.
  mutating func readForm(depth: Int = 0) throws(SyntaxError) -> EDNForm {
    guard depth < Self.maximumDepth else {
      throw SyntaxError(offset: offset, problem: "nesting deeper than \(Self.maximumDepth) levels")
    }
    try skipIgnored(depth: depth)
    guard nextByte == UInt8(ascii: "{") else { return .other(try readValue(depth: depth)) }
    skipByte()
    var fields = EDNOpMap()
    while true {
      try skipIgnored(depth: depth + 1)
      guard let byte = nextByte else {
        throw SyntaxError(offset: offset, problem: "expected '}', found the end of the line")
      }
      if byte == UInt8(ascii: "}") {
        skipByte()
        return .opMap(fields)
      }
      let field = try readKey(depth: depth + 1)
      guard let value = try readMember(closing: UInt8(ascii: "}"), depth: depth) else {
        throw SyntaxError(offset: offset, problem: "a map needs an even number of forms")
      }
      if let field { fields[field] = value }
    }
  }

  /// Reads a map's key at `depth`, as ``readValue(depth:)`` would, and says which op field it is.
  ///
  /// A keyword's name is compared as bytes, with no string made: an ASCII name equals a
  /// field's only byte for byte. Any other key is read as a value.
  private mutating func readKey(depth: Int) throws(SyntaxError) -> EDNOpMap.Field? {
    let start = offset
    if depth < Self.maximumDepth, nextByte == UInt8(ascii: ":") {
      skipByte()
      let name = readTokenBytes()
      if !name.isEmpty {
        if let field = EDNOpMap.Field(bytes: bytes[name]) { return field }
        if bytes[name].allSatisfy({ $0 < 0x80 }) { return nil }
      }
      // An empty name is an error, and a name that is not ASCII is compared as a string.
      offset = start
    }
    return EDNOpMap.Field(try readValue(depth: depth))
  }
}
