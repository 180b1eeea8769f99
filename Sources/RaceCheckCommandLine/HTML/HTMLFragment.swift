import RaceCheckEngine

/// Small pieces of report HTML, each built from plain text it escapes itself.
enum HTMLFragment {
  /// One labelled fact of a summary: its key names it for scripts and tests, as `data-fact="verdict"`.
  struct Fact {
    /// The `data-fact` key.
    var key: String
    /// The label shown, as plain text.
    var label: String
    /// The value, as HTML.
    var html: String

    /// A fact whose value is plain text.
    static func text(_ key: String, _ label: String, _ text: String) -> Fact {
      Fact(key: key, label: label, html: HTMLText.escaped(text))
    }

    /// Whether the value takes the whole width of the list, as a command line or a path does.
    var isWide = false

    /// A fact whose value is code, such as a seed.
    static func code(_ key: String, _ label: String, _ text: String) -> Fact {
      Fact(key: key, label: label, html: "<code>\(HTMLText.escaped(text))</code>")
    }

    /// A fact whose value is a long line of code, such as a command line or a path, given a line of its own.
    static func wideCode(_ key: String, _ label: String, _ text: String) -> Fact {
      Fact(key: key, label: label, html: "<code>\(HTMLText.escaped(text))</code>", isWide: true)
    }
  }

  /// At most this many items of one list are written as HTML; the rest are counted, and the timeline marks them all.
  static let listedItems = 100

  /// A description list of `facts`.
  static func facts(_ facts: [Fact]) -> String {
    "<dl class=\"facts\">"
      + facts.map { fact in
        "<div\(fact.isWide ? " class=\"wide\"" : "") data-fact=\"\(HTMLText.escaped(fact.key))\"><dt>\(HTMLText.escaped(fact.label))</dt>"
          + "<dd>\(fact.html)</dd></div>"
      }.joined()
      + "</dl>"
  }

  /// Preformatted text, such as a stack or a scenario table.
  static func preformatted(_ text: String, class name: String) -> String {
    "<pre class=\"\(name)\">\(HTMLText.escaped(text))</pre>"
  }

  /// A list element of `class` whose items are `items` (HTML), the first ``listedItems`` of them, then a count of the rest.
  static func list(_ tag: String, class name: String, _ items: [String]) -> String {
    var html = "<\(tag) class=\"\(name)\">"
    html += items.prefix(listedItems).joined()
    html += "</\(tag)>"
    if items.count > listedItems {
      html +=
        "<p class=\"more\">… and \(items.count - listedItems) more; the timeline marks them all.</p>"
    }
    return html
  }

  /// A section with a heading and content HTML.
  static func section(_ heading: String, class name: String, _ content: String) -> String {
    "<section class=\"\(name)\"><h2>\(HTMLText.escaped(heading))</h2>\(content)</section>"
  }
}
