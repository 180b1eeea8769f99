import RaceCheckEngine

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
    let quoted = Value.quoted(text)
    guard quoted.utf8.contains(where: { $0 == 0x3C || $0 == 0x3E || $0 == 0x26 }) else {
      json += quoted
      return
    }
    for scalar in quoted.unicodeScalars {
      switch scalar {
      case "<": json += "\\u003c"
      case ">": json += "\\u003e"
      case "&": json += "\\u0026"
      default: json.unicodeScalars.append(scalar)
      }
    }
  }
}
