import Foundation
import RaceCheckTestSupport
import Testing

// The rendered catalogue in a real browser: Scripts/build-docs writes DocC's static site to
// .build/docs, a local HTTP server serves it (DocC's renderer fetches its pages as JSON from the
// site's root, which file:// cannot give it), and headless Chromium must render the landing
// page's title and its links to the articles.

extension UnitTestSuite {
  @Suite struct RenderedDocsBrowserTests {
    /// Where Scripts/build-docs writes the rendered catalogue.
    static let site = DocumentationFiles.root.appendingPathComponent(".build/docs").path
    static var isBuilt: Bool {
      FileManager.default.fileExists(atPath: site + "/documentation/racecheck/index.html")
    }

    @Test(
      .enabled(
        if: (isBuilt && HeadlessChromium.executable != nil) || HeadlessChromium.isCI,
        "needs the rendered docs (Scripts/build-docs) and chromium; with CI set, their absence fails"
      ))
    func theLandingPageRendersItsTitleAndItsArticles() throws {
      try #require(
        Self.isBuilt, "no rendered docs in \(Self.site): .ci/run runs Scripts/build-docs first")
      _ = try #require(
        HeadlessChromium.executable,
        "chromium is missing; .ci/run installs it with apt-get install -y chromium")
      let server = try LocalFileServer(root: Self.site)
      defer { server.stop() }
      let dom = try HeadlessChromium.dumpDOM(at: server.url("/documentation/racecheck/"))
      let title = try Regex(#"<h1[^>]*class="title"[^>]*>(<[^>]*>)*RaceCheck"#)
      #expect(dom.contains(title), "the landing page's title did not render:\n\(dom.prefix(2_000))")
      #expect(dom.contains("Getting started"), "the landing page lists no article")
      #expect(!dom.contains("The page you’re looking for can’t be found"))
    }
  }
}
