import Foundation
import Testing

// The documentation's links: every relative link of README.md, docs/*.md and the catalogue's
// articles names a file of the repository (and, with an anchor, a heading of it, as GitHub
// makes anchors), and every `<doc:…>` link names an article of the catalogue.

extension RaceCheckTestSuite {
  @Suite struct DocumentationLinkTests {
    @Test func everyRelativeLinkNamesAFileOfTheRepositoryAndAHeadingOfIt() throws {
      var checked = 0
      for document in try DocumentationFiles.all() {
        for link in try DocumentationFiles.links(in: document) {
          checked += 1
          let (path, anchor) = DocumentationFiles.split(link)
          let target =
            path.isEmpty
            ? document
            : document.deletingLastPathComponent().appendingPathComponent(path)
              .standardizedFileURL
          let name = "\(document.lastPathComponent): (\(link))"
          #expect(
            target.path.hasPrefix(DocumentationFiles.root.path + "/"),
            "\(name) leaves the repository")
          #expect(FileManager.default.fileExists(atPath: target.path), "\(name): no such file")
          if let anchor, target.pathExtension == "md",
            FileManager.default.fileExists(atPath: target.path)
          {
            let anchors = try DocumentationFiles.headingAnchors(of: target)
            #expect(anchors.contains(anchor), "\(name): no heading makes #\(anchor)")
          }
        }
      }
      #expect(checked >= 30)
    }

    @Test func everyDocLinkNamesAnArticleOfTheCatalogue() throws {
      let articles = Set(
        try DocumentationFiles.articles().map { $0.deletingPathExtension().lastPathComponent })
      #expect(articles.contains("GettingStarted") && articles.contains("RaceCheck"))
      var checked = 0
      for document in try DocumentationFiles.articles() {
        let text = try DocumentationFiles.prose(of: document)
        for match in text.matches(of: /<doc:([A-Za-z0-9_-]+)(#[^>]*)?>/) {
          checked += 1
          #expect(
            articles.contains(String(match.output.1)),
            "\(document.lastPathComponent): <doc:\(match.output.1)> names no article")
        }
      }
      #expect(checked >= 10)
    }

    @Test func theREADMEPointsNowhereOutsideTheRepository() throws {
      let readme = try String(contentsOf: DocumentationFiles.readme, encoding: .utf8)
      #expect(!readme.contains("../shared"))
      #expect(readme.split(separator: "\n", omittingEmptySubsequences: false).count <= 251)
    }
  }
}

/// The repository's Markdown documents, and what their links and headings are.
enum DocumentationFiles {
  /// The package's root folder.
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .standardizedFileURL
  static let readme = root.appendingPathComponent("README.md")
  static let catalogue = root.appendingPathComponent("Sources/RaceCheck/RaceCheck.docc")

  /// The catalogue's Markdown files: the landing page and the articles.
  static func articles() throws -> [URL] {
    try markdown(in: catalogue)
  }

  /// README.md, docs/*.md and the catalogue's articles.
  static func all() throws -> [URL] {
    try [readme] + markdown(in: root.appendingPathComponent("docs")) + articles()
  }

  private static func markdown(in folder: URL) throws -> [URL] {
    try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".md") }
      .sorted().map { folder.appendingPathComponent($0) }
  }

  /// The document's text outside fenced code blocks and inline code spans.
  static func prose(of document: URL) throws -> String {
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
  static func links(in document: URL) throws -> [String] {
    try prose(of: document).matches(of: /\]\(([^)\s]+)\)/).map { String($0.output.1) }
      .filter { !$0.contains("://") && !$0.hasPrefix("mailto:") && !$0.hasPrefix("doc:") }
  }

  /// A link's path and its anchor, if any.
  static func split(_ link: String) -> (path: String, anchor: String?) {
    guard let hash = link.firstIndex(of: "#") else { return (link, nil) }
    return (String(link[..<hash]), String(link[link.index(after: hash)...]))
  }

  /// The anchors GitHub makes of a document's headings: lower case, punctuation dropped, spaces as hyphens, repeats numbered.
  static func headingAnchors(of document: URL) throws -> Set<String> {
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
  static func trimmedLines(of path: String) throws -> [String] {
    try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
      .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
  }

  /// Each ```swift block of the document, as trimmed non-empty lines.
  static func swiftBlocks(of document: URL) throws -> [[String]] {
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
  static func contains(_ source: [String], _ block: [String]) -> Bool {
    guard !block.isEmpty, block.count <= source.count else { return block.isEmpty }
    return (0...(source.count - block.count)).contains { start in
      source[start..<(start + block.count)].elementsEqual(block)
    }
  }
}
