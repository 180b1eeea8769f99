import Foundation

/// The repository's Markdown documents, and what their links and headings are.
package enum DocumentationFiles {
  /// The package's root folder.
  package static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().standardizedFileURL
  package static let readme = root.appendingPathComponent("README.md")
  package static let catalogue = root.appendingPathComponent("Sources/RaceCheck/RaceCheck.docc")

  /// The catalogue's Markdown files: the landing page and the articles.
  package static func articles() throws -> [URL] {
    try markdown(in: catalogue)
  }

  /// README.md, docs/*.md and the catalogue's articles.
  package static func all() throws -> [URL] {
    try [readme] + markdown(in: root.appendingPathComponent("docs")) + articles()
  }

  private static func markdown(in folder: URL) throws -> [URL] {
    try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".md") }
      .sorted().map { folder.appendingPathComponent($0) }
  }

  /// The document's text outside fenced code blocks and inline code spans.
  package static func prose(of document: URL) throws -> String {
    var lines: [Substring] = []
    var inFence = false
    for line in try String(contentsOf: document, encoding: .utf8).split(
      separator: "\n", omittingEmptySubsequences: false)
    {
      if line.trimmingCharacters(in: .whitespaces).hasPrefix("```") {
        inFence.toggle()
        lines.append("")
      } else {
        lines.append(inFence ? "" : line)
      }
    }
    return lines.joined(separator: "\n").replacing(/`[^`\n]*`/, with: "")
  }

  /// The targets of the document's Markdown links that are neither absolute URLs nor `doc:` links.
  package static func links(in document: URL) throws -> [String] {
    try prose(of: document).matches(of: /\]\(([^)\s]+)\)/).map { String($0.output.1) }
      .filter { !$0.contains("://") && !$0.hasPrefix("mailto:") && !$0.hasPrefix("doc:") }
  }

  /// A link's path and its anchor, if any.
  package static func split(_ link: String) -> (path: String, anchor: String?) {
    guard let hash = link.firstIndex(of: "#") else { return (link, nil) }
    return (String(link[..<hash]), String(link[link.index(after: hash)...]))
  }

  /// The anchors GitHub makes of a document's headings: lower case, punctuation dropped, spaces as hyphens, repeats numbered.
  package static func headingAnchors(of document: URL) throws -> Set<String> {
    var anchors: Set<String> = []
    var seen: [String: Int] = [:]
    for line in try prose(of: document).split(separator: "\n") where line.hasPrefix("#") {
      let title = line.drop { $0 == "#" }.trimmingCharacters(in: .whitespaces)
      let slug = String(
        title.lowercased().unicodeScalars.filter {
          CharacterSet.alphanumerics.contains($0) || $0 == " " || $0 == "-" || $0 == "_"
        }.map(Character.init)
      ).replacingOccurrences(of: " ", with: "-")
      let repeats = seen[slug, default: 0]
      seen[slug] = repeats + 1
      anchors.insert(repeats == 0 ? slug : "\(slug)-\(repeats)")
    }
    return anchors
  }

  /// The document's lines with their indentation trimmed, blank ones dropped.
  package static func trimmedLines(of path: String) throws -> [String] {
    try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
      .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
  }

  /// Each ```swift block of the document, as trimmed non-empty lines.
  package static func swiftBlocks(of document: URL) throws -> [[String]] {
    var blocks: [[String]] = []
    var current: [String]?
    for line in try trimmedLines(of: document.path) {
      if current == nil, line == "```swift" {
        current = []
      } else if current != nil, line == "```" {
        blocks.append(current!)
        current = nil
      } else {
        current?.append(line)
      }
    }
    return blocks
  }

  /// Whether `block` is a run of consecutive lines of `source`.
  package static func contains(_ source: [String], _ block: [String]) -> Bool {
    guard !block.isEmpty, block.count <= source.count else { return block.isEmpty }
    return (0...(source.count - block.count)).contains { start in
      source[start..<(start + block.count)].elementsEqual(block)
    }
  }
}
