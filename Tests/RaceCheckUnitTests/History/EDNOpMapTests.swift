import Testing

@testable import RaceCheckEngine
@testable import RaceCheckHistory

// The EDN reader takes an op map's fields straight from the bytes, and reads integers,
// nil, booleans and plain strings without the general path: on every line below it must
// give what the general reader gives (the same fields, the same value, or the same error
// at the same offset), including on duplicate keys, keys that are not keywords, names
// that are not ASCII, discards, comments and malformed maps.

extension UnitTestSuite {
  @Suite struct EDNOpMapTests {
    @Test(arguments: lines)
    func opMapReadsAsTheGeneralReaderReadsIt(line: String) {
      #expect(fast(line) == general(line))
    }

    @Test func lastOfTwoEqualKeysWins() throws {
      var scanner = EDNScanner(Array(#"{:process 1, :f :read, :process 2}"#.utf8)[...])
      let form = try scanner.readForm()
      #expect(form == .opMap(EDNOpMap(process: .int(2), function: .keyword("read"))))
    }

    @Test func keywordNotInASCIIIsNoField() throws {
      // ":prоcess" with a Cyrillic о: a different keyword, compared as a string.
      var scanner = EDNScanner(Array("{:pr\u{43E}cess 1}".utf8)[...])
      #expect(try scanner.readForm() == .opMap(EDNOpMap()))
    }
  }
}

/// What the op-map reader makes of a line, and where it stopped.
private func fast(_ line: String) -> String {
  var scanner = EDNScanner(Array(line.utf8)[...])
  do {
    let form = try scanner.readForm()
    switch form {
    case .opMap(let fields): return "map \(fields) at \(scanner.offset)"
    case .other(let value): return "value \(value) at \(scanner.offset)"
    }
  } catch {
    return "error \(error.problem) at \(error.offset)"
  }
}

/// What the general reader makes of a line, with a map's op fields taken from the whole map.
private func general(_ line: String) -> String {
  var scanner = EDNScanner(Array(line.utf8)[...])
  do {
    let value = try scanner.readValue()
    guard case .map(let members) = value else { return "value \(value) at \(scanner.offset)" }
    let fields = EDNOpMap(
      process: members[.keyword("process")], type: members[.keyword("type")],
      function: members[.keyword("f")], key: members[.keyword("key")],
      value: members[.keyword("value")])
    return "map \(fields) at \(scanner.offset)"
  } catch {
    return "error \(error.problem) at \(error.offset)"
  }
}

private let lines: [String] = [
  #"{:process 0, :type :invoke, :f :put, :key "0", :value "x 0 1 y"}"#,
  #"{:process 0, :type :ok, :f :get, :key "0", :value nil}"#,
  #"  {:process 3 :type :info :f :cas :value [1 2]}  "#,
  #"{:process :nemesis, :type :info, :f :start, :value nil}"#,
  #"{:value 1, :process 2, :value 3, :f :write, :type :ok}"#,
  #"{"process" 1, :type :ok, process 2, :f :read}"#,
  #"{{:process 1} 2, [:type] :ok, :f :read}"#,
  #"{:process 1, #_ :type #_ :ok :f :read}"#,
  #"{:process 1 ; a comment"#,
  #"{:process 1, :type}"#,
  #"{:process 1, :type :ok"#,
  #"{: 1}"#,
  #"{:process 1, : 2}"#,
  #"{:processes 1, :typ :ok, :ff :read, :keys 1, :values 2}"#,
  "{:pr\u{43E}cess 1, :f :read}",
  "{:k\u{301}ey 1, :value \"\u{E9}t\u{E9}\"}",
  #"{:process 1, :value {:a 1, :b [2 3]}}"#,
  #"{:process 9223372036854775807, :value -9223372036854775808}"#,
  #"{:process 9223372036854775808, :value -9223372036854775809}"#,
  #"{:process +5, :value -0, :key 00, :f 7N, :type 8M}"#,
  #"{:process 5NN, :value 1.5, :key -, :f +, :type N}"#,
  #"{:process nil, :value true, :key false, :f nilx, :type truex}"#,
  #"{:process 1, :value "a \"quoted\" \\ line\n"}"#,
  #"{:process 1, :value "not closed}"#,
  #"{:process 1, :value \c}"#,
  #"{:process 1, :value #inst "2024-01-01"}"#,
  #"{:process 1, :value #{1 2}}"#,
  #"{:process 1 :value (1 2)}"#,
  #"{:process 1, :value ]}"#,
  #"{}"#,
  #"{"#,
  #"[1 2 3]"#,
  #"7"#,
  #"#_ {:process 1} {:process 2}"#,
  String(repeating: "{:value ", count: 70) + "1" + String(repeating: "}", count: 70),
]
