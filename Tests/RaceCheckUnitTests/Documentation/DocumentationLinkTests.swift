import Foundation
import RaceCheckTestSupport
import Testing

// The documentation's links: every relative link of README.md, docs/*.md and the catalogue's
// articles names a file of the repository (and, with an anchor, a heading of it, as GitHub
// makes anchors), every `<doc:…>` link names an article of the catalogue, and every path of
// the repository they write in backticks names a file (and, with `:LINE`, a line of it).

extension UnitTestSuite {
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

    @Test func everyBacktickedRepositoryPathNamesAFileAndItsLines() throws {
      var checked = 0
      for document in try DocumentationFiles.all() {
        let text = try String(contentsOf: document, encoding: .utf8)
        for reference in DocumentationFiles.pathReferences(in: text) {
          checked += 1
          let problem = DocumentationFiles.problem(with: reference)
          #expect(problem == nil, "\(document.lastPathComponent): \(problem ?? "")")
        }
      }
      #expect(checked >= 40)
    }

    @Test func aMissingPathOrALinePastTheEndIsReported() {
      let text = """
        The umbrella is `Sources/RaceCheck/RaceCheck.swift:1`, its engine `Sources/RaceCheckEngine/`,
        its checker `Sources/RaceCheckHistory/Checker/NoSuchChecker.swift`, its last line
        `Sources/RaceCheck/RaceCheck.swift:2-100000`, and `Scripts/check-api --update` accepts
        a change; `api/<product>.txt` is a pattern and `Package.swift` no repository folder.

        ```sh
        echo `Sources/NoSuchModule/Fenced.swift`
        ```
        """
      let references = DocumentationFiles.pathReferences(in: text)
      #expect(
        references.map(\.description) == [
          "Sources/RaceCheck/RaceCheck.swift:1", "Sources/RaceCheckEngine/",
          "Sources/RaceCheckHistory/Checker/NoSuchChecker.swift",
          "Sources/RaceCheck/RaceCheck.swift:2-100000", "Scripts/check-api",
        ])
      let problems = references.compactMap { DocumentationFiles.problem(with: $0) }
      #expect(problems.count == 2)
      #expect(
        problems.first == "Sources/RaceCheckHistory/Checker/NoSuchChecker.swift: no such file")
      #expect(
        problems.last?.hasPrefix("Sources/RaceCheck/RaceCheck.swift:2-100000: the file has ")
          == true)
    }

    @Test func theREADMEPointsNowhereOutsideTheRepository() throws {
      let readme = try String(contentsOf: DocumentationFiles.readme, encoding: .utf8)
      #expect(!readme.contains("../shared"))
      #expect(readme.split(separator: "\n", omittingEmptySubsequences: false).count <= 251)
    }
  }
}
