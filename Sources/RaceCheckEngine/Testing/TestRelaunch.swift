import CRaceCheckSupport
import Testing

/// How to start the running test binary again so that it runs only the current test.
///
/// An isolated check from a test needs the spec, which only the test's own code builds; so
/// the child is the test binary, told to run the current test alone, the way Swift Testing
/// re-launches it for an exit test. The test runs up to its `check` call, which finds the
/// worker job in its environment and runs it instead of checking.
struct TestRelaunch: Hashable, Sendable {
  /// The arguments that select the current test.
  var arguments: [String]

  /// The relaunch of the test running now, or nil when no test framework is running one it can name.
  static var current: TestRelaunch? {
    if let test = Test.current {
      return swiftTesting(testID: test.id.description)
    }
    return xcTestMethodOnStack().map { TestRelaunch(arguments: [$0]) }
  }

  /// Selects one Swift Testing test by its identifier (module, suites, function and source location).
  static func swiftTesting(testID: String) -> TestRelaunch {
    // The filter is a regular expression matched against the identifier.
    let pattern = "^" + escapingRegexMetacharacters(testID) + "$"
    return TestRelaunch(arguments: ["--testing-library", "swift-testing", "--filter", pattern])
  }

  /// The XCTest method running on the calling thread, as `Module.Class/testName`, or nil when none is.
  static func xcTestMethodOnStack() -> String? {
    xcTestMethod(procedureNames: procedureNamesOnStack())
  }

  /// The first XCTest method among mangled procedure names, innermost first, as `Module.Class/testName`.
  ///
  /// XCTest has no public "current test"; its test methods are the stack's
  /// `Module.Class.testName() -> ()` frames, and XCTest selects one as `Module.Class/testName`.
  static func xcTestMethod(procedureNames: [String]) -> String? {
    for mangled in procedureNames where SwiftSymbolName.isMangled(mangled) {
      guard let name = SwiftSymbolName.demangleFully(mangled),
        let selection = xcTestSelection(demangled: name)
      else { continue }
      return selection
    }
    return nil
  }

  /// `Module.Class/testName` for a demangled XCTest method name, or nil when the name is not one.
  static func xcTestSelection(demangled name: String) -> String? {
    let signatures = ["() -> ()", "() async -> ()", "() throws -> ()", "() async throws -> ()"]
    guard let signature = signatures.first(where: { name.hasSuffix($0) }) else { return nil }
    let path = name.dropLast(signature.count).split(
      separator: ".", omittingEmptySubsequences: false)
    let isIdentifier: (Substring) -> Bool = { part in
      !part.isEmpty && part.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" }
    }
    guard path.count >= 3, path.allSatisfy(isIdentifier), let method = path.last,
      method.hasPrefix("test")
    else { return nil }
    return "\(path[0]).\(path[path.count - 2])/\(method)"
  }

  static func escapingRegexMetacharacters(_ text: String) -> String {
    var escaped = ""
    for character in text {
      if "\\^$.|?*+()[]{}".contains(character) { escaped.append("\\") }
      escaped.append(character)
    }
    return escaped
  }

  /// The mangled names of the procedures on the calling thread's stack, innermost first.
  private static func procedureNamesOnStack() -> [String] {
    let capacity = 1 << 16
    return [CChar](unsafeUninitializedCapacity: capacity) { buffer, count in
      count = Int(rc_current_procedure_names(buffer.baseAddress, Int32(capacity)))
    }.split(separator: 0).map { String(decoding: $0.map(UInt8.init(bitPattern:)), as: UTF8.self) }
  }
}
