/// Text made safe for the two places a report puts user strings: HTML markup and the page's JSON data.
///
/// Operation names, arguments, results and stacks come from the code under test or a
/// history file, so any of them may hold `<`, `&`, quotes or `</script>`.
enum HTMLText {
  /// `text` with `&`, `<`, `>`, `"` and `'` written as entities, for element content and quoted attributes.
  ///
  /// ```swift
  /// HTMLText.escaped("get(\"<b>\")")  // get(&quot;&lt;b&gt;&quot;)
  /// ```
  static func escaped(_ text: String) -> String {
    guard
      text.utf8.contains(where: {
        $0 == 0x26 || $0 == 0x3C || $0 == 0x3E || $0 == 0x22 || $0 == 0x27
      })
    else { return text }
    var result = ""
    result.reserveCapacity(text.utf8.count + 16)
    for character in text.unicodeScalars {
      switch character {
      case "&": result += "&amp;"
      case "<": result += "&lt;"
      case ">": result += "&gt;"
      case "\"": result += "&quot;"
      case "'": result += "&#39;"
      default: result.unicodeScalars.append(character)
      }
    }
    return result
  }

  /// Appends `text` to `json` as a JSON string that cannot end the `<script>` element holding it.
  ///
  /// Besides JSON's own escapes, `<`, `>` and `&` are written as `\u003c`, `\u003e` and
  /// `\u0026`, so neither `</script>` nor `<!--` can appear in the data, whatever it holds.
  static func appendJSONString(_ text: String, to json: inout String) {
    json += "\""
    let plain = !text.utf8.contains { byte in
      byte < 0x20 || byte == 0x22 || byte == 0x5C || byte == 0x3C || byte == 0x3E || byte == 0x26
    }
    if plain {
      json += text
    } else {
      for scalar in text.unicodeScalars {
        switch scalar {
        case "\"": json += "\\\""
        case "\\": json += "\\\\"
        case "\n": json += "\\n"
        case "\r": json += "\\r"
        case "\t": json += "\\t"
        case "<": json += "\\u003c"
        case ">": json += "\\u003e"
        case "&": json += "\\u0026"
        case _ where scalar.value < 0x20:
          let hex = String(scalar.value, radix: 16)
          json += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        default: json.unicodeScalars.append(scalar)
        }
      }
    }
    json += "\""
  }
}
