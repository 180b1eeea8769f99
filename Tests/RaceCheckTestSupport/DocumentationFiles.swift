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
    outsideFences(try String(contentsOf: document, encoding: .utf8))
      .replacing(/`[^`\n]*`/, with: "")
  }

  /// `text` with the lines of its fenced code blocks, fences included, blanked.
  package static func outsideFences(_ text: String) -> String {
    var lines: [Substring] = []
    var inFence = false
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      if line.trimmingCharacters(in: .whitespaces).hasPrefix("```") {
        inFence.toggle()
        lines.append("")
      } else {
        lines.append(inFence ? "" : line)
      }
    }
    return lines.joined(separator: "\n")
  }

  /// A repository path a document writes in backticks, such as `Sources/RaceCheck/RaceCheck.swift:3-5`.
  package struct PathReference: Sendable, CustomStringConvertible {
    /// The path from the repository's root.
    package var path: String
    /// The first and the last line it names after a colon, if any: `:12` is `(12, 12)`.
    package var lines: (first: Int, last: Int)?

    package var description: String {
      guard let lines else { return path }
      return lines.first == lines.last
        ? "\(path):\(lines.first)" : "\(path):\(lines.first)-\(lines.last)"
    }
  }

  /// The folders a backticked token starts with when it is a path of the repository.
  package static let repositoryFolders = [
    "Sources/", "Tests/", "Fixtures/", "Examples/", "Scripts/", "docs/", "api/", ".ci/",
  ]

  /// The repository paths `text` writes in backticks outside fenced code blocks.
  ///
  /// A code span's first word is a path when it starts with one of ``repositoryFolders``,
  /// optionally followed by `:LINE` or `:LINE-LINE`; a pattern (`api/<product>.txt`,
  /// `docs/*.md`) names no one file and is left out.
  package static func pathReferences(in text: String) -> [PathReference] {
    outsideFences(text).matches(of: /`([^`\n]+)`/).compactMap { span in
      guard let word = span.output.1.split(separator: " ").first,
        repositoryFolders.contains(where: { word.hasPrefix($0) }),
        !word.contains(where: { "*<>{}…".contains($0) }),
        let parts = word.wholeMatch(of: /([^:]+)(?::([0-9]+)(?:-([0-9]+))?)?/)
      else { return nil }
      let first = parts.output.2.flatMap { Int($0) }
      let last = parts.output.3.flatMap { Int($0) } ?? first
      return PathReference(
        path: String(parts.output.1), lines: first.flatMap { first in last.map { (first, $0) } })
    }
  }

  /// Why `reference` names nothing in the repository at `root`, or nil when its file exists and has its lines.
  package static func problem(with reference: PathReference, in root: URL = root) -> String? {
    let file = root.appendingPathComponent(reference.path).standardizedFileURL
    guard file.path.hasPrefix(root.path + "/") else { return "\(reference) leaves the repository" }
    var isFolder: ObjCBool = false
    guard FileManager.default.fileExists(atPath: file.path, isDirectory: &isFolder) else {
      return "\(reference): no such file"
    }
    guard let lines = reference.lines else { return nil }
    guard !isFolder.boolValue, let text = try? String(contentsOf: file, encoding: .utf8) else {
      return "\(reference): not a text file, so it has no lines"
    }
    var count = text.split(separator: "\n", omittingEmptySubsequences: false).count
    if text.hasSuffix("\n") { count -= 1 }
    guard 1 <= lines.first, lines.first <= lines.last, lines.last <= count else {
      return "\(reference): the file has \(count) lines"
    }
    return nil
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
