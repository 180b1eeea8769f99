import Foundation

/// The parsed output of `llvm-symbolizer --inlines --output-style=JSON`: one answer per input line.
///
/// Each output line is a JSON object for one `"<module>" <address>` input line, with either
/// a `Symbol` array (the inlining chain, innermost first) or an `Error`. Parsing is kept apart
/// from running the tool so that documents a real run rarely produces (a release build's
/// `Swift runtime failure` frame, garbage) can be tested directly.
package enum LLVMSymbolizerOutput {
  /// What the symbolizer said about one address.
  package struct Answer: Hashable, Sendable {
    /// The address the answer is for, echoed from the input.
    package var address: UInt?
    /// The module path the answer is for, echoed from the input.
    package var module: String?
    /// The functions at the address, innermost (most deeply inlined) first; empty on error.
    package var frames: [Location]
    /// Why the address could not be symbolized (`No such file or directory`), if it could not.
    package var error: String?
  }

  /// One function in an inlining chain and the source position reached in it.
  package struct Location: Hashable, Sendable {
    /// The linkage name, mangled for Swift, or a synthetic name like `Swift runtime failure: …`.
    package var function: String?
    /// The source file path, nil when the debug information gives no line in it.
    package var file: String?
    /// The 1-based line, nil when unknown (the tool says 0).
    package var line: Int?
    /// The 1-based column, nil when unknown (the tool says 0).
    package var column: Int?
  }

  /// Parses the tool's output into one answer per line; a line that is not an answer gives nil.
  ///
  /// ```swift
  /// let answers = LLVMSymbolizerOutput.parse(outputText)
  /// answers[0]?.frames.first?.function  // "$s3rel4pickySiSaySiG_SitF"
  /// ```
  package static func parse(_ text: String) -> [Answer?] {
    let decoder = JSONDecoder()
    return text.split(whereSeparator: \.isNewline).map { line in
      guard let document = try? decoder.decode(Document.self, from: Data(line.utf8)) else {
        return nil
      }
      return document.answer
    }
  }

  /// The name the Swift compiler gives the artificial inlined frame that carries a trap's message.
  package static let runtimeFailurePrefix = "Swift runtime failure: "

  /// One output line as the tool writes it.
  private struct Document: Decodable {
    /// One entry of the `Symbol` array: a function of the inlining chain.
    struct Symbol: Decodable {
      var function: String?
      var file: String?
      var line: Int?
      var column: Int?
      enum CodingKeys: String, CodingKey {
        case function = "FunctionName"
        case file = "FileName"
        case line = "Line"
        case column = "Column"
      }
    }
    /// The `Error` object of an address that could not be symbolized.
    struct Failure: Decodable {
      var message: String?
      enum CodingKeys: String, CodingKey { case message = "Message" }
    }
    /// The address asked about, in hex.
    var address: String?
    /// The module asked about.
    var module: String?
    /// The inlining chain, innermost first; absent on error.
    var symbols: [Symbol]?
    /// Why there is no chain.
    var error: Failure?
    enum CodingKeys: String, CodingKey {
      case address = "Address"
      case module = "ModuleName"
      case symbols = "Symbol"
      case error = "Error"
    }

    /// The line as an ``Answer``, placeholders turned to nil.
    var answer: Answer {
      Answer(
        address: address.flatMap(parseHex), module: module,
        frames: (symbols ?? []).map { symbol in
          let line = symbol.line.flatMap(positive)
          // Without a line the file is only the compile unit's name, and for a library built
          // without debug information that is whichever object had some (`crtstuff.c`).
          return Location(
            function: symbol.function.flatMap(known),
            file: line == nil ? nil : symbol.file.flatMap(knownFile),
            line: line, column: symbol.column.flatMap(positive))
        },
        error: error.map { $0.message ?? "unknown error" })
    }
  }

  /// The tool's placeholders for "unknown" (`??`, empty) read as nil.
  private static func known(_ text: String) -> String? {
    text.isEmpty || text == "??" ? nil : text
  }

  /// A file name, except placeholders and the compiler's `<compiler-generated>` pseudo-file.
  private static func knownFile(_ path: String) -> String? {
    guard let path = known(path), !path.hasSuffix("<compiler-generated>") else { return nil }
    return path
  }

  /// A line or column number, or nil for the tool's 0 ("unknown").
  private static func positive(_ number: Int) -> Int? { number > 0 ? number : nil }

  /// `0x1f` or `1f` as a number.
  static func parseHex(_ text: String) -> UInt? {
    UInt(text.hasPrefix("0x") ? String(text.dropFirst(2)) : text, radix: 16)
  }
}
