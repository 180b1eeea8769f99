import Testing

@testable import RaceCheckEngine

extension UnitTestSuite {
  /// The current test is named the way each framework selects one test to run again.
  @Suite struct TestRelaunchTests {
    @Test func swiftTestingTestIsSelectedByItsAnchoredEscapedIdentifier() {
      let relaunch = TestRelaunch.swiftTesting(testID: "Tests.Suite/check(row:)/File.swift:5:2")
      #expect(
        relaunch.arguments == [
          "--testing-library", "swift-testing", "--filter",
          #"^Tests\.Suite/check\(row:\)/File\.swift:5:2$"#,
        ])
    }

    @Test func currentSwiftTestingTestIsTheOneRunning() throws {
      let relaunch = try #require(TestRelaunch.current)
      let filter = try #require(relaunch.arguments.last)
      #expect(filter.contains("currentSwiftTestingTestIsTheOneRunning"))
    }

    @Test(arguments: [
      ("Tests.CacheTests.testHit() -> ()", "Tests.CacheTests/testHit"),
      ("Tests.CacheTests.testHit() async throws -> ()", "Tests.CacheTests/testHit"),
      ("Tests.Outer.Inner.testHit() -> ()", "Tests.Inner/testHit"),
    ])
    func xcTestMethodIsSelectedAsModuleClassSlashMethod(demangled: String, selection: String) {
      #expect(TestRelaunch.xcTestSelection(demangled: demangled) == selection)
    }

    @Test(arguments: [
      "Tests.CacheTests.helper() -> ()",
      "Tests.CacheTests.testHit(_:) -> ()",
      "closure #1 () -> () in Tests.CacheTests.testHit() -> ()",
      "Tests.testHit() -> ()",
    ])
    func otherFramesAreNotXCTestMethods(demangled: String) {
      #expect(TestRelaunch.xcTestSelection(demangled: demangled) == nil)
    }
  }
}
