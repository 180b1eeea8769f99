import RaceCheckEngine

/// A self-contained report page: plain HTML for the facts, and timelines its script draws on canvases.
///
/// Nothing is loaded from elsewhere: the style and the script (`Resources/report.css` and
/// `Resources/report.js`, compiled into the module) are inline, the timelines' data is JSON in a
/// `<script type="application/json">` element, and the page's content security policy forbids
/// every fetch, so the page reads the same offline and in CI.
///
/// ```swift
/// var page = HTMLPage(title: "racecheck: LockArray")
/// page.append("<h1>LockArray</h1>")
/// page.appendTimeline(timeline, caption: "The failing history")
/// try page.html.write(toFile: "report.html", atomically: true, encoding: .utf8)
/// ```
struct HTMLPage {
  /// The document's title, as plain text.
  var title: String
  /// The body's HTML so far.
  private(set) var body: String = ""
  /// The timelines the body's placeholders draw, by index.
  private(set) var timelines: [Timeline] = []

  /// Creates an empty page titled `title`.
  init(title: String) {
    self.title = title
  }

  /// Appends `html`, which must already be escaped, to the body.
  mutating func append(_ html: String) {
    body += html
    body += "\n"
  }

  /// Appends the figure that the script fills with `timeline`'s canvas, zoom and search, and a legend of its marks.
  mutating func appendTimeline(_ timeline: Timeline, caption: String) {
    let index = timelines.count
    timelines.append(timeline)
    append(
      "<figure class=\"timeline\" id=\"timeline-\(index)\" data-timeline=\"\(index)\" "
        + "data-operations=\"\(timeline.operations.count)\">"
        + "<figcaption>\(HTMLText.escaped(caption))</figcaption>"
        + Self.legend(marked: timeline.marks != nil)
        + "<noscript><p>The timeline is drawn by the page's script; the facts around it are "
        + "plain text.</p></noscript></figure>")
  }

  /// The whole document.
  var html: String {
    var html = ""
    html.reserveCapacity(body.utf8.count + timelines.count * 4096 + 64 * 1024)
    html += """
      <!DOCTYPE html>
      <html lang="en">
      <head>
      <meta charset="utf-8">
      <meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:">
      <meta name="viewport" content="width=device-width, initial-scale=1">
      <meta name="generator" content="racecheck">
      <title>\(HTMLText.escaped(title))</title>
      \(Self.styleElement)
      </head>
      <body>
      <main>

      """
    html += body
    html += "</main>\n<script type=\"application/json\" id=\"racecheck-data\">{\"timelines\":["
    for (index, timeline) in timelines.enumerated() {
      if index > 0 { html += "," }
      html += timeline.json
    }
    html += "]}</script>\n"
    html += Self.scriptElement
    html += "\n</body>\n</html>\n"
    return html
  }

  /// The page's style sheet, `Resources/report.css`, as an inline `<style>` element.
  ///
  /// The colours of the marks are the legend's and the script's: window blue, linearization
  /// green, an operation that cannot be placed red, one that fits but leads nowhere orange.
  private static let styleElement = inlineElement("style", source: PackageResources.report_css)

  /// The page's script, `Resources/report.js`, as an inline `<script>` element.
  ///
  /// It reads the JSON of `<script id="racecheck-data">`, and for each `<figure
  /// data-timeline>` adds a toolbar (zoom, fit, "show the failure", a search box taking
  /// text, `op:NAME` or `key:KEY`), the canvas and a button per marked operation. Only the
  /// rows and the time span in view are drawn, and bars narrower than a pixel share it, so
  /// 100,000 operations zoom and pan smoothly. When done it records on `<html>` the number
  /// of operations drawn (`data-drawn-operations`) and `performance.now()` (`data-load-ms`).
  private static let scriptElement = inlineElement("script", source: PackageResources.report_js)

  /// An element named `name` whose content is `source`, on lines of its own between its tags.
  ///
  /// `source` is a file under `Resources/` that the package manifest compiles into the module as
  /// UTF-8 bytes (`PackageResources`), so an executable that writes the page needs no resource
  /// bundle beside it. The content is not escaped: the files are the page's own, and a test
  /// checks that neither holds its element's end tag.
  private static func inlineElement(_ name: String, source: [UInt8]) -> String {
    var content = String(decoding: source, as: UTF8.self)
    if !content.hasSuffix("\n") { content += "\n" }
    return "<\(name)>\n\(content)</\(name)>"
  }

  /// The key to the timeline's colours; the marks only when the history has no linearization.
  private static func legend(marked: Bool) -> String {
    var items = [
      ("operation", "an operation, from its call to its return"),
      ("unknown", "outcome unknown (never returned)"),
      ("failed", "failed: known not to have taken effect"),
    ]
    if marked {
      items += [
        ("window", "in the smallest failing window"),
        ("linearized", "in the longest linearization, numbered in its order"),
        ("unplaceable", "cannot be placed: the model allows another result"),
        ("dead-end", "fits next, but no order after it works"),
      ]
    }
    items.append(("match", "matches the search"))
    return "<ul class=\"legend\">"
      + items.map { "<li><span class=\"swatch \($0.0)\"></span>\($0.1)</li>" }.joined()
      + "</ul>"
  }
}
