import Foundation
import RaceCheckTestSupport
import Testing

// docs/architecture.md lists each library product's public top-level types: the ones the first
// line of api/<product>.txt names, which Scripts/check-api keeps true of the code.

extension UnitTestSuite {
  @Suite struct PublicSurfaceTests {
    @Test func theArchitectureListsEachProductsPublicTypesAsItsAPIListingDoes() throws {
      let architecture = try String(
        contentsOf: DocumentationFiles.root.appendingPathComponent("docs/architecture.md"),
        encoding: .utf8)
      let section = try #require(
        architecture.split(separator: "## The public surface", maxSplits: 1).dropFirst().first,
        "docs/architecture.md has no section 'The public surface'")
      var total = 0
      for product in ["RaceCheck", "RaceCheckHistory", "RaceCheckRecorder", "RaceCheckSync"] {
        let listing = try String(
          contentsOf: DocumentationFiles.root.appendingPathComponent("api/\(product).txt"),
          encoding: .utf8)
        // "# 14 public top-level types: BugPattern, CheckReport, …", or "# 0 public top-level types: "
        let header = try #require(listing.split(separator: "\n").first)
        let names = try #require(header.firstRange(of: "types: ").map { header[$0.upperBound...] })
        let listed = names.split(separator: ", ").map(String.init)
        // "| `RaceCheck` (…) | 14 | `BugPattern`, `CheckReport`, … |"
        let row = try #require(
          section.split(separator: "\n").first { $0.hasPrefix("| `\(product)`") },
          "docs/architecture.md has no row for \(product)")
        let cells = row.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
        try #require(cells.count == 3)
        // A product with no top-level type has "—".
        let documented = cells[2].split(separator: ", ").map { String($0.replacing("`", with: "")) }
          .filter { $0 != "—" }
        #expect(documented == listed, "docs/architecture.md lists \(product)'s types as api/ does")
        #expect(Int(cells[1]) == listed.count)
        total += listed.count
      }
      // Issue 31 asked for at most 40; issue 34's workloads add six (docs/architecture.md).
      #expect(total <= 46, "at most 46 public top-level types, not \(total)")
    }
  }
}
