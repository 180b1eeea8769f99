extension Value {
  /// Reads `text` as one JSON value, such as a command line's `--initial '{"k": "v"}'`; nil when it is not exactly one.
  package static func parsingJSON(_ text: String) -> Value? {
    var scanner = JSONScanner(Array(text.utf8))
    guard let value = try? scanner.readValue(), scanner.atEnd() else { return nil }
    return value
  }
}
